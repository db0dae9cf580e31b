"""Verifying many records (``fiefdom replay verify FILE|FOLDER|GLOB ...``): which files the words name,
and each record's verdict in one line, worked out in whatever process the task runs in
(notation/tasks.py), so a folder is verified in one process or on every core alike."""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core import games as core_games
from notation.annex import annex_clause
from notation.catalog import GameLookup
from notation.files import read_regular
from notation.format import RecordError
from notation.reader import Recording, read_record_file
from notation.verify import UNFINISHED, verify
from notation.wording import count, visible

RECORD_SUFFIX = ".fief"
# Why a record could not be read, in its verdict's code; 1: it replays differently from what it says.
OK, DIFFERS, UNREADABLE = 0, 1, 2


@dataclass(frozen=True)
class Verdict:
    """One record's: ``code`` (OK, DIFFERS or UNREADABLE) and its one visible line, without its name."""

    path: str
    code: int
    line: str


@dataclass(frozen=True)
class Files:
    """One task: some records, and the registry lookup (with a user's data files) to read them by."""

    paths: tuple[str, ...]
    games: GameLookup = core_games.info


def check(files: Files) -> list[Verdict]:
    """The task: each record's verdict, in order."""
    return [verdict(path, files.games) for path in files.paths]


def verdict(path: str, games: GameLookup = core_games.info) -> Verdict:
    """Read and verify the record at ``path``: never raises for what the file holds or how it reads."""
    try:  # a FIFO is refused, never waited on
        recording = read_record_file(read_regular(path), games=games)
    except RecordError as err:
        return Verdict(path, UNREADABLE, visible(str(err)))
    except OSError as err:
        return Verdict(path, UNREADABLE, visible(err.strerror or str(err)))
    report = verify(recording, games=games)
    if not report.ok:
        return Verdict(path, DIFFERS, visible(report.verdict))
    outcome = UNFINISHED if report.message == UNFINISHED else f"result {report.message}"
    given = f" ({report.note})" if report.note else ""
    deal = _deal_words(recording, report.deal)
    return Verdict(path, OK, visible(f"ok{given}: {count(report.records, 'record')}, {outcome}{deal}"
                                     f"{annex_clause(recording)}"))


def _deal_words(recording: Recording, checked: bool) -> str:
    """``, the deal checked: N parties`` after a good record's ok line when its header has a deal
    (a networked game's seed, dealt by commit and reveal: notation/deal.py); "" when it has none."""
    deal = recording.header.deal
    if not checked or deal is None:
        return ""
    return f", the deal checked: {count(len(deal.parties), 'party', 'parties')}"


def record_paths(words: Sequence[str]) -> list[str]:
    """The records the words name, in order: a file as given (whatever its name; one that is not there
    stays, to be said so); a folder's ``*.fief`` files, its subfolders' too, sorted; a glob pattern
    (``*``, ``?``, ``[``, ``**``) that names no file as it is, expanded and sorted (quoted, it reaches
    past the shell's limit on arguments). A pattern that matches nothing stays, to be said so."""
    found: list[str] = []
    for word in words:
        if os.path.isdir(word):
            found.extend(sorted(str(p) for p in Path(word).rglob("*" + RECORD_SUFFIX) if not p.is_dir()))
        elif not os.path.lexists(word) and glob.has_magic(word):
            matched = sorted(glob.glob(word, recursive=True))
            if matched:
                found.extend(p for p in matched if not os.path.isdir(p))
            else:
                found.append(word)
        else:
            found.append(word)
    return found


def summary(verdicts: Sequence[int]) -> str:
    """``1000 records: 998 ok, 1 differs, 1 cannot be read``: the line after a folder's."""
    ok, differs, unreadable = (sum(1 for code in verdicts if code == c) for c in (OK, DIFFERS, UNREADABLE))
    parts = [f"{ok} ok"]
    if differs:
        parts.append(f"{differs} {'differs' if differs == 1 else 'differ'}")
    if unreadable:
        parts.append(f"{unreadable} cannot be read")
    return f"{count(len(verdicts), 'record')}: {', '.join(parts)}"
