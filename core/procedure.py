"""Games whose turns are long conversations, written as generator procedures.

A procedure is a generator: it yields a :class:`Decision` or a :class:`Chance`
and is sent back the option code or the outcome, so a rule reads top to
bottom as the rulebook does, and ``yield from`` nests one procedure in
another (an attack inside an event). :class:`ProcedureGame` runs them on the
engine contract (docs/architecture.md, "Procedures are generators").

A generator cannot be copied, so the game runs in **units** (say the start
of a turn, one seat's round, the end of a turn). When a unit begins, the
state is copied; ``clone()`` is that copy with the unit's answers so far
replayed, and ``canonical()`` is the unit, its starting state and those
answers, which fix the position exactly. A unit the game says is quiet
(:meth:`ProcedureGame._quiet`: it runs to its end without a question) is not
copied: no position ever stands in it.

One step (an apply or a resolve) may run several units: rulebook bots play
whole rounds without a question. :meth:`ProcedureGame.frames` hands out, for
the step just played, a read-only picture of the game as each of those units
began, so a UI can show the table before each bot acts.

A game supplies:

* ``self.s``, its state: ``copy()`` and ``canonical()``;
* :meth:`ProcedureGame._unit_proc`: the procedure of a unit;
* :meth:`ProcedureGame._next_unit`: the unit after one ends, or None when
  the game is over (the unit, or ``_next_unit`` itself, called ``_finish``);
* for a game that can end in the middle of a procedure, a subclass of
  :class:`GameEnded` to raise and :meth:`ProcedureGame._ended` to turn it
  into a :class:`Result`.

Every attribute but the state, the events and the unit's procedure and
answers is shared between a game and its clones: keep them immutable.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import fields
from typing import Any, Union

from core.engine import DECISION_KINDS, Chance, Code, Decision, Event, Outcome, Over, Point, Result, RulesError, Seen

Ask = Union[Decision, Chance]
Proc = Generator[Ask, Any, Any]  # a procedure: yields questions, is sent answers
Unit = tuple[Any, ...]  # a unit's name and arguments, e.g. ("round", 2); part of the canonical form

# Attributes a clone rebuilds for itself; every other one it shares.
_OWN = frozenset(("s", "events", "_gen", "_inputs", "_step"))
Frame = tuple[int, Any]  # how many of the step's events came before a unit began, the game as it began


def _event_maker() -> Callable[[str, str, str, tuple[Any, ...], Seen, str], Event]:
    """``Event(kind, text, rule, data, seen, public)``, built faster: a game emits hundreds of
    events a step it plays by itself (Taifa's bots), and a frozen dataclass's ``__init__`` sets
    each field through ``object.__setattr__``. Here each slot is set at once by its descriptor:
    the same object. Should Event have other fields than these six, the class itself builds it."""
    names = ("kind", "text", "rule", "data", "seen", "public")
    if tuple(f.name for f in fields(Event)) != names or getattr(Event, "__slots__", None) != names:
        return Event
    kind, text, rule, data, seen, public = (vars(Event)[name].__set__ for name in names)
    new = object.__new__

    def make(k: str, t: str, r: str, d: tuple[Any, ...], s: Seen, p: str) -> Event:
        event = new(Event)
        kind(event, k)
        text(event, t)
        rule(event, r)
        data(event, d)
        seen(event, s)
        public(event, p)
        return event

    return make


_event = _event_maker()


class GameEnded(Exception):
    """Raised inside a procedure to end the game at once (Taifa's 13th castle).

    A game subclasses it with what it needs to know, and says in
    :meth:`ProcedureGame._ended` what the result is.
    """


class ProcedureGame:
    """The engine contract (``point``, ``apply``, ``resolve``, ``clone``, ``canonical``)
    for a game written as generator procedures run in units.

    A subclass sets ``game``, ``variant`` and ``options`` (the Game protocol), calls
    ``__init__`` with its state, then :meth:`_start` with its first unit.
    """

    game: str
    variant: str
    s: Any  # the state: .copy() and .canonical()
    events: list[Event]  # events of the step in progress, handed out by apply/resolve
    result: Result | None
    _point: Point
    _unit: Unit
    _base: Any  # a copy of the state as the unit began
    _inputs: list[Any]  # the unit's answers so far
    _gen: Proc | None  # None in a frame: a picture, never played
    # The step just played, when it began a unit: the unit it began in (its starting state,
    # name and answers, this step's the last) and the events waiting before it. frames()
    # replays it; a step keeps nothing more, so play costs no more.
    _step: tuple[Any, Unit, list[Any], int] | None
    # False: nobody reads the events (core.engine.leave_events_unmade, a headless batch or a
    # verify), so emit makes none and a step returns none; clones share it.
    telling = True

    def __init__(self, state: Any) -> None:
        self.s = state
        self.events = []
        self.result = None
        self._step = None

    @property
    def options(self) -> dict[str, Any]:
        raise NotImplementedError

    # -- what a game supplies ------------------------------------------------------

    def _unit_proc(self, unit: Unit) -> Proc:
        """The procedure that plays ``unit``."""
        raise NotImplementedError

    def _next_unit(self, returned: Any) -> Unit | None:
        """The unit after the current one, which returned ``returned``; None: the game is over."""
        raise NotImplementedError

    def _quiet(self, unit: Unit) -> bool:
        """Whether ``unit``, about to begin, certainly runs to its end without a question (a bot's
        round that only deploys a card): its starting state is then not copied, as nothing can ask
        for it (no point stands in it). A unit said quiet that asks one is a bug: RuntimeError.
        A game may say so of the units it knows; by default none is."""
        return False

    def _ended(self, end: GameEnded) -> Result:
        """The result of a game a procedure ended by raising ``end``."""
        raise NotImplementedError(f"{type(self).__name__} does not say how {type(end).__name__} ends the game")

    # -- the engine contract -------------------------------------------------------

    def point(self) -> Point:
        return self._point

    def apply(self, code: Code) -> list[Event]:
        p = self._point
        if not isinstance(p, Decision):
            raise RulesError("no decision is pending")
        code = tuple(code)
        if code not in p.options:
            raise RulesError(f"{self.describe(code)}: not a legal option here")
        return self._answer(code)

    def resolve(self, outcome: Outcome) -> list[Event]:
        p = self._point
        if not isinstance(p, Chance):
            raise RulesError("no chance point is pending")
        return self._answer(p.validate(outcome))

    def describe(self, code: Code) -> str:
        return repr(code)

    def frames(self) -> list[Frame]:
        """For the step just played, each unit begun during it: (how many of the step's events
        came before it began, a read-only copy of the game as it began). Empty when it began none.

        A frame is for drawing (``view``, ``describe``, ``canonical``): its state is the unit's
        starting state (shared with the game, never changed), its ``point()`` the point the step
        stopped at (for a unit begun in the step, the first one after it began). ``apply`` and
        ``resolve`` on it raise RulesError; ``clone()`` of it is a playable game at the unit's
        first question. Units begun while the game was built (before step 1) have none.

        Built when asked for, by replaying the step from the unit it began in (as ``clone``
        replays a unit), so a step costs next to nothing more.
        """
        if self._step is None:
            return []
        base, unit, inputs, before = self._step
        replay = self._frame(base, unit)
        replay.s = base.copy()
        frames: list[Frame] = []

        def begin(unit: Unit, begin: Any = replay._begin) -> None:
            begin(unit)
            frames.append((before + len(replay.events), self._frame(replay._base, unit)))

        replay._begin = begin  # type: ignore[method-assign,unused-ignore]  # this copy only: note each unit begun
        replay._quiet = lambda unit: False  # type: ignore[method-assign,unused-ignore]  # each frame shows its start
        replay._gen = replay._unit_proc(unit)
        replay._advance(None)
        for value in inputs[:-1]:
            replay._advance(value)
        replay.events = []
        replay._advance(inputs[-1])
        return frames

    def picture(self, state: Any, result: Result | None) -> Any:
        """This game (its data, options, seats) at another position, for drawing only (a frame: it is
        never played on); a finished game's point is its result."""
        game = self._frame(state, self._unit)
        game.result = result
        if result is not None:
            game._point = Over(result)
        return game

    def _frame(self, base: Any, unit: Unit) -> Any:
        cls = type(self)
        f = cls.__new__(cls)
        f.__dict__.update({k: v for k, v in self.__dict__.items() if k not in _OWN})
        f.s, f._base, f._unit, f.result, f.events = base, base, unit, None, []
        f._gen, f._inputs, f._step = None, [], None
        return f

    def clone(self) -> Any:
        cls = type(self)
        c = cls.__new__(cls)
        c.__dict__.update({k: v for k, v in self.__dict__.items() if k not in _OWN})
        c.events = []
        c._step = None
        if self.result is not None:
            c.s = self.s.copy()
            c._inputs = list(self._inputs)
            return c
        c.s = self._base.copy()
        c._inputs = []
        c._gen = c._unit_proc(self._unit)
        c._advance(None)
        for value in self._inputs:
            c._advance(value)
        c._inputs = list(self._inputs)
        c.events = []
        return c

    def canonical(self) -> Any:
        result = None if self.result is None else [list(self.result.winners), self.result.reason, self.result.rule]
        # Once over, no procedure runs: the state as it ended is the position.
        state = self.s if self.result is not None else self._base
        return {
            "game": self.game, "variant": self.variant, "options": self.options,
            "unit": list(self._unit), "state": state.canonical(),
            "inputs": [list(v) if isinstance(v, tuple) else v for v in self._inputs], "result": result,
        }

    def restart(self, unit: Unit) -> list[Event]:
        """Begin ``unit`` afresh from the state as it is now; the events up to the first question.

        For set positions (tests, puzzles): edit ``self.s``, then restart.
        """
        self.result = None
        self.events = []
        self._step = None
        self._start(unit)
        out, self.events = self.events, []
        return out

    # -- running units -------------------------------------------------------------

    def _start(self, unit: Unit) -> None:
        """Begin ``unit`` and run to the first question; its events wait for the next step."""
        self._begin(unit)
        self._advance(None)

    def _begin(self, unit: Unit) -> None:
        self._unit = unit
        self._base = None if self._quiet(unit) else self.s.copy()
        self._inputs = []
        self._gen = self._unit_proc(unit)

    def _answer(self, value: Any) -> list[Event]:
        if self._gen is None:
            raise RulesError("this is a picture of the game as a unit began (a frame): it cannot be played")
        # Events from building the game are still here: they go with step 1.
        base, unit, inputs, before = self._base, self._unit, self._inputs, len(self.events)
        inputs.append(value)
        self._advance(value)
        self._step = None if self._base is base else (base, unit, inputs, before)
        out, self.events = self.events, []
        return out

    def _advance(self, value: Any) -> None:
        """Run the current unit (and the ones after it) to the next question or the end."""
        while True:
            assert self._gen is not None, "a frame is a picture: it is never played on"
            try:
                self._point = self._gen.send(value)
                if self._base is None:
                    raise RuntimeError(f"unit {self._unit} was said to be quiet (_quiet) but asks {self._point}")
                return
            except StopIteration as stop:
                nxt = self._next_unit(stop.value)
            except GameEnded as end:
                self._finish(self._ended(end))
                return
            if nxt is None:
                if self.result is None:
                    raise RuntimeError(f"unit {self._unit} ended with no next unit and no result")
                return
            self._begin(nxt)
            value = None

    def _finish(self, result: Result) -> None:
        """End the game with ``result`` (a unit calls it, or :meth:`_advance` on a GameEnded)."""
        self.result = result
        self._point = Over(result)

    # -- what procedures use -------------------------------------------------------

    def emit(self, kind: str, text: str, rule: str, *data: Any, seen: Seen = None, public: str = "") -> None:
        """An event; ``seen`` names the seats that may read it (None: all), ``public`` what the
        others read instead (empty: nothing). See core.engine.Event. None is made while the game
        is not :attr:`telling`: a rule never reads its events back (it keeps one with :meth:`told`)."""
        if self.telling:
            self.events.append(_event(kind, text, rule, data, seen, public))  # data: a tuple already

    def told(self, kind: str, text: str, rule: str, *data: Any) -> Event:
        """:meth:`emit`, returning the event, made whether the game is telling or not: for a rule
        that keeps it (a fight's deciding roll, shown in the view)."""
        event = _event(kind, text, rule, data, None, "")
        if self.telling:
            self.events.append(event)
        return event

    def ask(self, seat: int, prompt: str, options: Sequence[Code], kind: str) -> Proc:
        """A Decision for ``seat``; ``kind`` says what it asks (DECISION_KINDS). Returns the code."""
        if kind not in DECISION_KINDS:
            raise ValueError(f"unknown decision kind {kind!r}")
        code = yield Decision(seat, prompt, tuple(options), kind)
        return code

    def roll(self, n: int, sides: int, label: str) -> Proc:
        """Roll ``n`` dice of ``sides`` (a Chance point; none when n is 0). Returns the values."""
        if n <= 0:
            return ()
        dice = yield Chance("dice", (n, sides), label)
        return dice

    def pick(self, n: int, label: str, seen: Seen = None) -> Proc:
        """One of ``n`` at random (a Chance point), e.g. a card drawn blind from a hand; ``seen``:
        who may see which one (None: everyone)."""
        i = yield Chance("pick", (n,), label, seen)
        return i

    def shuffle(self, n: int, label: str) -> Proc:
        """A permutation of ``n`` cards (a Chance point). Returns it: position i gets card perm[i]."""
        perm = yield Chance("shuffle", (n,), label)
        return perm
