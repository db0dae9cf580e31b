"""The solo AI's look at a whole round: my card's play, then each enemy's card played by the
enemy rules, on copies of the realms the view shows (docs/kingdom-ai.md, "Solo").

In solo nothing is hidden but the decks' order: the revealed cards, the cards given this
round (the view's ``given``) and every held card are seen, and the enemies follow fixed
rules. So a round can be played out on Realm copies: ``round_value`` values one of my plays
by what the position is worth after the enemies have played their cards too; in the last
round it counts the win exactly (most points standing, a tie to the higher Noble).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from core.engine import Parts
from core.kingdom.lines import (armed_defences, attackable, card_value, defence_room, is_construction, land_room,
                                score, slot_of, standing, strength, trap_room)
from core.kingdom.state import Realm, Slot

if TYPE_CHECKING:
    from core.kingdom.ai import _Full

Outcomes = list[tuple[float, list[Realm], float]]  # (probability, realms after, virtual points of mine)
LAST_ROUND = 18
SOLO_PENALTY = 1.5  # a Penalty Baligant plays on me: my next card hampered
FROZEN = 2.0  # my next card lost
HELD = 1.2  # an enemy holding an answer for my next card


def _copy(realms: list[Realm], k: int) -> tuple[list[Realm], Realm]:
    after = list(realms)
    r = after[k] = realms[k].copy()
    return after, r


def my_after(ai: "_Full", code: Parts) -> Outcomes | None:
    """The realms after my play ``code`` (with its odds), or None for a play valued only in points."""
    kn = ai.kn
    me, verb = kn.seat, code[0]
    realms = kn.realms
    if verb in ("done", "discard"):
        return [(1.0, realms, 0.0)]
    if verb == "hold":
        return [(1.0, realms, kn.keep(code[1]))]
    if verb == "place":
        from core.kingdom.ai import DECOY, REAL_TRAP
        cid, where = code[1], code[2]
        after, r = _copy(realms, me)
        c = kn.cards[cid]
        bonus = 0.0
        if where == "new":
            r.slots.append(Slot(cid))
        else:
            sl = slot_of(r, where)
            assert sl is not None
            if c.type == "trap":
                sl.trap = cid
                real = c.real or kn.keys[me] == "egbert"
                bonus = (REAL_TRAP if real else DECOY) * (1.0 if sl in attackable(r) else 0.4)
            else:
                sl.defences.append(cid)
        return [(1.0, after, bonus)]
    if verb == "mercy" and code[2] == "land":
        after, r = _copy(realms, me)
        r.slots.append(Slot(code[1]))
        return [(1.0, after, -kn.keep(code[1]))]
    if verb == "freeze":
        o = code[2]
        pb = kn.block_chance(o)
        after, r = _copy(realms, o)
        r.frozen = code[1]
        return [(1.0 - pb, after, 0.0), (pb, realms, 1.0)]
    if verb == "attack":
        from core.kingdom.ai import BURN, KEEP, PLAY
        _, m, s, parts = ai.plan(code[1])
        if not parts:
            return [(1.0, realms, 0.0)]
        cost = (PLAY + KEEP["morale"]) * m + (PLAY + KEEP["spread"]) * s
        mech = kn.cards[code[1]].has("mechanical")
        pb = 1.0 - math.prod(1.0 - kn.block_chance(o, mech) for o in {p[0] for p in parts})
        outs: list[tuple[float, list[Realm]]] = [(1.0, realms)]
        for o, t, n in parts:
            outs = [(p * q, rs2) for p, rs in outs for q, rs2 in kn.strike(rs, me, o, t, n)]
        got: Outcomes = [(p * (1.0 - pb), rs, -cost) for p, rs in outs]
        if pb > 0:
            got.append((pb, realms, BURN - cost))
        return got
    if verb in ("mutiny", "disrepair", "earthquake", "sabotage"):
        from core.kingdom.ai import BURN
        cid, o, t = code[1], code[2], code[3]
        after, r = _copy(realms, o)
        bonus = -kn.keep(cid)
        sl = slot_of(r, t)
        if sl is not None:
            if verb == "mutiny":
                if t in sl.defences:
                    sl.defences.remove(t)
            else:
                if verb in ("earthquake", "sabotage") and sl.trap:
                    sl.trap = None
                    bonus += 0.8 * (kn.trap_real(o) + 0.3)
                if verb in ("earthquake", "disrepair") and sl.defences and is_construction(kn.cards, sl.defences[-1]):
                    sl.defences.pop()
        pb = kn.block_chance(o)
        return [(1.0 - pb, after, bonus), (pb, realms, BURN if kn.solo else 0.0)]
    return None


def _answers(ai: "_Full", realms: list[Realm], keys: tuple[str, ...]) -> list[str]:
    r = realms[ai.kn.seat]
    if r.famine:
        return []
    return [c for c in [*r.hand, *r.mercy] if ai.kn.key(c) in keys]


def enemy_target(ai: "_Full", realms: list[Realm], points: int) -> str:
    """Where an enemy strikes me (KD-24): a Land removed first, then most destroyed, then most damage."""
    kn = ai.kn
    you = realms[kn.seat]
    slots = attackable(you)

    def hurt(sl: Slot) -> tuple[int, int, int]:
        top = sl.top()
        need = strength(kn.cards, you, top, kn.adds_up)
        kills = points >= need
        return (int(kills and top == sl.card), card_value(kn.cards, you, top) if kills else 0, min(points, need))

    ranked = [hurt(sl) for sl in slots]
    return slots[ranked.index(max(ranked))].card


def enemy_after(ai: "_Full", realms: list[Realm], k: int, cid: str) -> Outcomes:
    """Enemy ``k`` plays ``cid`` by the enemy rules on ``realms`` (solo.SoloGame.enemy_choice)."""
    kn = ai.kn
    me = kn.seat
    r = realms[k]
    same: Outcomes = [(1.0, realms, 0.0)]
    if not standing(r) or not standing(realms[me]):
        return same
    if r.frozen:
        mercy = [c for c in [*r.hand, *r.mercy] if kn.key(c) == "mercy"]
        if not mercy:
            after, r2 = _copy(realms, k)
            r2.frozen = None
            return [(1.0, after, 0.0)]
        realms, r = _copy(realms, k)
        r.frozen = None
        used = mercy[0]
        if used in r.hand:
            r.hand.remove(used)
        else:
            r.mercy.remove(used)
    c = kn.cards[cid]
    you = realms[me]
    if c.type == "penalty" and kn.keys[k] != "baligant":
        return same
    if c.key in ("deny", "mercy", "gold", "sabotage"):
        after, r2 = _copy(realms, k)
        r2.hand.append(cid)
        return [(1.0, after, -HELD)]
    if c.type in ("defend", "trap", "mercenaries"):
        if c.key == "land":
            if not land_room(r):
                return same
            after, r2 = _copy(realms, k)
            r2.slots.append(Slot(cid))
            return [(1.0, after, 0.0)]
        room = trap_room(r) if c.type == "trap" else defence_room(r)
        front = [sl for sl in r.lands if sl in room] + [sl for sl in room if sl is r.slots[0]]
        if not front:
            return same
        after, r2 = _copy(realms, k)
        sl = slot_of(r2, front[0].card)
        assert sl is not None
        if c.type == "trap":
            sl.trap = cid
        else:
            sl.defences.append(cid)
        return [(1.0, after, 0.0)]
    answers = _answers(ai, realms, ("deny", "mercy", "gold"))
    cheapest = min((kn.keep(a) for a in answers), default=None)
    if c.type == "attack":
        if not attackable(you):
            return same
        n = kn.attack_value(k, cid)
        outs = kn.strike(realms, k, me, enemy_target(ai, realms, n), n)
        got = [(p, rs, 0.0) for p, rs in outs]
        if cheapest is not None:  # I answer it when the harm is worth more than the card
            hit = sum(p * kn.worth(rs) for p, rs in outs)
            if kn.worth(realms, {me: -cheapest}) > hit:
                return [(1.0, realms, -cheapest)]
        return got
    if c.type == "penalty":  # Baligant: it strikes my next round
        cancel = _answers(ai, realms, ("deny", "mercy"))
        loss = min([SOLO_PENALTY, *(kn.keep(a) for a in cancel)])
        return [(1.0, realms, -loss)]
    if c.key == "freeze":
        if you.frozen:
            return same
        mercy = _answers(ai, realms, ("mercy",))
        loss = min([FROZEN, *(kn.keep(a) for a in mercy)])
        return [(1.0, realms, -min(loss, cheapest if cheapest is not None else loss))]
    if c.key == "mutiny":
        armed = armed_defences(kn.cards, you)
        if not armed:
            return same
        t = max(armed, key=lambda x: kn.cards[x].value)
        after, y = _copy(realms, me)
        sl = slot_of(y, t)
        assert sl is not None
        sl.defences.remove(t)
        return _or_answer(ai, realms, after, cheapest)
    if c.key in ("earthquake", "disrepair"):
        slots = []
        for sl in attackable(you):
            top_con = bool(sl.defences) and is_construction(kn.cards, sl.defences[-1])
            if top_con or (c.key == "earthquake" and sl.trap):
                worth = (kn.cards[sl.defences[-1]].value if top_con else 0) + (1 if sl.trap else 0)
                slots.append((worth, sl))
        if not slots:
            return same
        best = max(w for w, _ in slots)
        sl0 = next(sl for w, sl in slots if w == best)
        after, y = _copy(realms, me)
        sl = slot_of(y, sl0.card)
        assert sl is not None
        if c.key == "earthquake" and sl.trap:
            sl.trap = None
        if sl.defences and is_construction(kn.cards, sl.defences[-1]):
            sl.defences.pop()
        return _or_answer(ai, realms, after, cheapest)
    return same


def _or_answer(ai: "_Full", before: list[Realm], after: list[Realm], cheapest: float | None) -> Outcomes:
    kn = ai.kn
    if cheapest is not None and kn.worth(before, {kn.seat: -cheapest}) > kn.worth(after):
        return [(1.0, before, -cheapest)]
    return [(1.0, after, 0.0)]


def wins(ai: "_Full", realms: list[Realm]) -> float:
    """1 when I win with the realms as they stand after the last round, else 0."""
    kn = ai.kn
    me = kn.seat
    if not standing(realms[me]):
        return 0.0
    mine = score(kn.cards, realms[me], kn.lowers)
    for o, r in enumerate(realms):
        if o == me or not standing(r):
            continue
        theirs = score(kn.cards, r, kn.lowers)
        if theirs > mine or (theirs == mine and kn.numbers[o] > kn.numbers[me]):
            return 0.0
    return 1.0


def round_value(ai: "_Full", mine: Outcomes, given: dict[int, str]) -> float:
    """What the round is worth when my play gives ``mine`` and each enemy then plays its card."""
    kn = ai.kn
    me = kn.seat
    final = kn.view["turn"] >= LAST_ROUND
    total, won = 0.0, 0.0
    for p, realms, bonus in mine:
        outs: Outcomes = [(p, realms, bonus)]
        for k in sorted(given):
            nxt: Outcomes = []
            for q, rs, b in outs:
                for q2, rs2, b2 in enemy_after(ai, rs, k, given[k]):
                    nxt.append((q * q2, rs2, b + b2))
            outs = nxt
        for q, rs, b in outs:
            w = kn.worth(rs, {me: b})
            total += q * w
            if final:
                won += q * wins(ai, rs)
    if final:
        return math.log(max(won, 1e-4)) + 0.01 * total
    return total
