"""The engine contract every game implements (DESIGN.md, "The engine contract").

A game state is always at one of three points:

* :class:`Decision` -- one seat picks one option code from ``options``;
* :class:`Chance` -- the rules need a random outcome of a given kind;
* :class:`Over` -- the game has ended with a :class:`Result`.

``apply(code)`` answers a Decision, ``resolve(outcome)`` answers a Chance.
Both mutate the state in place and return the :class:`Event` list the step
produced; ``clone()`` gives an independent copy for look-ahead and replay.
Events are derived, never stored: replaying the same codes and outcomes
yields the same events again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, Union, runtime_checkable

# An option code: a small tuple of ints and short strings whose meaning does
# not depend on the order in which options are listed. Every code that crosses the contract
# (a Decision's options, ``parse``, ``apply``, a record's step) is checked as one.
Code = tuple[Union[int, str], ...]
# A code as the game that made it reads it: which parts are ints and which strings depends on
# the verb in its first place (Kingdom's ``("place", card, slot)``, ``("freeze", card, seat)``),
# which a tuple of unions cannot follow without a check at every read, and an AI reads codes in
# its inner loop. A game's own readers take Parts; a Code is one, and Parts is a Code.
Parts = tuple[Any, ...]

# A chance outcome: an int (pick) or a tuple of ints (dice, a permutation).
Outcome = Union[int, tuple[int, ...]]


# Who may see something (DESIGN.md, "The information wall"): None is every seat and every
# spectator; a frozenset names the seats that may (empty: nobody at the table, a shuffle's order).
Seen = Union[frozenset[int], None]
# The points of view a log or a view is made for: a seat's number, a spectator (None), or the
# full table, which sees every hand, every face-down card and every deck's order (a finished
# game, a dispute). ``view(TABLE)`` is that picture.
Viewer = Union[int, None]
SPECTATOR: Viewer = None
TABLE = -1


def sees(viewer: Viewer, seen: Seen) -> bool:
    """Whether ``viewer`` may see what ``seen`` allows."""
    return seen is None or viewer == TABLE or (viewer is not None and viewer in seen)


class RulesError(ValueError):
    """A move, option or outcome that the rules do not allow (one clear line)."""


# What a Decision asks, so a UI or an AI never guesses it from the option verbs:
#   action   a seat's main choice on its turn (a Tafl move, a Taifa action)
#   target   where or against whom (an area, a kingdom, a card to take)
#   commit   add one more of my cards or resources to something, or done
#   respond  join someone else's procedure out of turn, or decline
#   choose   one of a few named alternatives (bonus or garrison)
DECISION_KINDS = ("action", "target", "commit", "respond", "choose")


@dataclass(frozen=True, slots=True)
class Decision:
    seat: int
    prompt: str
    options: tuple[Code, ...]
    kind: str = "action"  # one of DECISION_KINDS

    def allows(self, code: object) -> bool:
        """Whether ``code`` is one of the options: what a replay checks of a record's decision."""
        return code in self.options


class LazyDecision(Decision):
    """A Decision whose options are listed only when first read, and which tells ``allows`` without
    listing them: a replay or verify checks one code a step, where listing a Tafl position's moves
    is most of the work. It equals, hashes and pickles as the Decision it stands for. ``options``
    and ``allows`` must not depend on anything that changes after it is made (the game moving on)."""

    __slots__ = ("_options", "_list", "_allows")
    _options: tuple[Code, ...] | None  # None until first read
    _list: Callable[[], tuple[Code, ...]]
    _allows: Callable[[object], bool]

    def __init__(self, seat: int, prompt: str, list_options: Callable[[], tuple[Code, ...]],
                 allows: Callable[[object], bool], kind: str = "action") -> None:
        setattr_ = object.__setattr__  # frozen: set as the dataclass's own __init__ does
        setattr_(self, "seat", seat)
        setattr_(self, "prompt", prompt)
        setattr_(self, "kind", kind)
        setattr_(self, "_options", None)
        setattr_(self, "_list", list_options)
        setattr_(self, "_allows", allows)

    @property  # the field, read-only as it is (frozen), listed when first read
    def options(self) -> tuple[Code, ...]:
        options = self._options
        if options is None:
            options = self._list()
            object.__setattr__(self, "_options", options)
        return options

    def allows(self, code: object) -> bool:
        return self._allows(code)

    def _fields(self) -> tuple[Any, ...]:
        return (self.seat, self.prompt, self.options, self.kind)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self._fields() == (other.seat, other.prompt, other.options, other.kind)

    def __hash__(self) -> int:
        return hash(self._fields())  # as Decision's own: a hash of its fields

    def __repr__(self) -> str:
        return f"Decision(seat={self.seat!r}, prompt={self.prompt!r}, options={self.options!r}, kind={self.kind!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Decision, self._fields())


# Chance kinds and their specs:
#   ("dice", n, sides)  -> tuple of n ints in 1..sides
#   ("shuffle", n)      -> a permutation of range(n), as a tuple
#   ("pick", n)         -> one int in 0..n-1
CHANCE_KINDS = ("dice", "shuffle", "pick")
_INT = frozenset({int})


def only_ints(values: Iterable[object]) -> bool:
    """Whether every value is an int, never a bool (its type, not isinstance), tested in C: verify
    checks every value of a record's every outcome."""
    return _INT.issuperset(map(type, values))


@dataclass(frozen=True, slots=True)
class Chance:
    """A random outcome the rules need. ``seen``: who may see the outcome (None: everyone, the
    dice of an open roll); a shuffle's order is seen by nobody, whatever ``seen`` says."""

    kind: str
    spec: tuple[int, ...]
    label: str = ""
    seen: Seen = None

    @property
    def outcome_seen(self) -> Seen:
        return frozenset() if self.kind == "shuffle" else self.seen

    def validate(self, outcome: Any) -> Outcome:
        """Return ``outcome`` normalised, or raise RulesError if it cannot be one."""
        if self.kind == "pick":
            (n,) = self.spec
            if type(outcome) is not int or not 0 <= outcome < n:
                raise RulesError(f"pick outcome must be an integer 0..{n - 1}")
            return outcome
        if not isinstance(outcome, (tuple, list)) or not only_ints(outcome):
            raise RulesError(f"{self.kind} outcome must be a list of integers")
        values = tuple(outcome)
        if self.kind == "dice":
            n, sides = self.spec
            if len(values) != n or (n and not (min(values) >= 1 and max(values) <= sides)):
                raise RulesError(f"dice outcome must be {n} values in 1..{sides}")
            return values
        if self.kind == "shuffle":
            (n,) = self.spec
            if sorted(values) != list(range(n)):
                raise RulesError(f"shuffle outcome must be a permutation of 0..{n - 1}")
            return values
        raise RulesError(f"unknown chance kind {self.kind!r}")


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended. ``winners`` are seat numbers; empty means a draw."""

    winners: tuple[int, ...]
    reason: str
    rule: str
    scores: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Over:
    result: Result


Point = Union[Decision, Chance, Over]


@dataclass(frozen=True, slots=True)
class Event:
    """A fact a person reads, with the rule (``tafl trad.play.3``) or ruling id behind it.

    ``seen``: who may read ``text`` and ``data`` (None: everyone). Every other seat reads
    ``public`` instead (``León draws 2 cards``), or nothing of it when ``public`` is empty."""

    kind: str
    text: str
    rule: str
    data: tuple[Any, ...] = field(default=())
    seen: Seen = None
    public: str = ""

    def as_seen(self, viewer: Viewer) -> "Event | None":
        """The event as ``viewer`` may read it: itself, its public wording (no data), or None."""
        if sees(viewer, self.seen):
            return self
        return Event(self.kind, self.public, self.rule) if self.public else None


@runtime_checkable
class Game(Protocol):
    """What the runner, the notation layer and the UI rely on.

    Optional, not part of the protocol (generic code uses ``getattr(game, "frames", None)``):
    ``frames() -> list[tuple[int, Game]]``, for the step just applied or resolved, each unit
    of play begun during it (say a rulebook bot's round): how many of the step's events came
    before it began, and a read-only copy of the game as it began, good for ``view``,
    ``describe`` and drawing, never for ``apply``/``resolve``. Empty when the step began
    none. A UI draws a game without it only after each step (core/procedure.py has it).
    """

    game: str  # the registry name: "tafl", "taifa", "kingdom"
    variant: str  # a variant or scenario of that game
    seats: tuple[str, ...]  # seat names, index = seat number

    @property
    def options(self) -> dict[str, Any]:
        """Every rule option with its value (defaults filled in): what a record's header holds."""
        ...

    @property
    def bot_seats(self) -> frozenset[int]:
        """Seats the rulebook's own bot plays: the rules resolve them and they never decide."""
        ...

    @property
    def result(self) -> Result | None:
        """How the game ended; None while it goes on."""
        ...

    def point(self) -> Point: ...

    def apply(self, code: Code) -> list[Event]: ...

    def resolve(self, outcome: Outcome) -> list[Event]: ...

    def clone(self) -> "Game": ...

    def canonical(self) -> Any:
        """A nested structure of None/bool/int/str/bytes/tuples/lists/dicts that
        fixes the whole state; :func:`core.digest.digest` hashes it."""
        ...

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see (None: a spectator)."""
        ...

    def describe(self, code: Code) -> str:
        """The option as a person writes it (a move in notation, a card name)."""
        ...

    def parse(self, text: str) -> Code:
        """The option a person typed; raises RulesError with one clear line."""
        ...


# Optional methods of a Game, asked through core.visibility (a game without them has no hidden
# choices and no choice that needs a second word):
#   public_words(code) -> str | None   at a Decision, before applying: what the other seats read of
#       the choice when its words would tell them what they may not see (``León places a card face
#       down``); None when the choice is public. Only the deciding seat (and the full table) read
#       ``describe(code)`` then.
#   warning(code) -> str | None   at a Decision: a question to ask once before a choice a person
#       cannot take back or may regret (``End your turn with 2 plays left?``); None for most.


def leave_events_unmade(game: Game) -> None:
    """Tell ``game`` that nobody will read the events its steps return (a headless batch, a
    verify): a game with a ``telling`` attribute (core/procedure.py) then makes none, and its
    steps return no events. Only what the game does, never what it records or its positions,
    may depend on it. Wording about a thousand events a game is a sixth of Taifa's six-bot play."""
    if hasattr(game, "telling"):
        game.telling = False  # an optional attribute, asked above
