"""The Take the Kingdom AI: a controller that plays one kingdom from what its seat may see.

``KingdomAI(seed, level=None, stop=None).choose(game, decision)`` answers every kind of
Take the Kingdom decision, multiplayer and solo. It reads only ``game.view(seat)``, the
cards' static data (``game.cards``, public) and the Decision; other hands, face-down Traps
and the deck order are never looked at (docs/kingdom-ai.md).

How the full AI plays (one ply, a heuristic over the view):

* A position is worth ``log P(win)``, with P a smooth estimate from the view: each
  opponent is beaten with ``sigmoid((my points - theirs) / T)`` (T shrinks as the deck
  runs out; a tie goes to the higher Noble), unless it falls first; and I must not fall.
  A kingdom's chance of falling comes from how many attacks its Castle needs (every card
  in front of it takes at least one), and each kingdom's points are discounted by what
  one attack would take from it (a bare Land loses one point to any attack, a Walls on a
  Land loses four): so Defences go where they last, and bare Lands soak up attacks.
* Every option is applied to a copy of the realms (``core.kingdom.lines`` reckons the
  points) and valued by the change in that worth, less what the cards spent were worth
  kept (Deny, Mercy, Gold and Sabotage are answers; Morale and Spread combos), plus a few
  virtual points (an extra turn, a Freeze, a Penalty, a real Trap).
* An attack is planned whole: card, Morale, Spread and the targets. Each part strikes the
  top card (no change is given: the smallest attack that destroys is preferred), a
  hidden Trap is real with the odds of the unseen Traps (always for Egbert's), and a
  block is as likely as the defender's Mercy and the unseen answer cards say (in solo
  every held card is seen: an enemy blocks at the first chance).
* Answers out of turn: the harm the card would do (the attacker's best target in my
  kingdom, my own Traps known) against what the answer card is worth kept.
* Solo: the three revealed cards are allocated by trying every allocation: what my card
  is worth to me, less the harm each enemy's card does when played by the enemy rules.

``level="greedy"`` is the baseline (docs/kingdom-ai.md): Defend cards first, the biggest
first, on the Castle while it has room; then the biggest attack on the weakest standing
kingdom; Fortune and the other actions after; an answer at the first chance.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from itertools import permutations
from typing import Any

from core.engine import Code, Decision, Game, Parts, RulesError
from core.kingdom.cards import CardSet
from core.kingdom.lines import (HIDDEN_TRAP, armed_defences, attackable, card_value, defence_room, is_construction,
                                land_room, places, score, slot_of, standing, strength)
from core.kingdom.state import MAX_LANDS, Realm, Slot
from core.kingdom.view import realm_of
from core.kingdom.ai_solo import enemy_target, my_after, round_value

from core.kingdom import AI_VERSION  # noqa: F401 - recorded in seat details; bump it when play changes

LEVELS = ("full", "casual", "greedy")
# casual: the full AI, except that one decision in CASUAL_ODDS (of those with a choice) takes a random
# legal option, drawn from the seed and what the seat sees (no state: a resumed game plays on alike)
CASUAL_ODDS = 4
ANSWERS = ("deny", "mercy", "gold", "sabotage")
SOLO_ROUNDS = 18
# What a card is worth kept in hand, in points: answers, and the attack combos.
KEEP = {"deny": 2.5, "mercy": 3.0, "gold": 2.5, "sabotage": 1.5, "morale": 1.2, "spread": 0.8}
EXTRA_TURN = 5.0  # Fortune: another turn, in points
FREEZE = 4.0  # a kingdom losing its next turn (multiplayer)
SOLO_FREEZE = 1.5  # an enemy losing its next card (solo)
PENALTY = 2.0  # one Penalty on a kingdom's next turn (Baligant)
PLAY = 1.5  # a play spent on Morale or Spread, that another card could have used
REAL_TRAP, DECOY = 2.0, 0.3  # a Trap of mine, by what I know of it
BURN = 1.0  # an attack that only burns an enemy's held answer (solo)
NOBLE_ORDER = ("simon", "egbert", "baligant", "anne", "charles", "maria")  # preference when choosing


def _sig(x: float) -> float:
    if x < -30:
        return 1e-13
    return 1.0 / (1.0 + math.exp(-x))


_VALUES: dict[int, tuple[CardSet, dict[str, int]]] = {}


def _values(cards: CardSet) -> dict[str, int]:
    """Every card's defence points as core.kingdom.lines.card_value gives them (a hidden Trap 0)."""
    got = _VALUES.get(id(cards))
    if got is not None and got[0] is cards:
        return got[1]
    empty = Realm(None)
    val = {c.id: card_value(cards, empty, c.id) for c in cards.cards}
    val[HIDDEN_TRAP] = 0
    if len(_VALUES) > 8:
        _VALUES.clear()
    _VALUES[id(cards)] = (cards, val)
    return val


def _one_slot_copied(r: Realm, slot: Slot) -> tuple[Realm, Slot]:
    """A copy of ``r`` whose ``slot`` alone is copied, to strike: its other slots are shared with
    ``r``, which is safe as whatever changes a realm here copies it whole first (``Realm.copy``)."""
    slots = list(r.slots)
    i = next(i for i, sl in enumerate(slots) if sl is slot)
    s2 = slots[i] = slot.copy()
    return Realm(r.noble, slots, list(r.mercy), list(r.hand), list(r.pending), r.frozen, r.famine, r.out,
                 r.survived), s2


class _Know:
    """What the seat knows: its view, as realms the functions of core.kingdom.lines read."""

    def __init__(self, game: Any, seat: int) -> None:
        v = game.view(seat)
        cards: CardSet = game.cards
        self.cards = cards
        self.seat = seat
        self.view = v
        self.solo = bool(v["solo"])
        rv = v["realms"]
        self.realms = [realm_of(r) for r in rv]
        self.n = len(self.realms)
        self.keys = [cards[r["noble"]].key if r["noble"] else "" for r in rv]
        self.numbers = [r["number"] for r in rv]
        self.hand = list(rv[seat]["hand"] or ())
        self.mercy = list(rv[seat]["mercy"])
        self.hand_counts = [r["hand_count"] for r in rv]
        self.plays = v["plays"]
        self.in_play = list(v["in_play"])
        self.current = v["current"]
        self.survival = bool(v["survival"])
        options = v["options"]
        self.adds_up = bool(options.get("damage_adds_up", True))  # KD-6
        self.lowers = self.adds_up and bool(options.get("damage_lowers_score", False))  # the end's points
        deck = v["deck"]
        if self.solo:
            self.rem = max(0.0, (SOLO_ROUNDS - v["turn"]) / SOLO_ROUNDS)
        else:
            self.rem = min(1.0, (deck + sum(self.hand_counts)) / 70.0)
        self.temp = 2.0 + 4.0 * self.rem
        self.val = _values(cards)
        self._stats: dict[int, tuple[Realm, tuple[float, float, float]]] = {}
        self._falls: dict[tuple[int, bool], tuple[Realm, float]] = {}
        self._odds: tuple[float, float] | None = None  # (p_real, f_answer), reckoned when first asked

    @property
    def p_real(self) -> float:
        """The chance a face-down Trap is real, from the Traps I have not seen."""
        return (self._odds or self._unseen())[0]

    @property
    def f_answer(self) -> float:
        """The share of Deny, Mercy and Gold among the cards I have not seen."""
        return (self._odds or self._unseen())[1]

    def _unseen(self) -> tuple[float, float]:
        """The odds of what nobody shows me: a hidden Trap is real, a hand holds an answer."""
        seen: set[str] = set(self.hand) | set(self.view["discard"]) | set(self.in_play)
        for r in self.realms:
            seen |= set(r.mercy) | set(r.pending)
            for sl in r.slots:
                seen |= {sl.card, *sl.defences, *(c for t in sl.tucked.values() for c in t)}
                if sl.trap and sl.trap != HIDDEN_TRAP:
                    seen.add(sl.trap)
            if self.solo:
                seen |= set(r.hand)
        seen |= set(self.view["pool"]) | set(self.view["survival"]) | set(self.view["revealed"])
        pool = [c for c in self.cards.cards if c.id not in seen and c.type not in ("noble", "castle")
                and (c.solo or not self.solo) and not (c.key == "mercy" and not c.solo)]
        traps = [c for c in pool if c.type == "trap"]
        answers = sum(1 for c in pool if c.key in ("deny", "mercy", "gold"))
        self._odds = (sum(c.real for c in traps) / len(traps) if traps else 0.5, answers / len(pool) if pool else 0.0)
        return self._odds

    # -- the cards --

    def key(self, cid: str) -> str:
        return self.cards[cid].key

    def attack_value(self, seat: int, cid: str) -> int:
        c, noble = self.cards[cid], self.keys[seat]
        if c.key == "cannon" and noble == "charles":
            return 5
        if c.key == "pikemen" and noble == "maria":
            return 2
        return c.value

    def keep(self, cid: str) -> float:
        key = self.key(cid)
        if key == "sabotage" and self.solo:
            return 2.0
        return KEEP.get(key, 0.0)

    def opponents(self, realms: list[Realm] | None = None) -> list[int]:
        realms = realms or self.realms
        return [o for o in range(self.n) if o != self.seat and standing(realms[o])]

    def trap_real(self, seat: int) -> float:
        return 1.0 if self.keys[seat] == "egbert" else self.p_real

    def block_chance(self, o: int, mechanical: bool = False) -> float:
        """How likely ``o`` answers a card played against it out of turn."""
        r = self.realms[o]
        if r.famine or r.out:
            return 0.0
        if self.solo:  # every held card is seen; an enemy answers at the first chance
            keys = [self.key(c) for c in [*r.hand, *r.mercy]]
            return 1.0 if any(k in ("deny", "mercy", "gold") or (k == "sabotage" and mechanical) for k in keys) else 0.0
        if r.mercy:
            return 0.5
        has = 1.0 - (1.0 - self.f_answer) ** self.hand_counts[o]
        return 0.5 * has

    # -- the worth of a position --

    def stats(self, r: Realm) -> tuple[float, float, float]:
        """(points, attacks needed to take the Castle, what one attack of 3 takes at best) of a
        standing realm, in one pass; kept per realm object (option copies share the untouched ones)."""
        got = self._stats.get(id(r))
        if got is not None and got[0] is r:
            return got[1]
        val, adds = self.val, self.adds_up
        points, hits = 0, 0.0
        for sl in r.slots:
            dmg = sl.damage if adds else {}
            for cid in (sl.card, *sl.defences):
                st = val[cid] - dmg.get(cid, 0)
                points += st
                hits += st / 3.5 if st > 3.5 else 1.0
            if sl.trap:
                hits += 0.4
        exposed = 0
        for sl in (r.slots[1:] or r.slots[:1]):
            top = sl.top()
            st = val[top] - (sl.damage.get(top, 0) if adds else 0)
            exposed = max(exposed, min(3, st))
        out = (float(points), hits, float(exposed))
        self._stats[id(r)] = (r, out)
        return out

    def hits(self, r: Realm) -> float:
        """Attacks needed to take ``r``'s Castle: each card in front takes one, a big one more."""
        return self.stats(r)[1]

    def fall_chance(self, k: int, r: Realm) -> float:
        """Kept per realm object, as stats() is: the options' realms share the untouched ones."""
        mine = k == self.seat
        got = self._falls.get((id(r), mine))
        if got is not None and got[0] is r:
            return got[1]
        if not standing(r):
            return 1.0
        if self.solo:
            pressure = 2.0 if mine else 0.4
        else:
            pressure = 1.0
        d = pressure * (0.3 + self.rem) * math.exp(-(self.hits(r) - 1.0) / 2.5)
        out = d / (1.0 + d)
        self._falls[id(r), mine] = (r, out)
        return out

    def worth(self, realms: list[Realm], bonus: dict[int, float] | None = None) -> float:
        """log P(win), estimated; ``bonus``: virtual points per seat."""
        me = self.seat
        if not standing(realms[me]):
            return -30.0
        bonus = bonus or {}
        pts = []
        for k, r in enumerate(realms):
            if not standing(r):
                pts.append(0.0)
                continue
            points, _, exposed = self.stats(r)
            pts.append(points - (0.3 + self.rem) * exposed + bonus.get(k, 0.0))
        total = math.log(max(1e-9, 1.0 - self.fall_chance(me, realms[me])))
        for o, r in enumerate(realms):
            if o == me or not standing(r):
                continue
            tie = 0.4 if self.numbers[me] > self.numbers[o] else -0.4
            pe = self.fall_chance(o, r)
            total += math.log(pe + (1.0 - pe) * _sig((pts[me] - pts[o] + tie) / self.temp))
        return total

    # -- striking a copy of the realms --

    def strike(self, realms: list[Realm], by: int, o: int, slot_card: str, n: int,
               reversed_: bool = False) -> list[tuple[float, list[Realm]]]:
        """``n`` damage from ``by`` on ``o``'s slot: [(probability, realms after)]."""
        r = realms[o]
        slot = slot_of(r, slot_card)
        if slot is None or slot.card != slot_card:
            return [(1.0, realms)]
        if slot.trap is not None and not reversed_:
            real = (1.0 if self.cards[slot.trap].real or self.keys[o] == "egbert" else 0.0) \
                if slot.trap != HIDDEN_TRAP else self.trap_real(o)
            cut = list(realms)
            cut[o], s2 = _one_slot_copied(r, slot)
            s2.trap = None
            out: list[tuple[float, list[Realm]]] = []
            if real > 0:
                victim = cut[by]
                targets = attackable(victim)
                if targets:  # the Trap's owner picks where it hurts the attacker most
                    worst = min((self.strike(cut, o, by, t.card, n, True)[0][1] for t in targets),
                                key=lambda rs: self.owner_view(o, rs))
                    out.append((real, worst))
                else:
                    out.append((real, cut))
            if real < 1:
                out += [(p * (1 - real), rs) for p, rs in self.strike(cut, by, o, slot_card, n, True)]
            return out
        after = list(realms)
        r2, s2 = _one_slot_copied(r, slot)
        after[o] = r2
        top = s2.top()
        need = strength(self.cards, r2, top, self.adds_up)
        if n >= need:
            s2.tucked.pop(top, None)
            s2.damage.pop(top, None)
            if top in s2.defences:
                s2.defences.remove(top)
            elif s2 is r2.slots[0]:
                r2.slots = []
                if self.survival and not r2.survived:
                    land = Slot("land-1") if "land-1" in self.cards.by_id else Slot(top)
                    r2.slots, r2.survived = [Slot(top), land], True  # a restart worth about as little
                else:
                    r2.out = True
            else:
                r2.slots.remove(s2)
        else:
            s2.damage[top] = s2.damage.get(top, 0) + n
        return [(1.0, after)]

    def owner_view(self, o: int, realms: list[Realm]) -> float:
        """How a Trap's owner ranks where the turned-back damage lands: the victim's points (lower is better)."""
        return sum(score(self.cards, r, self.adds_up) for k, r in enumerate(realms) if k != o and standing(r))

    def expect(self, outcomes: list[tuple[float, list[Realm]]], bonus: dict[int, float] | None = None) -> float:
        return sum(p * self.worth(rs, bonus) for p, rs in outcomes)


class KingdomAI:
    """A Take the Kingdom controller: ``choose(game, decision)`` returns one of the decision's options."""

    version = AI_VERSION
    reads_only = True  # it reads the seat's view and the cards, never changes the game (core.match)

    def __init__(self, seed: int = 0, level: str | None = None, stop: Callable[[], bool] | None = None) -> None:
        if level not in (None, *LEVELS):
            raise RulesError(f"unknown kingdom AI level {str(level)[:24]!r} (known: {', '.join(LEVELS)})")
        self.level = level or "full"
        self.stop = stop or (lambda: False)
        # Nothing is kept between decisions (each answer is reckoned from the view alone; the seed only
        # draws the casual level's slips), so an AI built afresh on a resumed record plays as the one that began it.
        self.seed = seed

    # -- entry point --

    def choose(self, game: Game, decision: Decision) -> Code:
        opts = list(decision.options)
        if len(opts) == 1:  # e.g. only "go", "accept" or "pass": asked as the hand could hold a card (KD-11, KD-30)
            return opts[0]
        if self.stop():
            return _quick(opts)
        kn = _Know(game, decision.seat)
        if self.level == "greedy":
            code = _Greedy(kn, self.stop).choose(decision)
        elif self.level == "casual" and (slip := _casual_slip(self.seed, decision, kn.view)) is not None:
            code = opts[slip]
        else:
            code = _Full(kn, self.stop).choose(decision)
        if code not in opts:  # a safety net: never answer with an illegal option
            code = _quick(opts)
        cards = [o for o in opts if o[0] not in ("done", "move")]
        if (code == ("done",) and decision.kind == "action" and cards and not kn.solo and kn.view["deck"]
                and len(kn.hand) >= 5):
            # KD-12: while the deck has cards a round of passes does not end the game; a full hand
            # that passes would draw nothing and could stall the table, so it plays its best card
            code = _Greedy(kn, self.stop).action(cards)
        return code


def _casual_slip(seed: int, decision: Decision, view: Any) -> int | None:
    """The casual level's slip: the index of the random option it takes here, or None (the full AI's)."""
    from core.digest import digest
    from core.rng import SplitMix64

    rng = SplitMix64(seed ^ int.from_bytes(digest((decision.kind, decision.options, view))[:8], "big"))
    return rng.below(len(decision.options)) if rng.below(CASUAL_ODDS) == 0 else None


def _quick(opts: list[Parts]) -> Parts:
    """An answer that needs no thought: pass, go, accept or done when offered."""
    for safe in (("pass",), ("go",), ("accept",), ("done",)):
        if safe in opts:
            return safe
    return opts[0]


_POINTS = re.compile(r"(\d+) damage")


class _Base:
    # The answers each AI gives (_Full, _Greedy): its options of that kind -> the one it takes.
    noble: Callable[[list[Parts]], Parts]
    allocate: Callable[[list[Parts]], Parts]
    cancel: Callable[[list[Parts]], Parts]
    respond: Callable[[list[Parts]], Parts]
    commit: Callable[[list[Parts]], Parts]
    target: Callable[[list[Parts]], Parts]
    action: Callable[[list[Parts]], Parts]

    def __init__(self, kn: _Know, stop: Callable[[], bool]) -> None:
        self.kn = kn
        self.stop = stop

    def choose(self, d: Decision) -> Parts:
        opts = list(d.options)
        verbs = {o[0] for o in opts}
        kn = self.kn
        if "noble" in verbs:
            return self.noble(opts)
        if "draft" in verbs:
            return self.draft(opts)
        if verbs & {"take", "give"}:
            return self.allocate(opts)
        if verbs & {"cancel", "unfreeze"}:
            return self.cancel(opts)
        if d.kind == "respond":
            return self.respond(opts)
        if verbs & {"morale", "spread"}:
            return self.commit(opts)
        if "at" in verbs:
            if kn.current != kn.seat or "Trap" in d.prompt:
                m = _POINTS.search(d.prompt)
                return self.trap_target(opts, int(m.group(1)) if m else 3)
            return self.target(opts)
        if d.kind == "target" and verbs == {"place"}:
            return self.village(opts)
        return self.action(opts)

    # -- what an attack in progress is --

    def attack_in_play(self, seat: int) -> tuple[str | None, int, bool]:
        """(the attack card, its value with Morale, whether Spread is in) of the play in progress."""
        kn = self.kn
        card, morale, spread = None, False, False
        for cid in kn.in_play:
            c = kn.cards[cid]
            if c.type in ("attack", "mercenaries"):
                card = cid
            elif c.key == "morale":
                morale = True
            elif c.key == "spread":
                spread = True
        if card is None:
            return None, 0, spread
        return card, kn.attack_value(seat, card) * (2 if morale else 1), spread

    # -- shared small choices --

    def trap_target(self, opts: list[Parts], points: int) -> Parts:
        kn = self.kn
        best, best_v = opts[0], -1e9
        for o in opts:
            if o[0] != "at":
                continue
            v = kn.expect(kn.strike(kn.realms, kn.seat, o[1], o[2], points, True))
            if v > best_v:
                best, best_v = o, v
        return best

    def village(self, opts: list[Parts]) -> Parts:
        castle = self.kn.realms[self.kn.seat].slots[0].card
        return next((o for o in opts if o[2] == castle), opts[0])

    def draft(self, opts: list[Parts]) -> Parts:
        """(Both AIs'.) Build for the long game: three Lands first (bare Lands soak up attacks and keep the
        Castle out of reach), then the biggest Defence on the Castle, then more Lands; never a
        pick that leaves points no card in the pool can fill."""
        kn = self.kn
        me = kn.realms[kn.seat]
        need = 12 - score(kn.cards, me, True)
        lands = len(me.lands)
        castle = me.slots[0].card
        pool = [kn.cards[c] for c in kn.view["pool"]]

        def rank(o: Parts) -> tuple[float, str]:
            c = kn.cards[o[1]]
            if o[2] == "new":
                v = 9.0 - 2.0 * lands
            elif o[2] == castle:
                v = c.value + 3.0
            else:
                v = c.value - 3.0
            left = need - c.value
            rest = [p for p in pool if p.id != c.id]
            room = land_room(me) and lands + (o[2] == "new") < MAX_LANDS
            if left > 0 and not any(p.value <= left and (p.key != "land" or room) for p in rest):
                v -= 20.0
            return v, str(o)

        return max(opts, key=rank)


class _Full(_Base):
    """The real AI: every option valued by the change in the position's worth."""

    # -- setup --

    def noble(self, opts: list[Parts]) -> Parts:
        rank = {k: i for i, k in enumerate(NOBLE_ORDER)}
        return min(opts, key=lambda o: rank.get(self.kn.key(o[1]), 99))

    # -- solo allocation --

    def allocate(self, opts: list[Parts]) -> Parts:
        """Try every allocation of the revealed cards: my card's worth to me, less the harm of each
        enemy's card played by the enemy rules (a card left over with an enemy gone is discarded)."""
        kn = self.kn
        revealed = list(kn.view["revealed"])
        enemies = [k for k in range(kn.n) if k != kn.seat and standing(kn.realms[k])]
        if opts[0][0] == "give":  # my card is the one no option names
            k = opts[0][2]
            named = {o[1] for o in opts}
            others = [e for e in enemies if e != k]

            mine_c = next((c for c in revealed if c not in named), None)
            if mine_c is not None:
                codes = self.round_options(mine_c)

                def deep_give(o: Parts) -> float:
                    given = {k: o[1]}
                    left = [c for c in revealed if c in named and c != o[1]]
                    if others and left:
                        given[others[0]] = left[0]
                    return max(self.deep(code, given) for code in codes)

                return max(opts, key=lambda o: (deep_give(o), str(o)))

            def give(o: Parts) -> float:
                left = [c for c in revealed if c in named and c != o[1]]
                v = -self.harm(o[1], k)
                if others and left:
                    v -= self.harm(left[0], others[0])
                return v

            return max(opts, key=lambda o: (give(o), str(o)))
        takes = {o[1] for o in opts}
        best_c, best_v = opts[0][1], -1e9
        if len(enemies) >= 1:  # play the round out: my card's best play, then the enemies' cards
            mine = {c: self.round_options(c) for c in takes}
            for perm in permutations(revealed):
                if perm[0] not in takes:
                    continue
                given = dict(zip(enemies, perm[1:]))
                v = max(self.deep(code, given) for code in mine[perm[0]])
                if v > best_v:
                    best_c, best_v = perm[0], v
            return ("take", best_c)
        gains = {c: self.my_gain(c) for c in takes}
        harms = {(c, k): self.harm(c, k) for c in revealed for k in enemies}
        for perm in permutations(revealed):
            if perm[0] not in takes:
                continue
            v = gains[perm[0]] - sum(harms[(c, k)] for k, c in zip(enemies, perm[1:]))
            if v > best_v:
                best_c, best_v = perm[0], v
        return ("take", best_c)

    def round_options(self, cid: str) -> list[Parts]:
        """My plays of ``cid`` as my card of the round (solo), holding an answer included."""
        kn = self.kn
        c = kn.cards[cid]
        if c.type == "penalty" and kn.keys[kn.seat] != "baligant":
            return [("suffer", cid)]
        codes = self.codes_for(cid)
        if c.key in ANSWERS:
            codes.append(("hold", cid))
        return codes or [("discard", cid)]

    def deep(self, code: Parts, given: dict[int, str]) -> float:
        """The worth after my play ``code`` and the enemies' cards ``given`` played by the enemy rules."""
        kn = self.kn
        if code[0] == "suffer":
            realms = kn.realms
            if kn.key(code[1]) == "famine":
                realms = list(realms)
                realms[kn.seat] = realms[kn.seat].copy()
                realms[kn.seat].famine = True
            return round_value(self, [(1.0, realms, 0.0)], given)
        outs = my_after(self, code)
        if outs is not None:
            return round_value(self, outs, given)
        base = kn.worth(kn.realms)
        return round_value(self, [(1.0, kn.realms, 0.0)], given) + self.value(code, base)

    def my_gain(self, cid: str) -> float:
        """What ``cid`` is worth to me as my card this round (solo), in worth units."""
        kn = self.kn
        c = kn.cards[cid]
        if c.type == "penalty" and kn.keys[kn.seat] != "baligant":
            return -0.02 if c.key == "famine" else 0.0
        base = kn.worth(kn.realms)
        best = 0.0
        if c.key in ANSWERS:
            best = self.points(kn.keep(cid))
        for code in self.codes_for(cid):
            best = max(best, self.value(code, base))
        return best

    def points(self, p: float) -> float:
        """``p`` virtual points of mine in worth units."""
        kn = self.kn
        return kn.worth(kn.realms, {kn.seat: p}) - kn.worth(kn.realms)

    def codes_for(self, cid: str) -> list[Parts]:
        """The plays of ``cid`` (solo: my round's card), as play_options would list them."""
        kn = self.kn
        c, me = kn.cards[cid], kn.realms[kn.seat]
        foes = kn.opponents()
        out: list[Parts] = []
        if c.type in ("defend", "trap", "mercenaries"):
            out += [("place", cid, w) for w in places(kn.cards, me, cid)]
            if c.type == "mercenaries":
                out.append(("attack", cid))
        elif c.type == "attack":
            out.append(("attack", cid))
        elif c.key == "mercy" and land_room(me):
            out.append(("mercy", cid, "land"))
        elif c.type == "penalty":
            out += [("penalty", cid, o) for o in foes]
        elif c.key == "freeze":
            out += [("freeze", cid, o) for o in foes if not kn.realms[o].frozen]
        elif c.key == "mutiny":
            out += [("mutiny", cid, o, t) for o in foes for t in armed_defences(kn.cards, kn.realms[o])]
        elif c.key in ("earthquake", "disrepair", "sabotage"):
            out += [(c.key, cid, o, sl.card) for o in foes for sl in attackable(kn.realms[o])]
        return out

    def harm(self, cid: str, k: int) -> float:
        """What ``cid`` given to enemy ``k`` costs me (solo), played by the enemy rules, in worth units."""
        kn = self.kn
        c = kn.cards[cid]
        me = kn.seat
        you = kn.realms[me]
        base = kn.worth(kn.realms)
        realm = kn.realms[k]
        held = [x for x in [*kn.hand, *kn.mercy] if kn.key(x) in ("deny", "mercy", "gold")]
        cheapest = min((self.points(kn.keep(x)) for x in held), default=None)

        def answered(h: float) -> float:
            return min(h, cheapest) if cheapest is not None and h > 0 else h

        if c.type in ("defend", "trap", "mercenaries"):
            if c.type == "trap":
                return self.points(0.5)
            if c.key == "land":
                if not land_room(realm):
                    return 0.0
                after = list(kn.realms)
                after[k] = realm.copy()
                after[k].slots.append(Slot(cid))
                return base - kn.worth(after)
            room = defence_room(realm)
            front = [sl for sl in realm.lands if sl in room] + [sl for sl in room if sl is realm.slots[0]]
            if not front:
                return 0.0
            after = list(kn.realms)
            after[k] = realm.copy()
            sl = slot_of(after[k], front[0].card)
            assert sl is not None
            sl.defences.append(cid)
            return base - kn.worth(after)
        if c.type == "attack":
            if not attackable(you):
                return 0.0
            n = kn.attack_value(k, cid)
            worst = min(kn.expect(kn.strike(kn.realms, k, me, enemy_target(self, kn.realms, n), n)), base)
            return answered(base - worst)
        if c.type == "penalty":
            return self.points(1.5) if kn.keys[k] == "baligant" else -self.points(0.3)
        if c.key == "freeze":
            return answered(self.points(2.0)) if not you.frozen else 0.0
        if c.key == "mutiny":
            armed = armed_defences(kn.cards, you)
            if not armed:
                return 0.0
            t = max(armed, key=lambda x: kn.cards[x].value)
            after = list(kn.realms)
            after[me] = you.copy()
            sl = slot_of(after[me], t)
            assert sl is not None
            sl.defences.remove(t)
            return answered(base - kn.worth(after))
        if c.key in ("earthquake", "disrepair"):
            worst = 0.0
            for sl in attackable(you):
                after = list(kn.realms)
                after[me] = you.copy()
                s2 = slot_of(after[me], sl.card)
                assert s2 is not None
                if c.key == "earthquake" and s2.trap:
                    s2.trap = None
                if s2.defences and is_construction(kn.cards, s2.defences[-1]):
                    s2.defences.pop()
                worst = max(worst, base - kn.worth(after) + (self.points(1.0) if sl.trap and c.key == "earthquake"
                                                             else 0.0))
            return answered(worst)
        if c.key in ANSWERS:
            return self.points(1.2)
        return 0.0

    # -- a turn's plays --

    def action(self, opts: list[Parts]) -> Parts:
        kn = self.kn
        if kn.solo:
            given = {k: c for k, c in enumerate(kn.view["given"]) if c and k != kn.seat}
            return max(opts, key=lambda o: (self.deep(o, given), str(o)))
        base = kn.worth(kn.realms)
        best, best_v = None, -1e9
        for o in opts:
            if self.stop():
                break
            v = self.value(o, base)
            if v > best_v + 1e-12:
                best, best_v = o, v
        return best if best is not None else _quick(opts)

    def value(self, code: Parts, base: float) -> float:
        """The change in worth if ``code`` is played now."""
        kn = self.kn
        me, verb = kn.seat, code[0]
        realms = kn.realms
        if verb in ("done", "hold"):
            return 0.0
        if verb == "discard":
            return -self.points(kn.keep(code[1])) if kn.key(code[1]) in ANSWERS else -1e-6
        if verb == "place":
            outs = my_after(self, code)
            assert outs is not None  # a placement is valued by the realms after it, one way
            ((_, after, bonus),) = outs
            if kn.cards[code[1]].type == "mercenaries":
                bonus -= 0.5  # they could attack instead
            return kn.worth(after, {me: bonus}) - base
        if verb == "move":
            cid, where = code[1], code[2]
            after = list(realms)
            r = after[me] = realms[me].copy()
            src = next(sl for sl in r.slots if cid in sl.defences)
            src.defences.remove(cid)
            dst = slot_of(r, where)
            assert dst is not None
            dst.defences.append(cid)
            if cid in src.tucked:  # its damage goes with it
                dst.tucked[cid] = src.tucked.pop(cid)
            if cid in src.damage:
                dst.damage[cid] = src.damage.pop(cid)
            return kn.worth(after, {me: -PLAY}) - base
        if verb == "attack":
            return self.plan(code[1])[0] - base
        if verb == "mercy":
            cid, how = code[1], code[2]
            if how == "land":
                after = list(realms)
                r = after[me] = realms[me].copy()
                r.slots.append(Slot(cid))
                r.mercy = [m for m in r.mercy if m != cid]
                return kn.worth(after, {me: -kn.keep(cid)}) - base
            return kn.worth(realms, {me: EXTRA_TURN - kn.keep(cid)}) - base
        if verb == "fortune":
            return kn.worth(realms, {me: 0.0 if kn.solo else EXTRA_TURN}) - base
        if verb in ("freeze", "penalty"):
            o = code[2]
            pb = kn.block_chance(o)
            hit = (SOLO_FREEZE if kn.solo else FREEZE) if verb == "freeze" else PENALTY
            if kn.solo:
                return (1 - pb) * (kn.worth(realms, {me: hit}) - base) + pb * self.points(BURN)
            return (1 - pb) * (kn.worth(realms, {o: -hit}) - base)
        if verb in ("mutiny", "disrepair", "earthquake", "sabotage"):
            return sum(p * kn.worth(rs, {me: b}) for p, rs, b in my_after(self, code) or []) - base
        return -1.0

    # -- attacks --

    def plan(self, cid: str, forced: tuple[bool, bool] | None = None) -> tuple[float, bool, bool, list]:
        """The best way to attack with ``cid``: (expected worth after, Morale?, Spread?, parts).
        ``forced``: (Morale in already, Spread in already) for an attack in progress."""
        kn = self.kn
        me = kn.seat
        realms = kn.realms
        from_slot = next((sl for sl in realms[me].slots if cid in sl.defences), None)
        if from_slot is not None:
            realms = list(realms)
            r = realms[me] = realms[me].copy()
            sl = slot_of(r, from_slot.card)
            assert sl is not None
            sl.defences.remove(cid)
            sl.damage.pop(cid, None)
        a = kn.attack_value(me, cid)
        targets = [(o, sl.card) for o in kn.opponents(realms) for sl in attackable(realms[o])]
        if not targets:
            return -1e9, False, False, []
        hand = kn.hand
        morale_in, spread_in = forced or (False, False)
        plays_left = kn.plays - 1  # this card's play
        has_m = morale_in or any(kn.key(c) == "morale" for c in hand)
        has_s = spread_in or any(kn.key(c) == "spread" for c in hand)
        mech = kn.cards[cid].has("mechanical")
        best: tuple[float, bool, bool, list] = (-1e9, False, False, [])
        for m in (False, True):
            if m and not has_m or not m and morale_in:
                continue
            for s in (False, True):
                if s and (not has_s or len(targets) < 2) or not s and spread_in:
                    continue
                extra = (m and not morale_in) + (s and not spread_in)
                if extra > plays_left:
                    continue
                value = a * (2 if m else 1)
                cost = PLAY * extra
                cost += (KEEP["morale"] if m and not morale_in else 0.0) + (KEEP["spread"] if s and not spread_in else 0.0)
                if from_slot is None:
                    cost += 0.0
                gain, parts = self.best_parts(realms, targets, value, s)
                if not parts:
                    continue
                pb = 1.0 - math.prod(1.0 - kn.block_chance(o, mech) for o in {p[0] for p in parts})
                blocked = kn.worth(realms, {me: -cost + (BURN if kn.solo else 0.0)})
                v = (1 - pb) * (gain - self.points(cost)) + pb * blocked
                if kn.solo and kn.keys[me] != "charles":
                    pass
                if v > best[0]:
                    best = (v, m, s, parts)
        return best

    def gains(self, realms: list[Realm], targets: list[tuple[int, str]], n: int) -> list[float]:
        kn = self.kn
        return [kn.expect(kn.strike(realms, kn.seat, o, t, n)) for o, t in targets]

    def best_parts(self, realms: list[Realm], targets: list[tuple[int, str]], value: int,
                   spread: bool) -> tuple[float, list[tuple[int, str, int]]]:
        """(worth after, parts) of the best use of ``value`` damage, one target or shared with Spread."""
        kn = self.kn
        if not spread:
            each = self.gains(realms, targets, value)
            i = max(range(len(each)), key=lambda j: each[j])
            return each[i], [(targets[i][0], targets[i][1], value)]
        base = kn.worth(realms)
        # a small knapsack: gain of n points on each target, taken as adding up across targets
        table = {}
        for o, t in targets:
            r = realms[o]
            sl = slot_of(r, t)
            assert sl is not None
            need = strength(kn.cards, r, sl.top(), kn.adds_up)
            cands = sorted({min(value, need), value} | ({value - 1} if value > 1 else set()))
            table[(o, t)] = [(n, kn.expect(kn.strike(realms, kn.seat, o, t, n)) - base) for n in cands if n >= 1]
        best: dict[int, tuple[float, list]] = {0: (0.0, [])}
        for key, row in table.items():
            nxt = dict(best)
            for used, (g0, parts) in best.items():
                for n, g in row:
                    u = used + n
                    if u > value:
                        continue
                    cand = (g0 + g, parts + [(key[0], key[1], n)])
                    if u not in nxt or cand[0] > nxt[u][0]:
                        nxt[u] = cand
            best = nxt
        g, parts = max(best.values(), key=lambda x: x[0])
        if not parts:
            return -1e9, []
        parts.sort(key=lambda p: -p[2])
        return base + g, parts

    def commit(self, opts: list[Parts]) -> Parts:
        kn = self.kn
        card, _, _ = self.attack_in_play(kn.seat)
        if card is None:
            return ("go",)
        morale_in = any(kn.key(c) == "morale" for c in kn.in_play)
        spread_in = any(kn.key(c) == "spread" for c in kn.in_play)
        _, m, s, _ = self.plan(card, (morale_in, spread_in))
        for o in opts:
            if o[0] == "morale" and m and not morale_in:
                return o
            if o[0] == "spread" and s and not spread_in:
                return o
        return ("go",)

    def target(self, opts: list[Parts]) -> Parts:
        kn = self.kn
        card, value, _ = self.attack_in_play(kn.seat)
        ats = [o for o in opts if o[0] == "at"]
        if not ats:
            return _quick(opts)
        if len(ats[0]) == 3:
            if card is None:
                value = 3
            g = self.gains(kn.realms, [(o[1], o[2]) for o in ats], value)
            return ats[max(range(len(g)), key=lambda j: g[j])]
        left = max(o[3] for o in ats)
        targets = sorted({(o[1], o[2]) for o in ats})
        gain, parts = self.best_parts(kn.realms, targets, left, True)
        base = kn.worth(kn.realms)
        if not parts or (("go",) in opts and gain <= base):
            return _quick(opts)
        o, t, n = parts[0]
        return ("at", o, t, n) if ("at", o, t, n) in opts else ats[0]

    # -- answers --

    def threat(self) -> float:
        """How much the card played against me would cost me, in worth units (its likely target)."""
        kn = self.kn
        me, by = kn.seat, kn.current
        base = kn.worth(kn.realms)
        card, value, spread = self.attack_in_play(by)
        if card is not None:
            you = kn.realms[me]
            slots = attackable(you)
            if not slots:
                return 0.0
            # the attacker's likely target: what it destroys or damages most, ignoring my Traps
            def gain(sl: Slot) -> tuple[int, int]:
                need = strength(kn.cards, you, sl.top(), kn.adds_up)
                return (int(value >= need), min(value, need))
            if spread:
                hurt = 0.0
                left = value
                for sl in sorted(slots, key=lambda s: strength(kn.cards, you, s.top(), kn.adds_up)):
                    need = strength(kn.cards, you, sl.top(), kn.adds_up)
                    if need <= left:
                        hurt += base - kn.expect(kn.strike(kn.realms, by, me, sl.card, need))
                        left -= need
                return hurt
            sl = max(slots, key=gain)
            return base - kn.expect(kn.strike(kn.realms, by, me, sl.card, value))
        acts = [c for c in kn.in_play if kn.cards[c].type in ("action", "penalty")]
        if not acts:
            return self.points(1.0)
        key = kn.key(acts[-1])
        you = kn.realms[me]
        if key == "freeze":
            return self.points(1.5 if kn.solo else FREEZE)
        if kn.cards[acts[-1]].type == "penalty":
            return self.points(PENALTY)
        if key == "mutiny":
            armed = armed_defences(kn.cards, you)
            return self.points(max((kn.cards[a].value for a in armed), default=0))
        if key in ("disrepair", "earthquake"):
            tops = [kn.cards[sl.defences[-1]].value for sl in attackable(you)
                    if sl.defences and is_construction(kn.cards, sl.defences[-1])]
            return self.points(max(tops, default=0) + (1.0 if key == "earthquake" else 0.0))
        if key == "sabotage":
            return self.points(1.0)
        return self.points(1.0)

    def respond(self, opts: list[Parts]) -> Parts:
        kn = self.kn
        answers = [o for o in opts if o[0] != "pass"]
        if not answers:
            return ("pass",)
        if kn.current == kn.seat:  # a Gold buys my card: block it when my play is worth more than the answer
            card, value, _ = self.attack_in_play(kn.seat)
            mine = self.points(value if card else 2.0)
            o = min(answers, key=lambda x: kn.keep(x[1]))
            return o if mine > self.points(kn.keep(o[1])) else ("pass",)
        harm = self.threat()
        n_held = len(answers)

        def cost(o: Parts) -> float:
            k = kn.key(o[1])
            c = kn.keep(o[1]) * (0.8 if n_held > 1 else 1.0)
            if k == "gold":  # I get the card; the attacker gets the Gold
                card = next((x for x in reversed(kn.in_play) if kn.cards[x].type != "penalty"), None)
                got = kn.cards[card].value if card and kn.cards[card].type in ("attack", "mercenaries") else 1.0
                c -= 0.0 if kn.solo else got * 0.6
                c += 1.0
            return c

        o = min(answers, key=cost)
        return o if harm > self.points(cost(o)) else ("pass",)

    def cancel(self, opts: list[Parts]) -> Parts:
        kn = self.kn
        uses = [o for o in opts if o[0] in ("cancel", "unfreeze")]
        if not uses:
            return _quick(opts)
        o = min(uses, key=lambda x: kn.keep(x[1]))
        keep = kn.keep(o[1])
        if o[0] == "unfreeze":
            worth = 2 * 2.0 if not kn.solo else self.round_card_points()
        else:
            pen = next((c for c in kn.in_play if kn.cards[c].type == "penalty"), None)
            key = kn.key(pen) if pen else ""
            if kn.solo:
                card = self.round_card()
                banned = {"disease": ("attack", "mercenaries"), "plague": ("defend", "trap", "mercenaries")}
                hit = card is not None and kn.cards[card].type in banned.get(key, ())
                worth = self.round_card_points() if hit else (0.8 if key == "famine" else 0.0)
            else:
                kinds = {"disease": ("attack", "mercenaries"), "plague": ("defend", "trap", "mercenaries")}
                n = sum(1 for c in kn.hand if kn.cards[c].type in kinds.get(key, ()))
                worth = min(n, max(0, kn.plays - 1)) * 2.0 if key in kinds else 0.8
                worth -= PLAY  # the cancelling costs another play
        return o if worth > keep else ("accept",)

    def round_card(self) -> str | None:
        kn = self.kn
        return next((c for c in kn.in_play if kn.cards[c].type not in ("penalty",) or kn.key(c) == ""), None)

    def round_card_points(self) -> float:
        card = self.round_card()
        if card is None:
            return 0.0
        c = self.kn.cards[card]
        return float(max(c.value, 1.5))


class _Greedy(_Base):
    """The baseline: Defend cards first, the biggest first, on the Castle while it has room, a
    new Land for a Land; then its biggest attack on the weakest standing kingdom, where it
    destroys most (a Land first); Fortune and other actions last, each against the weakest
    kingdom; Morale with every attack, never Spread; every answer at the first chance."""

    def noble(self, opts: list[Parts]) -> Parts:
        return opts[0]

    # draft: the full AI's rule (_Base.draft, three Lands, then the biggest Defence on the Castle):
    # the baseline is measured on its play, not handicapped by a Castle with no Lands.

    def weakest(self) -> int | None:
        foes = self.kn.opponents()
        scores = [r["score"] for r in self.kn.view["realms"]]
        return min(foes, key=lambda o: (scores[o], o)) if foes else None

    def action(self, opts: list[Parts]) -> Parts:
        kn = self.kn
        me = kn.realms[kn.seat]
        castle = me.slots[0].card if me.slots else None
        places_ = [o for o in opts if o[0] == "place"]
        if places_:
            def rank(o: Parts) -> tuple:
                c = kn.cards[o[1]]
                slot = o[2]
                front = next((i for i, sl in enumerate(me.slots) if sl.card == slot), 0)
                return (c.type != "trap", c.value, slot == castle, -front, str(o))
            return max(places_, key=rank)
        attacks = [o for o in opts if o[0] == "attack"]
        if attacks:
            return max(attacks, key=lambda o: (kn.attack_value(kn.seat, o[1]), str(o)))
        if ("fortune",) and any(o[0] == "fortune" for o in opts):
            return next(o for o in opts if o[0] == "fortune")
        weak = self.weakest()
        acts = [o for o in opts if o[0] in ("freeze", "penalty", "mutiny", "disrepair", "earthquake")]
        if acts:
            at_weak = [o for o in acts if o[2] == weak] or acts
            return at_weak[0]
        if ("hold",) and any(o[0] == "hold" for o in opts):
            return next(o for o in opts if o[0] == "hold")
        return _quick(opts)

    def commit(self, opts: list[Parts]) -> Parts:
        return next((o for o in opts if o[0] == "morale"), ("go",))

    def target(self, opts: list[Parts]) -> Parts:
        kn = self.kn
        ats = [o for o in opts if o[0] == "at"]
        if not ats:
            return _quick(opts)
        _, value, _ = self.attack_in_play(kn.seat)
        if len(ats[0]) == 4:  # never asked: the greedy AI does not Spread; all on one target
            return max(ats, key=lambda o: (o[3], str(o)))
        scores = [r["score"] for r in kn.view["realms"]]
        weak = min({o[1] for o in ats}, key=lambda s: (scores[s], s))
        mine = [o for o in ats if o[1] == weak]
        r = kn.realms[weak]

        def hurt(o: Parts) -> tuple:
            sl = slot_of(r, o[2])
            assert sl is not None
            top = sl.top()
            need = strength(kn.cards, r, top, kn.adds_up)
            kills = value >= need
            return (int(kills and top == sl.card), card_value(kn.cards, r, top) if kills else 0, min(value, need),
                    str(o))

        return max(mine, key=hurt)

    def respond(self, opts: list[Parts]) -> Parts:
        answers = [o for o in opts if o[0] != "pass"]
        if not answers or self.kn.current == self.kn.seat:
            return ("pass",)
        order = {"sabotage": 0, "deny": 1, "mercy": 2, "gold": 3}
        return min(answers, key=lambda o: (order.get(o[0], 9), str(o)))

    def cancel(self, opts: list[Parts]) -> Parts:
        return next((o for o in opts if o[0] in ("cancel", "unfreeze")), _quick(opts))

    def allocate(self, opts: list[Parts]) -> Parts:
        kn = self.kn
        if opts[0][0] == "take":
            return max(opts, key=lambda o: (kn.cards[o[1]].value, str(o)))
        return min(opts, key=lambda o: (kn.cards[o[1]].value, str(o)))
