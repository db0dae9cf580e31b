"""Take the Kingdom's options as a person reads and types them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.engine import Code, Decision, RulesError

if TYPE_CHECKING:
    from core.kingdom.table import Table

_ID = re.compile(r"\s*\([^)]*\)")


def card_name(g: "Table", cid: str) -> str:
    try:
        return g.label(cid)
    except (KeyError, RulesError):
        return str(cid)[:40]


def slot_name(g: "Table", seat: int, slot: str) -> str:
    try:
        return g.where(seat, g.find_slot(seat, slot))
    except (RulesError, IndexError, KeyError, TypeError):
        who = g.seats[seat] if isinstance(seat, int) and 0 <= seat < len(g.seats) else str(seat)
        return f"{who}'s {card_name(g, slot)}"


def seat_name(g: "Table", seat: object) -> str:
    return g.name(seat) if isinstance(seat, int) and 0 <= seat < len(g.seats) else str(seat)


def describe(g: "Table", code: Code) -> str:
    verb, args = code[0], code[1:]
    if verb in ("done", "go", "pass", "accept"):
        return str(verb)
    if verb in ("place", "draft"):
        cid, where = args
        if where == "new":
            return f"{card_name(g, cid)} as a new Land"
        prep = "under" if g.cards[cid].type == "trap" else "on"
        return f"{card_name(g, cid)} {prep} {slot_name(g, _owner(g, where), where)}"
    if verb == "move":
        return f"move {card_name(g, args[0])} to {slot_name(g, _owner(g, args[1]), args[1])}"
    if verb == "attack":
        return f"attack with {card_name(g, args[0])}"
    if verb == "mercy" and len(args) == 2:
        return f"{card_name(g, args[0])} as {'a Land' if args[1] == 'land' else 'Fortune'}"
    if verb in ("fortune",):
        return f"{card_name(g, args[0])}: another turn"
    if verb in ("freeze", "penalty"):
        return f"{card_name(g, args[0])} on {seat_name(g, args[1])}"
    if verb == "mutiny":
        return f"{card_name(g, args[0])} against {seat_name(g, args[1])}'s {card_name(g, args[2])}"
    if verb in ("earthquake", "disrepair", "sabotage") and len(args) == 3:
        return f"{card_name(g, args[0])} on {slot_name(g, args[1], args[2])}"
    if verb in ("morale", "spread"):
        return f"add {card_name(g, args[0])}"
    if verb == "at":
        where = slot_name(g, args[0], args[1])
        return f"{args[2]} on {where}" if len(args) == 3 else where
    if verb == "cancel":
        return f"cancel with {card_name(g, args[0])}"
    if verb == "unfreeze":
        return f"remove the Freeze with {card_name(g, args[0])}"
    if verb in ("deny", "mercy", "gold", "sabotage"):
        return f"answer with {card_name(g, args[0])}"
    if verb == "noble":
        return card_name(g, args[0])
    if verb in ("take", "give"):
        return f"{'keep' if verb == 'take' else 'give Enemy ' + str(args[1])} {card_name(g, args[0])}"
    if verb == "hold":
        return f"hold {card_name(g, args[0])} to answer with"
    if verb == "discard":
        return f"discard {card_name(g, args[0])}"
    return " ".join(map(str, code))


def _owner(g: "Table", slot: str) -> int:
    from core.kingdom.lines import slot_of

    for k, r in enumerate(g.s.realms):
        if slot_of(r, slot) is not None:
            return k
    return g.s.current


def parse(g: "Table", text: str) -> Code:
    """The option of the decision now pending that ``text`` names: its words as listed, its
    code's words, or words found in one option only (copies of one card count as one)."""
    point = g.point()
    if not isinstance(point, Decision):
        raise RulesError("nothing to decide now")
    typed = " ".join(text.casefold().split())
    if not typed:
        raise RulesError("type an option as listed, like 'done' or 'attack with Soldiers'")
    named = {code: describe(g, code).casefold() for code in point.options}
    for code, words in named.items():
        if typed in (words, " ".join(map(str, code)).casefold()):
            return code
    found = [code for code, words in named.items() if all(w in words for w in typed.split())]
    kinds = {_ID.sub("", named[c]) for c in found}
    if found and len(kinds) == 1:
        return sorted(found, key=str)[0]
    if not found:
        raise RulesError(f"{text.strip()[:40]!r} is not one of the {len(point.options)} options here")
    raise RulesError(f"{text.strip()[:40]!r} could be {len(found)} options; say more (e.g. the card's id)")
