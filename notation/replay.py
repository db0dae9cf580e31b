"""Replay: a record's steps applied to its game, with seek through cached keyframes.

Position 0 is the start; step N is the position after the N-th decision or
chance record. Events are derived by applying the records again, never read
from the file. A record the rules refuse stops the replay there:
``Replay.failure`` says where and why, and the steps before it stay viewable.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Union

from core import games as core_games
from core.engine import Code, Event, Game, Outcome, Over, Point, Result, RulesError
from notation.apply import apply_step
from notation.catalog import GameLookup, build_game
from notation.format import (
    CHECKPOINT_EVERY, PREAMBLE, ChanceRecord, CommentRecord, DecisionRecord, Header, RecordError,
    StepRecord,
)
from notation.reader import Recording
from notation.verify import VerifyReport, verify

KEYFRAME_EVERY = CHECKPOINT_EVERY
MAX_KEYFRAMES = 512  # a very long record spaces its keyframes further apart


@dataclass(frozen=True)
class StepInfo:
    """Who decided what (or what chance gave) at one step, and what followed."""

    step: int
    record_index: int
    kind: str  # "decision" or "chance"
    seat: int | None
    seat_name: str  # the game's name for the seat; "chance" for a chance step
    value: Union[Code, Outcome]
    text: str  # as a person writes it, worded on the position before the step
    events: tuple[Event, ...]
    before: Point | None = None  # the question the step answered: a Decision (prompt, options) or a Chance


@dataclass(frozen=True)
class ReplayFailure:
    step: int
    record_index: int
    offset: int
    message: str

    def __str__(self) -> str:
        return f"step {self.step} (record {self.record_index} at byte {self.offset}): {self.message}"


class Replay:
    """A record replayed once on construction; afterwards any step is a cheap seek away."""

    def __init__(self, recording: Recording, *, games: GameLookup = core_games.info,
                 keyframe_every: int = KEYFRAME_EVERY) -> None:
        self.recording = recording
        self.games = games
        try:
            game = build_game(recording.header, games)
        except RulesError as err:
            raise RecordError(f"header at byte {len(PREAMBLE)}: {err}") from None
        self.seat_names: tuple[str, ...] = tuple(game.seats)
        self.interval = max(keyframe_every, math.ceil(recording.steps / MAX_KEYFRAMES))
        self._keyframes: dict[int, Game] = {0: game.clone()}
        self._records: list[StepRecord] = []
        self._steps: list[StepInfo] = []
        self._comments: dict[int, list[str]] = defaultdict(list)
        self.failure: ReplayFailure | None = None
        self._report: VerifyReport | None = None
        self._run(game)
        # After a failure the last game may be half-changed by the refused step: seek instead.
        self._final = game if self.failure is None else self._seek(len(self._steps))

    def _run(self, game: Game) -> None:
        for index, record in enumerate(self.recording.records):
            if isinstance(record, CommentRecord):
                self._comments[len(self._steps) if record.step is None else record.step].append(record.text)
            elif isinstance(record, (DecisionRecord, ChanceRecord)):
                step = len(self._steps) + 1
                before = game.point()
                try:
                    text, events = apply_step(game, record)
                except RulesError as err:
                    self.failure = ReplayFailure(step, index, self.recording.offsets[index], str(err))
                    break
                if isinstance(record, DecisionRecord):
                    info = StepInfo(step, index, "decision", record.seat, self.seat_names[record.seat],
                                    record.code, text, tuple(events), before)
                else:
                    info = StepInfo(step, index, "chance", None, "chance", record.outcome, text, tuple(events),
                                    before)
                self._steps.append(info)
                self._records.append(record)
                if step % self.interval == 0:
                    self._keyframes[step] = game.clone()

    # -- size and position -----------------------------------------------------------

    @property
    def header(self) -> Header:
        return self.recording.header

    @property
    def steps(self) -> int:
        """The number of steps that replayed (all of them unless ``failure``)."""
        return len(self._steps)

    def __len__(self) -> int:
        return len(self._steps)

    def _check(self, n: int, first: int = 0) -> None:
        if type(n) is not int or not first <= n <= len(self._steps):
            raise IndexError(f"there is no step {n}: this record has steps {first}..{len(self._steps)}")

    def state_at(self, n: int) -> Game:
        """A fresh copy of the position after step ``n`` (0 = the start)."""
        self._check(n)
        return self._final.clone() if n == len(self._steps) else self._seek(n)

    def _seek(self, n: int) -> Game:
        base = n - n % self.interval
        game = self._keyframes[base].clone()
        for record in self._records[base:n]:
            apply_step(game, record)
        return game

    @property
    def result(self) -> Result | None:
        """The game's own result after the last step (None while it is not over)."""
        point = self._final.point()
        return point.result if isinstance(point, Over) else None

    # -- what happened ---------------------------------------------------------------

    def step_record(self, n: int) -> StepInfo:
        self._check(n, first=1)
        return self._steps[n - 1]

    def events_at(self, n: int) -> list[Event]:
        """The events step ``n`` produced (none at step 0)."""
        self._check(n)
        return list(self._steps[n - 1].events) if n else []

    def comments_at(self, n: int) -> list[str]:
        self._check(n)
        return list(self._comments.get(n, ()))

    def next_event(self, from_step: int, kind: str) -> int | None:
        """The first step after ``from_step`` with an event of ``kind``, or None."""
        for info in self._steps[max(from_step, 0):]:
            if any(e.kind == kind for e in info.events):
                return info.step
        return None

    def prev_event(self, from_step: int, kind: str) -> int | None:
        """The last step before ``from_step`` with an event of ``kind``, or None."""
        for info in reversed(self._steps[: max(from_step - 1, 0)]):
            if any(e.kind == kind for e in info.events):
                return info.step
        return None

    def verify(self) -> VerifyReport:
        """The record verified (once: the report is kept)."""
        if self._report is None:
            self._report = verify(self.recording, games=self.games)
        return self._report
