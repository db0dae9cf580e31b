"""Replay: a record's steps applied to its game, with seek through cached keyframes.

Position 0 is the start; step N is the position after the N-th decision or
chance record. Events are derived by applying the records again, never read
from the file. A record the rules refuse stops the replay there:
``Replay.failure`` says where and why, and the steps before it stay viewable.

Memory grows with keyframes, not steps: a replay keeps at most about
``MAX_KEYFRAMES`` copies of the game, each step's record index (4 bytes) and the
comments; a step's :class:`StepInfo` (its wording, events and the question it
answered) is derived again when asked for, from the nearest keyframe or from
the position the last question left (so walking the steps in order applies each
record once).
"""

from __future__ import annotations

import math
from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any, Union

from core import games as core_games
from core.engine import TABLE, Code, Event, Game, Outcome, Over, Point, Result, RulesError, Viewer
from core.visibility import Told, events_seen
from notation.apply import apply_step
from notation.catalog import GameLookup, build_game
from notation.format import (
    resigned_seat,
    PREAMBLE, ChanceRecord, DecisionRecord, Header, RecordError, StepRecord,
)
from notation.reader import Recording, run
from notation.verify import Checker, VerifyReport, chance_note, taken_as_given
from notation.walk import RecordReader, walk_record

KEYFRAME_EVERY = 16  # a state kept every 16 steps: stepping back replays at most 15
MAX_KEYFRAMES = 256  # a very long record spaces its keyframes further apart
CHANCE_SEAT = 255  # no seat: a record has at most 16
RECENT_STEPS = 256  # the StepInfos kept: a viewer's window of the move list


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
    told: Told = Told("")  # who may read ``text``, and what the others read (core.visibility)
    viewer: Viewer = TABLE  # the point of view this step is worded for (see seen_by)
    clock: int | None = None  # a decision's: ms left on the seat's clock after it (docs/replay-format.md, 4)

    def seen_by(self, viewer: Viewer) -> "StepInfo":
        """The step as ``viewer`` saw it: its words and events, hidden ones in their public words or
        left out (DESIGN.md, "The information wall"). The full table (TABLE) sees it whole."""
        if viewer == TABLE:
            return self
        shown = self.told.to(viewer)
        return StepInfo(self.step, self.record_index, self.kind, self.seat, self.seat_name,
                        self.value if shown == self.text else (), shown,
                        tuple(events_seen(self.events, viewer)), self.before, Told(shown), viewer, self.clock)


@dataclass(frozen=True)
class ReplayFailure:
    step: int
    record_index: int
    offset: int
    message: str

    def __str__(self) -> str:
        return f"step {self.step} (record {self.record_index} at byte {self.offset}): {self.message}"


class _Builder(RecordReader):
    """The replay's part of the walk: each step's record index and seat, the keyframes, the event
    kinds between them (for the landmarks), the comments, the failure if the rules refuse a step."""

    def __init__(self, replay: "Replay", game: Game) -> None:
        self.replay, self.game, self.mode = replay, game, replay.recording.header.chance
        self.kinds: set[str] = set()

    def comment(self, index: int, record: Any) -> None:
        r = self.replay
        r._comments[len(r._index) if record.step is None else record.step].append(record.text)

    def after_step(self, step: int, index: int, record: Any, point: Point, events: list[Event]) -> None:
        r = self.replay
        if isinstance(record, ChanceRecord) and taken_as_given(self.mode, point):
            r.given += 1
        r._index.append(index)
        r._seats.append(record.seat if isinstance(record, DecisionRecord) else CHANCE_SEAT)
        self.kinds.update(e.kind for e in events)
        if step % r.interval == 0:
            r._keyframes[step] = self.game.clone()
            r._block_kinds.append(frozenset(self.kinds))
            self.kinds = set()

    def refused(self, step: int, index: int, message: str) -> None:
        r = self.replay
        r.failure = ReplayFailure(step, index, r.recording.offsets[index], message)

    def close(self) -> None:
        self.replay._block_kinds.append(frozenset(self.kinds))


class Replay:
    """A record replayed once on construction; afterwards any step is a cheap seek away."""

    def __init__(self, recording: Recording, *, games: GameLookup = core_games.info,
                 keyframe_every: int = KEYFRAME_EVERY) -> None:
        run(self._build(recording, games, keyframe_every))

    @classmethod
    def building(cls, recording: Recording, *, games: GameLookup = core_games.info,
                 keyframe_every: int = KEYFRAME_EVERY) -> Generator[float, None, "Replay"]:
        """The replay made in slices: yields the part replayed so far (0..1) every few hundred
        records and returns the Replay, so a screen stays live while a long record replays."""
        replay = cls.__new__(cls)
        yield from replay._build(recording, games, keyframe_every)
        return replay

    def _build(self, recording: Recording, games: GameLookup, keyframe_every: int) -> Generator[float, None, None]:
        self.recording = recording
        self.games = games
        try:
            game = build_game(recording.header, games)
        except RulesError as err:
            raise RecordError(f"header at byte {len(PREAMBLE)}: {err}") from None
        self.seat_names: tuple[str, ...] = tuple(game.seats)
        self.interval = max(keyframe_every, math.ceil(recording.steps / MAX_KEYFRAMES))
        # Keyframe 0 is the game as built: a clone would lose the events a game emits as it is set up,
        # which go with step 1.
        self._keyframes: dict[int, Game] = {}
        self._index = array("I")  # the record index of each step that replayed
        self._seats = bytearray()  # the seat that decided each step, CHANCE_SEAT for a chance step
        self._block_kinds: list[frozenset[str]] = []  # the event kinds of each keyframe's steps
        self._comments: dict[int, list[str]] = defaultdict(list)
        # Private games where the last steps were worded (walk) and the last position asked for
        # (state): a seek starts from the nearer of these and the keyframe.
        self._walk: tuple[int, Game] | None = None
        self._state: tuple[int, Game] | None = None
        self._recent: OrderedDict[int, StepInfo] = OrderedDict()
        self.failure: ReplayFailure | None = None
        self._report: VerifyReport | None = None
        self.given = 0  # chance outcomes taken as given, not derived from a seed (notation.verify)
        # One walk builds the replay and verifies the record (notation/walk.py): each step applied once.
        checker = Checker(recording, game)
        builder = _Builder(self, game)
        yield from walk_record(recording, game, [builder, checker])
        builder.close()
        self._report = checker.report()
        # After a failure the last game may be half-changed by the refused step: seek instead.
        self._final = game if self.failure is None else self._seek(len(self._index))

    # -- size and position -----------------------------------------------------------

    @property
    def header(self) -> Header:
        return self.recording.header

    @property
    def chance_note(self) -> str:
        """What the steps that replayed took as given (``dice typed at the table: 14 outcomes
        taken as given``), for a header to say; "" when every outcome is derived from the seed."""
        return chance_note(self.header.chance, self.given)

    @property
    def steps(self) -> int:
        """The number of steps that replayed (all of them unless ``failure``)."""
        return len(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def _check(self, n: int, first: int = 0) -> None:
        if type(n) is not int or not first <= n <= len(self._index):
            raise IndexError(f"there is no step {n}: this record has steps {first}..{len(self._index)}")

    def state_at(self, n: int) -> Game:
        """A fresh copy of the position after step ``n`` (0 = the start)."""
        self._check(n)
        if n == len(self._index):
            return self._final.clone()
        game = self._seek(n)
        if n:  # the next step, or the next state, starts from here; not the start: a clone of
            # a game as built drops the events of its setup, which step 1 hands out
            self._state = (n, game.clone())
        return game

    def _seek(self, n: int) -> Game:
        """A fresh game at step ``n``: from a cursor when one is nearer than the keyframe."""
        base = n - n % self.interval
        near = [c for c in (self._walk, self._state) if c is not None and base <= c[0] <= n]
        if near:
            base, game = max(near, key=lambda c: c[0])
            game = game.clone()
        else:
            game = self._keyframes[base].clone() if base else build_game(self.header, self.games)
        self._apply(game, base, n)
        return game

    def _apply(self, game: Game, start: int, end: int) -> None:
        """Steps ``start+1``..``end`` applied to ``game``: records that replayed once already, so
        straight to the rules, without the wording and checks of :func:`apply_step`."""
        records = self.recording.records
        for k in range(start, end):
            record = records[self._index[k]]
            if isinstance(record, DecisionRecord):
                game.apply(record.code)
            else:
                game.resolve(record.outcome)  # type: ignore[union-attr]  # _index: step records only

    def _record(self, n: int) -> StepRecord:
        return self.recording.records[self._index[n - 1]]  # type: ignore[return-value]  # a step record (_index)

    @property
    def result(self) -> Result | None:
        """The game's own result after the last step, or the resignation the record ends with once
        it verifies (docs/replay-format.md, section 4); None while the game is not over."""
        point = self._final.point()
        if isinstance(point, Over):
            return point.result
        claimed = self.recording.result
        if claimed is not None and resigned_seat(claimed, self.seat_names) is not None and self.verify().ok:
            return claimed
        return None

    # -- what happened ---------------------------------------------------------------

    def step_record(self, n: int) -> StepInfo:
        """Who decided what at step ``n`` (from 1), worded, with its events: derived on demand."""
        self._check(n, first=1)
        info = self._recent.get(n)
        if info is not None:
            self._recent.move_to_end(n)
            return info
        walk = self._walk
        game = walk[1] if walk is not None and walk[0] == n - 1 else self._seek(n - 1)
        record = self._record(n)
        before = game.point()
        told, events = apply_step(game, record, before)
        self._walk = (n, game)
        if isinstance(record, DecisionRecord):
            info = StepInfo(n, self._index[n - 1], "decision", record.seat, self.seat_names[record.seat],
                            record.code, told.text, tuple(events), before, told, clock=record.clock)
        else:
            info = StepInfo(n, self._index[n - 1], "chance", None, "chance", record.outcome, told.text,
                            tuple(events), before, told)
        self._recent[n] = info
        if len(self._recent) > RECENT_STEPS:
            self._recent.popitem(last=False)
        return info

    def step_infos(self, first: int = 1, last: int | None = None) -> Iterator[StepInfo]:
        """Steps ``first``..``last`` (default: to the end) in order, each record applied once."""
        for n in range(first, (len(self._index) if last is None else last) + 1):
            yield self.step_record(n)

    def movers(self) -> Iterator[tuple[str, int | None]]:
        """(kind, seat) of every step that replayed, without replaying them."""
        for seat in self._seats:
            yield ("chance", None) if seat == CHANCE_SEAT else ("decision", seat)

    def events_at(self, n: int) -> list[Event]:
        """The events step ``n`` produced (none at step 0)."""
        self._check(n)
        return list(self.step_record(n).events) if n else []

    def comments_at(self, n: int) -> list[str]:
        self._check(n)
        return list(self._comments.get(n, ()))

    def next_event(self, from_step: int, kind: str) -> int | None:
        """The first step after ``from_step`` with an event of ``kind``, or None."""
        first = max(from_step, 0) + 1
        for block in range((first - 1) // self.interval, len(self._block_kinds)):
            if kind not in self._block_kinds[block]:
                continue
            start = max(first, block * self.interval + 1)
            last = min((block + 1) * self.interval, len(self._index))
            for info in self.step_infos(start, last):
                if any(e.kind == kind for e in info.events):
                    return info.step
        return None

    def prev_event(self, from_step: int, kind: str) -> int | None:
        """The last step before ``from_step`` with an event of ``kind``, or None."""
        last = min(from_step - 1, len(self._index))
        for block in range((last - 1) // self.interval if last > 0 else -1, -1, -1):
            if kind not in self._block_kinds[block]:
                continue
            start = block * self.interval + 1
            found = [info.step for info in self.step_infos(start, min(last, (block + 1) * self.interval))
                     if any(e.kind == kind for e in info.events)]
            if found:
                return found[-1]
        return None

    def verify(self) -> VerifyReport:
        """The record verified: by the same walk that built the replay (notation/walk.py)."""
        assert self._report is not None
        return self._report
