"""The rulebook bots (9.1-9.6): rules the engine runs itself, never a player.

A bot's round turns up the top card of its face-down pile and does what 9.1
says with it; every die the procedure throws (9.5) is a Chance point, so a
bot's play replays from the record alone.
"""

from __future__ import annotations

from core.procedure import Proc
from core.taifa.combat import attack, incursion, troop_strength
from core.taifa.effects import bot_targets, can_play, play_event, steps
from core.taifa.table import Table

ATTACK_THRESHOLD = 3  # 9.2: a bot attacks once its army is stronger than this


def bot_round(t: Table, k: int) -> Proc:
    """The round of bot ``k`` (5, 9.1): play the top card of its pile; pass only when the pile is
    empty. Returns True on a pass."""
    s = t.s
    s.current = k
    telling = t.telling  # the events of a round, worded only when someone reads them (most events)
    if telling:
        t.emit("round", f"Round {s.round}: {t.name(k)} (bot)", "taifa 9.1", s.round, k)
    hand = s.hands[k]
    if not hand:
        if telling:
            t.emit("pass", f"{t.does(k, 'passes')} (no cards left)", "taifa 9.1", k)
        return True
    cid = hand.pop(0)
    card = t._cards[cid]  # t.card(cid), and below t.label(cid): at every round
    if telling:
        t.emit("reveal", f"{t.does(k, 'turns')} up {t._words[cid]}", "taifa 9.1", k, cid)
    if card.offensive:
        yield from offensive(t, k, cid)
    elif card.kind == "troop":  # checked as it is deployed: "the instant" of 9.2 (TA-33)
        s.army[k].append(cid)
        strength = troop_strength(t, s.army[k])
        if telling:
            t.emit("deploy", f"{t.does(k, 'adds')} it to its army (strength {strength})", "taifa 9.1", k, cid, strength)
        if strength > ATTACK_THRESHOLD:
            yield from army_attack(t, k)
    elif card.kind == "response":
        s.ready[k].append(cid)
        if telling:
            t.emit("deploy", f"{t.does(k, 'deploys')} it face up", "taifa 9.1", k, cid)
    elif can_play(t, k, cid, bot=True):
        yield from play_event(t, k, cid, bot=True)
    else:
        t.to_discard(cid)
        t.emit("discard", f"{t.name(k)} cannot play {card.name} and discards it", "taifa 9.1", k, cid)
    return False


def quiet_round(t: Table, k: int) -> bool:
    """Whether bot ``k``'s round, about to begin, certainly asks nothing (core.procedure's
    ``_quiet``), as :func:`bot_round` would play it without a die: it passes; deploys a Response
    or a Troop card that leaves its army not stronger than the threshold (9.1, 9.2); or plays an
    event that only moves its bonus and draws cards its pile still holds (no reshuffle). Said
    only where it is cheap to tell: finding targets costs more than the copy it would save."""
    s = t.s
    hand = s.hands[k]
    if not hand:
        return True
    card = t.card(hand[0])
    if card.offensive:
        return False
    kind = card.kind
    if kind == "response":
        return True
    if kind == "troop":
        return troop_strength(t, s.army[k]) + (card.strength or 0) <= ATTACK_THRESHOLD
    if kind != "event" or card.target != "none":
        return False
    ops = steps(card, True)
    if not all(e.op in _CARDS_AND_BONUS for e in ops):
        return False
    return len(s.draw[s.decks[k]]) >= sum([e["n"] for e in ops if e.op == "draw"])


_CARDS_AND_BONUS = frozenset(("gain_bonus", "draw"))  # event steps that ask nothing but a reshuffle


def army_attack(t: Table, k: int, bonus_dice: int = 0) -> Proc:
    """9.2: attack with the whole army the strongest area still weaker than it. Returns False
    (the army waits) when there is none."""
    s = t.s
    strength = troop_strength(t, s.army[k])
    if not s.army[k]:
        return False
    pool = bot_targets(t, k, strength)
    if not pool:
        t.emit("wait", f"{t.does(k, 'finds')} no area weaker than {strength}: its army waits", "taifa 9.2", k, strength)
        return False
    area = yield from t.bot_area(k, pool, "the area to attack")
    yield from attack(t, k, area, bonus_dice=bonus_dice)
    return True


def offensive(t: Table, k: int, cid: str) -> Proc:
    """9.3: discard the Offensive card and attack with the army; failing that, use the card for an
    incursion against a bordering kingdom with cards in hand; failing that, it is just discarded.

    An Offensive Troop card goes the same way: its strength never joins the army (TA-23).
    """
    s = t.s
    t.to_discard(cid)
    if t.telling:
        t.emit("offensive", f"{t.does(k, 'ignores')} the text of {t.card(cid).name}: Offensive symbol", "taifa 9.3", k, cid)
    if (yield from army_attack(t, k)):
        return
    pool = [o for o in t.neighbours(k) if s.hands[o] and not t.forbidden(k, o, "incursion")]
    if not pool:
        t.emit("discard", f"{t.does(k, 'has')} no attack and no incursion to make: the card is discarded", "taifa 9.3", k)
        return
    target = yield from t.bot_kingdom(k, pool, "the kingdom to raid")
    yield from incursion(t, k, target, troop=False, card=cid)
