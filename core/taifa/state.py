"""The Taifa table: everything on it, as plain lists that copy fast.

Kingdoms are numbered in play order (2.2, 10.1); areas by their map id.
``owner[a]`` is a kingdom number, ``INDEPENDENT`` or ``OUT_OF_PLAY`` (the
areas west of the line in El Cid, 10.1). Card ids (``C21``, ``M05``) name
every card; each card is in exactly one place: a draw pile, a discard pile,
a hand (a bot's face-down pile), a bot's deployed army or responses, a
kingdom's permanent events, the cards of the action in progress, El Cid's
held Truce, or out of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_new = object.__new__
_copy = list.copy

INDEPENDENT = -1
OUT_OF_PLAY = -2
BONUS_MIN, BONUS_MAX = -2, 2  # 2.4, 7
CASTLES = 13  # 8
TURNS = 3  # 4


@dataclass
class Fight:
    """The attack, incursion or campaign in progress (shown while it is decided).

    ``cards`` are (side, kingdom, card id, face up) in the order placed; a card
    is face down until the reveal (5.1 steps 2-5).
    """

    kind: str  # "attack", "incursion", "campaign"
    attacker: int  # kingdom number, or INDEPENDENT for an Independent Campaign's outside force
    defender: int  # kingdom number or INDEPENDENT
    area: int = 0  # 0 for an incursion
    force: int = 0  # an Independent Campaign's dice (TA-14)
    cards: list[tuple[str, int, str, bool]] = field(default_factory=list)
    garrisons: list[int] = field(default_factory=list)
    dice: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def copy(self) -> "Fight":
        return Fight(self.kind, self.attacker, self.defender, self.area, self.force, list(self.cards),
                     list(self.garrisons), dict(self.dice))

    def canonical(self) -> list[Any]:
        return [self.kind, self.attacker, self.defender, self.area, self.force, [list(c) for c in self.cards],
                self.garrisons, sorted([k, list(v)] for k, v in self.dice.items())]


@dataclass
class TaifaState:
    kingdoms: tuple[str, ...]  # keys in play order
    decks: tuple[str, ...]  # each kingdom's deck: "christian" or "muslim"
    bots: tuple[bool, ...]  # played by the rulebook bot (9)
    capitals: tuple[int, ...]
    owner: list[int]  # index = area id (0 unused)
    garrison: list[bool]
    bonus: list[int]
    hands: list[list[str]]  # a bot's hand is its face-down pile, top first (9.1)
    army: list[list[str]]  # a bot's deployed Troop cards (9.1)
    ready: list[list[str]]  # a bot's deployed Response cards, in the order drawn (9.1)
    kept: list[int]  # cards a kingdom carried into this turn (7)
    permanent: list[list[str]]  # P events face up in front of each kingdom this turn (5.4)
    draw: dict[str, list[str]]  # per deck; the top card is the last
    discard: dict[str, list[str]]
    removed: list[str] = field(default_factory=list)  # D events, out of the game (5.4)
    held: list[str] = field(default_factory=list)  # El Cid's Truce, face up (10.2)
    truces: list[tuple[int, int, tuple[str, ...]]] = field(default_factory=list)  # (protected, bound, forbidden)
    in_play: list[str] = field(default_factory=list)  # cards of the action in progress
    turn: int = 0  # 0 before the first draw
    current: int = 0
    passes: int = 0  # kingdoms that passed in a row (4)
    fight: Fight | None = None
    # Shown, not rules: kept out of canonical() (play that differs only here reaches the same
    # position, and no rule reads them), copied by copy() so a clone shows what the game shows.
    last_dice: tuple[str, tuple[int, ...]] | None = None
    round: int = 0  # the round in progress in this turn, each kingdom's counting one (0: none yet)
    last_combat: tuple[Any, ...] | None = None  # the last fight resolved (combat.py); never changed, only replaced

    def copy(self) -> "TaifaState":
        """A copy that shares nothing changeable with this state (the tuples and what is only ever
        replaced, never changed, are shared). Made at every unit (core/procedure.py): built from
        this state's attributes at once, not through the constructor."""
        c = _new(TaifaState)
        d = self.__dict__.copy()
        d["owner"], d["garrison"], d["bonus"], d["kept"] = self.owner[:], self.garrison[:], self.bonus[:], self.kept[:]
        d["hands"], d["army"] = list(map(_copy, self.hands)), list(map(_copy, self.army))
        d["ready"], d["permanent"] = list(map(_copy, self.ready)), list(map(_copy, self.permanent))
        d["draw"] = {deck: pile[:] for deck, pile in self.draw.items()}
        d["discard"] = {deck: pile[:] for deck, pile in self.discard.items()}
        d["removed"], d["held"], d["truces"], d["in_play"] = self.removed[:], self.held[:], self.truces[:], self.in_play[:]
        if self.fight is not None:
            d["fight"] = self.fight.copy()
        c.__dict__ = d
        return c

    def canonical(self) -> list[Any]:
        return [
            list(self.kingdoms), list(self.bots), self.owner, self.garrison, self.bonus,
            self.hands, self.army, self.ready, self.kept, self.permanent,
            sorted([d, p] for d, p in self.draw.items()), sorted([d, p] for d, p in self.discard.items()),
            sorted(self.removed), self.held, [[a, b, list(f)] for a, b, f in self.truces], self.in_play,
            self.turn, self.current, self.passes,
            self.fight.canonical() if self.fight else None,
        ]

    # -- queries ---------------------------------------------------------------

    def castles(self, k: int) -> int:
        """Castles ``k`` has on the map: one per area it holds (2.2, 8)."""
        return self.owner.count(k)

    def areas_of(self, k: int) -> list[int]:
        return [a for a, o in enumerate(self.owner) if o == k and a]

    def cards_in_hand(self, k: int) -> int:
        return len(self.hands[k])

    def all_cards(self) -> list[str]:
        """Every card id on the table, wherever it is (the 'one place' invariant)."""
        out: list[str] = []
        for pile in (*self.hands, *self.army, *self.ready, *self.permanent,
                     *self.draw.values(), *self.discard.values(), self.removed, self.held, self.in_play):
            out.extend(pile)
        return out
