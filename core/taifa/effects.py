"""Event cards (5.4): who may play one, and its effect steps, run in order.

The steps are the vocabulary of docs/taifa-cards.md. A bot plays the card's
``bot`` clause where it has one (9.1) and picks areas and kingdoms by the
9.5 die; a player answers Decisions.
"""

from __future__ import annotations

from core.engine import Code
from core.procedure import Proc
from core.taifa.cards import Card, Effect
from core.taifa.combat import attack, campaign, campaign_targets, incursion, random_discard, troop_strength
from core.taifa.table import Table, forbidden_words, hits, possessive


def steps(card: Card, bot: bool) -> tuple[Effect, ...]:
    return card.bot if bot and card.bot else card.effect


def event_targets(t: Table, k: int, card: Card, bot: bool) -> list[int]:
    """The kingdoms the event may be aimed at (its ``target``), clockwise from ``k``.

    A truce that forbids incursions (El Cid's, 10.2) bars the Incursion action only: the
    kingdom "can still use event cards against him", Cabalgada included (TA-15), unless
    ``truce_bars_incursion_events`` (revision 1) bars incursion events too.
    """
    if card.target == "none":
        return []
    pool = t.neighbours(k) if card.target == "neighbour" else t.others(k)
    if t.opts["truce_bars_incursion_events"] and any(e.op == "incursion" for e in steps(card, bot)):
        pool = [o for o in pool if not t.forbidden(k, o, "incursion")]
    ring = t.others(k)
    return sorted(pool, key=ring.index)


def bot_targets(t: Table, k: int, strength: int) -> list[int]:
    """9.2: the areas with the highest defence (garrison included) still below ``strength``."""
    ok = [(d, a) for a in t.attackable(k) if (d := t.defence(a)) < strength]
    if not ok:
        return []
    best = max(d for d, _ in ok)
    return [a for d, a in ok if d == best]


def can_play(t: Table, k: int, cid: str, bot: bool) -> bool:
    """Whether ``k`` can play this event now: it needs a target where it names one (a player
    cannot play it otherwise, a bot discards it, 9.1; TA-31)."""
    card = t.card(cid)
    if card.kind != "event":
        return False
    if card.target != "none" and not event_targets(t, k, card, bot):
        return False
    for e in steps(card, bot):
        if e.op == "attack":
            if bot and not bot_targets(t, k, troop_strength(t, t.s.army[k])):
                return False
            if not bot and not t.attackable(k):
                return False
        elif e.op == "incursion" and e["troop"] and not bot \
                and not any(t.card(c).kind == "troop" for c in t.s.hands[k] if c != cid):
            return False
        elif e.op == "independent_attack" and not campaign_targets(t, k):
            return False
    return True


def play_event(t: Table, k: int, cid: str, *, bot: bool) -> Proc:
    """5.4: show the card, apply its steps, then keep it (P), remove it (D) or discard it."""
    s = t.s
    card = t.card(cid)
    s.in_play.append(cid)
    if t.telling:
        t.emit("event", f"{t.does(k, 'plays')} {t.label(cid)}: {card.text}", "taifa 5.4", k, cid)
    target = None
    if card.target != "none":
        pool = event_targets(t, k, card, bot)
        if bot:
            target = yield from t.bot_kingdom(k, pool, f"the target of {card.name}")
        elif len(pool) == 1:
            target = pool[0]
        else:
            code = yield from t.ask(k, f"{card.name}: against which kingdom?",
                                    [("target", s.kingdoms[o]) for o in pool], "target")
            target = s.kingdoms.index(code[1])
        t.emit("target", f"{card.name} is aimed at {t.name(target)}", "taifa 5.4", target)
    for e in steps(card, bot):
        yield from _step(t, k, card, e, target, bot)
    s.in_play.remove(cid)
    if card.permanent:  # P, and P with D: face up for the turn; a D one leaves the game then (TA-26)
        s.permanent[k].append(cid)
        t.emit("event", f"{card.name} stays face up until the end of the turn", "taifa 5.4", cid)
    elif card.removed_when_played:
        s.removed.append(cid)
        t.emit("event", f"{card.name} is removed from the game", "taifa 5.4", cid)
    else:
        t.to_discard(cid)


def _step(t: Table, k: int, card: Card, e: Effect, target: int | None, bot: bool) -> Proc:
    s = t.s
    op = e.op
    if op == "draw":
        yield from t.draw_cards(k, e["n"], on_top=s.bots[k])
    elif op == "gain_bonus":
        t.move_bonus(k, e["n"], "taifa 7")
    elif op == "target_bonus":
        assert target is not None
        t.move_bonus(target, e["n"], "taifa 7")
    elif op == "target_discards":
        assert target is not None
        for _ in range(e["n"]):
            if not s.hands[target]:
                break
            if e["pick"] == "random" or s.bots[target] or bot:
                yield from random_discard(t, target, "taifa 5.4")
            else:
                opts: list[Code] = [("take", c) for c in sorted(s.hands[target])]
                code = yield from t.ask(k, f"{card.name}: which card does {t.name(target)} discard?", opts, "target")
                s.hands[target].remove(code[1])
                t.to_discard(code[1])
                t.emit("discard", f"{t.does(target, 'discards')} {t.label(code[1])}", "taifa 5.4", target, code[1])
    elif op == "attack":
        if bot:
            strength = troop_strength(t, s.army[k])
            area = yield from t.bot_area(k, bot_targets(t, k, strength), "the area to attack")
        else:
            opts = [("attack", a) for a in t.attackable(k)]
            code = yield from t.ask(k, f"{card.name}: attack which area?", opts, "target")
            area = code[1]
        yield from attack(t, k, area, bonus_dice=e["bonus_dice"], from_event=True)
    elif op == "incursion":
        assert target is not None  # a bot's event incursion costs no Troop card (TA-34)
        yield from incursion(t, k, target, dice=e["dice"], troop=e["troop"] and not bot)
    elif op == "independent_attack":
        pool = campaign_targets(t, k)
        if bot:
            area = yield from t.bot_area(k, pool, "the Independent Campaign's target (9.6)")
        else:
            code = yield from t.ask(k, f"{card.name}: which invasion-route area?", [("area", a) for a in pool],
                                    "target")
            area = code[1]
        yield from campaign(t, k, area, e["dice"])
    elif op == "place_garrison":
        for _ in range(e["n"]):
            pool = [a for a in s.areas_of(k) if not s.garrison[a]]
            if not pool:
                t.emit("garrison", f"{t.does(k, 'has')} no area left to garrison", "taifa 2.2")
                break
            if s.bots[k]:
                area = yield from t.bot_area(k, pool, "where to place a garrison")
            else:
                code = yield from t.ask(k, f"{card.name}: garrison which area?", [("garrison", a) for a in pool],
                                        "target")
                area = code[1]
            s.garrison[area] = True
            t.emit("garrison", f"{t.does(k, 'garrisons')} {t.area_name(area)}", "taifa 5.4", k, area)
    elif op == "truce":
        assert target is not None
        s.truces.append((k, target, tuple(e["forbid"])))
        t.emit("truce", f"{card.name}: {t.name(target)} may not {forbidden_words(e['forbid'])} {t.name(k)} this turn",
               "TA-15", k, target)
    elif op == "duel":
        assert target is not None
        mine = yield from t.roll_d6(e["dice"], f"{possessive(t.name(k))} champion ({card.name})")
        theirs = yield from t.roll_d6(e["dice"], f"{possessive(t.name(target))} champion ({card.name})")
        a, b = hits(mine), hits(theirs)
        t.emit("combat", f"{card.name}: {t.name(k)} {a} hits, {t.name(target)} {b}", "taifa 5.4", tuple(mine), tuple(theirs))
        if a != b:
            win, lose = (k, target) if a > b else (target, k)
            t.move_bonus(win, 1, "taifa 7")
            t.move_bonus(lose, -1, "taifa 7")
    else:  # the loader refuses any other op on an event
        raise AssertionError(f"unhandled event op {op}")
