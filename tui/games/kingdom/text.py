"""Take the Kingdom as plain text, written once: the position for ``replay show``, the app's
position pane and the prompt's ``table``, and the shorter pieces the prompt shows above a
person's options (a status line, each kingdom on a line or two, the hand).

Everything is drawn from ``game.view(seat)`` (core/kingdom/view.py): a seat sees its own
hand and Traps, counts of the other hands and Traps face down; None is a spectator, who
sees no hand (in solo every held card is on the table and shown to all); TABLE (-1) is the
full table, every hand, every Trap and the deck's order. Card text comes from the cards
themselves (core/kingdom/cards.py), so a user's own cards read as written. A card is shown
by its name; an id only where two cards of one kingdom would read the same (``[land-3]``).
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from core.engine import TABLE, Code, Decision, Over
from core.kingdom import prospects, words
from core.kingdom.cards import value_text
from core.kingdom.lines import HIDDEN_TRAP, standing_title

WIDTH = 80
ID_COLUMN = 48  # where a card's [id] stands in the lines of defence
BANNED = {"attack": "attacks", "defend": "placing or moving Defend cards"}  # a turn's Penalties (KD-17)
GOLD_USES = 3  # "Notes on specific cards: Gold"


# -- a card -------------------------------------------------------------------------------


__all__ = ["value_text", "named", "position_text", "status", "hand", "nobles", "option_cards", "standing_cards",
           "hit_first", "about", "unavailable"]


def named(game: Any, cid: str) -> str:
    """``Walls +4``, ``Mercenaries +/-2``, ``Trap (real)``: a card's label and its value."""
    label, value = game.label(cid), value_text(game.card(cid))
    return f"{label} {value}" if value and value not in label else label


def twins(game: Any, realm: Mapping[str, Any]) -> set[str]:
    """The cards standing in a kingdom (a view's realm) that another card there reads the same
    as: these alone are shown with their ids, as the options name them (``Land (land-3)``)."""
    slots = [(sl["card"], sl["defences"]) for sl in realm["slots"]]
    return {c for card, defences in slots for c in (card, *defences)
            if standing_title(game.cards, slots, c).endswith(f"({c})")}


def _with_id(text: str, cid: str, indent: int, shown: bool = True) -> str:
    """``text``, with the card's id in brackets in the id column (or just after, when it is
    long) when ``shown``."""
    if not shown:
        return " " * indent + text
    room = ID_COLUMN - indent
    return f"{' ' * indent}{text.ljust(room)}[{cid}]" if len(text) < room else f"{' ' * indent}{text}  [{cid}]"


def _noble(game: Any, realm: Mapping[str, Any]) -> str:
    return f"{game.card(realm['noble']).name} ({realm['number']})" if realm["noble"] else "no Noble yet"


# -- the lines of defence -----------------------------------------------------------------


def _damage(game: Any, slot: Mapping[str, Any], cid: str) -> str:
    """`` (2 damage: Soldiers)``: the damage a card has taken and the attacks tucked under it (KD-6)."""
    points = slot["damage"].get(cid, 0)
    if not points:
        return ""
    tucked = ", ".join(game.card(t).name for t in slot["tucked"].get(cid, ()))
    return f" ({points} damage" + (f": {tucked})" if tucked else ")")


def _slot_title(game: Any, realm: Mapping[str, Any], slot: Mapping[str, Any], first: bool) -> str:
    c = game.card(slot["card"])
    if c.key == "mercy":
        return "Mercy standing as a Land +1"
    if first and c.key == "castle":
        return f"Castle +{c.value}"
    return named(game, slot["card"]) + (" (the survival seat)" if first else "")


def _trap(game: Any, k: int, trap: str) -> str:
    """A Trap under a Castle or Land: face down, unless the view shows it (its owner, the full table)."""
    if trap == HIDDEN_TRAP:
        return "Trap (face down)"
    real = game.trap_real(k, trap)
    why = "real" if game.card(trap).real else "real: Egbert's Traps always are" if real else "a decoy"
    return f"Trap (face down; {why})"


def defence_lines(game: Any, v: Mapping[str, Any], k: int, seat: int | None) -> list[str]:
    """One kingdom's lines of defence: its Castle, then each Land, each with its Defences
    (topmost first: an attack hits the topmost) and its Trap; Mercy beside the Castle."""
    realm = v["realms"][k]
    ids = twins(game, realm)
    lines = ["  Mercy beside the Castle" for _ in realm["mercy"]]
    for i, slot in enumerate(realm["slots"]):
        lines.append(_with_id(_slot_title(game, realm, slot, i == 0) + _damage(game, slot, slot["card"]),
                              slot["card"], 2, slot["card"] in ids))
        for cid in reversed(slot["defences"]):
            lines.append(_with_id(named(game, cid) + _damage(game, slot, cid), cid, 4, cid in ids))
        if slot["trap"] is not None:
            lines.append("    " + _trap(game, k, slot["trap"]))
    if not realm["slots"] and not realm["out"]:
        lines.append("  no kingdom built yet")
    return lines


def flags(game: Any, realm: Mapping[str, Any]) -> list[str]:
    """What hangs over a kingdom: out, survived, frozen, famine, penalties waiting for its turn."""
    out = []
    if realm["out"]:
        out.append("out of the game")
    if realm["survived"]:
        out.append("survived: restarted from the survival set")
    if realm["frozen"]:
        out.append("frozen: no plays on its next turn unless Mercy removes the Freeze (KD-15)")
    if realm["famine"]:
        out.append("famine: no Deny, Gold, Mercy or Sabotage until its next turn")
    if realm["pending"]:
        out.append("penalties waiting for its next turn: " + ", ".join(game.card(p).name for p in realm["pending"]))
    return out


def kingdom_head(game: Any, v: Mapping[str, Any], k: int, seat: int | None) -> list[str]:
    """``Player 1 (Anne), you · 17 defence points · 5 cards in hand``, then its Noble and number."""
    realm = v["realms"][k]
    n = realm["hand_count"]
    held = "held" if v["solo"] else "in hand"
    you = ", you" if k == seat and not v["solo"] else ""
    head = f"{game.name(k)}{you} · {realm['score']} defence points · {n} card{'s' * (n != 1)} {held}"
    return [head, f"  Noble: {_noble(game, realm)}"] if realm["noble"] else [head]


def kingdom_lines(game: Any, seat: int | None = None) -> list[str]:
    """Every kingdom: its head, what hangs over it, its lines of defence, and in solo what it holds."""
    v = game.view(seat)
    lines: list[str] = ["Defences are listed topmost first: an attack on a Castle or Land hits that one."]
    for k, realm in enumerate(v["realms"]):
        lines.append("")
        lines += kingdom_head(game, v, k, seat)
        lines += [f"  {f}" for f in flags(game, realm)]
        lines += defence_lines(game, v, k, seat)
        if v["solo"] and realm["hand"]:
            lines += pack("  holds: ", [named(game, c) for c in realm["hand"]], sep=", ")
    return lines


# -- the table around the kingdoms ------------------------------------------------------------


def turn_line(game: Any, seat: int | None = None) -> str:
    """Whose turn (multiplayer) or which round (solo), and the plays left."""
    v = game.view(seat)
    if v["result"] is not None:
        won = " and ".join(game.name(w) for w in v["result"].winners) or "nobody"
        return f"the game is over: {won} {'wins' if len(v['result'].winners) == 1 else 'win'}"
    if v["solo"]:
        if not v["turn"]:
            return f"solo, {game.options['difficulty']}: setting up"
        return f"solo, {game.options['difficulty']}: round {v['turn']} of 18"
    if not v["turn"]:
        return f"{len(v['realms'])} players: building the kingdoms"
    plays = v["plays"]
    return f"turn {v['turn']}: {game.name(v['current'])} to play, {plays} play{'s' * (plays != 1)} left"


def table_lines(game: Any, seat: int | None = None) -> list[str]:
    """The piles, Gold, what this turn's Penalties forbid, the play in progress; in solo the
    three decks, the revealed cards and the card given to each kingdom."""
    v = game.view(seat)
    lines = []
    if v["solo"]:
        decks = ", ".join(f"{name} {n}" for name, n in zip(("Attack", "Defend", "Action"), v["decks"]))
        lines.append(f"decks: {decks or '-'} · discard {len(v['discard'])}")
    else:
        lines.append(f"deck {v['deck']} · discard {len(v['discard'])} · Gold used {v['gold_uses']} of {GOLD_USES}")
    if v["banned"]:
        lines.append("penalties forbid this turn: " + ", ".join(BANNED.get(b, b) for b in v["banned"]))
    if v["extra"]:
        lines.append("Fortune: another turn after this one")
    if v["pool"]:
        pool = Counter(named(game, c) for c in v["pool"])
        lines += pack("draft pool: ", [f"{n} x{pool[n]}" for n in sorted(pool)], sep=", ")
    if v["survival"]:
        lines.append("survival set aside: " + ", ".join(named(game, c) for c in v["survival"]))
    if v["revealed"]:
        lines += pack("revealed: ", [named(game, c) for c in v["revealed"]], sep=", ")
    given = [(k, c) for k, c in enumerate(v["given"]) if c]
    if given:
        lines += pack("given: ", [f"{named(game, c)} to {game.name(k)}" for k, c in given], sep=", ")
    if v["in_play"]:
        lines += pack("in play: ", [named(game, c) for c in v["in_play"]], sep=", ")
    lines += deck_order_lines(game, v)
    return lines


def deck_order_lines(game: Any, v: Mapping[str, Any]) -> list[str]:
    """The full table's deck order, top first (solo: each of the three decks); none in any other view."""
    lines: list[str] = []
    if v.get("deck_order"):
        lines += pack("deck order, top first: ", [named(game, c) for c in v["deck_order"]], sep=", ")
    for name, deck in zip(("Attack", "Defend", "Action"), v.get("decks_order", ())):
        if deck:
            lines += pack(f"{name} deck, top first: ", [named(game, c) for c in deck], sep=", ")
    return lines


def hand_lines(game: Any, seat: int | None) -> list[str]:
    """The seat's hand, each card with its name, value, effect and text, wrapped to 80 columns; the full
    table (TABLE) every kingdom's. Empty for a spectator."""
    if seat is None:
        return []
    v = game.view(seat)
    if seat == TABLE:
        lines = []
        for k, realm in enumerate(v["realms"]):
            lines.append(f"{game.name(k)}'s hand: {len(realm['hand'])} card{'s' * (len(realm['hand']) != 1)}")
            for cid in realm["hand"]:
                lines += card_lines(game, cid, k)
        return lines
    if not 0 <= seat < len(v["realms"]) or v["realms"][seat]["hand"] is None:
        return []
    realm = v["realms"][seat]
    cards = list(realm["hand"])
    word = "You hold" if v["solo"] else "Your hand"
    lines = [f"{word}: {len(cards)} card{'s' * (len(cards) != 1)}"]
    for cid in cards:
        lines += card_lines(game, cid, seat)
    return lines


def card_lines(game: Any, cid: str, seat: int | None = None, indent: int = 2) -> list[str]:
    """A card, its value as it counts for ``seat`` (Maria's Pikemen, Charles's Cannons), its exact
    effect and its flavour text."""
    c = game.card(cid)
    head = named(game, cid)
    counts = seat is not None and seat >= 0 and c.type in ("attack", "mercenaries")
    if counts and game.attack_value(seat, cid) != c.value:
        head += f", {game.attack_value(seat, cid)} damage for {game.noble_key(seat).title()}"
    pad = " " * indent
    return [pad + head, *effect_lines(c, pad + "  ")]


def effect_lines(c: Any, pad: str) -> list[str]:
    """A card's exact effect, then its flavour text in quotes, each wrapped to 80 columns."""
    lines = textwrap.wrap(c.effect or c.text, WIDTH, initial_indent=pad, subsequent_indent=pad)
    if c.effect and c.text:
        lines += textwrap.wrap(f'"{c.text}"', WIDTH, initial_indent=pad, subsequent_indent=pad + " ")
    return lines


def _point(game: Any) -> str:
    point = game.point()
    if isinstance(point, Over):
        return f"game over: {point.result.reason}"
    if isinstance(point, Decision):
        return "\n".join(textwrap.wrap(f"to decide: {game.name(point.seat)}: {point.prompt}", WIDTH,
                                       subsequent_indent="  "))
    return f"chance: {point.label or point.kind}"


def position_text(game: Any, seat: int | None = None) -> str:
    """The position as ``seat`` sees it (None: a spectator): whose turn, the piles, every
    kingdom's lines of defence, the seat's hand with each card's text, what is to decide."""
    lines = [turn_line(game, seat), *table_lines(game, seat), *kingdom_lines(game, seat)]
    hand = hand_lines(game, seat)
    if hand:
        lines += ["", *hand]
    lines += ["", _point(game)]
    return "\n".join(lines)


# -- the prompt's shorter pieces ----------------------------------------------------------------


def _slot_short(game: Any, slot: Mapping[str, Any], first: bool) -> str:
    """``Land+1 [Walls+4 (3 dmg), Hills+2; trap]``: a Castle or Land on a few columns."""
    c = game.card(slot["card"])
    title = "Castle" if first and c.key == "castle" else "Mercy-Land" if c.key == "mercy" else c.name
    value = 1 if c.key == "mercy" else c.value

    def one(cid: str) -> str:
        hurt = slot["damage"].get(cid, 0)
        return f"{game.card(cid).name}+{game.card(cid).value}" + (f" ({hurt} dmg)" if hurt else "")

    inner = ", ".join(one(d) for d in reversed(slot["defences"]))
    if slot["trap"] is not None:
        inner += "; trap" if inner else "trap"
    hurt = slot["damage"].get(slot["card"], 0)
    head = f"{title}+{value}" + (f" ({hurt} dmg)" if hurt else "")
    return head + (f" [{inner}]" if inner else "")


def pack(first: str, pieces: Sequence[str], indent: int = 4, width: int = WIDTH, sep: str = " | ") -> list[str]:
    """``first`` then the pieces joined by ``sep``, wrapped between pieces to ``width`` columns."""
    lines, line = [], first
    for i, piece in enumerate(pieces):
        joint = sep if i else ""
        if len(line) + len(joint) + len(piece) > width and line.strip():
            lines.append((line + joint).rstrip())
            line = " " * indent + piece
        else:
            line += joint + piece
    lines.append(line)
    return lines


def short_kingdoms(game: Any, seat: int | None) -> list[str]:
    """Each kingdom on a line or two: its points, hand, what hangs over it, its Castle and Lands."""
    v = game.view(seat)
    lines = []
    for k, realm in enumerate(v["realms"]):
        mark = ">" if k == v["current"] and v["turn"] and v["result"] is None and not v["solo"] else " "
        n = realm["hand_count"]
        state = "; ".join(f.split(":")[0] for f in flags(game, realm))
        first = (f"{mark} {game.name(k)}{', you' if k == seat and not v['solo'] else ''}: {realm['score']} pts, "
                 f"{n} card{'s' * (n != 1)}{', ' + state if state else ''}"
                 + (f", Mercy x{len(realm['mercy'])}" if realm["mercy"] else "") + ": ")
        pieces = [_slot_short(game, s, i == 0) for i, s in enumerate(realm["slots"])]
        lines += pack(first, pieces) if pieces else [first.rstrip(": ")]
    return lines


def status(game: Any, seat: int) -> str:
    """Above a person's options: whose turn, the table, each kingdom short, the hand by name."""
    v = game.view(seat)
    lines = [turn_line(game, seat), *table_lines(game, seat), *short_kingdoms(game, seat)]
    hand = v["realms"][seat]["hand"] if 0 <= seat < len(v["realms"]) else None
    if hand:
        word = "you hold" if v["solo"] else "your hand"
        lines += textwrap.wrap(f"{word}: " + ", ".join(named(game, c) for c in hand)
                               + " (type cards: what each does)", WIDTH, subsequent_indent="  ")
    return "\n".join(lines)


def hand(game: Any, seat: int) -> str:
    """The seat's cards with their effects and text (the prompt's ``hand``)."""
    return "\n".join(hand_lines(game, seat)) or "  no cards in hand"


def nobles(game: Any, seat: int | None = None) -> str:
    """Every kingdom's Noble with its number and text (the prompt's ``nobles``), then, while
    they are being chosen (KD-2), the Nobles no one has yet."""
    v = game.view(seat)
    lines = []
    for k, realm in enumerate(v["realms"]):
        if realm["noble"]:
            lines.append(f"{game.name(k)}: {_noble(game, realm)}")
            lines += effect_lines(game.card(realm["noble"]), "    ")
    if not all(realm["noble"] for realm in v["realms"]):
        taken = {realm["noble"] for realm in v["realms"]}
        lines.append("Not chosen yet:")
        for card in (c for c in game.cards.cards if c.type == "noble" and c.id not in taken):
            lines.append(f"  {card.name} ({card.value})")
            lines += effect_lines(card, "    ")
    return "\n".join(lines)


def option_cards(game: Any, seat: int) -> str:
    """The prompt's ``cards``: the cards in play (an attack to answer) and each card the options
    now name (to play, place, keep, answer with), with its exact effect and its flavour text."""
    point = game.point()
    codes = point.options if isinstance(point, Decision) and point.seat == seat else ()
    seen: dict[str, tuple[str, str]] = {game.label(c): (c, " (in play)") for c in game.view(seat)["in_play"]}
    for code in codes:
        cid = words.option_card(game, code)
        if cid is not None:
            seen.setdefault(game.label(cid), (cid, ""))
    lines = []
    for cid, note in seen.values():
        lines.append(f"  {named(game, cid)}{note}")
        lines += effect_lines(game.card(cid), "    ")
    return "\n".join(lines) or "  no card in play or in your options now"


FACE_DOWN_TRAP = ("Real or a decoy, face down: attacked there, it is discarded; a real one turns the attack back on "
                  "the attacker, where its owner chooses (KD-8). Egbert's are always real.")


def standing_cards(game: Any, seat: int) -> str:
    """The prompt's ``defences``: each kind of card standing in the kingdoms (Castles, Lands,
    Defences, Traps as the seat sees them), once, with its exact effect."""
    v = game.view(seat)
    seen: dict[str, list[str]] = {}
    for realm in v["realms"]:
        for slot in realm["slots"]:
            for cid in (slot["card"], *slot["defences"], *([slot["trap"]] if slot["trap"] else [])):
                if cid == HIDDEN_TRAP:  # another's Trap: which kind is not for this seat (KD-29)
                    seen.setdefault("Trap (face down)", [f"    {FACE_DOWN_TRAP}"])
                    continue
                c = game.card(cid)
                name = f"Trap ({'real' if c.real else 'decoy'})" if c.type == "trap" else c.name
                seen.setdefault(name, effect_lines(c, "    "))
    lines = [line for name, said in seen.items() for line in (f"  {name}", *said)]
    return "\n".join(lines) or "  no kingdom has a card standing yet"


def _target(game: Any, code: Code) -> tuple[dict[str, Any], Mapping[str, Any]] | None:
    """For a target option (``("at", seat, slot, ...)``): the kingdom and the Castle or Land it
    names, as the deciding seat sees them; None for any other option."""
    if not code or code[0] != "at" or len(code) < 3:
        return None
    point = game.point()
    seat = point.seat if isinstance(point, Decision) else None
    v = game.view(seat)
    try:
        realm = v["realms"][code[1]]
        return realm, next(s for s in realm["slots"] if s["card"] == code[2])
    except (IndexError, KeyError, TypeError, StopIteration):
        return None


def hit_first(game: Any, code: Code) -> tuple[str, int, bool] | None:
    """For a target option (``("at", seat, slot, ...)``): the card an attack there hits first,
    the points that destroy it, and whether a Trap lies there; None for any other option."""
    target = _target(game, code)
    return None if target is None else _hit(game, *target)


def _hit(game: Any, realm: dict[str, Any], slot: Mapping[str, Any]) -> tuple[str, int, bool]:
    top = slot["defences"][-1] if slot["defences"] else slot["card"]
    from core.kingdom.lines import strength
    from core.kingdom.view import realm_of

    return top, strength(game.cards, realm_of(realm), top, game.damage_adds_up()), slot["trap"] is not None


def about(game: Any, code: Code) -> str:
    """What a player weighs before choosing: an attack's damage (its Noble's too); a target's line
    of defence, topmost first, each card with its value ("Kingdom Defence"), and what an attack
    there hits first and needs to destroy it (the topmost card: "Attack (red) cards")."""
    point = game.point()
    if len(code) == 2 and code[0] == "attack" and isinstance(point, Decision):
        return f"{game.attack_value(point.seat, code[1])} damage"
    target = _target(game, code)
    if target is None:
        return ""
    realm, slot = target
    top, need, _ = _hit(game, realm, slot)
    first = slot is realm["slots"][0]
    return f"{_slot_short(game, slot, first)}: hits {game.card(top).name} first, needs {need}"


def unavailable(game: Any, decision: Decision) -> list[str]:
    """Why a kind of play, or a card held, is missing from a kingdom's plays (its turn's action
    decision; in solo, the round's card): none while the kingdoms are built (the draft)."""
    if decision.kind != "action" or any(o[0] == "draft" for o in decision.options):
        return []
    solo_card = next((str(o[1]) for o in decision.options if o[0] == "discard"), None)  # solo: "play <card>"
    return prospects.unavailable(game, decision.seat, solo_card)
