"""The play driver: one game in play, with no screen (DESIGN.md, "One driver, many tables").

A :class:`PlayDriver` owns a :class:`~notation.runner.Runner` and everything that plays a game
at a table: the pace of bots, AI and chance; the units of a step that played several (five
bots' rounds, from the game's ``frames()``); the AI's search, in a thread that only waits for
the AI's own process (notation/ai_process.py); hot seat's hand-overs between people; takeback,
resignation and handing a seat to the AI, each after stopping a search at once; and the end.
It tells its view what happened (:class:`DriverView`): each step's events, lines of its own, a
problem to show, the game's end, and that the table changed. It takes decisions from whichever
seat is asked: a person's code (:meth:`PlayDriver.play`), dice typed from a real table
(:meth:`PlayDriver.type_dice`), or the AI's answer.

The app's play screen and the text prompt are views of it; a network host owns the same driver.
The driver never imports a user interface: the view lends it a clock (:meth:`DriverView.later`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from core.engine import Chance, Code, Decision, Event, Game, Outcome, RulesError
from core.match import Step
from core.visibility import tell
from notation.format import RecordError
from notation.replay import StepInfo
from notation.runner import Runner, SeatPlan
from notation.seat_log import history_log, played_step
from notation.wording import visible

SPEEDS = (0.0, 0.25, 0.5, 1.0, 2.0)  # seconds between automatic steps
WATCH_SPEED = 2  # the speed of a game nobody here plays (an index into SPEEDS)
PLAY_SPEED = 2  # and of the bots and AI in a game with people: a pace a person can follow
SLICE = 0.03  # at speed 0, automatic steps run this long between frames

Frames = list[tuple[Any, list[Event]]]  # the units of a step: each one's picture of the game, its events


@dataclass(frozen=True)
class Note:
    """A line of the driver's own in the event log (a takeback, a seat handed over), after ``after`` steps."""

    after: int
    text: str
    style: str = "italic"


class DriverView(Protocol):
    """What the driver tells the table it plays at (a screen, the host of a networked game)."""

    def later(self, delay: float, then: Callable[[], None]) -> None:
        """Call ``then`` after ``delay`` seconds; at 0, once what came before has been drawn."""

    def changed(self) -> None:
        """The table changed: draw it again (whose turn, the board, the options)."""

    def logged(self, events: Sequence[Event]) -> None:
        """Events played out, every seat's: the view shows what its seat may read."""

    def noted(self, note: Note) -> None:
        """A line of the driver's own for the log."""

    def problem(self, text: str) -> None:
        """One line saying why something was refused or failed ('' clears it)."""

    def over(self) -> None:
        """The game has ended (called once)."""


def loop_later(delay: float, then: Callable[[], None]) -> None:
    """``then`` after ``delay`` seconds on the running asyncio loop (at 0, on its next turn)."""
    loop = asyncio.get_running_loop()
    if delay:
        loop.call_later(delay, then)
    else:
        loop.call_soon(then)


class LoopTable:
    """A view with no screen (a network host, a test): the asyncio loop's clock, and what the driver
    tells it kept in order: each step's events, the driver's notes, problems, and whether it ended."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.notes: list[Note] = []
        self.problems: list[str] = []
        self.ended = False
        self.changes = 0

    def later(self, delay: float, then: Callable[[], None]) -> None:
        loop_later(delay, then)

    def changed(self) -> None:
        self.changes += 1

    def logged(self, events: Sequence[Event]) -> None:
        self.events += events

    def noted(self, note: Note) -> None:
        self.notes.append(note)

    def problem(self, text: str) -> None:
        if text:
            self.problems.append(text)

    def over(self) -> None:
        self.ended = True


def units(frames: Sequence[tuple[int, Any]], events: Sequence[Event]) -> tuple[list[Event], Frames]:
    """A step cut by the units begun in it (a game's ``frames()``): the events before the first
    unit began, then each unit's picture of the game with its share of the events. A unit begun
    as the step ended (no events yet) is left to the position after the step."""
    if not frames:
        return list(events), []
    starts = [min(max(i, 0), len(events)) for i, _ in frames]
    ends = starts[1:] + [len(events)]
    cut = [(game, list(events[a:b])) for (_, game), a, b in zip(frames, starts, ends)]
    while cut and not cut[-1][1]:
        cut.pop()
    return list(events[:starts[0]]), cut


class PlayDriver:
    """A game in play at one table: see the module's docstring. Start it with :meth:`start`."""

    def __init__(self, runner: Runner, view: DriverView | None = None) -> None:
        self.view = view
        self.runner = runner
        # Every step played, told for every point of view (notation/seat_log.py).
        self.entries: list[StepInfo] = history_log(runner.header, runner.games, runner.history)
        self.notes: list[Note] = []
        self.speed = PLAY_SPEED if runner.people else WATCH_SPEED
        self.skipping = False  # at speed 0 until a person must answer (skip)
        self.thinking = False  # an AI or random seat is choosing
        self.halted = False  # the AI's stop flag: set while leaving or taking back
        self.generation = 0  # bumped by takeback, resignation, reseat: an answer thought before is dropped
        self.beat = 0  # bumped by every new timer: only the latest one goes on
        self.search: asyncio.Future[Code] | None = None  # the AI's answer, being thought
        self.viewer: int | None = None  # hot seat: the person at the keyboard, whose view is drawn
        self.frame: Game | None = None  # the picture of the table while a step's units play out
        self.frames_due: Frames = []  # the units still to show, with their events
        self.ended = False  # the view has been told the game is over
        self.closed = False
        self.drawn_at = float("-inf")  # when the view was last told the table changed
        self.draw_due = False  # at speed 0: a draw is due a slice after the last (_changed_at_pace)
        self.own_screens = False  # each person at a screen of their own (a networked game): never a hand-over
        self._adopt(runner)

    def _adopt(self, runner: Runner) -> None:
        """``runner`` is the game from now on (a takeback and a reseat resume a rewritten record)."""
        self.runner = runner
        runner.set_stop(lambda: self.halted)

    def think_apart(self) -> None:
        """AI seats think in processes of their own, out of the interpreter a screen needs."""
        self.runner.think_apart()

    # -- where the game stands -------------------------------------------------------------

    @property
    def paced(self) -> bool:
        """Whether anything here plays by itself (a bot, an AI, dice): else there is no pace."""
        r = self.runner
        return r.gi.has_chance or len(r.people) < len(r.plans)

    @property
    def busy(self) -> bool:
        """An AI is thinking or a step's units are being played out: no person may choose yet."""
        return self.thinking or self.frame is not None or bool(self.frames_due)

    def solo_seat(self) -> int | None:
        """The one person's seat, who always sees their own view; None with no people or several."""
        people = self.runner.people
        return people[0] if len(people) == 1 else None

    def view_seat(self) -> int | None:
        """The seat whose view is drawn: the one person's; in hot seat, the person who said they are
        at the keyboard (None until someone has); a spectator's (None) when nobody here plays."""
        return self.viewer if len(self.runner.people) > 1 else self.solo_seat()

    def hand_over_due(self) -> int | None:
        """Hot seat: the person who must decide now, when the view shown is another seat's. Where
        neither seat's view holds anything a spectator's does not (a Tafl board), the view just
        changes hands: nothing is hidden, so nothing is covered."""
        r = self.runner
        waiting = r.waiting
        if self.own_screens or len(r.people) < 2 or not isinstance(waiting, Decision) or waiting.seat == self.viewer \
                or self.thinking or self.frame is not None:
            return None
        public = r.game.view(None)
        if r.game.view(waiting.seat) == public and (self.viewer is None or r.game.view(self.viewer) == public):
            self.viewer = waiting.seat
            return None
        return waiting.seat

    def question(self) -> tuple[int, int] | None:
        """The question a person here is asked now, as a key that changes with every new one (a
        choice made for another question is not applied to it); None when nobody here is asked."""
        if not isinstance(self.runner.waiting, Decision) or self.busy or self.hand_over_due() is not None:
            return None
        return self.generation, len(self.runner.history)

    def why_not_choose(self) -> str | None:
        """Why a person here may not choose now; None when they may."""
        if self.frame is not None or self.frames_due:
            return "wait: the table is still being played out (n skips)"
        if not isinstance(self.runner.waiting, Decision) or self.thinking or self.hand_over_due() is not None:
            return "wait: nobody here is to choose now"
        return None

    def resigner(self) -> int | None:
        """The seat that would resign: the one person's, or in hot seat the deciding person's."""
        people = self.runner.people
        point = self.runner.point
        if len(people) == 1:
            return people[0]
        return point.seat if isinstance(point, Decision) and point.seat in people else None

    # -- telling the view -------------------------------------------------------------------

    def _changed(self) -> None:
        self.draw_due = False
        self.drawn_at = time.monotonic()
        if self.view is not None:
            self.view.changed()

    def _changed_at_pace(self) -> None:
        """The table changed by itself (a bot, an AI, chance): drawn now, except at speed 0, where it
        is drawn at most once a slice (SLICE) and at the latest a slice after the change, so running
        ahead to a person's next decision is not drawing every step of the way."""
        if self.delay() or time.monotonic() - self.drawn_at >= SLICE:
            self._changed()
        elif not self.draw_due and self.view is not None:
            self.draw_due = True
            self.view.later(SLICE, self._draw_due)

    def _draw_due(self) -> None:
        if self.draw_due and not self.closed:
            self._changed()

    def _logged(self, events: Sequence[Event]) -> None:
        if self.view is not None and events:
            self.view.logged(events)

    def _problem(self, text: str) -> None:
        if self.view is not None:
            self.view.problem(text)

    def note(self, text: str, style: str = "italic") -> Note:
        """A line of the driver's (or the view's) own in the log, kept with the steps it follows."""
        note = Note(len(self.entries), visible(text), style)
        self.notes.append(note)
        if self.view is not None:
            self.view.noted(note)
        return note

    # -- playing, step by step (the prompt plays with these alone) --------------------------------

    def _record(self, step: Step, point: Decision | Chance, told: Any) -> None:
        """A step just played (``told`` and ``point`` from before it): told for every seat, and its
        events to the log; when it played several units and there is a pace to follow, they are
        kept to be played out."""
        self.entries.append(played_step(told, point, step, self.runner.game.seats))
        frames = getattr(self.runner.game, "frames", None)
        before, cut = units(frames() if callable(frames) and self.delay() and self.view else (), step.events)
        self._logged(before)
        self.frames_due = cut

    def decide(self, code: Code, clock: int | None = None) -> Step:
        """The deciding seat's choice applied and told (``clock``: its time left, in ms, for the record);
        RulesError (one line) when the rules refuse it."""
        r = self.runner
        point = r.point
        if not isinstance(point, Decision):
            raise RulesError("nobody is to decide now")
        told = tell(r.game, point, code)
        step = r.decide(code) if clock is None else r.decide(code, clock=clock)
        self._record(step, point, told)
        return step

    def dice(self, outcome: Outcome) -> Step:
        """Dice thrown on a real table; RulesError (one line) when they cannot be that roll."""
        r = self.runner
        point = r.point
        step = r.type_outcome(outcome)
        assert isinstance(point, Chance)
        self._record(step, point, tell(r.game, point, step.value))
        return step

    def step(self) -> Step | None:
        """One step nobody has to answer (chance, a bot's, an AI's, a random seat's), told; None
        when the game is over or a person must answer first."""
        r = self.runner
        point = r.point
        if isinstance(point, Decision) and r.waiting is None and r.result is None:
            return self.decide(r.think())  # an AI or a random seat: told before it is applied
        step = r.step()
        if step is None:
            return None
        assert isinstance(point, Chance)
        self._record(step, point, tell(r.game, point, step.value))  # a chance step: told by its point
        return step

    # -- playing at a pace (a screen, a host) ---------------------------------------------------

    def start(self) -> None:
        """Play what nobody here has to answer, up to where a person must (or the end)."""
        self._changed()
        self.advance()

    def delay(self) -> float:
        return 0.0 if self.skipping else SPEEDS[self.speed]

    def later(self, delay: float, then: Callable[[], None]) -> None:
        """``then`` after ``delay`` (at once at 0, after the view has drawn), unless a takeback, a
        skip or another timer comes first: only the latest timer goes on."""
        if self.view is None:
            return
        self.beat += 1
        beat, generation = self.beat, self.generation

        def go() -> None:
            if beat == self.beat and generation == self.generation and not self.halted and not self.closed:
                then()

        self.view.later(delay, go)

    def advance(self) -> None:
        """Play what nobody here has to answer, up to where a person must (or the end)."""
        r = self.runner
        if self.thinking or self.halted or self.closed or self.frame is not None:
            return
        self.beat += 1  # a timer still running is for this very call
        if self.frames_due:
            self.next_frame()
            return
        if r.result is not None or r.waiting is not None:
            self.skipping = False
            self._changed()
            if r.result is not None and not self.ended:
                self.ended = True
                if not r.gi.perfect_information:  # kept until now: it deals every card again
                    self.note(f"the game is over: it was seed {r.header.seed}", "dim")
                if self.view is not None:
                    self.view.over()
            return
        if isinstance(r.point, Decision):  # an AI or a random seat
            self.thinking = True
            self._changed_at_pace()
            self._think()
            return
        # Chance drawn from the seed: one step at a pace, else a slice of them between frames.
        deadline = time.monotonic() + SLICE
        while True:
            if self.step() is None:
                break
            if self.frames_due or self.delay() or time.monotonic() > deadline or not isinstance(r.point, Chance) \
                    or r.waiting:
                break
        self.go_on()

    def go_on(self) -> None:
        """After a step: its units played out if it has them, else the next automatic step after the
        pace's pause (at once when a person must answer, or at speed 0 after a frame)."""
        if self.frames_due:
            self.next_frame()
            return
        r = self.runner
        if r.waiting is not None or r.result is not None:
            self._changed()
            self.advance()
        else:
            self._changed_at_pace()
            self.later(self.delay(), self.advance)

    def next_frame(self) -> None:
        """The next unit of a step that played several: the table as it began and its events, then
        the pace's pause; after the last, the position after the step."""
        if not self.frames_due:
            self.frame = None
            self.go_on()
            return
        self.frame, events = self.frames_due.pop(0)
        self._logged(events)
        self._changed()
        self.later(self.delay(), self.next_frame)

    def skip_frames(self) -> None:
        """Show what is left of a step's units at once (skip, speed 0, takeback)."""
        for _, events in self.frames_due:
            self._logged(events)
        self.frames_due = []
        self.frame = None

    def _think(self) -> None:
        """The deciding AI or random seat's answer, thought in a thread (which only waits while an AI
        searches in its own process); applied here, on the loop, when it comes."""
        generation = self.generation
        search = asyncio.get_running_loop().run_in_executor(None, self.runner.think)
        self.search = search
        search.add_done_callback(lambda done: self._thought(done, generation))

    def _thought(self, done: asyncio.Future[Code], generation: int) -> None:
        if self.search is done:
            self.search = None
        if generation != self.generation or self.halted or self.closed:
            return  # stopped, or thought for a game taken back since: dropped
        self.thinking = False
        error = done.exception() if not done.cancelled() else RulesError("the search was cancelled")
        if error is not None:
            self._problem(f"the AI failed: {error}")
            self._changed()
            return
        if self._apply(done.result()):
            self.go_on()

    def _apply(self, code: Code, clock: int | None = None) -> bool:
        """Apply the deciding seat's choice; False (and the problem told) when the rules refuse it."""
        return self._tried(lambda: self.decide(code, clock))

    def _tried(self, play: Callable[[], Step]) -> bool:
        """Play a step; False, with the rules' one line told, when they refuse it (else the problem cleared)."""
        try:
            play()
        except RulesError as err:
            self._problem(str(err))
            return False
        self._problem("")
        return True

    async def halt(self) -> None:
        """Stop the AI (it answers at once) and wait until its thread is done; its answer is dropped."""
        self.halted = True
        search, self.search = self.search, None
        if search is not None:
            try:
                await search
            except Exception:  # noqa: BLE001 - a failed search is dropped like a stopped one
                pass
        self.thinking = False

    def _resume_pace(self) -> None:
        """After a takeback, a resignation or a reseat: answers thought before are dropped and the
        game goes on from where it stands."""
        self.halted = False
        self.skipping = False
        self._changed()
        self.advance()

    # -- what a person does -----------------------------------------------------------------

    def play(self, code: Code, clock: int | None = None) -> bool:
        """A person's choice (``clock``: its seat's time left, in ms, for the record): played and the
        game goes on, or refused with the reason told (False)."""
        why = self.why_not_choose()
        if why is not None:
            self._problem(why)
            return False
        if not self._apply(code, clock):
            return False
        self.go_on()
        return True

    def type_dice(self, outcome: Outcome) -> bool:
        """Dice typed from a real table, checked by the rules before they count; False when refused."""
        if not self._tried(lambda: self.dice(outcome)):
            return False
        self.go_on()
        return True

    def skip(self) -> None:
        """Run at speed 0 up to the next decision a person here must make (or typed dice), then
        back to the pace set."""
        r = self.runner
        if r.waiting is not None and self.frame is None and not self.frames_due:
            self._problem("it is for a person here to answer now")
            return
        if r.result is not None and self.frame is None:
            return
        self.skipping = True
        self.skip_frames()
        self._changed()
        self.advance()

    def set_speed(self, delta: int) -> None:
        """Slower (+1) or faster (-1) by one step of :data:`SPEEDS`."""
        self.speed = min(len(SPEEDS) - 1, max(0, self.speed + delta))
        self._changed()

    async def _stop_for_change(self) -> None:
        """Before the game is changed under the pace: the AI stopped, answers thought so far dropped,
        the units still to show shown."""
        await self.halt()
        self.generation += 1
        self.skip_frames()

    async def takeback(self) -> int:
        """Take back the person's last move (in hot seat, the seat at the keyboard's own, by the rules of
        :meth:`Runner.takeback`); the number of steps undone, 0 with the reason told."""
        if not self.runner.people:
            self._problem("takeback is for games with a human player")
            return 0
        await self._stop_for_change()
        undone, _ = self.undo()
        if not undone:
            self.halted = False
            self.skipping = False
            self.advance()
            return 0
        self._resume_pace()
        return undone

    def undo(self) -> tuple[int, str]:
        """The takeback itself, with nothing thinking meanwhile (the prompt's, or :meth:`takeback`'s once
        the AI is stopped): the record rewritten, the log cut back, a note; the steps undone and the
        note's words, or 0 and the reason (told to the view too)."""
        r = self.runner
        several = len(r.people) > 1
        try:
            resumed = r.takeback(self.view_seat() if several else None)
        except (RecordError, RulesError, OSError) as err:
            resumed, problem = None, f"cannot take back: {err}"
        else:
            problem = ("nothing of yours to take back: another person has decided, or dice or a card "
                       "have been seen since" if several else "nothing to take back")
        if resumed is None:
            self._problem(problem)
            return 0, problem
        undone = len(r.history) - len(resumed.history)
        self._adopt(resumed)
        del self.entries[len(resumed.history):]
        self.ended = False
        note = self.note(f"took back {undone} move(s)")
        self._problem("")
        return undone, note.text

    async def resign(self, seat: int) -> bool:
        """``seat``'s person gives up; False with the reason told when they may not. At a table where
        each person has a screen of their own (a hosted game) any person may, whoever is asked."""
        anyone = self.own_screens and seat in self.runner.people
        if (seat != self.resigner() and not anyone) or self.runner.result is not None:
            self._problem("nobody here can resign now")
            return False
        await self._stop_for_change()
        try:
            self.runner.resign(seat)
        except (RulesError, OSError) as err:
            self._problem(f"cannot resign: {err}")
            self.halted = False
            self.advance()
            return False
        self._resume_pace()  # the game is over: the view hears of it
        return True

    async def reseat(self, seat: int, kind: str) -> bool:
        """Hand ``seat`` to the AI or take it back, mid-game (the record says so from then on)."""
        await self._stop_for_change()
        name = self.runner.game.seats[seat]
        try:
            resumed = self.runner.reseat(seat, SeatPlan(kind))
        except (RecordError, RulesError, OSError) as err:
            self._problem(f"cannot hand over {name}: {err}")
            done = False
        else:
            self._adopt(resumed)
            self.note(f"{'the AI' if kind == 'ai' else 'a person'} plays {name} from here")
            self._problem("")
            done = True
        self._resume_pace()
        return done

    async def leave(self) -> None:
        """The people here leave: the AI stopped, and the record let go (its writer's lock)."""
        await self.halt()
        self.close()

    def close(self) -> None:
        """Stop at once (a search still running has its answer dropped) and let go of the record."""
        self.halted = True
        self.closed = True
        self.runner.close()
