"""Hoard: a tiny game that exists only in the tests, to prove that every layer plays a
game it has never heard of (issue 8). It is registered in core alone, from the tests.

Three seats: Gold and Silver (human, ai or random) and the Dragon, a rulebook bot
(rules, never a decision). A shuffled deck of six gems worth 1..6 lies face down.
Gold and Silver take turns: ``take`` the top gem into their hoard, ``roll`` a die
(4-6: +2, else -1) or ``rest``. After each turn the Dragon rolls a die; on a 6 it
steals 1 from the richer player (ties: nobody). Six turns each, then the richer hoard wins.

Hidden information (the information wall): a gem taken is seen by its taker only, so a hoard's
worth is its owner's to see until the end; the deck's order is nobody's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from core import games as core_games
from core.engine import TABLE, Chance, Code, Decision, Event, Outcome, Over, Result, RulesError, sees
from core.games import GameDescriptor, OptionSpec, SeatSpec
from core.match import Limit

SEATS = ("Gold", "Silver", "Dragon")
DRAGON = 2
GEMS = ("Ruby", "Emerald", "Pearl", "Amber", "Jade", "Opal")  # worth 1..6


class Hoard:
    game = "hoard"
    seats = SEATS

    def __init__(self, variant: str = "short", turns: int = 6) -> None:
        self.variant = variant
        self.turns = turns
        self.deck: list[int] = []  # face down, the top is the end
        self.hoard = [0, 0]
        self.gems: tuple[list[int], list[int]] = ([], [])  # the gems each has taken, face down
        self.turn = 0  # turns played in all
        self.due: str | None = "shuffle"  # the chance point due: shuffle, roll, dragon
        self.result: Result | None = None

    @property
    def options(self) -> dict[str, Any]:
        return {"turns": self.turns}

    @property
    def bot_seats(self) -> frozenset[int]:
        return frozenset({DRAGON})

    def point(self) -> Decision | Chance | Over:
        if self.result is not None:
            return Over(self.result)
        if self.due == "shuffle":
            return Chance("shuffle", (6,), "shuffle the deck")
        if self.due in ("roll", "dragon"):
            return Chance("dice", (1, 6), "the Dragon rolls" if self.due == "dragon" else f"{SEATS[self.seat]} rolls")
        codes = (("take",),) if self.deck else ()
        return Decision(self.seat, f"{SEATS[self.seat]}: take, roll or rest", codes + (("roll",), ("rest",)))

    @property
    def seat(self) -> int:
        return self.turn % 2

    def apply(self, code: Code) -> list[Event]:
        point = self.point()
        if not isinstance(point, Decision) or tuple(code) not in point.options:
            raise RulesError(f"{' '.join(map(str, code))}: not a legal option here")
        who = SEATS[self.seat]
        if code == ("take",):
            card = self.deck.pop()
            self.hoard[self.seat] += card
            self.gems[self.seat].append(card)
            self.due = "dragon"
            return [Event("take", f"{who} takes {GEMS[card - 1]}", "hoard 2", card,
                          seen=frozenset((self.seat,)), public=f"{who} takes a gem")]
        if code == ("roll",):
            self.due = "roll"
            return [Event("roll", f"{who} rolls", "hoard 2")]
        self.due = "dragon"
        return [Event("rest", f"{who} rests", "hoard 2")]

    def resolve(self, outcome: Outcome) -> list[Event]:
        point = self.point()
        if not isinstance(point, Chance):
            raise RulesError("no chance point is pending")
        value = point.validate(outcome)
        if self.due == "shuffle":
            self.deck = [i + 1 for i in value]  # type: ignore[union-attr]
            self.due = None
            return [Event("shuffle", "The deck is shuffled", "hoard 1")]
        (die,) = value  # type: ignore[misc]
        if self.due == "roll":
            gain = 2 if die >= 4 else -1
            self.hoard[self.seat] += gain
            self.due = "dragon"
            return [Event("dice", f"{SEATS[self.seat]} rolls {die}: {gain:+d}", "hoard 2", die)]
        events = [Event("dragon", f"The Dragon rolls {die}", "hoard 3", die)]
        if die == 6 and self.hoard[0] != self.hoard[1]:
            rich = 0 if self.hoard[0] > self.hoard[1] else 1
            self.hoard[rich] -= 1
            events.append(Event("steal", f"The Dragon steals 1 from {SEATS[rich]}", "hoard 3", rich))
        self.due = None
        self.turn += 1
        if self.turn >= 2 * self.turns:
            a, b = self.hoard
            winners = () if a == b else ((0,) if a > b else (1,))
            self.result = Result(winners, f"hoards {a} to {b}", "hoard 4", (a, b, 0))
            events.append(Event("end", f"Game over: {self.result.reason}", "hoard 4"))
        return events

    def clone(self) -> "Hoard":
        c = Hoard(self.variant, self.turns)
        c.deck, c.hoard, c.turn, c.due, c.result = list(self.deck), list(self.hoard), self.turn, self.due, self.result
        c.gems = (list(self.gems[0]), list(self.gems[1]))
        return c

    def canonical(self) -> Any:
        result = None if self.result is None else [list(self.result.winners), self.result.reason]
        return ["hoard", self.variant, self.turns, self.deck, self.hoard, list(map(list, self.gems)), self.turn,
                self.due, result]

    def view(self, seat: int | None) -> Any:
        """Each hoard's worth and gems to its owner (and to all once the game is over), else how many
        gems it holds; the deck's order to the full table only."""
        over = self.result is not None
        hoards = tuple(self.hoard[i] if over or sees(seat, frozenset((i,))) else None for i in range(2))
        gems = tuple(tuple(GEMS[c - 1] for c in self.gems[i]) if over or sees(seat, frozenset((i,)))
                     else len(self.gems[i]) for i in range(2))
        out = {"hoards": hoards, "gems": gems, "deck": len(self.deck), "turn": self.turn, "result": self.result}
        if seat == TABLE:
            out["deck_order"] = tuple(GEMS[c - 1] for c in reversed(self.deck))  # the top first
        return out

    def describe(self, code: Code) -> str:
        return " ".join(map(str, code))

    def parse(self, text: str) -> Code:
        word = text.strip().lower()
        if word not in ("take", "roll", "rest"):
            raise RulesError("type take, roll or rest")
        return (word,)


class Greedy:
    """Hoard's AI: take while there are cards, else roll. It honours the stop flag (answers at once)."""

    def __init__(self, seed: int, limit: Limit) -> None:
        self.limit = limit

    def choose(self, game: Any, decision: Decision) -> Code:
        return ("take",) if ("take",) in decision.options else ("roll",)


def _build(variant: str, options: dict[str, Any], setup: dict[str, Any], data: Mapping[str, Any]) -> Hoard:
    if setup:
        raise RulesError("hoard has no setup fields")
    turns = options.get("turns", 6)
    if type(turns) is not int or not 1 <= turns <= 20:
        raise RulesError("option turns takes a whole number 1..20")
    return Hoard(variant, turns)


def _seats(variant: str) -> tuple[SeatSpec, ...]:
    player = ("human", "ai", "random")
    return (SeatSpec("Gold", player, "human"), SeatSpec("Silver", player, "ai"), SeatSpec("Dragon", ("bot",), "bot"))


GAME = GameDescriptor(
    name="hoard",
    title="Hoard (a test game)",
    revision=1,
    variants=(("short", "Short"),),
    option_specs=lambda variant: (OptionSpec("turns", "int", 6, "hoard 4", "turns each player plays",
                                             minimum=1, maximum=20),),
    seat_specs=_seats,
    build=_build,
    ai=lambda seed, limit: Greedy(seed, limit),
    ai_version="hoard-greedy 1",
    bot_detail="the Dragon (hoard 3)",
)


def register() -> None:
    core_games.register(GAME)


def unregister() -> None:
    core_games.unregister("hoard")


@pytest.fixture
def hoard() -> Any:
    """Hoard registered in core for one test (and nowhere else)."""
    register()
    yield GAME
    unregister()


