"""Take the Kingdom's options as a person reads and types them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.engine import Code, Decision, RulesError
from core.kingdom.lines import slot_of

if TYPE_CHECKING:
    from core.kingdom.table import Table


def card_name(g: "Table", cid: object) -> str:
    try:
        return g.label(str(cid))
    except (KeyError, RulesError):
        return str(cid)[:40]


def slot_name(g: "Table", seat: object, slot: object) -> str:
    try:
        assert isinstance(seat, int)
        return g.where(seat, g.find_slot(seat, str(slot)))
    except (AssertionError, RulesError, IndexError, KeyError, TypeError):
        who = g.seats[seat] if isinstance(seat, int) and 0 <= seat < len(g.seats) else str(seat)
        return f"{who}'s {card_name(g, slot)}"


def seat_name(g: "Table", seat: object) -> str:
    return g.name(seat) if isinstance(seat, int) and 0 <= seat < len(g.seats) else str(seat)


def standing(g: "Table", seat: object, cid: object) -> str:
    """A card standing in ``seat``'s kingdom, with its id only when another there is called the same."""
    try:
        return g.standing_name(seat, str(cid)) if isinstance(seat, int) else card_name(g, cid)
    except (IndexError, KeyError, RulesError):
        return card_name(g, cid)


def held(g: "Table", cid: object) -> str:
    """A card a kingdom plays from its hand, or ``Mercy from beside the Castle``: the two are not
    alike (the one in hand is hidden, and playing it frees a place in the hand)."""
    beside = any(cid in r.mercy for r in g.s.realms)
    return card_name(g, cid) + (" from beside the Castle" if beside else "")


def describe(g: "Table", code: Code) -> str:
    """The option in words: cards by their labels, never their ids, except where two cards the
    seat may see would read the same (two Lands of one kingdom). Options that read the same are
    copies of one card in one place, alike in play."""
    verb, args = code[0], code[1:]
    if verb in ("done", "go", "pass", "accept"):
        return str(verb)
    if verb in ("place", "draft"):
        cid, where = args
        if where == "new":
            return f"{card_name(g, cid)} as a new Land"
        prep = "under" if g.cards[str(cid)].type == "trap" else "on"
        return f"{card_name(g, cid)} {prep} {slot_name(g, _owner(g, where), where)}"
    if verb == "move":
        return f"move {standing(g, _owner(g, args[0]), args[0])} to {slot_name(g, _owner(g, args[1]), args[1])}"
    if verb == "attack":
        k = _stands(g, args[0])
        if k is None:
            return f"attack with {card_name(g, args[0])}"
        return f"attack with {standing(g, k, args[0])} from {slot_name(g, k, _slot_card(g, k, str(args[0])))}"
    if verb == "mercy" and len(args) == 2:
        return f"{held(g, args[0])} as {'a Land' if args[1] == 'land' else 'Fortune'}"
    if verb in ("fortune",):
        return f"{card_name(g, args[0])}: another turn"
    if verb in ("freeze", "penalty"):
        return f"{card_name(g, args[0])} on {seat_name(g, args[1])}"
    if verb == "mutiny":
        return f"{card_name(g, args[0])} on {seat_name(g, args[1])}'s {standing(g, args[1], args[2])}"
    if verb in ("earthquake", "disrepair", "sabotage") and len(args) == 3:
        return f"{card_name(g, args[0])} on {slot_name(g, args[1], args[2])}"
    if verb in ("morale", "spread"):
        return f"add {card_name(g, args[0])}"
    if verb == "at":
        where = slot_name(g, args[0], args[1])
        return f"{args[2]} on {where}" if len(args) == 3 else where
    if verb == "cancel":
        return f"cancel with {held(g, args[0])}"
    if verb == "unfreeze":
        return f"remove the Freeze with {held(g, args[0])}"
    if verb in ("deny", "mercy", "gold", "sabotage"):
        return f"answer with {held(g, args[0])}"
    if verb == "noble":
        return card_name(g, args[0])
    if verb in ("take", "give"):
        return f"{'keep' if verb == 'take' else 'give Enemy ' + str(args[1])} {card_name(g, args[0])}"
    if verb == "hold":
        return f"hold {card_name(g, args[0])} to answer with"
    if verb == "discard":
        return f"discard {card_name(g, args[0])}"
    return " ".join(map(str, code))


def option_card(g: "Table", code: Code) -> str | None:
    """The card an option plays, places, keeps or answers with (its id), or None ("done", a target)."""
    cid = code[1] if len(code) > 1 else None
    return cid if isinstance(cid, str) and cid in g.cards.by_id else None


def card_in_play(g: "Table", in_play: "tuple[str, ...] | list[str]") -> str | None:
    """The card of the play in progress a kingdom answers: a Gold that buys (the last in play),
    else the card played (the first: a Morale or Spread goes with its attack)."""
    if not in_play:
        return None
    last = in_play[-1]
    return last if g.cards[last].key == "gold" else in_play[0]


def effect(g: "Table", cid: str) -> str:
    """``Mutiny: removes one Knights or Archers ...``: a card's name and its exact effect, from the
    cards themselves (core/kingdom/data/cards.toml, ``effect``: one place for every screen)."""
    c = g.cards[cid]
    return f"{c.name}: {c.effect}" if c.effect else c.name


def played(g: "Table", k: int, code: Code) -> str:
    """The event of an Action (or Baligant's Penalty) played against a kingdom, naming each thing
    once: ``Player 3 (Anne) plays Mutiny on Player 1 (Maria)'s Knights``, ``... plays Earthquake
    on Player 2 (Simon)'s Land``, ``... plays Freeze against Player 2 (Simon)``. A card standing
    in a kingdom has its id only where another there reads the same (``standing_name``)."""
    verb, cid, o = code[0], str(code[1]), code[2]
    assert isinstance(o, int)
    head = f"{g.name(k)} plays {g.card(cid).name}"
    if verb == "mutiny":
        return f"{head} on {g.possessive(o)} {g.standing_name(o, str(code[3]))}"
    if verb in ("earthquake", "disrepair", "sabotage") and len(code) > 3:
        return f"{head} on {g.where(o, g.find_slot(o, str(code[3])))}"
    return f"{head} against {g.name(o)}"


def _stands(g: "Table", cid: object) -> int | None:
    """The seat whose kingdom ``cid`` stands in (a Castle, Land, Defence or Trap), or None."""
    return next((k for k, r in enumerate(g.s.realms) if isinstance(cid, str) and slot_of(r, cid) is not None), None)


def _owner(g: "Table", slot: object) -> int:
    """The kingdom of a Castle or Land (the seat whose turn it is, if none)."""
    k = _stands(g, slot)
    return g.s.current if k is None else k


def _slot_card(g: "Table", seat: int, cid: str) -> str:
    slot = slot_of(g.s.realms[seat], cid)
    return slot.card if slot is not None else cid


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
    if found and len({named[c] for c in found}) == 1:  # copies of one card: any of them
        return sorted(found, key=str)[0]
    if not found:
        raise RulesError(f"{text.strip()[:40]!r} is not one of the {len(point.options)} options here")
    raise RulesError(f"{text.strip()[:40]!r} could be {len(found)} options; say more")
