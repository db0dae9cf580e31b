"""Notes and analysis that travel with a finished record: the annex (docs/replay-format.md, section 13).

An annex is an optional block after a finished record's result record: ``ANNEX_PREAMBLE`` (the
ASCII bytes ``FIEFNOTE`` and a version byte, which no record can begin with: records are msgpack
arrays) and one msgpack map, to the end of the file. The running hash covers only the bytes before
each checkpoint and the result, so an annex never touches the record's hash chain; its ``of`` field
(BLAKE2b-128 of every byte before the annex) binds it to the record it was written for. A reader
that finds ``of`` not matching ignores the annex, with a warning, and reads the record.

This module holds the types, their wire form and checks, and the functions that rewrite a record's
annex (:func:`write_annex`, :func:`add_note`, :func:`remove_note`, :func:`set_analysis`). The reader
(notation/reader.py) parses an annex within :class:`AnnexLimits` and exposes it as
``Recording.annex``; ``Recording.data`` stays the record's bytes without it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from core import games as core_games
from core.engine import Code
from notation.catalog import GameLookup
from notation.format import Chain, Limits, RecordError, pack, short
from notation.schema import SchemaError, _hash, _int, _list, _map, _name, _str, code_from_wire
from notation.wording import count

if TYPE_CHECKING:  # the reader reads annexes with this module's types
    from notation.reader import Recording

ANNEX_MAGIC = b"FIEFNOTE"
ANNEX_VERSION = 1
ANNEX_PREAMBLE = ANNEX_MAGIC + bytes((ANNEX_VERSION,))
ANNEX_KEYS = ("of", "notes", "analysis")
ANALYSIS_KEYS = ("by", "unit", "work", "seed", "decisions")
UNITS = ("nodes", "rollouts")
MARKS = ("", "inaccuracy", "mistake", "blunder")
PER_MILLE = 1000


class AnnexLimits:
    """What a reader accepts in an annex (docs/replay-format.md, section 13): anything larger is ignored."""

    BYTES = 4 * 1024 * 1024  # the annex's map, after its preamble
    VALUE_BYTES = 64 * 1024  # one note, one judged decision or one scalar: decoded from at most this many bytes
    NOTES = 10_000
    NOTE_BYTES = 4096  # a note's text, UTF-8
    BY_BYTES = 64  # the reviewer's name and version
    LINE = 32  # codes in a judged decision's expected line
    DECISIONS = Limits.RECORDS  # and never more than the record's steps (one per step at most)


@dataclass(frozen=True)
class Note:
    """A person's note on position ``step`` (0: the start; N: after the N-th step)."""

    step: int
    text: str

    def wire(self) -> list[Any]:
        return [self.step, self.text]


@dataclass(frozen=True)
class Judged:
    """One decision's review."""

    step: int  # the decision's step (1-based, as in the record)
    seat: int
    played: Code  # the option played
    best: Code  # the reviewer's preferred option
    chances: tuple[int, ...]  # each seat's chance to win before the decision, per mille 0..1000
    best_chance: int  # the decider's chance after the best option, per mille
    played_chance: int  # the decider's chance after the option played, per mille
    mark: str  # "", "inaccuracy", "mistake" or "blunder"
    line: tuple[Code, ...] = ()  # play expected after the best option (Tafl), at most 32 codes
    score: int | None = None  # Tafl: the engine's score for the attackers before the decision
    gain: int | None = None  # rollout games: best option's expected score minus the played one's, in hundredths

    @property
    def loss(self) -> int:
        """The decider's chance lost by the option played, per mille (0 when it did as well)."""
        return max(0, self.best_chance - self.played_chance)

    def wire(self) -> list[Any]:
        return [self.step, self.seat, list(self.played), list(self.best), list(self.chances), self.best_chance,
                self.played_chance, self.mark, [list(c) for c in self.line], self.score, self.gain]


@dataclass(frozen=True)
class Analysis:
    by: str  # the reviewer and its version, e.g. "tafl-ai 5", at most 64 bytes
    unit: str  # "nodes" or "rollouts"
    work: int  # work per decision, in that unit
    seed: int  # 0..2^63-1
    decisions: tuple[Judged, ...]

    def wire(self) -> dict[str, Any]:
        return {"by": self.by, "unit": self.unit, "work": self.work, "seed": self.seed,
                "decisions": [d.wire() for d in self.decisions]}


@dataclass(frozen=True)
class Annex:
    notes: tuple[Note, ...] = ()  # in step order; notes on one step in the order they were added
    analysis: Analysis | None = None

    @property
    def empty(self) -> bool:
        return not self.notes and self.analysis is None

    def wire(self, of: bytes) -> dict[str, Any]:
        """The annex map for the record whose bytes hash to ``of``: keys in ANNEX_KEYS order,
        ``notes`` only when there are notes, ``analysis`` only when there is one."""
        out: dict[str, Any] = {"of": of}
        if self.notes:
            out["notes"] = [n.wire() for n in self.notes]
        if self.analysis is not None:
            out["analysis"] = self.analysis.wire()
        return out

    @classmethod
    def from_wire(cls, value: Any, *, seats: int, steps: int) -> tuple[Annex, bytes]:
        """The annex a decoded map holds, checked against a record of ``seats`` seats and ``steps``
        steps, and its ``of``. SchemaError, a short reason, for anything else."""
        a = _map(value, "the annex", ANNEX_KEYS, ("notes", "analysis"))
        of = _hash(a["of"], "the annex's of")
        raw_notes = _list(a["notes"], "the notes", AnnexLimits.NOTES) if "notes" in a else []
        if "notes" in a and not raw_notes:
            raise SchemaError("the annex has an empty notes array (no notes: no notes field)")
        notes = tuple(note_from_wire(n, steps) for n in raw_notes)
        if any(b.step < a_.step for a_, b in zip(notes, notes[1:])):
            raise SchemaError("the notes are not in step order")
        analysis = analysis_from_wire(a["analysis"], seats, steps) if "analysis" in a else None
        return cls(notes, analysis), of


def note_from_wire(value: Any, steps: int) -> Note:
    items = _list(value, "a note", 2)
    if len(items) != 2:
        raise SchemaError("a note needs a step and a text")
    return Note(_int(items[0], "a note's step", 0, steps + 1), _str(items[1], "a note", AnnexLimits.NOTE_BYTES))


def analysis_from_wire(value: Any, seats: int, steps: int) -> Analysis:
    a = _map(value, "the analysis", ANALYSIS_KEYS)
    unit = _name(a["unit"], "the analysis unit", Limits.SHORT_STR_BYTES)
    if unit not in UNITS:
        raise SchemaError(f"the analysis unit must be one of {', '.join(UNITS)}, not {short(unit)}")
    decisions = tuple(judged_from_wire(d, seats, steps)
                      for d in _list(a["decisions"], "the judged decisions", AnnexLimits.DECISIONS))
    if any(b.step <= a_.step for a_, b in zip(decisions, decisions[1:])):
        raise SchemaError("the judged decisions are not in step order, one a step")
    return Analysis(
        _str(a["by"], "the analysis's by", AnnexLimits.BY_BYTES),
        unit,
        _int(a["work"], "the analysis's work", 0, Limits.UINT64 // 2),
        _int(a["seed"], "the analysis's seed", 0, Limits.UINT64 // 2),
        decisions,
    )


_JUDGED_LEN = 11


def judged_from_wire(value: Any, seats: int, steps: int) -> Judged:
    d = _list(value, "a judged decision", _JUDGED_LEN)
    if len(d) != _JUDGED_LEN:
        raise SchemaError(f"a judged decision needs {_JUDGED_LEN} items")
    chances = tuple(_chance(c, "a seat's chance") for c in _list(d[4], "the chances", Limits.SEATS))
    if len(chances) != seats:
        raise SchemaError(f"a judged decision gives {len(chances)} chances for {seats} seats")
    mark = _str(d[7], "the mark", Limits.SHORT_STR_BYTES)
    if mark not in MARKS:
        raise SchemaError(f"the mark must be one of {', '.join(map(repr, MARKS))}, not {short(mark)}")
    line = tuple(code_from_wire(c) for c in _list(d[8], "the expected line", AnnexLimits.LINE))
    return Judged(
        step=_int(d[0], "a judged decision's step", 1, steps + 1),
        seat=_int(d[1], "a judged decision's seat", 0, seats),
        played=code_from_wire(d[2]),
        best=code_from_wire(d[3]),
        chances=chances,
        best_chance=_chance(d[5], "the best option's chance"),
        played_chance=_chance(d[6], "the played option's chance"),
        mark=mark,
        line=line,
        score=None if d[9] is None else _int(d[9], "the score", -Limits.INT32, Limits.INT32),
        gain=None if d[10] is None else _int(d[10], "the gain", -Limits.INT32, Limits.INT32),
    )


def _chance(value: Any, what: str) -> int:
    return _int(value, what, 0, PER_MILLE + 1)


def record_hash(record: bytes | memoryview) -> bytes:
    """BLAKE2b-128 of a record's bytes (section 5's hash): an annex's ``of``."""
    return Chain(record).digest()  # type: ignore[arg-type]  # blake2b takes any buffer


def annex_bytes(record: bytes, annex: Annex) -> bytes:
    """The file of ``record`` (a finished record's bytes, no annex) with ``annex`` after it; just
    ``record`` when the annex is empty. ValueError when the annex or the file would be larger than a
    reader accepts."""
    if annex.empty:
        return record
    body = pack(annex.wire(record_hash(record)))
    if len(body) > AnnexLimits.BYTES:
        raise ValueError(f"the notes and analysis take more than {AnnexLimits.BYTES // 2**20} MiB")
    if len(record) + len(ANNEX_PREAMBLE) + len(body) > Limits.FILE_BYTES:
        raise ValueError(f"the record with its notes would be larger than {Limits.FILE_BYTES // 2**20} MiB")
    return record + ANNEX_PREAMBLE + body


NOT_FINISHED = "the game is not over: notes and analysis are kept only with a finished record"


def write_annex(path: str | os.PathLike[str], annex: Annex, *, games: GameLookup = core_games.info) -> Annex:
    """Give the finished record at ``path`` this annex (none: the record alone), rewriting the file
    whole: the record's bytes as they are and the new annex, written beside it and renamed into place.
    RecordInPlay when another process holds the record; RecordError (one line) when it is unfinished or
    unreadable; ValueError when the annex is too large; OSError passes through."""
    return _update(path, lambda _recording, _old: annex, games, replace_unread=True)


def add_note(path: str | os.PathLike[str], step: int, text: str, *,
             games: GameLookup = core_games.info) -> Annex:
    """Add a note on position ``step`` (0..the record's steps), after the notes already on it."""
    def change(recording: Recording, old: Annex) -> Annex:
        if not 0 <= step <= recording.steps:
            raise ValueError(f"the record has no step {step}: its steps are 0 (the start) to {recording.steps}")
        try:
            note = Note(step, _str(text, "the note", AnnexLimits.NOTE_BYTES))
        except SchemaError as err:
            raise ValueError(str(err)) from None
        if len(old.notes) >= AnnexLimits.NOTES:
            raise ValueError(f"the record has {AnnexLimits.NOTES} notes already, the most it may")
        at = sum(1 for n in old.notes if n.step <= step)
        return replace(old, notes=(*old.notes[:at], note, *old.notes[at:]))
    return _update(path, change, games)


def remove_note(path: str | os.PathLike[str], index: int, *, games: GameLookup = core_games.info) -> Annex:
    """Remove the note at ``index`` (0-based, in :attr:`Annex.notes` order). ValueError when there is none."""
    def change(_recording: Recording, old: Annex) -> Annex:
        if not 0 <= index < len(old.notes):
            raise ValueError(f"there is no note {index + 1}: the record has {count(len(old.notes), 'note')}")
        return replace(old, notes=old.notes[:index] + old.notes[index + 1:])
    return _update(path, change, games)


def set_analysis(path: str | os.PathLike[str], analysis: Analysis | None, *,
                 games: GameLookup = core_games.info) -> Annex:
    """Attach ``analysis`` to the record (replacing any), or remove it (None); the notes stay."""
    return _update(path, lambda _recording, old: replace(old, analysis=analysis), games)


def check_analysis(analysis: Analysis, seats: int, steps: int) -> None:
    """SchemaError, a short reason, when ``analysis`` could not be read back with a record of
    ``seats`` seats and ``steps`` steps."""
    analysis_from_wire(analysis.wire(), seats, steps)


def _update(path: str | os.PathLike[str], change: Callable[[Recording, Annex], Annex], games: GameLookup,
            replace_unread: bool = False) -> Annex:
    """The record at ``path`` read with its writer's lock held, its annex changed and the file
    written whole again (same record bytes, new annex): the new annex. An annex the reader left out
    (damaged, or written for other bytes) is replaced only by a whole new annex (``replace_unread``:
    :func:`write_annex`, ``replay note --strip``); a note or an analysis added to it would lose it."""
    # Imported here: the reader reads annexes with this module's types.
    from notation.files import create_whole, read_open
    from notation.reader import read_record_file
    from notation.record_lock import open_locked

    with open_locked(path) as held:  # RecordInPlay when another process writes it
        recording = read_record_file(read_open(held), games=games)
        if recording.result is None:
            raise RecordError(NOT_FINISHED)
        if recording.annex_warning and not replace_unread:
            raise RecordError(f"its notes and analysis were not read ({recording.annex_warning}); a change "
                              "would lose them (replay note FILE --strip removes them)")
        new = change(recording, recording.annex or Annex())
        if new.analysis is not None:
            try:
                check_analysis(new.analysis, len(recording.header.seats), recording.steps)
            except SchemaError as err:
                raise ValueError(f"the analysis: {err}") from None
        create_whole(path, annex_bytes(recording.data, new), replace=True, fsync=True).close()
    return new


def annex_words(notes: Sequence[Note], analysis: Analysis | None) -> str:
    """``2 notes, an analysis by tafl-ai 5``: what an annex holds, in a short clause; "" for none."""
    parts = [count(len(notes), "note")] if notes else []
    if analysis is not None:
        parts.append(f"an analysis by {analysis.by}")
    return ", ".join(parts)


def annex_clause(recording: Recording) -> str:
    """``, 2 notes, an analysis by tafl-ai 5`` after a record's verify line, or ``; `` and why its
    annex was ignored; "" when it has none. Show it through notation.wording.visible."""
    if recording.annex_warning:
        return f"; {recording.annex_warning}"
    annex = recording.annex
    words = annex_words(annex.notes, annex.analysis) if annex is not None else ""
    return f", {words}" if words else ""


def notes_on(recording: Recording, step: int) -> list[str]:
    """The texts of the record's notes on position ``step``, in order (show them through visible)."""
    annex = recording.annex
    return [note.text for note in annex.notes if note.step == step] if annex is not None else []
