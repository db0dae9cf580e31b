"""Writing .fief records: the pure encoder and the append-only :class:`Journal` (the autosave).

A journal's file appears whole with its header and first checkpoint (written
aside and renamed into place), then flushes every record as it is written, so a
killed process loses at most the record being written; :meth:`Journal.open_append` drops that torn
tail and carries on. A journal created ``whole`` (a batch's, ``fiefdom simulate``) keeps the same
bytes in memory instead and writes the file whole, the same way, when the game ends. Everything
written is first checked against the reader's schema: the writer never produces a file the reader
refuses.
"""

from __future__ import annotations

import io
import os
from dataclasses import fields, replace
from operator import attrgetter, is_
from typing import Any, BinaryIO, Iterable

from core import games as core_games
from core.digest import digest, encode
from core.engine import Game, Result
from core.match import Step
from notation.catalog import GameLookup, build_game
from notation.files import create_whole, read_open, write_all
from notation.format import (
    CHAINED_TYPES, CHECKPOINT_EVERY, PREAMBLE, Chain, ChanceRecord, CheckpointRecord,
    CommentRecord, DecisionRecord, Header, Limits, Record, RecordError, ResultRecord,
    HASH_SIZE, encode_header, encode_record, pack,
)
from notation.reader import Recording, read_record_file
from notation.record_lock import open_locked
from notation.schema import (
    SchemaError, clock_from_wire, code_from_wire, game_stamp, header_from_wire, outcome_from_wire, record_from_wire,
)


def encode_game(header: Header, records: Iterable[Record], *, reseal: bool = False) -> bytes:
    """A whole file in memory. With ``reseal`` the running hash of every checkpoint
    and of the result is recomputed; otherwise records are written as given."""
    head = encode_header(header)
    chain = Chain(head)
    out = [head]
    for record in records:
        if reseal and isinstance(record, CHAINED_TYPES):
            record = replace(record, chain=chain.digest())
        data = encode_record(record)
        chain.update(data)
        out.append(data)
    return b"".join(out)


# Option codes the schema accepted, each with the very object checked and its msgpack bytes: a game
# that hands out the same code objects (Tafl's) has each checked and packed once a process. A code
# is checked alone (its items' types and lengths), so the same object, never changed (a tuple of ints
# and strings), passes again; a value-equal code that is another object (True for 1) is checked anew.
_CHECKED: dict[Any, tuple[Any, bytes]] = {}
_CHECKED_MOST = 8192
# A decision record is the array [0, seat, code]: its first bytes by seat (the array's length, the
# tag, the seat), then the code's bytes (msgpack writes an array as its length and then each item's).
_DECISION_HEADS = tuple(pack([int(DecisionRecord.tag), seat, 0])[:-1] for seat in range(Limits.SEATS))
_CHANCE_HEAD = pack([int(ChanceRecord.tag), 0])[:-1]
# A checkpoint is [2, step, digest, chain]: its first two bytes, then the step, then two bin 8 of 16 bytes.
_CHECKPOINT_HEAD = pack([int(CheckpointRecord.tag), 0, b"", b""])[:2]
_BIN16 = pack(b"\0" * HASH_SIZE)[:2]
_STEPS = range(Limits.RECORDS + 1)  # a checkpoint's step: what the schema allows


# The last journal's header, game lookup, start digest and maps as they were then (their canonical
# encoding, which tells 1 from True). A batch's games (``fiefdom simulate``, made by
# dataclasses.replace) share every field of the header but the seed and the creation time, as the
# very same objects: the next game's header then has those two checked, and its start, which
# build_game makes from the variant, options and setup alone, has the same digest. A map changed in
# place since, or another lookup, is a new header: checked whole.
_LastStart = tuple[Header, GameLookup, bytes, bytes]
_last_start: _LastStart | None = None
_SHARED_FIELDS = attrgetter(*(f.name for f in fields(Header) if f.name not in ("seed", "created")))


def _maps(header: Header) -> bytes:
    try:
        return encode([header.options, header.setup])
    except TypeError:  # a value no header may hold: never the same as the last
        return b""


def _same_but_stamp(header: Header, games: GameLookup, maps: bytes, last: _LastStart) -> bool:
    """Does ``header`` (its maps encoded as ``maps``) hold the very objects the last one did, maps
    unchanged, but its seed and creation time, for the same game lookup?"""
    return games is last[1] and maps == last[3] and all(map(is_, _SHARED_FIELDS(header), _SHARED_FIELDS(last[0])))


def _code_bytes(code: Any) -> bytes | None:
    """The msgpack bytes of an option code (a tuple) that passes the schema's check, remembered
    for the next time this object comes; None for anything else (the full check then says what is
    wrong, or passes a code of another shape: a list)."""
    if type(code) is not tuple:
        return None
    try:
        code_from_wire(list(code))
    except SchemaError:
        return None
    if len(_CHECKED) >= _CHECKED_MOST:
        _CHECKED.clear()
    data = pack(list(code))
    _CHECKED[code] = (code, data)
    return data


def _outcome_bytes(outcome: Any) -> bytes | None:
    """The chance record of an outcome (an int, or a tuple or list of them) that passes the
    schema's check; None for anything else."""
    try:
        outcome_from_wire(list(outcome) if type(outcome) is tuple else outcome)
    except SchemaError:
        return None
    return _CHANCE_HEAD + pack(outcome)


class Journal:
    """Appends a game's records to a file as they happen; usable as a Match sink.

    Create with :meth:`create` (a new file) or :meth:`open_append` (continue one).
    """

    def __init__(self, file: BinaryIO, header: Header, chain: Chain, steps: int, *,
                 checkpointed: int | None, fsync: bool, checkpoint_every: int,
                 path: str | os.PathLike[str] | None = None, replace: bool = False) -> None:
        self._file = file  # an io.BytesIO for a journal created whole, until finish() writes the file
        self._path = os.fspath(path) if path is not None else str(getattr(file, "name", ""))
        self.header = header
        self._seats = len(header.seats)
        self._chain = chain
        self._unhashed: list[bytes] = []  # records written since the running hash was brought up to date
        self.steps = steps
        self._checkpointed = checkpointed  # the step of the checkpoint just written, if the last record is one
        self._fsync = fsync
        self._replace = replace  # for a journal created whole: may its file replace one at its path
        self.checkpoint_every = checkpoint_every
        self.finished = False
        self.data: bytes | None = None  # a whole journal's record, when it has no path and the game has ended
        self.recording: Recording | None = None  # what open_append read
        self._start: Game | None = None  # the game create() built from the header, until taken
        # The steps not yet written, for a journal created whole (None: each is written as it comes).
        self._pending: list[Step] | None = [] if isinstance(file, io.BytesIO) else None
        self._refused: str | None = None  # why a whole journal can go on no more (a kept step was refused)
        self._clock: int | None = None  # the clock of the next decision (clock_next)

    def take_start(self) -> Game | None:
        """The game at its start that :meth:`create` built from the header to digest it, for the one
        who plays it (once: None after that, and when create was handed the game)."""
        start, self._start = self._start, None
        return start

    @property
    def path(self) -> str:
        return self._path

    @classmethod
    def create(cls, path: str | os.PathLike[str] | None, header: Header, *, game: Game | None = None,
               games: GameLookup = core_games.info, fsync: bool = False,
               checkpoint_every: int = CHECKPOINT_EVERY, replace: bool = False,
               whole: bool = False) -> "Journal":
        """A new record at ``path``: the preamble, the header and the step-0 checkpoint are written
        to a temporary file beside it and renamed into place, so the file never exists without
        them (a kill at any moment leaves the whole start of a record, or no file). An existing
        file at ``path`` is replaced only with ``replace`` (else FileExistsError, nothing written).

        ``whole``: every record is kept in memory, and :meth:`finish` writes the file, the same bytes,
        the same way; closed before the game ends, the journal leaves no file. For a batch of
        headless games (``fiefdom simulate``): nobody's play is lost in a crash, each game can be
        played again from its seed, and a file in the batch's folder is always a whole game, written
        with one ``write(2)`` instead of one a record. FileExistsError then comes from :meth:`finish`.
        Whole with no ``path``: the record's bytes are kept in :attr:`data` when the game ends, for the
        caller to write (a batch's game played in another process or on another machine).

        ``game``, if given, must be the game the header describes (same state digest).
        Raises ValueError (RulesError is one) when the header is not valid.
        """
        global _last_start
        last = _last_start
        maps = _maps(header)
        batch = last is not None and _same_but_stamp(header, games, maps, last)
        try:
            if batch:  # the next game of a batch: only its seed and time are new
                game_stamp(header.seed, header.created, header.chance)
            else:
                header_from_wire(header.wire())
        except SchemaError as err:
            raise ValueError(f"header: {err}") from None
        start = build_game(header, games)
        state = last[2] if batch else digest(start)  # type: ignore[index]  # batch: last is not None
        if game is not None and digest(game) != state:
            raise ValueError("the game does not match the header (different start position or options)")
        head = encode_header(header)
        if len(head) - len(PREAMBLE) > Limits.HEADER_BYTES:
            raise ValueError(f"header: it takes more than {Limits.HEADER_BYTES} bytes")
        chain = Chain(head)
        data = checkpoint_bytes(0, state, chain.digest())  # checked as _append checks every record
        _last_start = (header, games, state, maps)
        chain.update(data)
        if whole:
            file: BinaryIO = io.BytesIO()
            file.write(head + data)
        elif path is None:
            raise ValueError("a journal written as it goes needs a path")
        else:
            file = create_whole(path, head + data, replace=replace, fsync=fsync, hold=True)
        journal = cls(file, header, chain, 0, checkpointed=0, fsync=fsync, checkpoint_every=checkpoint_every,
                      path=path, replace=replace)
        journal._start = start if game is None else None
        return journal

    @classmethod
    def open_append(cls, path: str | os.PathLike[str], *, games: GameLookup = core_games.info,
                    fsync: bool = False, checkpoint_every: int = CHECKPOINT_EVERY,
                    held: BinaryIO | None = None) -> "Journal":
        """Continue an unfinished record: a torn last record is cut off first. The writer's lock is
        taken first (RecordInPlay when another process plays it); ``held``: the record already
        open with the lock held (a rewrite's new file, renamed to ``path``).

        Raises RecordError if the file is damaged or already ends with a result.
        ``journal.recording`` holds what was read, for replaying to the current position.
        """
        file = held if held is not None else open_locked(path)  # never blocks on a FIFO
        try:
            recording = read_record_file(read_open(file), games=games)
            if recording.result is not None:
                index = len(recording.records) - 1
                raise RecordError(
                    f"record {index} at byte {recording.offsets[index]}: the game is over; "
                    "a finished record cannot be continued"
                )
        except BaseException:
            file.close()
            raise
        file.truncate(recording.end)
        file.seek(recording.end)
        last = recording.records[-1] if recording.records else None
        journal = cls(
            file, recording.header, Chain(recording.data), recording.steps,
            checkpointed=last.step if isinstance(last, CheckpointRecord) else None,
            fsync=fsync, checkpoint_every=checkpoint_every, path=path,
        )
        journal.recording = recording
        return journal

    # -- the Match sink --------------------------------------------------------------

    def __call__(self, step: Step, game: Game) -> None:
        """Record one step (its index is this journal's own count, not ``step.index``).

        A journal created whole keeps the step, and writes its record with the others before the
        next checkpoint, in one write (:meth:`_flush`): the same bytes. A step the schema refuses
        then raises there, before any file is made. A decision with a clock (:meth:`clock_next`) is
        written at once, after the steps kept before it."""
        if self.finished or self._refused is not None:  # _check_open's test, without its call a step
            self._check_open()
        pending = self._pending
        if self._clock is not None and step.kind == "decision":
            clock, self._clock = self._clock, None
            self._flush()
            self._write(self._checked_bytes(DecisionRecord(step.seat, tuple(step.value), clock)))  # type: ignore[arg-type]  # the check says what is wrong
        elif pending is not None:
            pending.append(step)
        else:
            self._write(self._step_bytes(step))
        self.steps = steps = self.steps + 1
        if steps % self.checkpoint_every == 0:
            self._checkpoint(game)

    def clock_next(self, clock: int | None) -> None:
        """The clock of the next decision recorded: the milliseconds left to the deciding seat after
        it, its increment added (docs/replay-format.md, section 4); None: that decision has none.
        ValueError for a clock the format cannot hold."""
        if clock is not None:
            try:
                clock_from_wire(clock)
            except SchemaError as err:
                raise ValueError(f"cannot record the clock: {err}") from None
        self._clock = clock

    def _check_open(self) -> None:
        """ValueError when nothing more may be written: after the result, or after a kept step was refused."""
        if self.finished or self._refused is not None:
            raise ValueError(self._refused or "the record is finished: nothing may follow the result")

    def _flush(self) -> None:
        """Write the records of the steps a whole journal kept. A step the schema refuses ends the
        journal: the steps counted with and after it were never written."""
        pending = self._pending
        if not pending:
            return
        steps = pending[:]
        pending.clear()
        try:
            self._write(b"".join(map(self._step_bytes, steps)))
        except ValueError as err:
            self._refused = f"the record cannot go on: {err}"
            raise

    def _step_bytes(self, step: Step) -> bytes:
        """One step's record, checked: a code seen before (Tafl's, _CHECKED) and a plain outcome at
        once, anything else through the schema's whole check, which says what is wrong."""
        if step.kind == "decision":
            seat, code = step.seat, step.value
            try:
                known = _CHECKED.get(code)
            except TypeError:  # unhashable: the schema says what is wrong with it
                known = None
            data = known[1] if known is not None and known[0] is code else _code_bytes(code)
            if data is None or type(seat) is not int or not 0 <= seat < self._seats:
                record = DecisionRecord(seat, tuple(code))  # type: ignore[arg-type]  # the check says what is wrong
                return self._checked_bytes(record)
            return _DECISION_HEADS[seat] + data
        data = _outcome_bytes(step.value)
        if data is not None:
            return data
        return self._checked_bytes(ChanceRecord(step.value))  # type: ignore[arg-type]  # the check says what is wrong

    def catch_up(self, game: Game) -> None:
        """Write the checkpoint that was due after the last step (or the start), if the file was cut before it
        (``game`` is the position after that step): a resumed record then has the bytes it
        would have had if it had never been cut."""
        if self.steps % self.checkpoint_every == 0 and self._checkpointed != self.steps:
            last = self.recording.records[-1] if self.recording and self.recording.records else None
            if not isinstance(last, (CheckpointRecord, CommentRecord)):
                self._checkpoint(game)

    def comment(self, text: str, step: int | None = None) -> None:
        """A comment on ``step`` (default: the step just played)."""
        if step is not None and step > self.steps:
            raise ValueError(f"the comment is about step {step}, which is not played yet")
        self._append(CommentRecord(text, step))

    def finish(self, result: Result, game: Game) -> None:
        """Close the record: a checkpoint of the last step (unless just written), then the result."""
        state = self._checkpoint(game) if self._checkpointed != self.steps else digest(game)
        self._append(ResultRecord(result, state, self._chain_digest()))
        self.finished = True
        if isinstance(self._file, io.BytesIO):  # created whole: the game's file, now that it ends
            data = self._file.getvalue()
            if not self._path:  # no path: the caller writes it
                self.data = data
                return
            self._file.close()
            self._file = create_whole(self._path, data, replace=self._replace, fsync=self._fsync)

    def close(self) -> None:
        self._file.close()

    def hand_over(self) -> BinaryIO:
        """The record's open file, with the writer's lock it holds, for another journal to carry on
        (:meth:`open_append` with ``held``); this journal writes no more."""
        self._flush()
        self.finished = True
        return self._file

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------

    def _checkpoint(self, game: Game) -> bytes:
        """Write a checkpoint of ``game`` after the last step; returns its state digest."""
        self._check_open()
        self._flush()
        state = digest(game)
        self._write(checkpoint_bytes(self.steps, state, self._chain_digest()))
        self._checkpointed = self.steps
        return state

    def _append(self, record: Record) -> None:
        self._check_open()
        self._flush()
        self._write(self._checked_bytes(record))

    def _checked_bytes(self, record: Record) -> bytes:
        """``record``'s bytes, checked as the reader checks them (ValueError says what is wrong)."""
        try:
            record_from_wire(record.wire(), self._seats)
        except SchemaError as err:
            raise ValueError(f"cannot record {type(record).__name__}: {err}") from None
        data = encode_record(record)
        if len(data) > Limits.RECORD_BYTES:  # the schema keeps records smaller: a second guard
            raise ValueError(f"cannot record {type(record).__name__}: a record may take at most "
                             f"{Limits.RECORD_BYTES} bytes, not {len(data)}")
        return data

    def _write(self, data: bytes) -> None:
        # One write per record, straight to the system (the file is unbuffered), so a crash can
        # tear only the last one; or into memory, for a journal created whole.
        done = self._file.write(data)  # a record goes whole in one write(2), in practice
        if done != len(data):
            write_all(self._file, data[done or 0:])
        if self._fsync and not isinstance(self._file, io.BytesIO):  # a file created whole: when it is written
            os.fsync(self._file.fileno())
        self._unhashed.append(data)
        self._checkpointed = None

    def _chain_digest(self) -> bytes:
        """The running hash of every byte written so far. It is brought up to date only here, when a
        checkpoint or the result needs it: one update for the records since the last, not one a record."""
        self._flush()
        if self._unhashed:
            self._chain.update(b"".join(self._unhashed))
            self._unhashed.clear()
        return self._chain.digest()


def checkpoint_bytes(step: int, state: bytes, chain: bytes) -> bytes:
    """The bytes of the checkpoint record ``[2, step, state, chain]``, what ``encode_record`` gives,
    checked as the schema checks one (a step in 0..200,000, two digests of 16 bytes)."""
    if type(step) is not int or step not in _STEPS or type(state) is not bytes or len(state) != HASH_SIZE \
            or type(chain) is not bytes or len(chain) != HASH_SIZE:
        raise ValueError(f"cannot record CheckpointRecord: step {step!r}, digests of {len(state)} and {len(chain)} bytes")
    return _CHECKPOINT_HEAD + pack(step) + _BIN16 + state + _BIN16 + chain
