"""The match driver: asks the deciding seat's controller or the chance source,
applies the answer, and hands each step to the sinks (the journal, the UI)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, Union

from core.chance import ChanceSource, typed
from core.engine import Chance, Code, Decision, Event, Game, Outcome, Over, Point, Result, RulesError
from core.rng import SplitMix64


@dataclass(frozen=True, slots=True)
class Step:
    index: int  # 1-based: step N leads from position N-1 to position N
    kind: str  # "decision" or "chance"
    seat: int | None
    value: Union[Code, Outcome]
    events: tuple[Event, ...]


Sink = Callable[[Step, Game], None]


class Controller(Protocol):
    """Answers Decisions for one seat: a human, an AI, a random mover.

    The match hands ``choose`` a copy of the game, so a controller cannot change it. A
    controller that only reads it (its view, ``describe``) may set a class attribute
    ``reads_only = True``: it then gets the game itself, since a copy of a procedure game
    replays its unit and costs more than a whole step of play.
    """

    def choose(self, game: Game, decision: Decision) -> Code: ...


def _never() -> bool:
    return False


MOST_SECONDS = 24 * 3600.0  # the longest time per decision a record's seat detail is taken to state
_LIMIT_TEXT = re.compile(r"(?P<seconds>[0-9.]+)s per (?:move|decision)|depth <= (?P<depth>[0-9]+)"
                         r"|(?P<rollouts>[0-9]+) rollouts|(?P<nodes>[0-9]+) nodes per decision"
                         r"|level (?P<level>[a-z][a-z0-9-]{0,23})")


@dataclass(frozen=True)
class Limit:
    """The one limit every game's AI takes: time per decision, a search depth, a number of
    rollouts or of search nodes per decision (each None: the AI's own default), a level the
    game's AI names (None: its full strength), and a stop flag polled while it thinks, which
    ends the search at once with the best answer so far. Nodes are work, not time: an AI so
    limited plays the same on any machine under any load."""

    seconds: float | None = None
    depth: int | None = None
    rollouts: int | None = None
    nodes: int | None = None
    level: str | None = None  # a strength or style the game's AI names (Take the Kingdom's "greedy" baseline)
    stop: Callable[[], bool] = field(default=_never, compare=False)

    def text(self) -> str:
        """``0.2s per decision, depth <= 3``: how a record's seat detail states it."""
        parts = []
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s per decision")
        if self.depth is not None:
            parts.append(f"depth <= {self.depth}")
        if self.rollouts is not None:
            parts.append(f"{self.rollouts} rollouts")
        if self.nodes is not None:
            parts.append(f"{self.nodes} nodes per decision")
        if self.level is not None:
            parts.append(f"level {self.level}")
        return ", ".join(parts)

    @classmethod
    def parse(cls, text: str) -> "Limit":
        """The limit a seat detail states (what :meth:`text` wrote; older records say "per move")."""
        found: dict[str, Any] = {}
        for m in _LIMIT_TEXT.finditer(text):
            if m["seconds"]:
                try:
                    seconds = float(m["seconds"])
                except ValueError:
                    continue
                if seconds <= MOST_SECONDS:  # a record (a stranger's text) cannot make an AI think for ages
                    found["seconds"] = seconds
            elif m["depth"]:
                found["depth"] = int(m["depth"][:6])
            elif m["rollouts"]:
                found["rollouts"] = int(m["rollouts"][:9])
            elif m["nodes"]:
                found["nodes"] = int(m["nodes"][:9])
            elif m["level"]:
                found["level"] = m["level"]
        return cls(**found)

    def with_stop(self, stop: Callable[[], bool]) -> "Limit":
        return replace(self, stop=stop)


class RandomController:
    """Picks uniformly among the options, from its own seeded generator."""

    reads_only = True  # it never looks at the game

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, game: Game, decision: Decision) -> Code:
        return decision.options[self.rng.below(len(decision.options))]


class HumanController:
    """A person typing options in the game's notation.

    ``ask`` returns the text typed (the UI supplies it); a line the rules
    refuse is reported through ``tell`` and asked again, so nothing is lost.
    """

    def __init__(self, ask: Callable[[Game, Decision], str], tell: Callable[[str], None]) -> None:
        self.ask = ask
        self.tell = tell

    def choose(self, game: Game, decision: Decision) -> Code:
        while True:
            text = self.ask(game, decision)
            try:
                code = game.parse(text)
            except RulesError as err:
                self.tell(str(err))
                continue
            if code in decision.options:
                return code
            self.tell(f"{text.strip()}: not a legal option here")


def handed(controller: object, game: Game) -> Game:
    """The game ``controller`` is asked with: the game itself when it only reads it (``reads_only``),
    else a copy it cannot change."""
    return game if getattr(controller, "reads_only", False) else game.clone()


if TYPE_CHECKING:  # the players core has are Controllers to the checker (issue 28)
    _CONTRACT: tuple[type[Controller], ...] = (RandomController, HumanController)


class Match:
    """Drives a game one step at a time: asks the deciding seat's controller or the
    chance source, applies the answer and hands the :class:`Step` to every sink.

    A seat with no controller is a person's, and a chance point the source leaves
    open (it returns None: dice thrown on a real table) is typed by a person: the
    match then waits (:attr:`waiting`) until :meth:`apply` or :meth:`resolve` brings
    the answer. The game is asked for its point once per step.
    """

    def __init__(
        self,
        game: Game,
        controllers: Mapping[int, Controller] | Sequence[Controller],
        chance: ChanceSource,
        sinks: Sequence[Sink] = (),
    ) -> None:
        self.game = game
        self.controllers = dict(enumerate(controllers)) if isinstance(controllers, Sequence) else dict(controllers)
        self.chance = chance
        self.sinks = list(sinks)
        self.steps = 0
        self._point: Point | None = None

    @property
    def point(self) -> Point:
        """The game's point, asked once per step."""
        if self._point is None:
            self._point = self.game.point()
        return self._point

    def forget_point(self) -> None:
        """The game was moved on outside the match (a record replayed): ask it for its point again."""
        self._point = None

    def _emit(self, step: Step) -> Step:
        self._point = None
        for sink in self.sinks:
            sink(step, self.game)
        return step

    @property
    def waiting(self) -> Decision | Chance | None:
        """The question a person must answer before the match can go on, if any."""
        point = self.point
        if isinstance(point, Decision):
            return None if point.seat in self.controllers else point
        if isinstance(point, Chance):
            return point if typed(self.chance, point) else None
        return None

    def apply(self, code: Code) -> Step:
        """Apply a decision chosen outside the driver (a person, a UI click), checked for legality."""
        point = self.point
        if not isinstance(point, Decision):
            raise RulesError("no decision is pending")
        code = tuple(code)
        if not point.allows(code):
            raise RulesError(f"{self.game.describe(code)}: not a legal option here")
        events = self.game.apply(code)
        self.steps += 1
        return self._emit(Step(self.steps, "decision", point.seat, code, tuple(events)))

    def resolve(self, outcome: Outcome) -> Step:
        """Apply a chance outcome brought from outside (dice a person typed), checked against the point."""
        point = self.point
        if not isinstance(point, Chance):
            raise RulesError("no chance point is pending")
        return self._resolved(point.validate(outcome))

    def _resolved(self, outcome: Outcome) -> Step:
        """Apply ``outcome``, already valid for the point (checked, or given by the chance source)."""
        events = self.game.resolve(outcome)
        self.steps += 1
        return self._emit(Step(self.steps, "chance", None, outcome, tuple(events)))

    def answer(self) -> Code:
        """What the deciding seat's controller chooses (a copy of the game, unless it only reads it)."""
        point = self.point
        assert isinstance(point, Decision) and point.seat in self.controllers
        controller = self.controllers[point.seat]
        return controller.choose(handed(controller, self.game), point)

    def step(self) -> Step | None:
        """Advance one step; None when the game is over or a person must answer first."""
        point = self.point
        if isinstance(point, Over):
            return None
        if isinstance(point, Chance):
            # A source's outcome is valid for the point (core.chance.ChanceSource): not checked twice.
            return None if typed(self.chance, point) else self._resolved(self.chance.outcome(point))
        if point.seat not in self.controllers:
            return None
        return self.apply(self.answer())

    def run(self, max_steps: int | None = None) -> Result | None:
        """Play until the game is over (its result, also when its last step was the
        ``max_steps``-th), or a person must answer, or ``max_steps`` more steps were taken
        (None in both cases)."""
        taken = 0
        while max_steps is None or taken < max_steps:
            if self.step() is None:
                break
            taken += 1
        point = self.point
        return point.result if isinstance(point, Over) else None
