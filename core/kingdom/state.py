"""The Take the Kingdom table: every card in exactly one place, as plain lists that copy fast.

A kingdom is its lines of defence (take-the-kingdom.txt, "Kingdom Defence"):
a seat (its Castle, or after a survival restart its Village) and up to five
Lands, each a :class:`Slot` holding up to two Defences (bottom first, the
last is the topmost, attacked first) and one Trap. Damage is the attack
cards tucked under a card, and the points they count for (KD-6).

Every card is in one place: the deck, the discard pile, a hand, a
kingdom's slots, Mercy beside a Castle, a penalty waiting for a kingdom's
next turn, the draft pool, a solo deck or the round's revealed cards, the
survival set, the cards of the play in progress, or the box (cards not used
in this game). ``all_cards`` lists them, so a test can count them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SEAT_SLOT = 0  # a kingdom's slots: 0 is its seat (Castle or Village), 1.. its Lands in the order placed
MAX_LANDS = 5
MAX_DEFENCES = 2


@dataclass
class Slot:
    """A Castle (or survival Village) or a Land, with what stands on it."""

    card: str
    defences: list[str] = field(default_factory=list)  # bottom first; [-1] is attacked first
    trap: str | None = None
    tucked: dict[str, list[str]] = field(default_factory=dict)  # card id -> attack cards tucked under it
    damage: dict[str, int] = field(default_factory=dict)  # card id -> damage points it has taken

    def copy(self) -> "Slot":
        tucked, damage = self.tucked, self.damage  # most slots have neither
        return Slot(self.card, self.defences[:], self.trap, {k: v[:] for k, v in tucked.items()} if tucked else {},
                    damage.copy() if damage else {})

    def top(self) -> str:
        """The card an attack on this slot hits: its topmost Defence, or the slot's own card."""
        return self.defences[-1] if self.defences else self.card

    def cards(self) -> list[str]:
        return [self.card, *self.defences, *([self.trap] if self.trap else []),
                *(c for v in self.tucked.values() for c in v)]

    def canonical(self) -> list[Any]:
        tucked, damage = self.tucked, self.damage  # most slots have neither
        return [self.card, self.defences, self.trap, sorted([k, v] for k, v in tucked.items()) if tucked else [],
                sorted([k, v] for k, v in damage.items()) if damage else []]


@dataclass
class Realm:
    """One kingdom: its Noble, its lines of defence, its hand, and what hangs over it."""

    noble: str | None  # the Noble's card id (None until dealt or chosen)
    slots: list[Slot] = field(default_factory=list)  # [seat, land, land...]; empty: fallen
    mercy: list[str] = field(default_factory=list)  # Mercy cards beside the Castle (public)
    hand: list[str] = field(default_factory=list)  # in solo: the cards it holds to answer with
    pending: list[str] = field(default_factory=list)  # penalties played on it, for its next turn (Baligant)
    frozen: str | None = None  # the Freeze card on it
    famine: bool = False  # no Deny, Gold, Mercy or Sabotage until its next turn
    out: bool = False
    survived: bool = False  # restarted from the survival set

    def copy(self) -> "Realm":
        return Realm(self.noble, [s.copy() for s in self.slots], list(self.mercy), list(self.hand),
                     list(self.pending), self.frozen, self.famine, self.out, self.survived)

    @property
    def lands(self) -> list[Slot]:
        return self.slots[1:]

    def cards(self) -> list[str]:
        out = [c for s in self.slots for c in s.cards()] + self.mercy + self.hand + self.pending
        if self.frozen:
            out.append(self.frozen)
        return out

    def canonical(self) -> list[Any]:
        return [self.noble, [s.canonical() for s in self.slots], self.mercy, self.hand, self.pending,
                self.frozen, self.famine, self.out, self.survived]


@dataclass
class KingdomState:
    realms: list[Realm]
    deck: list[str]  # [0] is the top
    discard: list[str] = field(default_factory=list)
    box: list[str] = field(default_factory=list)  # cards not in this game (spare Nobles, Castles, Mercy)
    pool: list[str] = field(default_factory=list)  # the face-up draft pool (multiplayer setup)
    survival: list[str] = field(default_factory=list)  # the survival set, while unused
    in_play: list[str] = field(default_factory=list)  # the cards of the play being resolved
    gold_uses: int = 0
    current: int = 0
    turn: int = 0  # multiplayer: turns begun; solo: the round
    idle: int = 0  # turns in a row in which no card was drawn or played (KD-12)
    plays: int = 0  # plays left in the turn in progress ("Gameplay": up to three)
    banned: list[str] = field(default_factory=list)  # "attack", "defend": what this turn's Penalties forbid
    extra: bool = False  # Fortune: the player takes another turn after this one
    # solo
    decks: list[list[str]] = field(default_factory=list)  # attack, defend, action; [0] is the top
    revealed: list[str] = field(default_factory=list)
    given: list[str] = field(default_factory=list)  # the round's card for each kingdom, until played ("" none)

    def copy(self) -> "KingdomState":
        return KingdomState([r.copy() for r in self.realms], list(self.deck), list(self.discard), list(self.box),
                            list(self.pool), list(self.survival), list(self.in_play), self.gold_uses, self.current,
                            self.turn, self.idle, self.plays, list(self.banned), self.extra,
                            [list(d) for d in self.decks], list(self.revealed), list(self.given))

    def canonical(self) -> list[Any]:
        return [[r.canonical() for r in self.realms], self.deck, self.discard, self.box, self.pool, self.survival,
                self.in_play, self.gold_uses, self.current, self.turn, self.idle, self.plays, self.banned, self.extra,
                self.decks, self.revealed, self.given]

    def all_cards(self) -> list[str]:
        """Every card id on the table, once per place it is in (a test checks each is there once)."""
        out = [c for r in self.realms for c in r.cards()]
        if any(r.noble for r in self.realms):
            out += [r.noble for r in self.realms if r.noble]
        for pile in (self.deck, self.discard, self.box, self.pool, self.survival, self.in_play, self.revealed,
                     [c for c in self.given if c], *self.decks):
            out += pile
        return out
