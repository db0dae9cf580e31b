"""Solo Take the Kingdom: you against two enemy kingdoms for 18 rounds (take-the-kingdom.txt,
"Solo rules" and "Enemy rules").

Units: ``("setup",)`` (the difficulty's kingdoms and the three solo decks), then
``("round", n)`` for n in 1..18: three cards revealed, you allocate them, then you and
each enemy play the card allocated. The enemies are rules, not players: they never
decide; their choices follow the enemy rules (:func:`enemy_play`). You answer their
cards out of turn with the Deny, Gold, Sabotage and Mercy you hold.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from core.engine import Code, Parts, Result, RulesError
from core.kingdom.cards import CardSet
from core.kingdom.lines import (armed_defences, attackable, card_value, defence_room, is_construction, land_room,
                                strength, trap_room)
from core.kingdom.plays import action_hits, perform, play_options
from core.kingdom.state import KingdomState, Realm, Slot
from core.kingdom.table import ANSWER_KEYS, Fallen, Table
from core.procedure import GameEnded, Proc, Unit

ROUNDS = 18
YOU = 0
DECK_NAMES = ("Attack", "Defend", "Action")
# "Solo rules": the Nobles and starting kingdoms of each level, for you, Enemy 1, Enemy 2:
# the Lands in order, each with its Defence, and Egbert's Village (on his Castle, KD-21).
LEVELS: dict[str, tuple[tuple[str, tuple[tuple[str, ...], ...], bool], ...]] = {
    "easy": (("egbert", (("moat",), ("hills",)), True), ("baligant", (("moat",), ()), False),
             ("maria", ((), ()), False)),
    "medium": (("simon", (("moat",), ("hills",), ()), False), ("baligant", (("moat",), ("hills",)), False),
               ("maria", (("moat",), ("hills",)), False)),
    "difficult": (("maria", (("moat",), ("hills",)), False), ("egbert", (("moat",), ("hills",)), True),
                  ("simon", (("moat",), ()), False)),
    "expert": (("simon", (("moat",), ()), False), ("egbert", (("moat",), ("hills",)), True),
               ("charles", (("moat",), ("hills",)), False)),
}
SWAPS = (("anne", "dawn-raid", "soldiers", 0), ("charles", "gold", "deny", 2))  # Noble, card in, card out, deck


def option_specs_solo() -> dict[str, Any]:
    from core.kingdom import _option_specs

    return {s.name: s for s in _option_specs("solo")}


class SoloGame(Table):
    variant = "solo"

    def __init__(self, options: dict[str, Any], cards: CardSet) -> None:
        specs = option_specs_solo()
        unknown = set(options) - set(specs)
        if unknown:
            raise RulesError(f"unknown kingdom solo option {sorted(unknown)[0]!r} (known: {', '.join(specs)})")
        self.opts = {n: specs[n].coerce(options[n]) if n in options else sp.default for n, sp in specs.items()}
        self.seats = ("You", "Enemy 1", "Enemy 2")
        super().__init__(KingdomState(realms=[Realm(None) for _ in range(3)], deck=[]), cards)
        self._start(("setup",))

    @property
    def bot_seats(self) -> frozenset[int]:
        return frozenset({1, 2})

    def _unit_proc(self, unit: Unit) -> Proc:
        return self._setup() if unit[0] == "setup" else self._round(unit[1])

    def _next_unit(self, returned: Any) -> Unit | None:
        if self.result is not None:
            return None
        if self.s.turn >= ROUNDS:
            self._finish(self._result(f"after {ROUNDS} rounds the strongest kingdom standing wins", "kingdom solo"))
            return None
        return ("round", self.s.turn + 1)

    def _ended(self, end: GameEnded) -> Result:
        assert isinstance(end, Fallen)
        if not self.s.realms[YOU].out:
            return self._result("both enemy kingdoms have fallen", "kingdom solo")
        return self._result("your Castle has fallen", "kingdom solo")

    def check_fallen(self, seat: int) -> None:
        if seat == YOU or len(self.standing_seats()) <= 1:
            raise Fallen()

    # -- setup --------------------------------------------------------------------

    def _setup(self) -> Proc:
        s, cards = self.s, self.cards
        level = LEVELS[self.opts["difficulty"]]
        spare = {key: [c.id for c in cards.cards if c.key == key and not c.solo] for key in
                 ("castle", "land", "moat", "hills", "village")}
        nobles = {c.key: c.id for c in cards.cards if c.type == "noble"}
        for k, (noble, lands, village) in enumerate(level):
            r = s.realms[k]
            r.noble = nobles[noble]
            r.slots = [Slot(spare["castle"].pop(0))]
            for defences in lands:
                r.slots.append(Slot(spare["land"].pop(0), [spare[d].pop(0) for d in defences]))
            if village:  # KD-21
                r.slots[0].defences.append(spare["village"].pop(0))
            self.emit("setup", f"{self.name(k)}: " + self.describe_kingdom(k), "kingdom solo", k)
        used = set(s.all_cards())
        solo = [c for c in cards.cards if c.solo]
        decks = [[c.id for c in solo if c.type == "attack"],
                 [c.id for c in solo if c.type in ("defend", "trap", "mercenaries")],
                 [c.id for c in solo if c.type in ("action", "mercy", "penalty")]]
        in_play = {self.noble_key(k) for k in range(3)}
        for noble, key_in, key_out, d in SWAPS:
            if noble in in_play:
                add = next(c.id for c in cards.cards if c.key == key_in and not c.solo)
                out = next(c for c in decks[d] if cards[c].key == key_out)
                decks[d].remove(out)
                decks[d].append(add)
                self.emit("setup", f"{cards[add].name} goes into the {DECK_NAMES[d]} deck in place of a "
                          f"{cards[out].name} (for {noble.title()})", "kingdom solo", add, out)
        placed = used | {c for d in decks for c in d}
        s.box = [c.id for c in cards.cards if c.id not in placed]
        for d, deck in enumerate(decks):
            perm = yield from self.shuffle(len(deck), f"the {DECK_NAMES[d]} deck is shuffled")
            s.decks.append([deck[i] for i in perm])
        self.emit("setup", "Three decks of 18 are shuffled: Attack, Defend, Action", "kingdom solo")

    def describe_kingdom(self, k: int) -> str:
        parts = []
        for slot in self.s.realms[k].slots:
            parts.append(" + ".join(self.cards.by_id[c].name for c in (slot.card, *slot.defences)))
        return ", ".join(parts)

    # -- a round ------------------------------------------------------------------

    def _round(self, n: int) -> Proc:
        s = self.s
        s.turn = n
        s.revealed = [d.pop(0) for d in s.decks if d]
        self.emit("round", f"Round {n} of {ROUNDS}: " + ", ".join(self.label(c) for c in s.revealed) + " revealed",
                  "kingdom solo", n)
        yield from self._allocate()
        for k in (YOU, 1, 2):
            cid, s.given[k] = s.given[k], ""
            if not cid:
                continue
            if not self.standing(k):  # fallen earlier this round
                self.to_discard(cid)
            elif k == YOU:
                yield from self._you_play(cid)
            else:
                yield from self.enemy_play(k, cid)
        s.given = []
        if not self.opts["famine_until_next_play"]:  # KD-23: "Penalty cards apply to that player for that round"
            for k, r in enumerate(s.realms):
                if r.famine:
                    r.famine = False
                    self.emit("penalty", f"The round ends: {self.name(k)}'s Famine is over", "KD-23", k)

    def standing(self, k: int) -> bool:
        return k in self.standing_seats()

    def _allocate(self) -> Proc:
        """You allocate the revealed cards, one to each kingdom ("Solo rules"); with an enemy
        gone, one is discarded. Gold and Dawn Raid go to the Noble who can use them; with the
        option, a Penalty to you (KD-22)."""
        s = self.s
        alive = [k for k in (YOU, 1, 2) if self.standing(k)]
        holders = alive + [None] * (len(s.revealed) - len(alive))  # None: discarded
        ok = [dict(zip(p, s.revealed)) for p in set(permutations(holders, len(s.revealed)))]
        # who may be given each swapped card: its Noble's kingdom, while it stands (the same for every allocation)
        owners = {card_key: owner for noble, card_key, _, _ in SWAPS if (owner := next(
            (o for o in (YOU, 1, 2) if self.noble_key(o) == noble and self.standing(o)), None)) is not None}
        ok = [a for a in ok if self._allowed(a, owners)]
        for k in alive[:-1] if len(alive) == len(s.revealed) else alive:
            choices = sorted({a[k] for a in ok if k in a})
            if len(choices) > 1:
                opts: list[Code] = [("take", c) if k == YOU else ("give", c, k) for c in choices]
                what = "which card is yours this round?" if k == YOU else f"which card goes to {self.name(k)}?"
                code = yield from self.ask(YOU, what, opts, "choose")
                pick = code[1]
            else:
                pick = choices[0]
            ok = [a for a in ok if a.get(k) == pick]
        given = {k: c for k, c in ok[0].items() if k is not None}
        s.revealed = []
        s.given = [given.get(k, "") for k in (YOU, 1, 2)]
        for k, c in sorted(given.items()):
            self.emit("allocate", f"{self.label(c)} goes to {self.name(k)}", "kingdom solo", k, c)
        for c in (c for k, c in ok[0].items() if k is None):
            self.to_discard(c)
            self.emit("allocate", f"{self.label(c)} is discarded (an enemy has fallen)", "kingdom solo", c)

    def _allowed(self, a: dict[Any, str], owners: dict[str, int]) -> bool:
        by_id, penalty_to_you = self.cards.by_id, self.opts["penalty_to_player"]
        for k, c in a.items():
            card = by_id[c]
            owner = owners.get(card.key)
            if owner is not None and k != owner:
                return False
            if penalty_to_you and card.type == "penalty" and k != YOU:
                return False
        return True

    # -- your play ----------------------------------------------------------------

    def _you_play(self, cid: str) -> Proc:
        s, r = self.s, self.s.realms[YOU]
        s.current, s.plays, s.banned = YOU, 1, []
        r.famine = False
        s.in_play.append(cid)  # the round's card waits while penalties and a Freeze are dealt with
        yield from self._penalties(YOU)
        thawed = (yield from self._thaw(YOU)) if r.frozen else True
        s.in_play.remove(cid)
        if not thawed:
            self.to_discard(cid)
            return
        r.hand.append(cid)
        c = self.cards.by_id[cid]
        if c.type == "penalty" and self.noble_key(YOU) != "baligant":
            r.hand.remove(cid)
            yield from self._suffer(YOU, cid)
            return
        opts = play_options(self, YOU, solo_card=cid) if s.plays else []
        if c.key in ANSWER_KEYS:
            opts.append(("hold", cid))
        opts.append(("discard", cid))
        code = yield from self.ask(YOU, f"play {c.name}", opts, "action")
        if code[0] == "hold":
            self.emit("hold", f"You hold {self.label(cid)} to answer with", "KD-20", cid)
            return
        if code[0] == "discard":
            r.hand.remove(cid)
            self.to_discard(cid)
            self.emit("discard", f"You discard {self.label(cid)}", "KD-20", cid)
            return
        yield from perform(self, YOU, code)

    def _penalties(self, k: int) -> Proc:
        """Penalties Baligant played on ``k`` strike now, for this round (KD-23)."""
        r = self.s.realms[k]
        for pen in list(r.pending):
            r.pending.remove(pen)
            yield from self._suffer(k, pen)

    def _suffer(self, k: int, pen: str) -> Proc:
        """A Penalty on ``k`` for this round ("Enemy rules"): a held Deny or Mercy may cancel it;
        an enemy cancels at the first chance."""
        s, r = self.s, self.s.realms[k]
        s.in_play.append(pen)
        name = self.cards.by_id[pen].name
        cancel = [c for c in [*r.hand, *r.mercy] if self.cards.by_id[c].key in ("deny", "mercy")] if not r.famine else []
        if cancel:
            if k == YOU:
                code = yield from self.ask(YOU, f"{name} strikes you: cancel it with a card you hold?",
                                           [*(("cancel", c) for c in cancel), ("accept",)], "choose")
                use = code[1] if code[0] == "cancel" else None
            else:
                use = cancel[0]
            if use is not None:
                self.take(k, use)
                s.in_play.remove(pen)
                self.to_discard(use, pen)
                self.emit("penalty", f"{self.name(k)} cancels {name} with {self.cards.by_id[use].name}", "kingdom penalty",
                          k, use)
                return
        s.in_play.remove(pen)
        self.to_discard(pen)
        key = self.cards.by_id[pen].key
        if key == "famine":
            r.famine = True
        elif k == s.current:
            s.banned.append("attack" if key == "disease" else "defend")
        what = {"famine": "no Deny, Gold, Sabotage or Mercy this round", "disease": "no attack this round",
                "plague": "no Defend card this round"}[key]
        self.emit("penalty", f"{name} strikes {self.name(k)}: {what}", "kingdom enemy", k, pen)

    def _thaw(self, k: int) -> Proc:
        """A frozen kingdom's card this round is lost, unless a held Mercy removes the Freeze
        (KD-15); an enemy uses its Mercy at once. True: it may play."""
        r = self.s.realms[k]
        mercy = [c for c in [*r.hand, *r.mercy] if self.cards.by_id[c].key == "mercy"] if not r.famine else []
        use = None
        if mercy and k == YOU:
            code = yield from self.ask(YOU, "you are frozen: remove the Freeze with Mercy?",
                                       [*(("unfreeze", c) for c in mercy), ("accept",)], "choose")
            use = code[1] if code[0] == "unfreeze" else None
        elif mercy:
            use = mercy[0]
        self.to_discard(r.frozen)
        r.frozen = None
        if use is not None:
            self.take(k, use)
            self.to_discard(use)
            self.emit("freeze", f"{self.name(k)} removes the Freeze with Mercy", "kingdom notes.mercy", k)
            return True
        self.emit("freeze", f"{self.name(k)} is frozen: its card this round is lost", "KD-15", k)
        return False

    # -- the enemies ---------------------------------------------------------------

    def enemy_play(self, k: int, cid: str) -> Proc:
        """An enemy plays its card by the enemy rules: against you, never the other enemy, the
        way that hurts you most (KD-24); Defend cards from the front; answer cards held."""
        s, r = self.s, self.s.realms[k]
        s.current, s.plays, s.banned = k, 1, []
        r.famine = False
        s.in_play.append(cid)
        yield from self._penalties(k)
        thawed = (yield from self._thaw(k)) if r.frozen else True
        s.in_play.remove(cid)
        if not thawed:
            self.to_discard(cid)
            return
        c = self.cards.by_id[cid]
        r.hand.append(cid)
        if c.type == "penalty" and self.noble_key(k) != "baligant":
            r.hand.remove(cid)
            yield from self._suffer(k, cid)
            return
        if c.key in ANSWER_KEYS:
            self.emit("hold", f"{self.name(k)} holds {self.label(cid)} to use at the first chance", "kingdom enemy",
                      k, cid)
            return
        code = self.enemy_choice(k, cid)
        if code is None:
            r.hand.remove(cid)
            self.to_discard(cid)
            self.emit("discard", f"{self.name(k)} can do nothing with {self.label(cid)}: it is discarded",
                      "kingdom enemy", k, cid)
            return
        if code[0] == "attack":
            yield from self._enemy_attack(k, cid, code[2], code[3])
            return
        yield from perform(self, k, code)

    def enemy_choice(self, k: int, cid: str) -> Parts | None:
        """The enemy's play of ``cid`` ("Enemy rules"), or None when it can do nothing."""
        s, r, c = self.s, self.s.realms[k], self.cards.by_id[cid]
        you = s.realms[YOU]
        banned = set(s.banned)
        place: Parts | None = None
        if c.type in ("defend", "trap", "mercenaries") and "defend" not in banned:
            if c.key == "land":
                place = ("place", cid, "new") if land_room(r) else None
            else:
                room = trap_room(r) if c.type == "trap" else defence_room(r)
                front = [sl for sl in r.lands if sl in room] + [sl for sl in room if sl is r.slots[0]]
                place = ("place", cid, front[0].card) if front else None
        if c.type in ("defend", "trap") or (c.type == "mercenaries" and (
                place is not None or self.opts["enemy_mercenaries_defend_only"])):
            return place
        if c.type in ("attack", "mercenaries"):  # KD-25: Mercenaries with no room (or under Plague) attack
            if "attack" in banned or not attackable(you):
                return None
            best = self.best_target(k, self.attack_value(k, cid), attackable(you))
            return ("attack", cid, YOU, best)
        if c.type == "penalty":  # Baligant plays it against you
            return ("penalty", cid, YOU)
        if c.key == "freeze":
            return ("freeze", cid, YOU) if you.frozen is None else None
        if c.key == "mutiny":
            armed = armed_defences(self.cards, you)
            return ("mutiny", cid, YOU, max(armed, key=lambda t: self.cards.by_id[t].value)) if armed else None
        if c.key in ("earthquake", "disrepair"):
            slots = [sl for sl in attackable(you) if action_hits(self, c.key, sl)]
            if not slots:
                return None
            worth = [(self.cards.by_id[sl.defences[-1]].value if sl.defences and is_construction(self.cards, sl.defences[-1])
                      else 0) + (1 if sl.trap else 0) for sl in slots]
            return (c.key, cid, YOU, slots[worth.index(max(worth))].card)
        if c.key == "mercy":
            return ("mercy", cid, "land") if land_room(r) and "defend" not in banned else None
        return None  # Fortune, Spread, Morale: nothing an enemy can do with them alone (KD-25)

    def best_target(self, k: int, points: int, slots: list[Slot]) -> str:
        """The Castle or Land where ``points`` hurt you most: a Land removed first ("Enemy rules"),
        then the most points destroyed, then the most damage; the front-most on a tie (KD-24)."""
        you = self.s.realms[YOU]

        def hurt(sl: Slot) -> tuple[int, int, int]:
            top = sl.top()
            need = strength(self.cards, you, top, self.damage_adds_up())
            kills = points >= need
            return (int(kills and top == sl.card), card_value(self.cards, you, top) if kills else 0,
                    min(points, need))

        ranked = [hurt(sl) for sl in slots]
        return slots[ranked.index(max(ranked))].card

    def _enemy_attack(self, k: int, cid: str, seat: int, slot: str) -> Proc:
        s = self.s
        self.take(k, cid)
        s.in_play.append(cid)
        value = self.attack_value(k, cid)
        self.emit("attack", f"{self.name(k)} attacks with {self.label(cid)}: {value} on "
                  f"{self.where(seat, self.find_slot(seat, slot))}", "kingdom enemy", k, cid, value)
        outcome = yield from self.window(k, cid, [seat], "against you")
        if outcome[0] != "played":
            s.in_play.remove(cid)
            if outcome[0] == "blocked":
                self.to_discard(cid)
            else:
                yield from self.bought(outcome[1], k, cid)
            return
        tucked = yield from self.strike(k, seat, slot, value, cid)
        if not tucked:
            s.in_play.remove(cid)
            self.to_discard(cid)

    # -- answers, Gold and Traps for the enemies ---------------------------------------

    def answer(self, seat: int, player: int, card: str, what: str) -> Proc:
        cards = self.answer_cards(seat, card)  # in solo every held card is seen: ask only when one fits
        if seat == YOU:
            got = (yield from super().answer(seat, player, card, what)) if cards else None
            return got
        # the enemy answers at the first chance
        return cards[0] if cards else None

    def counter_gold(self, player: int, buyer: int, gold: str) -> Proc:
        cards = self.answer_cards(player, gold, counter=True)
        if player == YOU:
            got = (yield from super().counter_gold(player, buyer, gold)) if cards else None
            return got
        return cards[0] if cards else None

    def bought(self, buyer: int, player: int, cid: str) -> Proc:
        """Gold in solo (KD-19): the buyer plays the bought card at once, as its own."""
        if self.cards.by_id[cid].type == "penalty":
            self.to_discard(cid)
            self.emit("gold", f"{self.name(buyer)} buys {self.cards.by_id[cid].name} and discards it", "KD-19", buyer)
            return
        self.emit("gold", f"{self.name(buyer)} buys {self.label(cid)} and plays it at once", "KD-19", buyer, cid)
        s = self.s
        saved = (s.current, s.plays, list(s.banned))
        if buyer == YOU:
            s.current, s.plays, s.banned = YOU, 1, []
            s.realms[YOU].hand.append(cid)
            opts = play_options(self, YOU, solo_card=cid) + [("discard", cid)]
            code = yield from self.ask(YOU, f"play the {self.cards.by_id[cid].name} you bought", opts, "action")
            if code[0] == "discard":
                s.realms[YOU].hand.remove(cid)
                self.to_discard(cid)
            else:
                yield from perform(self, YOU, code)
        else:
            s.current, s.plays, s.banned = buyer, 1, []
            s.realms[buyer].hand.append(cid)
            code = self.enemy_choice(buyer, cid)
            if code is None:
                s.realms[buyer].hand.remove(cid)
                self.to_discard(cid)
            elif code[0] == "attack":
                yield from self._enemy_attack(buyer, cid, code[2], code[3])
            else:
                yield from perform(self, buyer, code)
        s.current, s.plays, s.banned = saved

    def trap_target(self, owner: int, victim: int, slots: list[str], points: int) -> Proc:
        if owner == YOU:
            got = yield from super().trap_target(owner, victim, slots, points)
            return got
        you = self.s.realms[YOU]
        return self.best_target(owner, points, [sl for sl in you.slots if sl.card in slots])
