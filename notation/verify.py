"""Verify a record: apply every step, compare every checkpoint and the result, and
(seeded chance) derive every outcome again from the seed. Stops at the first difference.

A record without a result is an unfinished game, which is fine while the rules
say the game goes on; a game the rules end must end with its result record.

Chance is checked or said to be unchecked (docs/replay-format.md, section 11): with
``chance: "seeded"`` every outcome is derived again; with ``"manual"`` every outcome but
the dice typed at the table; with ``"recorded"`` none. The outcomes not derived are taken
as given, and the report counts them (:attr:`VerifyReport.given`) so that every line that
says ``ok`` can say so too (:func:`chance_note`). ``"none"`` says the game has no chance
points: a record whose game asks for chance under it does not verify (the reader already
refuses a chance record in it).

A header's ``deal`` (the commitments and reveals a networked game's seed came from) is checked
first (:func:`notation.deal.problem`): a deal that does not hold differs at step 0, ``deal: ...``.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from core import games as core_games
from core.chance import SeededChance, TableDice, typed
from core.digest import digest
from core.engine import Chance, Event, Game, Over, Point, Result, RulesError, leave_events_unmade
from notation.catalog import GameLookup, build_game
from notation.deal import problem
from notation.format import Chain, ChanceRecord, CheckpointRecord, ResultRecord, resigned_seat
from notation.reader import Recording, run
from core.visibility import outcome_text
from notation.walk import RecordReader, walk_record
from notation.wording import count, result_text


# What a record's chance mode took as given, in words: the modes whose outcomes are not all derived.
GIVEN_WORDS = {"manual": "dice typed at the table", "recorded": "chance recorded, not derived from a seed"}


def taken_as_given(mode: str, point: Point) -> bool:
    """Whether a record with chance ``mode`` gives the outcome of ``point`` without a seed to derive
    it from: every outcome of a ``recorded`` record, the dice of a ``manual`` one (typed at the
    table; its shuffles and picks are derived from the seed), nothing else."""
    if not isinstance(point, Chance):
        return False
    return mode == "recorded" or (mode == "manual" and point.kind in TableDice.TYPED)


def chance_note(mode: str, given: int) -> str:
    """``dice typed at the table: 14 outcomes taken as given``: what a record with chance ``mode``
    took as given, said wherever it is said to verify, shown or exported; "" when nothing was
    (every outcome derived from the seed, or none)."""
    if not given or mode not in GIVEN_WORDS:
        return ""
    return f"{GIVEN_WORDS[mode]}: {count(given, 'outcome')} taken as given"


@dataclass(frozen=True)
class VerifyReport:
    ok: bool
    records: int
    steps: int  # steps replayed before the first difference (all of them when ok)
    result: Result | None  # the game's own result, when it is over
    first_bad_step: int | None  # the first step known to differ (a checkpoint's step for a hash)
    message: str  # UNFINISHED, the result in words, or what differs
    chance: str = "seeded"  # the record's chance mode
    given: int = 0  # chance outcomes taken as given (not derived from the seed) in the steps replayed
    deal: bool = False  # whether the header has a deal, checked (it held, when ok)

    @property
    def verdict(self) -> str:
        """The message, after ``differs at step N:`` when the record does not verify."""
        return self.message if self.ok else f"differs at step {self.first_bad_step}: {self.message}"

    @property
    def note(self) -> str:
        """What was taken as given (:func:`chance_note`); "" when every outcome was checked."""
        return chance_note(self.chance, self.given)


UNFINISHED = "unfinished"  # the message of a good record with no result yet: the game is not over


class _Difference(Exception):
    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step


def verify(recording: Recording, *, games: GameLookup = core_games.info) -> VerifyReport:
    return run(verifying(recording, games=games))


def verifying(recording: Recording, *, games: GameLookup = core_games.info,
              every: int = 1024) -> Generator[float, None, VerifyReport]:
    """:func:`verify` in slices: yields the part verified so far (0..1) every ``every`` records."""
    try:
        game = build_game(recording.header, games)
    except RulesError as err:
        return VerifyReport(False, len(recording.records), 0, None, 0, f"header: {err}", recording.header.chance)
    leave_events_unmade(game)  # a verdict reads none: the steps and positions are the same
    checker = Checker(recording, game)
    yield from walk_record(recording, game, [checker], every=every, done=lambda: checker.difference is not None)
    return checker.report()


class Checker(RecordReader):
    """Verify as a reader of the one walk over a record (notation/walk.py): the game it is given is
    the walk's, at the record's start. The first difference is kept (:meth:`report`); after it,
    nothing more is checked, while the walk may go on for another reader (a replay)."""

    def __init__(self, recording: Recording, game: Game) -> None:
        self.recording = recording
        self.game = game
        header = recording.header
        # Seeded outcomes are derived again; with "manual" the dice were typed and only the rest is derived
        # (the reader requires a seed with both); "recorded" outcomes are all taken as given.
        self.mode = header.chance
        source = {"seeded": SeededChance, "manual": TableDice}.get(self.mode)
        self.seeded = source(header.seed) if source is not None and header.seed is not None else None
        self.given = 0  # outcomes taken as given (taken_as_given)
        self.chain = Chain()
        self.hashed = 0  # bytes of the file fed to the chain so far
        self.steps = 0
        self._last: tuple[int, int] | None = None  # the last step replayed and its record's index (see last)
        self.resigned: Result | None = None  # a resignation the record ends with, once checked
        self.difference: _Difference | None = None
        self.ended: Result | None = None  # the game's result when the difference was found
        wrong = problem(header.deal, header.seed) if header.deal is not None else None
        if wrong is not None:  # nothing after it is checked: the seed itself is in doubt
            self._differs(_Difference(0, f"deal: {wrong}"))

    def result(self) -> Result | None:
        point = self.game.point()
        return point.result if isinstance(point, Over) else self.resigned

    def _differs(self, diff: _Difference) -> None:
        if self.difference is None:
            self.difference, self.ended = diff, self.result()

    def report(self) -> VerifyReport:
        """The verdict, once the walk is over (the end's checks made here)."""
        if self.difference is None:
            try:
                self._end()
            except _Difference as diff:
                self._differs(diff)
        records, mode = len(self.recording.records), self.recording.header.chance
        deal = self.recording.header.deal is not None
        found = self.difference
        if found is not None:
            return VerifyReport(False, records, self.steps, self.ended, found.step, str(found), mode, self.given, deal)
        result = self.result()
        finished = self.recording.result is not None
        message = result_text(result, self.game.seats) if finished and result else UNFINISHED
        return VerifyReport(True, records, self.steps, result, None, message, mode, self.given, deal)

    def _end(self) -> None:
        rec = self.recording
        if rec.torn:
            raise _Difference(
                self.steps + 1,
                f"the last record, at byte {rec.end}, is incomplete ({count(rec.torn_bytes, 'byte')}): "
                "the file was cut short or damaged there",
            )
        self._no_chance(self.game.point(), self.steps + 1, f"after {self.last}" if self.last else "at the start")
        actual = self.result()
        if rec.result is None and actual is not None:
            # A finished game whose checkpoint and result were cut off is not an autosave.
            ended = f"{self.last}: the game ended here" if self.steps else "the game is over at the start"
            raise _Difference(self.steps, f"{ended} ({result_text(actual, self.game.seats)}), "
                                          "but the record has no result")

    def _no_chance(self, point: Point, step: int, where: str) -> None:
        """A record that says its game has no chance points (``chance: "none"``) must never reach one."""
        if self.mode == "none" and isinstance(point, Chance):
            raise _Difference(step, f"{where}: the rules ask for chance ({point.label or point.kind}), but the "
                                    "header says chance \"none\", a game without chance points")

    def _where(self, step: int, index: int) -> str:
        return f"step {step} (record {index} at byte {self.recording.offsets[index]})"

    @property
    def last(self) -> str:
        """Where the last step replayed is in the file ("" before the first): worded when a message
        needs it, not at every step."""
        return "" if self._last is None else self._where(*self._last)

    # -- the walk ----------------------------------------------------------------------

    def before_step(self, step: int, index: int, record: Any, point: Point) -> None:
        if self.difference is not None:
            return
        try:
            if self.mode == "none":  # the only mode _no_chance refuses a point in
                self._no_chance(point, step, self._where(step, index))
            if isinstance(record, ChanceRecord) and self.seeded is not None and isinstance(point, Chance) \
                    and not typed(self.seeded, point):
                expected = self.seeded.outcome(point)  # the generator's draws are outcomes already (core.chance.draw)
                if expected != record.outcome:
                    raise _Difference(step, f"{self._where(step, index)}: the record's outcome {outcome_text(record.outcome)} "
                                            f"is not what seed {self.seeded.seed} gives ({outcome_text(expected)})")
        except _Difference as diff:
            self._differs(diff)

    def after_step(self, step: int, index: int, record: Any, point: Point, events: list[Event]) -> None:
        if self.difference is not None:
            return
        if isinstance(record, ChanceRecord) and taken_as_given(self.mode, point):
            self.given += 1
        self.steps = step
        self._last = (step, index)

    def refused(self, step: int, index: int, message: str) -> None:
        if self.difference is None:
            self._differs(_Difference(step, f"{self._where(step, index)}: {message}"))

    def checkpoint(self, index: int, record: Any, offset: int) -> None:
        if self.difference is not None:
            return
        try:
            self._checkpoint(record, offset, f"record {index} at byte {offset}")
        except _Difference as diff:
            self._differs(diff)

    def _checkpoint(self, record: CheckpointRecord | ResultRecord, offset: int, where: str) -> None:
        self.chain.update(self.recording.data[self.hashed:offset])
        self.hashed = offset
        if record.digest != digest(self.game):
            raise _Difference(self.steps, f"{where}: after step {self.steps} the position differs "
                                          "from the one the record saved")
        if record.chain != self.chain.digest():
            raise _Difference(self.steps, f"{where}: the bytes before this record were changed "
                                          "(the running hash differs)")
        if isinstance(record, ResultRecord):
            said = result_text(record.result, self.game.seats)
            actual = self.result()
            if actual is None and resigned_seat(record.result, self.game.seats) is not None:
                self.resigned = record.result  # a seat resigned while the game went on
                return
            if actual is None:
                raise _Difference(self.steps, f"{where}: the record says '{said}', "
                                              f"but after step {self.steps} the game is not over")
            if actual != record.result:
                raise _Difference(self.steps, f"{where}: the record says '{said}', "
                                              f"but the rules say '{result_text(actual, self.game.seats)}'")
