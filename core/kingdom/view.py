"""What a seat may see of a Take the Kingdom table (KD-29).

Hands are seen only by their owner (a count for everyone else); a Trap is face
down (``HIDDEN_TRAP``) to all but its owner; the deck's order is never seen.
Everything else is on the table for all: kingdoms, Mercy beside a Castle,
Freezes, Penalties Baligant played, the discard pile, Gold's uses, and in solo
the revealed cards and what each kingdom holds (they were dealt face up).
The full table (``TABLE``: a finished game, a dispute) sees every hand, every
Trap, and the order of every deck (``deck_order``, ``decks_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.engine import TABLE
from core.kingdom.lines import HIDDEN_TRAP
from core.kingdom.state import Realm, Slot

if TYPE_CHECKING:
    from core.kingdom.table import Table


def slot_view(slot: Slot, mine: bool) -> dict[str, Any]:
    trap = slot.trap if mine or slot.trap is None else HIDDEN_TRAP
    return {"card": slot.card, "defences": tuple(slot.defences), "trap": trap,
            "tucked": {k: tuple(v) for k, v in slot.tucked.items()}, "damage": dict(slot.damage)}


def table_view(g: "Table", seat: int | None) -> dict[str, Any]:
    s = g.s
    solo = g.variant == "solo"
    full = seat == TABLE
    scores = g.scores()
    realms = []
    for k, r in enumerate(s.realms):
        mine = seat == k or full
        realms.append({
            "seat": k, "name": g.seats[k], "noble": r.noble, "number": g.noble_number(k),
            "out": r.out, "survived": r.survived, "frozen": r.frozen is not None, "famine": r.famine,
            "pending": tuple(r.pending), "mercy": tuple(r.mercy), "score": scores[k],
            "hand": tuple(sorted(r.hand)) if mine or solo else None, "hand_count": len(r.hand),
            "slots": tuple(slot_view(sl, mine) for sl in r.slots),
        })
    out = {
        "variant": g.variant, "solo": solo, "turn": s.turn, "current": s.current, "plays": s.plays,
        "banned": tuple(s.banned), "extra": s.extra, "deck": len(s.deck), "discard": tuple(s.discard),
        "gold_uses": s.gold_uses, "pool": tuple(s.pool), "survival": tuple(s.survival), "in_play": tuple(s.in_play),
        "revealed": tuple(s.revealed), "given": tuple(s.given), "decks": tuple(len(d) for d in s.decks), "realms": tuple(realms),
        "result": g.result, "options": dict(g.opts),  # the rule options: public, as on the table
    }
    if full:  # top first
        out["deck_order"] = tuple(s.deck)
        out["decks_order"] = tuple(tuple(d) for d in s.decks)
    return out


def realm_of(v: dict[str, Any]) -> Realm:
    """A realm of a view as a :class:`Realm`, for the functions of core.kingdom.lines (an AI's
    reckoning); hidden Traps stay hidden, an unseen hand is empty."""
    slots = [Slot(d["card"], list(d["defences"]), d["trap"], {k: list(t) for k, t in d["tucked"].items()},
                  dict(d["damage"])) for d in v["slots"]]
    return Realm(v["noble"], slots, list(v["mercy"]), list(v["hand"] or ()), list(v["pending"]),
                 "freeze" if v["frozen"] else None, v["famine"], v["out"], v["survived"])
