"""Attacks (5.1-5.2), incursions (5.3) and Independent Campaigns (9.6, TA-14).

All three share one shape: the acting side commits its cards, every other
kingdom in play order gets a response window (5.1 step 3), the defender picks
garrisons (step 4), the cards are revealed (step 5), the dice are rolled and
every card used goes to the discard pile (step 7).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from core.engine import Event
from core.procedure import GameEnded, Proc
from core.taifa.state import CASTLES, INDEPENDENT, Fight
from core.taifa.table import Table, agree, dice_word, hits, possessive


class SuddenVictory(GameEnded):
    """A kingdom placed its 13th castle (8, 10.3): the game ends at once."""

    def __init__(self, kingdom: int) -> None:
        super().__init__(kingdom)
        self.kingdom = kingdom


# Where a Response may be placed, per side of each kind of fight (docs/taifa-cards.md).
MOMENTS = {
    "attack": ("attack", "defence"),
    "incursion": ("incursion", "incursion_defence"),
    "campaign": (None, "campaign_defence"),
}


def usable(t: Table, cid: str, moment: str | None, role: str) -> bool:
    """May a Response be placed at ``moment`` by a kingdom in ``role`` (attacker, defender, other)?"""
    c = t.card(cid)
    if c.kind != "response" or moment is None or moment not in c.when:
        return False
    return c.who == "any" or c.who == role


def bot_response(t: Table, k: int, moment: str | None, role: str) -> str | None:
    """The first deployed Response a bot may use here, taken off its row (9.4, TA-21)."""
    for cid in t.s.ready[k]:
        if usable(t, cid, moment, role):
            t.s.ready[k].remove(cid)
            return cid
    return None


def troop_strength(t: Table, cids: list[str]) -> int:
    cards = t._cards
    return sum([cards[c].strength or 0 for c in cids])


def _place(t: Table, f: Fight, side: str, k: int, cid: str, face_up: bool, rule: str | None = None) -> None:
    t.s.in_play.append(cid)
    f.cards.append((side, k, cid, face_up))
    if not t.telling:  # the rest words the event
        return
    if face_up:
        rule = rule or ("taifa 9.2" if t.card(cid).kind == "troop" else "taifa 9.4")  # the whole army; one Response
        t.emit("commit", f"{t.does(k, 'adds')} {t.label(cid)} to the {side}", rule, k, side, cid)
    else:  # its player alone knows the card until the reveal; the side it lies on is seen (TA-37)
        said = f"{t.does(k, 'places')} a card face down on the {side}"
        t.emit("commit", f"{t.does(k, 'places')} {t.label(cid)} face down on the {side}", "taifa 5.1", k, side, cid,
               seen=frozenset((k,)), public=said)


def carries(t: Table, cid: str) -> bool:
    """A card that can carry an attack (5.2): a Troop card, or, with ``attack_by_response``,
    a Response that adds dice (5.1 step 2 and 5.2: "Response cards can modify the procedure"; TA-19)."""
    c = t.card(cid)
    return c.kind == "troop" or (t.opts["attack_by_response"] and usable(t, cid, "attack", "attacker")
                                  and any(e.op == "add_dice" for e in c.effect))


def _commit(t: Table, f: Fight, k: int, moment: str, *, troops: bool, need_troop: bool) -> Proc:
    """5.1 step 2: a player puts Troop cards and Responses face down, one at a time, then done.

    The Attack action needs a card that carries it among them (a Troop card, or a Response
    that adds dice, TA-19); an event's attack does not.
    """
    while True:
        hand = t.s.hands[k]
        opts: list[tuple] = [("add", c) for c in sorted(hand)
                             if (troops and t.card(c).kind == "troop") or usable(t, c, moment, "attacker")]
        carried = any(carries(t, c) for _, who, c, _ in f.cards if who == k)
        if carried or not need_troop:
            if not opts:  # nothing (more) to place: no question, as for the windows (TA-18)
                return
            opts.append(("done",))
        code = yield from t.ask(k, f"{f.kind}: add a card face down, or done", opts, "commit")
        if code[0] == "done":
            return
        t.take_from_hand(k, code[1])
        _place(t, f, "attack", k, code[1], False)


def _windows(t: Table, f: Fight, start: int) -> Proc:
    """5.1 step 3: any kingdom may add Responses to either side (TA-18).

    The window goes round the table in play order from the kingdom after ``start`` (the
    attacker, or the kingdom that raised an Independent Campaign), ``start`` last, one card or
    a "no" per turn, until every kingdom has declined in a row: a card placed opens the round
    again for all, the attacker included (it may add Responses to the attack). The attacker's
    commit (step 2) counts as its first "no". Whether a player is asked depends only on what
    the table can see (its hand is not empty), so the order of the questions tells nobody who
    holds a Response; a player with nothing usable then answers "done". With
    ``response_rounds`` off, revision 1's single pass runs instead.
    """
    if not t.opts["response_rounds"]:
        yield from _windows_once(t, f, start)
        return
    ring = t.others(start) + [start]
    bots, ready, n = t.s.bots, t.s.ready, len(ring)
    if all(bots[j] and (not ready[j] or j == f.attacker) for j in ring):
        return  # bots alone, none with a Response it may place (_bot_window): nobody places a card
    side = _bots_side(t, f)
    declined = 1
    i = 0
    while declined < n:
        j = ring[i % n]
        i += 1
        if bots[j]:  # a bot with nothing deployed has nothing to place (_bot_window): asked for no more
            placed = bool(ready[j]) and _bot_window(t, f, j, side)
        else:
            placed = yield from _player_window(t, f, j)
        declined = 0 if placed else declined + 1


def _player_window(t: Table, f: Fight, j: int) -> Proc:
    """One turn of a player in a response window (TA-18): one card face down, or done.

    A player with an empty hand answers "no" unasked, as does one with nothing usable when
    every other kingdom is a bot (nobody is there to learn from it); any other player is
    asked, even with only "done" to answer. Returns True when it placed a card.
    """
    s = t.s
    opts = _response_options(t, f, j)
    watched = sum(not bot for bot in s.bots) > 1
    if not s.hands[j] or not (opts or watched):
        return False
    placed = yield from _ask_response(t, f, j, opts)
    return placed


def _ask_response(t: Table, f: Fight, j: int, opts: list[tuple]) -> Proc:
    """Ask ``j`` for one Response (``opts``) or done; True when it placed one, face down."""
    where = t.area_name(f.area) if f.area else t.name(f.defender)
    code = yield from t.ask(j, f"responses to the {f.kind} on {where}: add a card face down, or done",
                            opts + [("done",)], "respond")
    if code[0] == "done":
        return False
    t.take_from_hand(j, code[2])
    _place(t, f, code[1], j, code[2], False)
    return True


def _response_options(t: Table, f: Fight, j: int) -> list[tuple]:
    """The Responses ``j`` may place now: the attacker on its attack only; any other kingdom
    on either side, as the card allows (5.1 step 3)."""
    hand = sorted(t.s.hands[j])
    atk_moment, def_moment = MOMENTS[f.kind]
    if j == f.attacker:
        return [("respond", "attack", c) for c in hand if usable(t, c, atk_moment, "attacker")]
    role = "defender" if j == f.defender else "other"
    return ([("respond", "attack", c) for c in hand if usable(t, c, atk_moment, "any_other")]
            + [("respond", "defence", c) for c in hand if usable(t, c, def_moment, role)])


def _windows_once(t: Table, f: Fight, start: int) -> Proc:
    """Revision 1's windows (``response_rounds`` off): every other kingdom, in play order, once;
    only kingdoms holding a card they could place are asked, and each places cards one by one,
    then says done."""
    side = _bots_side(t, f)
    for j in t.others(start):
        if j == f.attacker:
            continue
        if t.s.bots[j]:
            _bot_window(t, f, j, side)
            continue
        while True:
            opts = _response_options(t, f, j)
            if not opts or not (yield from _ask_response(t, f, j, opts)):
                break


def _bots_side(t: Table, f: Fight) -> str | None:
    """The side bots back in a fight that is not theirs (:func:`_against_leader`), None with
    ``bots_join_fights`` off. Reckoned once a fight's windows: no castle changes hands in them."""
    return _against_leader(t, f) if t.opts["bots_join_fights"] else None


def _bot_window(t: Table, f: Fight, j: int, side: str | None) -> bool:
    """A bot's turn in a response window: at most one Response in a fight, the first usable
    of its row (9.4, TA-21), face up. It defends itself (TA-22) and, with ``bots_join_fights``,
    joins another kingdom's fight against the leader (TA-30): ``side``, from :func:`_bots_side`.
    Returns True when it placed one."""
    if not t.s.ready[j] or j == f.attacker:  # nothing deployed (most bots, most windows), or its own attack
        return False
    if side is None and j != f.defender:  # a fight it stays out of (most others': no leader in it)
        return False
    atk_moment, def_moment = MOMENTS[f.kind]
    if any([who == j and t.card(c).kind == "response" for _, who, c, _ in f.cards]):
        return False  # its one Response went with its attack, or it placed one already (TA-21)
    if j == f.defender:
        cid = bot_response(t, j, def_moment, "defender") if _bot_defends(t, f) else None
        if cid:
            _place(t, f, "defence", j, cid, True)
        return cid is not None
    if side is None or (side == "defence" and not _bot_defends(t, f)):  # never None here (above): for mypy
        return False
    cid = bot_response(t, j, atk_moment if side == "attack" else def_moment, "other")
    if cid:
        _place(t, f, side, j, cid, True, "TA-30")
    return cid is not None


def _against_leader(t: Table, f: Fight) -> str | None:
    """TA-30: the side a bot backs in others' fights: the one fighting a leading kingdom (most
    castles, 8; ties lead together), when exactly one side is led by one; else none."""
    lead = t.leaders()
    attacker, defender = f.attacker in lead, f.defender in lead
    if attacker == defender:
        return None
    return "defence" if attacker else "attack"


def _bot_defends(t: Table, f: Fight) -> bool:
    """9.4: a bot spends a Response to defend only against attacking troops of strength 3 or
    more (TA-22). An incursion has no attacking troops: with ``bots_respond_to_incursions``
    off (the faithful reading) a bot does not respond to one."""
    if f.kind == "attack":
        return troop_strength(t, [c for side, _, c, _ in f.cards if side == "attack"]) >= 3
    if f.kind == "campaign":
        return f.force >= 3
    return t.opts["bots_respond_to_incursions"]


def spendable(t: Table, d: int, a: int) -> list[int]:
    """The garrisons the defender ``d`` of area ``a`` may spend, a die each (5.1 step 4): a
    player's in and next to the area, its choice; a bot's or an independent area's only the
    area's own, always spent (9.4, TA-20)."""
    s = t.s
    if d == INDEPENDENT or s.bots[d]:
        return [a] if s.garrison[a] else []
    near = [a] + list(t.m.areas[a - 1].borders)
    return [b for b in sorted(near) if s.owner[b] == d and s.garrison[b]]


def _garrisons(t: Table, f: Fight) -> Proc:
    """5.1 step 4: the defender spends garrisons in and next to the area, one die each."""
    s, d, a = t.s, f.defender, f.area
    if d == INDEPENDENT or s.bots[d]:
        for g in spendable(t, d, a):
            _spend(t, f, g, "TA-20" if d == INDEPENDENT else "taifa 9.4")
        return
    while True:
        opts = [("garrison", b) for b in spendable(t, d, a) if b not in f.garrisons]
        if not opts:
            return
        code = yield from t.ask(d, f"defend {t.area_name(a)}: spend a garrison (+1 die), or done",
                                opts + [("done",)], "commit")
        if code[0] == "done":
            return
        _spend(t, f, code[1])


def _spend(t: Table, f: Fight, a: int, rule: str = "taifa 5.1") -> None:
    t.s.garrison[a] = False
    f.garrisons.append(a)
    who = "The independent area" if f.defender == INDEPENDENT else t.name(f.defender)
    t.emit("garrison", f"{who} spends the garrison of {t.area_name(a)} (+1 die)", rule, a)


# Where a side's number of dice comes from: (why, dice), e.g. ("defence 3", 3), ("Champion", 2),
# ("garrison of Murcia", 1), ("Siege Engines", -1); the sum, floored at 0, is what it rolls.
Dice = list[tuple[str, int]]


class Revealed(NamedTuple):
    attack: Dice  # what the Responses add to or cut from each side
    defence: Dice
    cancel: Event | None  # the event calling the fight off, if a card did
    troops: list[str]  # the attacking Troop cards still in the fight
    strength: int  # of every attacking Troop card placed (a Sortie's is in ``attack``)


def _reveal(t: Table, f: Fight) -> Revealed:
    """5.1 step 5: turn the cards up and apply the Responses."""
    f.cards = [(side, k, c, True) for side, k, c, _ in f.cards]
    if t.telling:  # the cards each side shows, worded only when someone reads them
        for side in ("attack", "defence"):
            placed = [t.label(c) for sd, _, c, _ in f.cards if sd == side]
            if placed:
                t.emit("reveal", f"{side.capitalize()}: {', '.join(placed)}", "taifa 5.1", side,
                       *(c for sd, _, c, _ in f.cards if sd == side))
    troops = [c for side, _, c, _ in f.cards if side == "attack" and t.card(c).kind == "troop"]
    strength = troop_strength(t, troops)
    dice: dict[str, Dice] = {"attack": [], "defence": []}
    cancel = None
    for side, k, cid, _ in f.cards:
        card = t.card(cid)
        if card.kind != "response":
            continue
        other = "defence" if side == "attack" else "attack"
        target = f.defender if side == "attack" else f.attacker
        for e in card.effect:
            if e.op == "add_dice":
                dice[side].append((card.name, e["n"]))
            elif e.op == "cut_dice":
                dice[other].append((card.name, -e["n"]))
            elif e.op == "remove_attacking_troop":
                for _ in range(e["n"]):
                    if troops:
                        gone = max(troops, key=lambda c: (t.card(c).strength, c))
                        troops.remove(gone)
                        dice["attack"].append((card.name, -(t.card(gone).strength or 0)))
                        t.emit("sortie", f"{card.name} removes {t.label(gone)} from the attack", "TA-13", gone)
            elif e.op in ("cancel_attack", "cancel_incursion"):
                cancel = t.told("cancel", f"{card.name}: the {f.kind} is called off", "taifa 5.1", cid)
            elif e.op == "gain_bonus":
                t.move_bonus(k, e["n"], "taifa 7")
            elif e.op == "target_bonus":
                t.move_bonus(target, e["n"], "taifa 7")
    return Revealed(dice["attack"], dice["defence"], cancel, troops, strength)


def _event_name(t: Table) -> str | None:
    """The event card being played (5.4) when a fight begins as one of its steps; None for an action."""
    return t.card(t.s.in_play[-1]).name if t.s.in_play else None


def _defence_dice(t: Table, f: Fight, responses: Dice) -> Dice:
    """5.1 step 4, 5.2: the area's printed defence, a die per garrison spent, then the Responses."""
    printed = t.m.areas[f.area - 1].defence
    return [(f"defence {printed}", printed), *((f"garrison of {t.area_name(g)}", 1) for g in f.garrisons),
            *responses]


def _count(dice: Dice) -> int:
    return max(0, sum(n for _, n in dice))


def _battle(t: Table, f: Fight, attack_dice: Dice, defence_dice: Dice) -> Proc:
    """5.2: both sides roll; the attacker needs more hits. Returns True if the attacker wins."""
    who = t.name(f.attacker) if f.attacker != INDEPENDENT else "The outside force"
    where = t.area_name(f.area)
    defender = f"Independent {where}" if f.defender == INDEPENDENT else t.name(f.defender)
    na, nd = _count(attack_dice), _count(defence_dice)
    a = yield from t.roll_d6(na, f"{who} {agree(who, 'rolls')} {dice_word(na)} to attack {where}")
    d = yield from t.roll_d6(nd, f"{defender} {agree(defender, 'rolls')} {dice_word(nd)} to defend "
                             + ("itself" if f.defender == INDEPENDENT else where))
    f.dice["attack"], f.dice["defence"] = tuple(a), tuple(d)
    ha, hd = hits(a), hits(d)
    won = ha > hd
    decided = t.told("combat", f"{who} rolls {_dice(a)} = {ha} hit{'s' if ha != 1 else ''} against {_dice(d)} = "
                     f"{hd}: {where} {'falls' if won else 'holds'}", "taifa 5.2", tuple(a), tuple(d), ha, hd, won)
    _record(t, f, "falls" if won else "holds", decided, attack_dice, defence_dice)
    return won


def _record(t: Table, f: Fight, outcome: str, decided: Event, attack_dice: Dice | None = None,
            defence_dice: Dice | None = None) -> None:
    """Keep the fight as resolved for the view (:func:`combat_view`): only references, as
    fights are many and views few. Nothing kept is changed afterwards."""
    t.s.last_combat = (f, t.s.turn, outcome, decided, attack_dice or [], defence_dice or [])


def combat_view(last: tuple[Any, ...] | None) -> dict[str, Any] | None:
    """The last fight resolved, for ``view()``: every card (all face up by now), the garrisons
    spent, where each side's dice came from, the dice, the hits and the deciding event. Tuples, as
    in every view: a view sent over the network comes back equal (notation/protocol.py)."""
    if last is None:
        return None
    f, turn, outcome, decided, attack_dice, defence_dice = last
    a, d = f.dice.get("attack", ()), f.dice.get("defence", ())
    return {
        "kind": f.kind, "attacker": f.attacker, "defender": f.defender, "area": f.area, "turn": turn,
        "cards": tuple((side, k, c) for side, k, c, _ in f.cards), "garrisons": tuple(f.garrisons),
        "attack_dice": tuple((why, n) for why, n in attack_dice),
        "defence_dice": tuple((why, n) for why, n in defence_dice),
        "attack_roll": tuple(a), "defence_roll": tuple(d), "attack_hits": hits(a), "defence_hits": hits(d),
        "outcome": outcome, "text": decided.text, "rule": decided.rule,
    }


def _dice(values: tuple[int, ...] | list[int]) -> str:
    return "[" + " ".join(map(str, values)) + "]" if values else "no dice"


def _clear(t: Table, f: Fight) -> None:
    """5.1 step 7: every card used goes to its deck's discard pile."""
    for _, _, cid, _ in f.cards:
        t.s.in_play.remove(cid)
        t.to_discard(cid)
    t.s.fight = None


def attack(t: Table, k: int, area: int, *, bonus_dice: int = 0, from_event: bool = False) -> Proc:
    """5.1: ``k`` attacks ``area``. A bot commits its whole army and its first usable Response."""
    s = t.s
    source = _event_name(t)
    f = Fight("attack", k, s.owner[area], area)
    s.fight = f
    if t.telling:
        held = "independent" if f.defender == INDEPENDENT else f"held by {t.name(f.defender)}"
        t.emit("attack", f"{t.does(k, 'attacks')} {t.area_name(area)} ({area}, defence {t.m.areas[area - 1].defence}, "
               f"{held})", "taifa 5.1", k, area, f.defender)
    if s.bots[k]:
        army, s.army[k] = s.army[k], []
        for cid in army:
            _place(t, f, "attack", k, cid, True)
        answer = bot_response(t, k, "attack", "attacker")
        if answer:
            _place(t, f, "attack", k, answer, True)
    else:
        yield from _commit(t, f, k, "attack", troops=True, need_troop=not from_event)
    yield from _windows(t, f, k)
    yield from _garrisons(t, f)
    r = _reveal(t, f)
    if r.cancel:
        _record(t, f, "cancelled", r.cancel)
        _clear(t, f)
        return False
    strength = r.strength
    attack_dice: Dice = [(f"troops {strength}", strength)] if strength else []
    if bonus_dice:  # Great Siege, Cavalry Charge (5.4)
        attack_dice.append((source or "event", bonus_dice))
    won = yield from _battle(t, f, attack_dice + r.attack, _defence_dice(t, f, r.defence))
    _clear(t, f)
    if won:
        yield from capture(t, k, area)
    return won


def capture(t: Table, k: int, area: int) -> Proc:
    """5.1 step 6: castle (and garrison) replaced; the winner takes +1 bonus or a garrison; the loser -1."""
    s = t.s
    loser = s.owner[area]
    s.owner[area] = k
    s.garrison[area] = False
    t.emit("capture", f"{t.does(k, 'takes')} {t.area_name(area)}: {s.castles(k)} castles", "taifa 5.1", k, area, loser)
    if s.castles(k) >= CASTLES:  # 8: the 13th castle wins at once, before the bonus choice (TA-35)
        raise SuddenVictory(k)
    if s.bots[k]:
        choice = "garrison" if s.bonus[k] == 2 else "bonus"  # 9.4
    else:  # offered at +2 too: the bonus step is then lost (7), a player may still want it (TA-32)
        code = yield from t.ask(k, f"{t.area_name(area)} taken: +1 Card Bonus or a garrison there?",
                                [("bonus",), ("garrison",)], "choose")
        choice = code[0]
    if choice == "garrison":
        s.garrison[area] = True
        t.emit("garrison", f"{t.does(k, 'garrisons')} {t.area_name(area)}", "taifa 9.4" if s.bots[k] else "taifa 5.1", k, area)
    else:
        t.move_bonus(k, 1, "taifa 7")
    t.move_bonus(loser, -1, "taifa 7")


def incursion(t: Table, k: int, target: int, *, dice: int = 1, troop: bool = True, card: str | None = None) -> Proc:
    """5.3: ``k`` raids ``target``. A player discards a Troop card (unless an event says not);
    a bot's 9.3 incursion spends the Offensive card ``card`` instead."""
    s = t.s
    source = _event_name(t)
    f = Fight("incursion", k, target)
    s.fight = f
    if t.telling:
        t.emit("incursion", f"{t.does(k, 'makes')} an incursion against {t.name(target)}", "taifa 5.3", k, target)
    if troop and not s.bots[k]:
        opts = [("troop", c) for c in sorted(s.hands[k]) if t.card(c).kind == "troop"]
        # "commit", not "choose": the seat spends one of its own cards on its action, as it
        # adds cards to an attack or spends garrisons; the options are its cards, not named ways.
        code = yield from t.ask(k, "incursion: discard which Troop card?", opts, "commit")
        t.take_from_hand(k, code[1])
        t.to_discard(code[1])
        t.emit("discard", f"{t.does(k, 'discards')} {t.label(code[1])} for the incursion", "taifa 5.3", k, code[1])
    elif card is not None:  # the Offensive card is the incursion's cost, not a Troop card (TA-23)
        t.emit("discard", f"{t.does(k, 'uses')} {t.label(card)} for the incursion", "TA-23", k, card)
    if s.bots[k]:
        cid = bot_response(t, k, "incursion", "attacker")
        if cid:
            _place(t, f, "attack", k, cid, True)
    else:
        yield from _commit(t, f, k, "incursion", troops=False, need_troop=False)
    yield from _windows(t, f, k)
    r = _reveal(t, f)  # an incursion's defence rolls no dice: its Responses only cut or cancel
    if r.cancel:
        _record(t, f, "cancelled", r.cancel)
        _clear(t, f)
        return False
    attack_dice: Dice = [(source or "incursion", dice), *r.attack]  # 5.3's die, or an event's (Cabalgada)
    n = _count(attack_dice)
    rolled = yield from t.roll_d6(n, f"{t.does(k, 'rolls')} {dice_word(n)} to raid {t.name(target)}")
    f.dice["attack"] = tuple(rolled)
    won = hits(rolled) >= 1  # 11.2: at least one hit succeeds (TA-25)
    decided = t.told("combat", f"{t.does(k, 'rolls')} {_dice(rolled)}: the incursion {'succeeds' if won else 'fails'}",
                     "taifa 5.3", tuple(rolled), won)
    _record(t, f, "succeeds" if won else "fails", decided, attack_dice)
    _clear(t, f)
    if won:
        yield from random_discard(t, target, "taifa 5.3")
    return won


def random_discard(t: Table, k: int, rule: str) -> Proc:
    """``k`` discards a random card from its hand; a bot's face-down pile is random already,
    so it loses the top card (TA-24)."""
    hand = t.s.hands[k]
    if not hand:
        t.emit("discard", f"{t.does(k, 'has')} no card to discard", rule, k)
        return
    if t.s.bots[k]:
        cid = hand.pop(0)
    else:
        # Drawn blind: which of the sorted hand it was tells the others of the rest (TA-39).
        i = yield from t.pick(len(hand), f"a random card from {possessive(t.name(k))} hand", t.hand_seen(k))
        cid = sorted(hand)[i]
        hand.remove(cid)
    t.to_discard(cid)
    if t.telling:
        t.emit("discard", f"{t.does(k, 'discards')} {t.label(cid)} at random", rule, k, cid)


def campaign_targets(t: Table, k: int) -> list[int]:
    """9.6: invasion-route areas that are neither ``k``'s nor independent."""
    s = t.s
    return [a for a in t.invasion_routes if s.owner[a] >= 0 and s.owner[a] != k]


def campaign(t: Table, k: int, area: int, force: int) -> Proc:
    """Independent Campaign (TA-14): an outside force of ``force`` dice attacks ``area``;
    if it wins the area turns independent and its owner loses 1 Card Bonus."""
    s = t.s
    owner = s.owner[area]
    source = _event_name(t)
    f = Fight("campaign", INDEPENDENT, owner, area, force)
    s.fight = f
    t.emit("campaign", f"{t.does(k, 'raises')} an Independent Campaign against {t.area_name(area)} "
           f"({t.name(owner)}): {dice_word(force)}", "TA-14", k, area, owner)
    yield from _windows(t, f, k)
    yield from _garrisons(t, f)
    r = _reveal(t, f)  # no Response cancels a campaign (docs/taifa-cards.md)
    won = yield from _battle(t, f, [(source or "outside force", force), *r.attack], _defence_dice(t, f, r.defence))
    _clear(t, f)
    if won:
        s.owner[area] = INDEPENDENT
        s.garrison[area] = False
        t.emit("capture", f"{t.area_name(area)} breaks away: it is independent now", "TA-14", area, owner)
        t.move_bonus(owner, -1, "taifa 7")
    return won
