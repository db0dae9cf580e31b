"""The one runner: every game is played, journaled, resumed and taken back here.

The app, the text prompt and ``fiefdom simulate`` all drive games through
:class:`Runner`. It asks the registry for the game, builds one controller per
AI or random seat (the rulebook's bots are rules and need none; a person's
seat has none: the runner waits for them), draws chance from the seed (or
waits for dice typed from a real table), and journals every step as it
happens.

Resume replays a record's steps and carries on from the last one. Every
seeded outcome and every random seat's choice is derived again on the way,
so a game of bots and random movers cut anywhere and resumed writes the
same bytes as the game never cut. Takeback rewrites the record without the
steps after the last human decision and resumes from it.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from core import games as core_games
from core.chance import SeededChance, TableDice, draw, typed
from core.engine import Chance, Code, Decision, Event, Game, Outcome, Over, Point, Result, RulesError
from core.match import Controller, Limit, Match, RandomController, Step
from core.rng import SplitMix64
from notation.catalog import GameLookup, build_game, new_header
from notation.deal import Deal, problem
from notation.files import read_regular
from notation.format import DecisionRecord, Header, RecordError, Seat, resignation
from notation.reader import Recording, read_record_file, run
from notation.walk import RecordReader, walk_record
from notation.writer import Journal

RANDOM_DETAIL = "uniform random mover"
CHANCE_MODES = {"seeded": SeededChance, "manual": TableDice}  # manual: dice typed from the table


@dataclass(frozen=True)
class SeatPlan:
    """Who plays one seat: a person, the game's AI (with its limit), the rulebook bot, a random mover."""

    kind: str  # one of core.games.SEAT_KINDS
    limit: Limit | None = None  # an AI seat's; None: the game's default

    def seat(self, name: str, gi: core_games.GameDescriptor) -> Seat:
        """The seat as a record header names it."""
        if self.kind == "ai":
            limit = (self.limit or gi.ai_limit).text()
            return Seat(name, "ai", gi.ai_version + (f", {limit}" if limit else ""))
        detail = {"bot": gi.bot_detail, "random": RANDOM_DETAIL}.get(self.kind, "")
        return Seat(name, self.kind, detail)

    @classmethod
    def of(cls, seat: Seat) -> "SeatPlan":
        """The plan a record header's seat states (an AI's limit is read back from its detail)."""
        return cls(seat.kind, Limit.parse(seat.detail) if seat.kind == "ai" else None)


@dataclass
class GameSetup:
    """Everything a new game needs: the game, its variant, who plays each seat, the seed,
    rule options, setup fields (a Tafl position), where chance comes from, and the deal the
    seed came from (a networked game's commit and reveal: notation/deal.py)."""

    game: str
    variant: str
    seats: tuple[SeatPlan, ...]
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)
    chance: str = "seeded"  # or "manual": dice typed from a real table
    deal: Deal | None = None  # the seed must then be seed_of(deal)

    def start(self, gi: core_games.GameDescriptor, games: GameLookup) -> tuple[Header, Game]:
        """The header of the new record, and the game at its start (built once, to check the setup)."""
        if self.chance not in CHANCE_MODES:
            raise RulesError(f"chance is seeded or manual, not {self.chance!r}")
        if not 0 <= self.seed < 2 ** 63:
            raise RulesError(f"the seed is a whole number from 0 to {2 ** 63 - 1}")
        wrong = problem(self.deal, self.seed) if self.deal is not None else None
        if wrong is not None:
            raise RulesError(f"the deal: {wrong}")
        kinds = [s.kind for s in self.seats]
        gi.check_seats(self.variant, kinds)
        setup = {**gi.setup_for(self.variant, kinds), **self.setup}
        probe = gi.make(self.variant, gi.options_of(self.variant, self.options), setup)
        seats = [plan.seat(name, gi) for plan, name in zip(self.seats, probe.seats)]
        header = new_header(self.game, self.variant, seats, chance=self.chance, seed=self.seed,
                            options=dict(probe.options), setup=setup, games=games, deal=self.deal)
        return header, probe


class StopFlag:
    """The stop flag a runner hands its AIs; what it asks can be swapped while they hold it."""

    def __init__(self) -> None:
        self.ask: Callable[[], bool] = lambda: False

    def __call__(self) -> bool:
        return self.ask()


def seat_seeds(seed: int, seats: int) -> list[int]:
    """Each seat's controller seed, drawn from the game's seed for every seat in order
    whatever its kind, so one seat's play does not depend on who plays the others."""
    rng = SplitMix64(seed)
    return [rng.next() >> 1 for _ in range(seats)]  # >> 1: fits msgpack's signed int64 too


class Runner:
    """One game being played: its rules object, its seats' controllers, its chance and its journal.

    Build with :meth:`start` (a new game) or :meth:`resume` (an unfinished record).
    """

    def __init__(self, header: Header, games: GameLookup, journal: Journal | None,
                 recording: Recording | None = None, game: Game | None = None) -> None:
        """``game``: the header's game at its start, when the caller has just built it."""
        self.stop = StopFlag()  # what the AI seats poll while they think (set_stop)
        self.header = header
        self.games = games
        self.gi = games(header.game)
        if game is None and journal is not None and recording is None and journal.header == header:
            game = journal.take_start()  # a new record's game, built to write its first checkpoint
        self.game: Game = game if game is not None else build_game(header, games)
        self.plans = tuple(SeatPlan.of(s) for s in header.seats)
        self.seed = header.seed or 0
        check_playable(header)
        self.chance = CHANCE_MODES.get(header.chance, SeededChance)(self.seed)
        self.controllers: dict[int, Controller] = {}
        for seat, (plan, seed) in enumerate(zip(self.plans, seat_seeds(self.seed, len(self.plans)))):
            if plan.kind == "random":
                self.controllers[seat] = RandomController(seed)
            elif plan.kind == "ai":
                limit = (plan.limit or self.gi.ai_limit).with_stop(self.stop)
                self.controllers[seat] = self.gi.make_ai(seed, limit)
        self.apart = False  # whether AI seats think in processes of their own (think_apart)
        self.remote: dict[int, Any] = {}  # seat -> its AI in its process
        self.history: list[Step] = []
        self.comments: list[tuple[int, str]] = []  # (the step it is about, its text), as the record has them
        self.resigned: Result | None = None  # set when a seat resigned: the game ends there
        self.journal: Journal | None = None
        self.match = Match(self.game, self.controllers, self.chance, [self._keep])
        if recording is not None:
            self._replay(recording)
        self.journal = journal
        if journal is not None:
            self.match.sinks.insert(0, journal.__call__)  # its bound method: called straight, once a step
            journal.catch_up(self.game)  # a checkpoint that was due when the file was cut
            self._finish_if_over()

    # -- building ----------------------------------------------------------------

    @classmethod
    def start(cls, setup: GameSetup, path: str | os.PathLike[str] | None = None, *,
              games: GameLookup = core_games.info, replace: bool = False) -> "Runner":
        """A new game; journaled to ``path`` when given. An existing file there is replaced only
        with ``replace`` (else FileExistsError, and nothing is written)."""
        gi = games(setup.game)
        header, game = setup.start(gi, games)
        journal = Journal.create(path, header, games=games, replace=replace) if path is not None else None
        return cls(header, games, journal, game=game)

    @classmethod
    def resume(cls, path: str | os.PathLike[str], *, games: GameLookup = core_games.info,
               held: BinaryIO | None = None) -> "Runner":
        """Carry on an unfinished record: a torn last record is dropped, the steps replayed,
        and the game goes on where it stopped. RecordError (one line) when it cannot, RecordInPlay
        when another process is playing it (notation/record_lock.py); ``held``: the file already
        open with its lock (a rewrite's)."""
        journal = Journal.open_append(path, games=games, held=held)
        try:
            assert journal.recording is not None
            return cls(journal.recording.header, games, journal, journal.recording)
        except BaseException:
            journal.close()
            raise

    def _replay(self, recording: Recording) -> None:
        """Apply a record's steps, as a reader of the one walk over it (notation/walk.py): every
        seeded outcome and random seat's choice derived again; its comments kept, with the step
        each is about (a rewrite writes them again)."""
        run(walk_record(recording, self.game, [_Resume(self, recording)]))
        self.match.steps = len(self.history)
        self.match.forget_point()  # the walk moved the game on under the match

    def _retrace(self, value: Any, seat: int | None, point: Decision | Chance | Over) -> None:
        """Check a step played before (a chance outcome when ``seat`` is None) against ``point``
        and move the seeded generator and a random seat's generator on as they moved then."""
        if seat is None:
            if not isinstance(point, Chance):
                raise RulesError("the record has a chance outcome, but the rules ask a seat to decide")
            if not typed(self.chance, point):
                expected = point.validate(draw(self.chance.rng, point))  # type: ignore[attr-defined,unused-ignore]
                if expected != point.validate(value):
                    raise RulesError(f"the outcome is not what seed {self.seed} gives")
            return
        if not isinstance(point, Decision) or point.seat != seat:
            raise RulesError("the record's decision is not the one the rules ask for")
        controller = self.controllers.get(seat)
        if isinstance(controller, RandomController):
            controller.choose(self.game, point)  # its generator moves on as when it chose

    def _follow(self, value: Any, seat: int | None) -> None:
        """Apply a step played before as if it were played now (:meth:`_retrace`, then the step)."""
        self._retrace(value, seat, self.match.point)
        if seat is None:
            self.match.resolve(value)
        else:
            self.match.apply(value)

    # -- where the game stands -----------------------------------------------------

    @property
    def point(self) -> Decision | Chance | Over:
        return self.match.point

    @property
    def result(self) -> Result | None:
        point = self.match.point
        return point.result if isinstance(point, Over) else self.resigned

    @property
    def waiting(self) -> Decision | Chance | None:
        """The question a person must answer next: a human seat's decision or typed dice."""
        return None if self.resigned is not None else self.match.waiting

    def set_stop(self, stop: Callable[[], bool]) -> None:
        """What the AI seats poll while they think: when it returns True, :meth:`think` answers at once
        (an app stops the search when the player leaves or takes back). It lasts through takeback."""
        self.stop.ask = stop

    def seat_kind(self, seat: int) -> str:
        return self.plans[seat].kind

    @property
    def people(self) -> list[int]:
        return [seat for seat, plan in enumerate(self.plans) if plan.kind == "human"]

    @property
    def path(self) -> Path | None:
        return Path(self.journal.path) if self.journal is not None else None

    # -- playing -------------------------------------------------------------------

    def _keep(self, step: Step, game: Game) -> None:
        self.history.append(step)

    def _finish_if_over(self) -> None:
        point = self.match.point
        if isinstance(point, Over) and self.journal is not None and not self.journal.finished:
            self.journal.finish(point.result, self.game)

    def step(self) -> Step | None:
        """One step nobody has to answer (chance, a bot's, an AI's or a random seat's);
        None when the game is over or a person must answer first."""
        if self.resigned is not None:
            return None
        step = self.match.step()
        self._finish_if_over()
        return step

    def run(self, max_steps: int | None = None) -> Result | None:
        """Steps until the game is over (its result), a person must answer, or ``max_steps`` (None)."""
        result = self.match.run(max_steps)
        self._finish_if_over()
        return result

    def think_apart(self) -> None:
        """From now on each AI seat thinks in a process of its own (notation/ai_process.py), so
        that its search never holds the interpreter a screen needs; the record is the same.
        Lasts through takeback and reseat; :meth:`close` ends the processes."""
        from notation.ai_process import RemoteAI

        self.apart = True
        seeds = seat_seeds(self.seed, len(self.plans))
        for seat in [s for s in self.remote if self.plans[s].kind != "ai"]:
            self.remote.pop(seat).close()
        for seat, plan in enumerate(self.plans):
            if plan.kind != "ai" or self.controllers[seat] is self.remote.get(seat):
                continue
            local = self.controllers[seat]
            if seat in self.remote:  # handed on by a rewrite: it goes on with this runner's game
                self.remote[seat].follow(self.header, lambda: self.history, self.stop, local)
            else:
                self.remote[seat] = RemoteAI(self.header, self.gi.data, seeds[seat], plan.limit or self.gi.ai_limit,
                                             lambda: self.history, self.stop, local)
            self.controllers[seat] = self.match.controllers[seat] = self.remote[seat]

    def think(self) -> Code:
        """What the deciding seat's controller chooses, without applying it (an app runs this in a
        worker, then hands the answer to :meth:`decide`)."""
        point = self.match.point
        if not isinstance(point, Decision) or point.seat not in self.controllers:
            raise RulesError("no AI or random seat is deciding")
        return self.match.answer()

    def decide(self, code: Code, clock: int | None = None) -> Step:
        """Apply the deciding seat's choice (a person's, or one :meth:`think` gave); RulesError if illegal.
        ``clock``: the milliseconds left on that seat's clock after it (increment added), recorded
        with the decision; ValueError when the record cannot hold it."""
        if self.result is not None:
            raise RulesError("the game is over")
        if self.journal is None or clock is None:
            step = self.match.apply(code)
        else:
            self.journal.clock_next(clock)
            try:
                step = self.match.apply(code)
            finally:
                self.journal.clock_next(None)
        self._finish_if_over()
        return step

    def type_outcome(self, outcome: Outcome) -> Step:
        """Dice a person typed from the table; RulesError (one line) when they cannot be that roll."""
        point = self.match.point
        if not isinstance(point, Chance) or not typed(self.chance, point):
            raise RulesError("no typed chance outcome is due")
        step = self.match.resolve(outcome)
        self._finish_if_over()
        return step

    def resign(self, seat: int) -> Result:
        """``seat`` gives up: every other seat wins, and the record ends with that result."""
        if self.result is not None:
            raise RulesError("the game is over")
        if self.seat_kind(seat) != "human":
            raise RulesError(f"only a person resigns, and {self.game.seats[seat]} is played by the {self.seat_kind(seat)}")
        self.resigned = resignation(self.game.seats, seat)
        if self.journal is not None:
            self.journal.finish(self.resigned, self.game)
        return self.resigned

    def takeback(self, seat: int | None = None) -> "Runner | None":
        """Take back to before a person's last decision; the record is rewritten without the steps
        after it, and says so in a comment (docs/replay-format.md, "Takeback"). Returns the game
        resumed from the rewritten record (this runner is closed), or None when nothing may be
        taken back.

        With one person (the rest bots, AI or random seats): back to before that person's last
        decision, across chance and the other seats' steps. With several people, only ``seat``'s
        own last decision (the deciding person's when None), and only when nobody else here has
        decided since, no chance outcome has come, and nothing hidden (a card drawn) has been
        shown to a person since: a takeback never undoes another person's choice nor redraws a deal.
        """
        if self.journal is None or self.resigned is not None:
            return None
        keep = self.takeback_point(seat)
        if keep is None:
            return None
        undone = len(self.history) - keep
        who = self.game.seats[self.history[keep].seat or 0]
        comments = [c for c in self.comments if c[0] <= keep]
        steps = f"step {keep + 1}" if undone == 1 else f"steps {keep + 1}-{len(self.history)}"
        comments.append((keep, f"takeback: {who} took back {undone} step{'s' if undone != 1 else ''} ({steps})"))
        return self._rewrite(self.header, self.history[:keep], comments)

    def takeback_point(self, seat: int | None = None) -> int | None:
        """How many steps a takeback by ``seat`` keeps (see :meth:`takeback`), or None when it may not."""
        people = self.people
        if len(people) > 1 and seat is None:
            point = self.match.point
            seat = point.seat if isinstance(point, Decision) and point.seat in people else None
            if seat is None:
                return None
        here = set(people)
        for i in range(len(self.history) - 1, -1, -1):
            step = self.history[i]
            if len(people) > 1 and (step.kind == "chance" or
                                    any(e.seen is not None and e.seen & here for e in step.events)):
                return None  # a chance outcome, or a hidden thing a person has seen: no redrawing
            if step.kind == "decision" and step.seat is not None and self.seat_kind(step.seat) == "human":
                if len(people) == 1 or step.seat == seat:
                    return i
                return None  # another person's decision stands
        return None

    def reseat(self, seat: int, plan: SeatPlan) -> "Runner":
        """Hand ``seat`` to another kind of player mid-game (a person's to the AI, or back): the
        record is rewritten with its header naming the new player; the steps stay as played.
        Returns the game resumed from it (this runner is closed)."""
        if self.journal is None or self.result is not None:
            raise RulesError("the game is over")
        if plan.kind not in ("human", "ai"):
            raise RulesError("a seat is handed to a person or to the AI")
        kinds = [plan.kind if i == seat else p.kind for i, p in enumerate(self.plans)]
        self.gi.check_seats(self.header.variant, kinds)
        seats = tuple(plan.seat(s.name, self.gi) if i == seat else s for i, s in enumerate(self.header.seats))
        return self._rewrite(dataclasses.replace(self.header, seats=seats), list(self.history))

    def _rewrite(self, header: Header, steps: list[Step], comments: list[tuple[int, str]] | None = None) -> "Runner":
        """The record written again with ``header``, ``steps`` and ``comments`` (the record's own by
        default); returns the game resumed from it, which takes over this runner's stop flag and AI
        processes (this runner is closed)."""
        path = self.path
        assert path is not None and self.journal is not None
        tmp = path.with_name(path.name + ".rewrite")
        replay = Runner.start_from(header, tmp, self.games, steps, replace=True)  # our own scratch
        assert replay.journal is not None
        try:
            for step, text in self.comments if comments is None else comments:
                replay.journal.comment(text, step)
            # The new file takes the name with its writer's lock held: the record is never free
            # for another writer (notation/record_lock.py).
            os.replace(tmp, path)
        except BaseException:
            replay.close()
            tmp.unlink(missing_ok=True)
            raise
        self.journal.close()
        held = replay.journal.hand_over()
        resumed = Runner.resume(path, games=self.games, held=held)
        resumed.set_stop(self.stop.ask)
        if self.apart:  # the processes go on with the resumed game (they build their mirror again)
            resumed.remote, self.remote = self.remote, {}
            resumed.think_apart()
        return resumed

    @classmethod
    def start_from(cls, header: Header, path: str | os.PathLike[str], games: GameLookup,
                   steps: Sequence[Step], *, replace: bool = False) -> "Runner":
        """A new record at ``path`` with ``header`` and these steps already played (takeback,
        "play from here"); an existing file there is replaced only with ``replace``."""
        runner = cls(header, games, Journal.create(path, header, games=games, replace=replace))
        for step in steps:
            runner._follow(step.value, step.seat if step.kind == "decision" else None)
        runner._finish_if_over()
        return runner

    def close(self) -> None:
        for ai in self.remote.values():
            ai.close()
        self.remote = {}
        if self.journal is not None:
            self.journal.close()


def check_playable(header: Header) -> None:
    """RecordError, in one line, for a record no game is played on from: one whose chance was
    "recorded" (taken as given, docs/replay-format.md 3.3) has no source for the outcomes to come."""
    if header.chance == "recorded":
        raise RecordError('the record\'s chance is "recorded", taken as given, not drawn from a seed: '
                          "only a seeded game or one with dice typed at the table is played on")


def read_unfinished(path: str | os.PathLike[str], games: GameLookup = core_games.info) -> Recording:
    """A record to resume, read; RecordError in one line when it is finished or damaged."""
    recording = read_record_file(read_regular(path), games=games)  # never blocks on a FIFO
    if recording.result is not None:
        raise RecordError("the game is over; a finished record cannot be continued")
    return recording


class _Resume(RecordReader):
    """Resume's part of the walk over a record: each step checked and the generators moved on
    before it is applied (:meth:`Runner._retrace`), kept in the history after; the comments kept.
    A step the rules refuse, or that seed or seat does not give, is one line naming its record."""

    def __init__(self, runner: Runner, recording: Recording) -> None:
        self.runner, self.recording = runner, recording

    def _refuse(self, index: int, message: str) -> None:
        raise RecordError(f"record {index} at byte {self.recording.offsets[index]}: cannot resume: {message}")

    def comment(self, index: int, record: Any) -> None:
        history = self.runner.history
        self.runner.comments.append((len(history) if record.step is None else record.step, record.text))

    def before_step(self, step: int, index: int, record: Any, point: Point) -> None:
        decision = isinstance(record, DecisionRecord)
        try:
            self.runner._retrace(record.code if decision else record.outcome, record.seat if decision else None,
                                 point)
        except RulesError as err:
            self._refuse(index, str(err))

    def after_step(self, step: int, index: int, record: Any, point: Point, events: list[Event]) -> None:
        if isinstance(record, DecisionRecord):
            self.runner.history.append(Step(step, "decision", record.seat, record.code, tuple(events)))
        else:
            assert isinstance(point, Chance)
            self.runner.history.append(Step(step, "chance", None, point.validate(record.outcome), tuple(events)))

    def refused(self, step: int, index: int, message: str) -> None:
        self._refuse(index, message)
