"""Variations: games played on from a position of another record ("play from here"), found beside it.

A variation's header names its parent (``Header.parent``, docs/replay-format.md section 3): the
hash of the parent record's bytes up to the end of the step it branched at (:func:`step_hash`) and
that step. The hash stays the same whatever the parent gets after that step (more steps, a result,
notes), so a study (a record and its variations, in one folder) holds together while it grows.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from collections.abc import Sequence
from pathlib import Path

from core import games as core_games
from core.engine import Result
from notation.annex import record_hash
from notation.catalog import GameLookup
from notation.files import read_regular, same_file
from notation.format import Parent, RecordError, Tag
from notation.reader import Recording, peek_header, read_record_file
from notation.wording import count, result_text, visible

LOOKED_AT = 500  # the most .fief files of a folder whose headers are read, in name order
STEP_TAGS = (Tag.DECISION, Tag.CHANCE)


def step_hash(recording: Recording, step: int) -> bytes:
    """BLAKE2b-128 of the record's bytes from its first byte to the end of its ``step``-th step record
    (step 0: to the end of its header): what a variation played on from ``step`` names as its parent.
    IndexError when the record has no such step."""
    if not 0 <= step <= recording.steps:
        raise IndexError(f"the record has no step {step}: its steps are 0 to {recording.steps}")
    tags = recording.records.tags
    if step == 0:
        end = recording.offsets[0] if tags else recording.end
    else:
        seen = 0
        for index, tag in enumerate(tags):
            if tag in STEP_TAGS:
                seen += 1
                if seen == step:
                    break
        end = recording.offsets[index + 1] if index + 1 < len(tags) else recording.end
    return record_hash(memoryview(recording.data)[:end])


def parent_of(recording: Recording, step: int) -> Parent:
    """The ``parent`` header field of a game played on from position ``step`` of ``recording``."""
    return Parent(step_hash(recording, step), step)


@dataclass(frozen=True)
class Variation:
    path: Path
    step: int  # the parent's position it was played on from
    steps: int  # its own steps (the parent's first ``step`` among them)
    result: Result | None  # its result, when it is finished
    label: str  # one visible line: ``name.fief: from step 12, 31 steps, attackers won``


def variations_of(path: str | os.PathLike[str], *, games: GameLookup = core_games.info,
                  recording: Recording | None = None, also: Sequence[Path] = ()) -> list[Variation]:
    """The records in the folder of the record at ``path`` played on from it (and in the folders ``also``:
    the app's autosave folder, where "play from here" plays), by the step they branch at, then by name. Only the headers of the first ``LOOKED_AT`` other ``.fief`` files (in name order)
    are read, then the variations found whole; a file that cannot be read is passed over. The record
    itself is read (``recording``, when given, is taken as it): RecordError or OSError for it."""
    if recording is None:
        recording = read_record_file(read_regular(path), games=games)
    candidates: list[Path] = []
    for folder in dict.fromkeys(p.resolve() for p in [Path(path).parent, *also]):  # each once, the record's first
        try:
            names = sorted(e.name for e in os.scandir(folder) if e.name.endswith(".fief"))
        except OSError:
            continue
        candidates += [folder / name for name in names[:LOOKED_AT]]
    hashes: dict[int, bytes] = {}
    found = []
    for candidate in candidates:
        try:
            parent = peek_header(candidate).parent  # its header's bytes only: a folder of long records is quick
        except (RecordError, OSError):
            continue
        if parent is None or parent.step > recording.steps or same_file(candidate, path):
            continue
        if parent.step not in hashes:
            hashes[parent.step] = step_hash(recording, parent.step)
        if parent.hash != hashes[parent.step]:
            continue
        try:
            child = read_record_file(read_regular(candidate), games=games)
        except (RecordError, OSError):
            continue
        found.append(_variation(candidate, parent.step, child))
    return sorted(found, key=lambda v: (v.step, v.path.name))


def _variation(path: Path, step: int, child: Recording) -> Variation:
    result = child.result
    names = [seat.name for seat in child.header.seats]
    outcome = result_text(result, names) if result is not None else "unfinished"
    label = visible(f"{path.name}: from step {step}, {count(child.steps, 'step')}, {outcome}")
    return Variation(path, step, child.steps, result, label)
