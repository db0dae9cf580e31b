"""The Taifa AI: a controller that plays one kingdom from what its seat may see.

``TaifaAI(seed, rollouts=None).choose(game, decision)`` answers every kind of
Taifa decision. It reads only ``game.view(seat)``, the map and the card list
(public: docs/taifa-cards.md prints the decks) and the Decision's options;
other hands and the draw order are never looked at.

How it plays (a heuristic on exact odds; values are in castles):

* Combat odds are exact (5.2: hits on 4-6, the attacker needs strictly more
  hits): ``p_win(a, d)`` is a precomputed table.
* An attack is planned as a target and a set of cards: the chance of taking
  the area times what it is worth, less what the cards would be worth kept.
  The cards are searched by kind (Troop strengths, Response effects), so the
  plan is exact for that model. A rulebook bot's defence is predictable (9.4):
  the first usable Response it has deployed face up, and only against Troop
  strength 3 or more, so a strength-2 attack padded with Champions goes
  unanswered. Against a player, one hidden die is allowed for.
* What an area is worth: turns 1-2, a castle for us, a share of one for the
  kingdom that loses it (more for the leader), and the Card Bonus (a card
  next turn). Turn 3, the change in a smooth estimate of our chance of
  winning (castles, the Card Bonus breaking ties, 8), which is exact once our
  pass would end the game. El Cid counts 10.3's two conditions instead.
  A newly taken area loses the chance that a bot takes it back this turn:
  bots aim by 9.2/9.5, so their targets can be foreseen.
* Defence: Responses and garrisons are spent when the chance of holding
  gains more than they are worth kept; Spies stop incursions; a bot's face-up
  army is known, a player's face-down cards are guessed.
* Events are valued by their steps (draws first, Card Bonus, discards,
  garrisons, truces against the kingdom most likely to attack us, attack
  events as attacks with their bonus dice). Passing is chosen when nothing
  is worth doing; at the end of turns 1-2 a weak card is discarded so a fresh
  card replaces it (7); once our pass would end turn 3 everything is spent.

``rollouts`` (optional, slower: about 1 s a game at 8): on turn 3 the main
action is chosen among the heuristic's best three by playing each out to the
end of the game ``rollouts`` times, the unseen cards dealt afresh each time
(a fair determinization: the cards nobody can see are shuffled back into the
places nobody can see, keeping every count), bots and the heuristic playing.

It keeps nothing between decisions: the event it is playing is the one the view
shows face up (``playing``), and a rollout's seeds come from its seed, the turn
and the round. An AI built afresh on a resumed record answers as the one that
played from the start (issue 26), so a seeded game resumes to the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import product
from math import comb, exp
from typing import Any

from core.chance import draw as draw_outcome
from core.engine import Code, Decision, Game, Over, Parts, leave_events_unmade
from core.rng import SplitMix64
from core.taifa.game import EL_CID_WIN_LIMIT
from core.taifa.state import BONUS_MAX, BONUS_MIN, CASTLES, INDEPENDENT, TURNS

from core.taifa import AI_VERSION  # noqa: F401 - recorded in seat details; bump it when play changes

MAX_DICE = 40
BOT_RESPONSE_MIN = 3  # 9.4: a bot responds only to attacking troops of strength 3 or more


# -- combat odds ---------------------------------------------------------------------


@lru_cache(maxsize=None)
def _hits_dist(n: int) -> tuple[float, ...]:
    """P(exactly h hits) with n dice, each hitting on 4-6 (2.3): Binomial(n, 1/2)."""
    return tuple(comb(n, h) / 2**n for h in range(n + 1))


def _win_table(size: int = MAX_DICE) -> tuple[tuple[float, ...], ...]:
    rows = []
    for a in range(size + 1):
        pa = _hits_dist(a)
        row = []
        for d in range(size + 1):
            pd = _hits_dist(d)
            # P(attack hits > defence hits)
            cum = 0.0
            p = 0.0
            cdf_d = []
            for h in range(d + 1):
                cum += pd[h]
                cdf_d.append(cum)
            for h in range(1, a + 1):
                p += pa[h] * (cdf_d[min(h - 1, d)])
            row.append(p)
        rows.append(tuple(row))
    return tuple(rows)


WIN = _win_table()


def p_win(attack: int, defence: int) -> float:
    """P(an attack with ``attack`` dice beats ``defence`` dice) (5.2)."""
    a = max(0, min(MAX_DICE, attack))
    d = max(0, min(MAX_DICE, defence))
    return WIN[a][d]


# -- tunable weights (castle units) ------------------------------------------------------

DIE_COST = 0.085  # what one die of troops in hand is worth if not spent now
RESPONSE_KEEP = {"defence": 0.20, "any": 0.22}  # extra keep value of a card that can defend
BONUS_VALUE = (0.0, 0.30, 0.25, 0.30)  # one Card Bonus step, by turn (a card next turn; a tiebreak on turn 3)
GARRISON_VALUE = 0.12
CARD_VALUE = 0.22  # a card drawn
DISCARD_BELOW = 0.15  # at the end of turns 1-2, a card kept worth less than this is thrown away
MIN_P = 0.35  # never attack with less than this chance
KEEP_T3 = 0.8  # cards are worth less on the last turn...
MIN_UNIT = 0.05
HIDDEN_CARD_DICE = 2  # a face-down card of a player's attack, guessed
CAMPAIGN_DICE = 4
RESPOND_KEEP = 0.7  # a Response spent in defence costs this share of its keep value
TRUCE_VALUE = 0.6  # per attack on us a truce prevents
DENIAL = 0.08  # a card another kingdom is made to throw away, times (0.5 + its rival weight)
BONUS_OPS = frozenset({"gain_bonus", "target_bonus", "duel"})  # events that only move Card Bonuses
KEEP_FINAL = 0.0  # ...and nothing once our pass would end it
TAU = (2.0, 2.0, 1.5, 1.0)  # how uncertain the final count still is, by turn...
TAU_FINAL = 0.25  # ...and once our pass would end the last turn
TIE_WEIGHT = 0.2  # the Card Bonus breaks ties (8): far less than a castle
STANDING_SCALE = 4.0  # turn 3: a change in the chance of winning, in castles
OTHER_BONUS = 0.5  # another kingdom's Card Bonus, relative to ours


# the strengths a bot's army usually attacks with (9.2: once it is over 3), and how often
BOT_STRENGTHS = ((4, 0.35), (5, 0.3), (6, 0.2), (7, 0.1), (8, 0.05))
BOT_ATTACK_RATE = 0.15  # attacks per card left in a bot's pile
EXPOSURE_WEIGHT = 1.0


class _Know:
    """What one seat knows: its view, the map and the card list."""

    def __init__(self, game: Any, seat: int) -> None:
        self.seat = seat
        self.v = v = game.view(seat)
        self.m = game.m
        self.card = game.card
        self.turn = v["turn"]
        self.ks = v["kingdoms"]
        self.n = len(self.ks)
        self.owner = v["owner"]
        self.garrison = v["garrison"]
        me = self.ks[seat]
        self.hand = list(me["hand"] or ())
        self.el_cid = v["variant"] == "el-cid"
        self.castles = [k["castles"] for k in self.ks]
        self.bonus = [k["bonus"] for k in self.ks]
        self.truces = v["truces"]
        if self.el_cid:
            keys = [k["key"] for k in self.ks]
            self.alm = keys.index("almoravids")
        else:
            self.alm = -1
        self._area_cache: dict[int, list[int]] = {}
        self._net_cache: dict[int, float] = {}
        self.final = self.turn >= TURNS and self.last_call()
        self.keep_scale = 1.0
        if self.turn >= TURNS:
            # on the last turn a card is worth what it can still change: scale by a castle's worth now
            unit = max(self.value_of({seat: 1}, {}), -self.value_of({seat: -1}, {}), MIN_UNIT)
            self.keep_scale = KEEP_FINAL if self.final else KEEP_T3 * min(1.0, unit)

    # -- map queries (the same as Table's, from the view) --

    def areas_of(self, k: int) -> list[int]:
        if k not in self._area_cache:
            self._area_cache[k] = [a for a, o in enumerate(self.owner) if o == k and a]
        return self._area_cache[k]

    def borders(self, a: int) -> tuple[int, ...]:
        return self.m.areas[a - 1].borders

    def base_defence(self, a: int) -> int:
        return self.m.areas[a - 1].defence

    def forbidden(self, actor: int, against: int, action: str) -> bool:
        return any(p == against and b == actor and action in f for p, b, f in self.truces)

    def attackable(self, k: int, owner: Any = None) -> list[int]:
        if owner is None:
            owner = self.owner
            own = self.areas_of(k)
        else:
            own = [a for a, o in enumerate(owner) if o == k and a]
        if not own:
            cap = self.ks[k]["capital"]
            return [cap] if not self.forbidden(k, owner[cap], "attack") else []
        out = set()
        for a in own:
            for b in self.borders(a):
                o = owner[b]
                if o != k and o >= INDEPENDENT and (o == INDEPENDENT or not self.forbidden(k, o, "attack")):
                    out.add(b)
        return sorted(out)

    def bot_attacks_left(self, j: int) -> float:
        """Roughly how many more attacks bot ``j`` makes this turn (9.2: one per army over 3)."""
        hand = self.ks[j]["hand_count"]
        if not hand:
            return 0.0
        army = sum(self.card(c).strength or 0 for c in self.ks[j]["army"])
        return min(2.5, BOT_ATTACK_RATE * hand + 0.08 * army)

    def bot_aim(self, j: int, owner: Any = None, garrison: Any = None) -> dict[int, float]:
        """For each area, the chance that bot ``j``'s next attack falls on it and takes it
        (9.2: the strongest area it can beat; 9.5: the lowest or the highest id)."""
        owner = self.owner if owner is None else owner
        garrison = self.garrison if garrison is None else garrison
        targets = [(self.base_defence(a) + garrison[a], a) for a in self.attackable(j, owner)]
        out: dict[int, float] = {}
        for strength, w in BOT_STRENGTHS:
            ok = [t for t in targets if t[0] < strength]
            if not ok:
                continue
            top = max(t[0] for t in ok)
            cands = [a for d, a in ok if d == top]
            p = w * p_win(strength, top)
            lo, hi = min(cands), max(cands)
            out[lo] = out.get(lo, 0.0) + 0.5 * p
            out[hi] = out.get(hi, 0.0) + 0.5 * p
        return out

    def exposure(self, area: int, garrisoned: bool = False) -> float:
        """The chance that ``area``, once ours, is taken back by a bot before the turn ends."""
        me = self.seat
        owner = list(self.owner)
        owner[area] = me
        garrison = list(self.garrison)
        garrison[area] = garrisoned
        risk = 0.0
        seen = set()
        for b in self.borders(area):
            j = owner[b]
            if j < 0 or j == me or j in seen or not self.is_bot(j):
                continue
            seen.add(j)
            n = self.bot_attacks_left(j)
            if n:
                risk += n * self.bot_aim(j, owner, garrison).get(area, 0.0)
        return min(0.9, risk)

    def neighbours(self, k: int) -> list[int]:
        found = set()
        for a in self.areas_of(k):
            for b in self.borders(a):
                o = self.owner[b]
                if o >= 0 and o != k:
                    found.add(o)
        return sorted(found)

    def last_call(self) -> bool:
        """Would our pass end the turn? Bots pass only with empty hands (9.1); a player
        counts as passing if it passed since anyone last acted (4)."""
        passes = self.v["passes"]
        for i in range(1, self.n):
            j = (self.seat - i) % self.n
            if self.ks[j]["bot"]:
                if self.ks[j]["hand_count"]:
                    return False
            elif i > passes:
                return False
        return True

    def is_bot(self, k: int) -> bool:
        return k >= 0 and self.ks[k]["bot"]

    # -- how much things are worth --

    def rival_weight(self, j: int) -> float:
        """How much one castle fewer for kingdom ``j`` helps us win."""
        if j < 0:
            return 0.0
        if self.el_cid:
            return 1.0 if j == self.alm else 0.1
        mine = self.castles[self.seat]
        others = [self.castles[k] for k in range(self.n) if k != self.seat]
        top = max(others)
        c = self.castles[j]
        w = 0.12
        if c == top:
            w += 0.6 if sum(1 for x in others if x == top) == 1 else 0.35
        elif c == top - 1:
            w += 0.2
        if c >= mine:
            w += 0.15
        return w

    def bonus_value(self) -> float:
        return BONUS_VALUE[min(max(self.turn, 1), 3)]

    def standing(self, dc: dict[int, int], db: dict[int, int]) -> float:
        """A smooth estimate of our chance to win after castle changes ``dc`` and Card Bonus
        changes ``db`` (8, 10.3): most castles, the Card Bonus breaking ties."""
        me = self.seat
        c = [self.castles[k] + dc.get(k, 0) for k in range(self.n)]
        if c[me] >= CASTLES:
            return 1.0
        if any(c[k] >= CASTLES for k in range(self.n) if k != me):
            return 0.0
        tau = TAU_FINAL if self.final else TAU[min(max(self.turn, 1), 3)]
        if self.el_cid:
            a = self.alm
            return _sig((c[me] - c[a] - 0.5) / tau) * _sig((EL_CID_WIN_LIMIT - 0.5 - c[a]) / tau)
        b = [max(BONUS_MIN, min(BONUS_MAX, self.bonus[k] + db.get(k, 0))) for k in range(self.n)]
        mine = c[me] + TIE_WEIGHT * b[me]
        out = 1.0
        for k in range(self.n):
            if k != me:
                out *= _sig((mine - c[k] - TIE_WEIGHT * b[k]) / tau)
        return out

    def value_of(self, dc: dict[int, int], db: dict[int, int]) -> float:
        """What castle changes ``dc`` and Card Bonus changes ``db`` are worth to us, in castles."""
        me = self.seat
        if self.turn >= TURNS:
            return STANDING_SCALE * (self.standing(dc, db) - self.standing({}, {}))
        v = 0.0
        for k, d in dc.items():
            if k < 0 or not d:
                continue
            v += d if k == me else -d * self.rival_weight(k)
        if self.castles[me] + dc.get(me, 0) >= CASTLES:
            v += 20.0
        bv = self.bonus_value()
        for k, d in db.items():
            if k < 0 or not d:
                continue
            real = max(BONUS_MIN, min(BONUS_MAX, self.bonus[k] + d)) - self.bonus[k]
            if k == me:
                v += real * bv
            elif not self.el_cid:
                v -= real * bv * OTHER_BONUS * (0.5 + self.rival_weight(k))
            elif k == self.alm:
                v -= real * bv * OTHER_BONUS
        return v

    def gain_bonus_value(self, n: int) -> float:
        return self.value_of({}, {self.seat: n})

    def reward_value(self, dc: dict[int, int], db: dict[int, int]) -> tuple[float, str]:
        """The better capture reward (5.1 step 6) after the changes: +1 Card Bonus or a garrison."""
        me = self.seat
        with_bonus = self.value_of(dc, {**db, me: db.get(me, 0) + 1})
        with_gar = self.value_of(dc, db) + (0.0 if self.final else GARRISON_VALUE)
        return (with_bonus, "bonus") if with_bonus >= with_gar else (with_gar, "garrison")

    def capture_value(self, area: int) -> float:
        """Taking ``area``: a castle for us, one fewer for its holder, the Card Bonus (5.1 step 6)."""
        me, d = self.seat, self.owner[area]
        dc = {me: 1, d: -1} if d >= 0 else {me: 1}
        db = {d: -1} if d >= 0 else {}
        return self.reward_value(dc, db)[0]

    def net_capture_value(self, area: int) -> float:
        """Taking ``area``, less the risk that a bot takes it back this turn."""
        v = self._net_cache.get(area)
        if v is None:
            v = self.capture_value(area)
            if EXPOSURE_WEIGHT:
                v -= EXPOSURE_WEIGHT * self.exposure(area) * self.loss_value(area, INDEPENDENT)
            self._net_cache[area] = v
        return v

    def loss_value(self, area: int, attacker: int) -> float:
        """Losing ``area`` to ``attacker`` (INDEPENDENT for a campaign)."""
        me = self.seat
        dc = {me: -1, attacker: 1} if attacker >= 0 else {me: -1}
        db = {me: -1, attacker: 1} if attacker >= 0 else {me: -1}
        v = -self.value_of(dc, db)
        if self.garrison[area]:
            v += GARRISON_VALUE
        return v

    def card_keep(self, cid: str) -> float:
        """What a card in hand is worth if it is not spent now."""
        return self.keep_scale * self._card_keep(cid)

    def _card_keep(self, cid: str) -> float:
        c = self.card(cid)
        if c.kind == "troop":
            return (c.strength or 0) * DIE_COST
        if c.kind == "response":
            v = 0.0
            for e in c.effect:
                if e.op in ("add_dice", "cut_dice"):
                    v += e["n"] * DIE_COST
                elif e.op == "remove_attacking_troop":
                    v += 2.5 * DIE_COST
                elif e.op in ("cancel_attack",):
                    v += 0.3
            if any(w in ("defence", "campaign_defence") for w in c.when):
                v += RESPONSE_KEEP["defence"] if c.who == "defender" else RESPONSE_KEEP["any"]
            return v
        return CARD_VALUE


# -- card effects on a fight ---------------------------------------------------------------


def _sig(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + exp(-x))


def _resp_effect(card: Any) -> tuple[int, int, int, bool]:
    """(add, cut, remove, cancel) of a Response on the side it is placed."""
    add = cut = rem = 0
    cancel = False
    for e in card.effect:
        if e.op == "add_dice":
            add += e["n"]
        elif e.op == "cut_dice":
            cut += e["n"]
        elif e.op == "remove_attacking_troop":
            rem += e["n"]
        elif e.op in ("cancel_attack", "cancel_incursion"):
            cancel = True
    return add, cut, rem, cancel


def _event_in_play(kn: _Know) -> str | None:
    """The event card being played (5.4: face up while its steps are resolved, the view's
    ``playing``), whose target or attack we are asked about; None when no event is."""
    for cid in reversed(kn.v["playing"]):
        if kn.card(cid).kind == "event":
            return cid
    return None


def _event_bonus(kn: _Know) -> int:
    """The attack bonus dice of the event being played (Great Siege, Cavalry Charge), else 0."""
    cid = _event_in_play(kn)
    bonus = 0
    for e in kn.card(cid).effect if cid is not None else ():
        if e.op == "attack":
            bonus = e["bonus_dice"]
    return bonus


def _usable(card: Any, moment: str | None, role: str) -> bool:
    if card.kind != "response" or moment is None or moment not in card.when:
        return False
    return card.who == "any" or card.who == role


ROLLOUT_CANDIDATES = 3  # main actions compared by rollouts (the heuristic's best few)
ROLLOUT_FROM_TURN = 3  # earlier turns are judged by the heuristic alone
ROLLOUT_STEPS = 5000  # a safety bound on one rollout
ROLLOUT_TAU = 1.5  # how a position at the start of the next turn is judged
ROLLOUT_HAND = 0.15  # a card in hand at the start of a turn, in castles


def deal_hidden(g: Any, seat: int, rng: SplitMix64) -> None:
    """Deal the cards ``seat`` cannot see afresh: each deck's draw pile and the other kingdoms'
    hands (a bot's pile too) hold, as a whole, the cards of that deck nobody can see; shuffle
    those (sorted first, so the real order never matters) back into the same places, keeping
    every count (a determinization for look-ahead)."""
    s = g.s
    for deck in sorted(s.draw):
        places = [s.draw[deck]] + [s.hands[k] for k in range(len(s.kingdoms)) if k != seat and s.decks[k] == deck]
        pool = sorted(c for p in places for c in p)
        perm = rng.permutation(len(pool))
        pool = [pool[i] for i in perm]
        for p in places:
            n = len(p)
            p[:], pool = pool[:n], pool[n:]


def _judge(g: Any, seat: int) -> float:
    """A rollout's end: the result if the game is over, else a smooth chance of winning from the
    castles and the cards in hand at the start of the next turn."""
    p = g.point()
    if isinstance(p, Over):
        w = p.result.winners
        return 1.0 / len(w) if seat in w else 0.0
    v = g.view(seat)
    ks = v["kingdoms"]
    score = [k["castles"] + ROLLOUT_HAND * (k["hand_count"] + len(k["army"]) + len(k["ready"])) for k in ks]
    if v["variant"] == "el-cid":
        a = [k["key"] for k in ks].index("almoravids")
        c = [k["castles"] for k in ks]
        return _sig((score[seat] - score[a] - 0.5) / ROLLOUT_TAU) * _sig((EL_CID_WIN_LIMIT - 0.5 - c[a]) / ROLLOUT_TAU)
    out = 1.0
    for k in range(len(ks)):
        if k != seat:
            out *= _sig((score[seat] - score[k]) / ROLLOUT_TAU)
    return out


class TaifaAI:
    """A Taifa controller: ``choose(game, decision)`` returns one of the decision's options."""

    version = AI_VERSION
    reads_only = True  # it reads its seat's view and clones before playing out (core.match: no copy given)

    def __init__(self, seed: int = 0, *, rollouts: int | None = None,
                 stop: Callable[[], bool] | None = None) -> None:
        """``stop`` is polled between rollouts: when it returns True the AI answers at once
        with the best option found so far (the heuristic's choice when none was played out)."""
        self.stop = stop or (lambda: False)
        self.seed = seed
        self.rollouts = rollouts
        # and nothing else: no memory of earlier decisions (see the module's docstring, issue 26)

    # -- entry point --

    def choose(self, game: Game, decision: Decision) -> Code:
        opts: tuple[Parts, ...] = decision.options
        if len(opts) == 1:
            return opts[0]
        kn = _Know(game, decision.seat)
        kind, verbs, verb = decision.kind, {o[0] for o in opts}, opts[0][0]
        if kind == "action":
            code = self._main(kn, opts, game)
        elif kind == "respond":
            code = self._respond(kn, opts)
        elif kind == "commit":  # cards to our attack, garrisons to our defence, or the incursion's Troop card
            if "add" in verbs:
                code = self._commit(kn, opts)
            elif "garrison" in verbs:
                code = self._spend_garrison(kn, opts)
            else:  # the weakest Troop card pays for the incursion
                code = min(opts, key=lambda o: (kn.card(o[1]).strength or 0, o[1]))
        elif kind == "choose":  # the only one: +1 Card Bonus or a garrison after a capture
            code = self._reward(kn)
        elif kind == "target":  # the options' one verb says a target of what
            pick = {"garrison": self._place_garrison,  # an event's garrison
                    "attack": self._event_attack_area,  # an event's attack
                    "target": self._target,  # the kingdom an event is aimed at
                    "take": self._take,  # the card an event makes a kingdom discard
                    "area": self._campaign_area,  # an Independent Campaign's area
                    "truce": self._truce}.get(verb)  # El Cid's Truce
            code = pick(kn, opts) if pick else opts[0]
        else:
            code = opts[0]
        if code not in opts:  # a safety net: never answer with an illegal option
            code = ("done",) if ("done",) in opts else opts[0]
        return code

    # -- attacks -----------------------------------------------------------------------

    def _defender_model(self, kn: _Know, area: int) -> tuple[int, Any]:
        """(defence dice before Responses, the defender's Response if predictable or 'unknown')."""
        d = kn.owner[area]
        dice = kn.base_defence(area)
        if d == INDEPENDENT:
            return dice + (1 if kn.garrison[area] else 0), None
        if kn.is_bot(d):
            dice += 1 if kn.garrison[area] else 0
            for cid in kn.ks[d]["ready"]:
                c = kn.card(cid)
                if _usable(c, "defence", "defender"):
                    return dice, c
            return dice, None
        near = [area, *kn.borders(area)]
        dice += sum(1 for b in near if kn.owner[b] == d and kn.garrison[b])
        return dice, ("unknown" if kn.ks[d]["hand_count"] else None)

    def _plan(self, kn: _Know, area: int, pool: list[str], fixed: list[str], bonus_dice: int,
              need_troop: bool) -> tuple[float, list[str], float]:
        """Best cards from ``pool`` (plus ``fixed``, already placed) to attack ``area``.

        Returns (value, cards to add, chance of winning)."""
        base_def, resp = self._defender_model(kn, area)
        value = kn.net_capture_value(area)
        groups: dict[tuple, list[str]] = {}
        for cid in sorted(pool):
            c = kn.card(cid)
            key: tuple[Any, ...]  # ("t", strength) or ("r", *the response's effect)
            if c.kind == "troop":
                key = ("t", c.strength or 0)
            else:
                key = ("r", *_resp_effect(c))
            groups.setdefault(key, []).append(cid)
        keys = list(groups)
        fixed_troops = [kn.card(c).strength or 0 for c in fixed if kn.card(c).kind == "troop"]
        fixed_add = fixed_cut = 0
        for c in fixed:
            cc = kn.card(c)
            if cc.kind == "response":
                a, ct, _, _ = _resp_effect(cc)
                fixed_add += a
                fixed_cut += ct
        best: tuple[float, list[str], float] = (-1e9, [], 0.0)
        ranges = [range(len(groups[k]) + 1) for k in keys]
        for counts in product(*ranges):
            troops = list(fixed_troops)
            add, cut, cost = fixed_add + bonus_dice, fixed_cut, 0.0
            chosen: list[str] = []
            for key, n in zip(keys, counts):
                if not n:
                    continue
                cids = groups[key][:n]
                chosen += cids
                cost += sum(kn.card_keep(c) for c in cids)
                if key[0] == "t":
                    troops += [key[1]] * n
                else:
                    add += key[1] * n
                    cut += key[2] * n
            if need_troop and not troops:
                continue
            p = self._p_attack(troops, add, cut, base_def, resp)
            if p < 1e-9 and chosen:
                continue
            ev = p * value - cost
            if ev > best[0] + 1e-12:
                best = (ev, chosen, p)
        return best

    @staticmethod
    def _p_attack(troops: list[int], add: int, cut: int, base_def: int, resp: Any) -> float:
        strength = sum(troops)
        dfn = base_def
        extra_atk = 0
        if resp == "unknown":
            dfn += 1
        elif resp is not None and strength >= BOT_RESPONSE_MIN:
            a, ct, rem, cancel = _resp_effect(resp)
            if cancel:
                return 0.0
            dfn += a
            extra_atk -= ct
            if rem:
                ts = sorted(troops, reverse=True)
                strength -= sum(ts[:rem])
        return p_win(strength + add + extra_atk, dfn - cut)

    def _attack_pool(self, kn: _Know, exclude: str | None = None) -> list[str]:
        return [c for c in kn.hand if c != exclude and
                (kn.card(c).kind == "troop" or _usable(kn.card(c), "attack", "attacker"))]

    def _best_attack(self, kn: _Know, areas: list[int], bonus_dice: int, need_troop: bool,
                     exclude: str | None = None) -> tuple[float, int, list[str], float]:
        pool = self._attack_pool(kn, exclude)
        best: tuple[float, int, list[str], float] = (-1e9, 0, [], 0.0)
        for a in areas:
            ev, cards, p = self._plan(kn, a, pool, [], bonus_dice, need_troop)
            if p < (0.01 if kn.final else MIN_P):
                continue
            if ev > best[0]:
                best = (ev, a, cards, p)
        return best

    # -- the main action ---------------------------------------------------------------

    def _main(self, kn: _Know, opts: tuple, game: Any = None) -> tuple:
        ranked = self._rank_actions(kn, opts)
        code = ranked[0][1]
        if self.rollouts and game is not None and len(ranked) > 1 and kn.turn >= ROLLOUT_FROM_TURN:
            code = self._by_rollouts(game, kn, [c for _, c in ranked[:ROLLOUT_CANDIDATES]])
        return code

    def _rank_actions(self, kn: _Know, opts: tuple) -> list[tuple[float, tuple]]:
        """The main actions worth considering, best first, each with its estimated worth;
        passing (worth 0) is always among them."""
        cands: list[tuple[float, tuple]] = [(0.0, ("pass",))]
        areas = [o[1] for o in opts if o[0] == "attack"]
        if areas:
            ev, a, cards, p = self._best_attack(kn, areas, 0, True)
            if a:
                cands.append((ev, ("attack", a)))
        for o in opts:
            if o[0] == "event":
                val = self._event_value(kn, o[1], kn.final)
                if val is not None:
                    cands.append((val, o))
        if kn.turn < TURNS and kn.last_call():
            # the turn is about to end: a weak card kept would stand in for a fresh draw (7)
            weak = [(kn._card_keep(c), c) for c in kn.hand if ("discard", c) in opts]
            if weak:
                keep, cid = min(weak)
                if keep < DISCARD_BELOW:
                    cands.append((DISCARD_BELOW - keep, ("discard", cid)))
        cands.sort(key=lambda x: (-x[0], x[1] != ("pass",), x[1]))
        return cands

    # -- optional look-ahead: determinized rollouts ------------------------------------------

    def _by_rollouts(self, game: Any, kn: _Know, codes: list[tuple]) -> tuple:
        """Play each candidate out ``self.rollouts`` times to the end of the turn (on turn 3: of the
        game), the hidden cards dealt afresh each time, the same seeds for every candidate; keep
        the best average (ties: the heuristic's order). The seeds come from the AI's seed and the
        turn and round (a kingdom has one main action a round), never from earlier decisions."""
        assert self.rollouts  # _main plays out only with rollouts
        seat = kn.seat
        best, best_v = codes[0], -1.0
        rng = SplitMix64(self.seed ^ (kn.turn << 32 | kn.v["round"]))
        seeds = [rng.next() for _ in range(self.rollouts)]
        for code in codes:
            if self.stop():
                break
            v = sum(self._rollout(game, seat, code, sd) for sd in seeds) / len(seeds)
            if v > best_v + 1e-9:
                best, best_v = code, v
        return best

    def _rollout(self, game: Any, seat: int, code: tuple, seed: int) -> float:
        rng = SplitMix64(seed)
        g = game.clone()
        leave_events_unmade(g)  # a rollout reads positions, never what happened in words
        deal_hidden(g, seat, rng)
        turn = g.s.turn
        players = {k: TaifaAI(seed, stop=self.stop) for k in range(len(g.seats)) if not g.s.bots[k]}
        g.apply(code)
        for _ in range(ROLLOUT_STEPS):
            p = g.point()
            if isinstance(p, Over) or g.s.turn != turn:
                break
            if isinstance(p, Decision):
                g.apply(players[p.seat].choose(g, p))
            else:
                g.resolve(draw_outcome(rng, p))
        return _judge(g, seat)

    def _event_value(self, kn: _Know, cid: str, final: bool) -> float | None:
        """What playing event ``cid`` now is worth, aimed at its best target; None: not now."""
        c = kn.card(cid)
        if kn.turn >= TURNS and not final and {e.op for e in c.effect} <= BONUS_OPS:
            return None  # the Card Bonus only breaks ties on the last turn: wait until they are known
        if c.target == "none":
            v = self._event_value_at(kn, c, cid, None)
        else:
            vals = [v for j in self._event_targets(kn, c) if (v := self._event_value_at(kn, c, cid, j)) is not None]
            v = max(vals) if vals else None
        if v is None or (final and v <= 0):
            return None
        return v

    def _event_value_at(self, kn: _Know, c: Any, cid: str, tgt: int | None) -> float | None:
        me = kn.seat
        v = 0.0
        for e in c.effect:
            op = e.op
            # tgt is None only for an event aimed at nobody, which has no targeted op (cards.py)
            if op == "draw":
                v += e["n"] * CARD_VALUE + (0.5 if not kn.final else 0.0)
            elif op == "gain_bonus":
                v += kn.gain_bonus_value(e["n"])
            elif op == "target_bonus":
                assert tgt is not None
                v += kn.value_of({}, {tgt: e["n"]})
            elif op == "target_discards":
                assert tgt is not None
                v += min(e["n"], kn.ks[tgt]["hand_count"]) * DENIAL * (0.5 + kn.rival_weight(tgt))
            elif op == "incursion":
                assert tgt is not None
                if kn.ks[tgt]["hand_count"] == 0:
                    return None
                p = 1 - 0.5 ** e["dice"]
                v += p * DENIAL * (0.5 + kn.rival_weight(tgt))
                if e["troop"]:
                    v -= min(kn.card_keep(t) for t in kn.hand if kn.card(t).kind == "troop")
            elif op == "independent_attack":
                v += self._campaign_value(kn)[0]
            elif op == "place_garrison":
                free = [a for a in kn.areas_of(me) if not kn.garrison[a]]
                v += min(e["n"], len(free)) * GARRISON_VALUE
            elif op == "truce":
                assert tgt is not None
                v += TRUCE_VALUE * self._threat(kn, tgt)
            elif op == "duel":
                assert tgt is not None
                # equal dice: each side wins the duel 5/16 of the time (a tie does nothing)
                pw = 0.5 * (1 - sum(x * x for x in _hits_dist(e["dice"])))
                v += pw * (kn.value_of({}, {me: 1, tgt: -1}) + kn.value_of({}, {me: -1, tgt: 1}))
            elif op == "attack":
                ev, a, cards, p = self._best_attack(kn, kn.attackable(me), e["bonus_dice"], False, exclude=cid)
                if not a:
                    return None
                v += ev
        return v

    def _event_targets(self, kn: _Know, c: Any) -> list[int]:
        """The kingdoms the event may be aimed at, clockwise from us (as the engine offers them)."""
        me = kn.seat
        if c.target == "none":
            return []
        pool = kn.neighbours(me) if c.target == "neighbour" else [j for j in range(kn.n) if j != me]
        if any(e.op == "incursion" for e in c.effect):
            pool = [o for o in pool if not kn.forbidden(me, o, "incursion")]
        return sorted(pool, key=lambda j: (j - me) % kn.n)

    def _threat(self, kn: _Know, j: int) -> float:
        """How many of our castles kingdom ``j`` can be expected to attack this turn."""
        me = kn.seat
        mine = set(kn.areas_of(me))
        if not any(b in mine for a in kn.areas_of(j) for b in kn.borders(a)):
            return 0.0
        army = sum(kn.card(c).strength or 0 for c in kn.ks[j]["army"])
        if not kn.is_bot(j):
            exposed = sum(1 for a in kn.areas_of(j) for b in kn.borders(a) if b in mine)
            return 0.1 * exposed + 0.05 * army + 0.05 * kn.ks[j]["hand_count"]
        # 9.2: a bot attacks the strongest area it can beat, the 9.5 die taking the lowest or highest id
        targets = kn.attackable(j)
        p = 0.0
        for strength, w in BOT_STRENGTHS:
            ok = [a for a in targets if kn.base_defence(a) + kn.garrison[a] < strength]
            if not ok:
                continue
            top = max(kn.base_defence(a) + kn.garrison[a] for a in ok)
            cands = [a for a in ok if kn.base_defence(a) + kn.garrison[a] == top]
            p += w * 0.5 * ((min(cands) in mine) + (max(cands) in mine))
        attacks = 0.3 + 0.12 * kn.ks[j]["hand_count"] + 0.1 * army
        return attacks * p

    def _campaign_value(self, kn: _Know) -> tuple[float, int]:
        best = (-1.0, 0)
        for a in kn.m.areas:
            o = kn.owner[a.id]
            if not a.invasion or o < 0 or o == kn.seat:
                continue
            dfn = a.defence + (1 if kn.garrison[a.id] else 0)
            p = p_win(4, dfn)
            val = p * (kn.rival_weight(o) + 0.05)
            if val > best[0]:
                best = (val, a.id)
        return best

    # -- the steps of an attack ----------------------------------------------------------

    def _commit(self, kn: _Know, opts: tuple) -> tuple:
        f = kn.v["fight"]
        pool = [o[1] for o in opts if o[0] == "add"]
        if f is None:
            return ("done",) if ("done",) in opts else opts[0]
        fixed = [cid for side, k, cid in f["cards"] if k == kn.seat and side == "attack" and cid]
        if f["kind"] == "incursion":
            return ("done",) if ("done",) in opts else opts[0]
        need_troop = ("done",) not in opts
        ev, cards, p = self._plan(kn, f["area"], pool, fixed, _event_bonus(kn), need_troop)
        if cards:
            return ("add", cards[0])
        if ("done",) in opts:
            return ("done",)
        # must add a troop: the strongest
        return max((o for o in opts if o[0] == "add"), key=lambda o: (kn.card(o[1]).strength or 0, o[1]))

    def _event_attack_area(self, kn: _Know, opts: tuple) -> tuple:
        areas = [o[1] for o in opts]
        ev, a, cards, p = self._best_attack(kn, areas, _event_bonus(kn), False)
        if a:
            return ("attack", a)
        # the least bad: the lowest defence
        return min(opts, key=lambda o: (self._defender_model(kn, o[1])[0], o[1]))

    # -- responses, garrisons, rewards -----------------------------------------------------

    def _fight_state(self, kn: _Know, f: dict) -> tuple[list[int], int, int, int, bool]:
        """What we know of a fight: attacking Troop strengths (strongest first, Sorties applied),
        extra attack dice, defence dice from Responses, hidden attacking cards, and whether a
        Response already calls it off."""
        troops: list[int] = []
        atk = dfn = hidden = removed = 0
        cancelled = False
        for side, k, cid in f["cards"]:
            if cid is None:
                hidden += 1 if side == "attack" else 0
                continue
            c = kn.card(cid)
            if c.kind == "troop":
                troops.append(c.strength or 0)
            elif c.kind == "response":
                a, ct, rem, cancel = _resp_effect(c)
                cancelled = cancelled or cancel
                if side == "attack":
                    atk += a
                    dfn -= ct
                else:
                    dfn += a
                    atk -= ct
                    removed += rem
        troops.sort(reverse=True)
        troops = troops[removed:]
        if f["kind"] == "campaign":
            atk += f["force"] or CAMPAIGN_DICE
        return troops, atk, dfn, hidden, cancelled

    def _respond(self, kn: _Know, opts: tuple) -> tuple:
        f = kn.v["fight"]
        if f is None:
            return ("done",)
        me = kn.seat
        if f["defender"] != me:
            return self._meddle(kn, f, opts)
        mine = [o for o in opts if o[0] == "respond" and o[1] == "defence"]
        if not mine:
            return ("done",)
        troops, atk, dfn, hidden, cancelled = self._fight_state(kn, f)
        if cancelled:
            return ("done",)
        if f["kind"] == "incursion":
            if len(kn.hand) <= 1:  # nothing left to lose
                return ("done",)
            for o in mine:
                if _resp_effect(kn.card(o[2]))[3]:
                    return o
            return ("done",)
        area = f["area"]
        atk += HIDDEN_CARD_DICE * hidden
        near = [area, *kn.borders(area)]
        gar = sum(1 for b in near if kn.owner[b] == me and kn.garrison[b] and b not in f["garrisons"])
        base = kn.base_defence(area) + dfn + gar + len(f["garrisons"])
        loss = kn.loss_value(area, f["attacker"])
        p0 = p_win(atk + sum(troops), base)
        best = (-p0 * loss, None)
        for o in mine:
            c = kn.card(o[2])
            a, ct, rem, cancel = _resp_effect(c)
            extra = 0.0
            if cancel:
                p = 0.0
                for e in c.effect:
                    if e.op == "gain_bonus":
                        extra += kn.gain_bonus_value(e["n"])
                    elif e.op == "target_bonus" and f["attacker"] >= 0:
                        extra += kn.value_of({}, {f["attacker"]: e["n"]})
            else:
                p = p_win(atk - ct + sum(troops[rem:]), base + a)
            val = -p * loss + extra - kn.card_keep(o[2]) * RESPOND_KEEP
            if val > best[0] + 1e-9:
                best = (val, o)
        return best[1] or ("done",)

    def _meddle(self, kn: _Know, f: dict, opts: tuple) -> tuple:
        """Another kingdom's attack: help whichever side's win is better for us, if worth a card."""
        if f["kind"] != "attack" or f["attacker"] < 0:
            return ("done",)
        troops, atk, dfn, hidden, cancelled = self._fight_state(kn, f)
        if cancelled:
            return ("done",)
        att, dfd, area = f["attacker"], f["defender"], f["area"]
        atk += sum(troops) + HIDDEN_CARD_DICE * hidden
        base = kn.base_defence(area) + dfn
        if dfd >= 0 and not kn.is_bot(dfd):
            base += sum(1 for b in (area, *kn.borders(area)) if kn.owner[b] == dfd and kn.garrison[b])
        elif kn.garrison[area]:
            base += 1
        dc = {att: 1, dfd: -1} if dfd >= 0 else {att: 1}
        db = {att: 1, dfd: -1} if dfd >= 0 else {att: 1}
        swing = kn.value_of(dc, db)  # what the attack's success is worth to us
        p0 = p_win(atk, base)
        best = (0.0, ("done",))
        for o in opts:
            if o[0] != "respond":
                continue
            a, ct, rem, cancel = _resp_effect(kn.card(o[2]))
            if o[1] == "attack":
                p = p_win(atk + a, base - ct)
            else:
                p = p_win(atk - ct, base + a)
            gain = (p - p0) * swing - kn.card_keep(o[2]) * RESPOND_KEEP
            if gain > best[0] + 1e-9:
                best = (gain, o)
        return best[1]

    def _spend_garrison(self, kn: _Know, opts: tuple) -> tuple:
        f = kn.v["fight"]
        area = f["area"]
        troops, atk, dfn, hidden, cancelled = self._fight_state(kn, f)
        if cancelled:  # called off by our own card: keep the garrisons
            return ("done",)
        atk += sum(troops) + HIDDEN_CARD_DICE * hidden
        dfn += kn.base_defence(area) + len(f["garrisons"])
        loss = kn.loss_value(area, f["attacker"]) - (GARRISON_VALUE if kn.garrison[area] else 0)
        p0 = p_win(atk, dfn)
        p1 = p_win(atk, dfn + 1)
        gain = (p0 - p1) * loss
        for o in sorted(opts):
            if o[0] != "garrison":
                continue
            b = o[1]
            cost = GARRISON_VALUE * ((1 - p0) if b == area else 1.0)
            if gain > cost:
                return o
        return ("done",)

    def _reward(self, kn: _Know) -> tuple:
        # the castle has changed hands already; the loser's Card Bonus drops after this choice
        return (kn.reward_value({}, {})[1],)

    def _place_garrison(self, kn: _Know, opts: tuple) -> tuple:
        """Garrison the area whose risk of falling to a bot this turn drops the most (the garrison
        stays for later turns too: otherwise the most exposed border)."""
        me = kn.seat

        def worth(o: tuple) -> tuple:
            a = o[1]
            saved = kn.exposure(a, False) - kn.exposure(a, True)
            foes = sum(1 for b in kn.borders(a) if kn.owner[b] != me and kn.owner[b] >= INDEPENDENT)
            return (saved + 0.02 * foes + 0.01 * kn.base_defence(a), -a)

        return max(opts, key=worth)

    # -- targets -------------------------------------------------------------------------------

    def _target(self, kn: _Know, opts: tuple) -> tuple:
        keys = [k["key"] for k in kn.ks]
        cid = _event_in_play(kn)
        if cid is None:  # no event in play (never so when an event asks): hurt the leader
            return max(opts, key=lambda o: (kn.rival_weight(keys.index(o[1])), o[1]))
        c = kn.card(cid)

        def worth(o: tuple) -> tuple:
            v = self._event_value_at(kn, c, cid, keys.index(o[1]))
            return (-1e9 if v is None else v, -opts.index(o))

        return max(opts, key=worth)

    def _take(self, kn: _Know, opts: tuple) -> tuple:
        def worth(cid: str) -> float:
            c = kn.card(cid)
            if c.kind == "troop":
                return c.strength or 0
            if c.kind == "response":
                a, ct, rem, cancel = _resp_effect(c)
                return a + ct + 2 * rem + 3 * cancel + 0.5
            return 1.5

        return max(opts, key=lambda o: (worth(o[1]), o[1]))

    def _campaign_area(self, kn: _Know, opts: tuple) -> tuple:
        def val(a: int) -> float:
            o = kn.owner[a]
            dfn = kn.base_defence(a) + (1 if kn.garrison[a] else 0)
            return p_win(4, dfn) * (kn.rival_weight(o) + 0.05)

        return max(opts, key=lambda o: (val(o[1]), o[1]))

    def _truce(self, kn: _Know, opts: tuple) -> tuple:
        keys = [k["key"] for k in kn.ks]
        return max(opts, key=lambda o: (self._threat(kn, keys.index(o[1])), o[1]))
