"""What a player weighs at its choice: the dice each side of a fight over an area would throw
(5.2), and why a kind of action is not among its options (5, TA-19, TA-31).

Pure functions of the table, asked by the prompt and the app beside the options; they read
only what the deciding kingdom may see (its own hand, the public table), so a game rebuilt
from that kingdom's view (core/taifa/from_view.py) answers them the same.
"""

from __future__ import annotations

from core.taifa.combat import carries, spendable, usable
from core.taifa.effects import can_play
from core.taifa.state import INDEPENDENT
from core.taifa.table import Table


def defence_dice(t: Table, a: int) -> tuple[int, int]:
    """The fewest and the most dice the holder of area ``a`` would throw to defend it before any
    Response (5.2): its printed defence, and a die for each garrison it may spend (5.1 step 4);
    a bot or an independent area always spends its own, so both are the same (9.4, TA-20)."""
    printed = t.m.areas[a - 1].defence
    d = t.s.owner[a]
    garrisons = len(spendable(t, d, a))
    always = d == INDEPENDENT or t.s.bots[d]
    return (printed + garrisons if always else printed), printed + garrisons


def event_dice(t: Table, op: str) -> int:
    """The dice the event being played gives its ``op`` step: an attack's bonus dice (Great
    Siege, Cavalry Charge), an Independent Campaign's outside force (5.4, TA-14); 0 for none."""
    if not t.s.in_play:
        return 0
    key = "dice" if op == "independent_attack" else "bonus_dice"
    return sum(e[key] for e in t.card(t.s.in_play[-1]).effect if e.op == op)


def attack_dice(t: Table, k: int) -> int:
    """The most dice ``k`` could attack with (5.2): every Troop card's strength in its hand, the
    dice its Responses may add to its own attack (5.1 step 2), and an event's bonus dice."""
    total = event_dice(t, "attack")
    for cid in t.s.hands[k]:
        c = t.card(cid)
        if c.kind == "troop":
            total += c.strength or 0
        elif usable(t, cid, "attack", "attacker"):
            total += sum(e["n"] for e in c.effect if e.op == "add_dice")
    return total


def unavailable(t: Table, k: int) -> list[str]:
    """Why each kind of action missing from ``k``'s options at its round is missing (5): one line a
    kind, as ``TaifaGame.actions`` decides it (an attack needs a card to carry it and an area to
    attack, TA-19; an incursion a Troop card and a neighbour; an event a card with a target, TA-31)."""
    hand = t.s.hands[k]
    if not hand:
        return ["no cards in hand: you can only pass (5.6)"]
    out = []
    troops = any(t.card(c).kind == "troop" for c in hand)
    if not any(carries(t, c) for c in hand):
        out.append("no Troop cards: no attack" if not t.opts["attack_by_response"]
                   else "no Troop cards, nor a Response that adds dice: no attack (TA-19)")
    elif not t.attackable(k):
        out.append("a truce forbids attacking every area bordering yours: no attack" if t.attackable(k, truces=False)
                   else "no area borders yours: no attack")
    if not troops:
        out.append("no Troop cards: no incursion (5.3)")
    elif not any(not t.forbidden(k, o, "incursion") for o in t.neighbours(k)):
        out.append("a truce forbids raiding each of your neighbours: no incursion" if t.neighbours(k)
                   else "no kingdom borders yours: no incursion")
    events = [c for c in hand if t.card(c).kind == "event"]
    if not events:
        out.append("no Event cards: no event")
    elif not any(can_play(t, k, c, bot=False) for c in events):
        out.append("none of your Event cards has a target now: no event (5.4, TA-31)")
    return out
