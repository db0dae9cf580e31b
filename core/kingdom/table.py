"""What multiplayer and solo Take the Kingdom share: the cards on the table, attacks on the
lines of defence, Traps, out-of-turn answers, and a kingdom's fall.

:class:`Table` is a :class:`ProcedureGame`; ``game.py`` (multiplayer) and ``solo.py`` add
their units. Rule citations are the rulebook's headings ("kingdom defence", "kingdom
traps"...) or ruling ids from docs/rulings/kingdom.md (KD-n).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from core.engine import Code, Decision, Result, RulesError
from core.kingdom.cards import Card, CardSet
from core.kingdom.lines import attackable, score, slot_of, strength, standing_title
from core.kingdom.state import KingdomState, Slot
from core.procedure import GameEnded, Proc, ProcedureGame

ANSWER_KEYS = ("deny", "mercy", "gold", "sabotage")  # may be played out of turn ("Action (blue) cards")
GOLD_USES = 3  # "Notes on specific cards: Gold"
CANNON_CHARLES, PIKEMEN_MARIA = 5, 2  # "Characters"


class Fallen(GameEnded):
    """Only one kingdom stands (multiplayer), or the solo player's Castle fell."""


@lru_cache(maxsize=64)
def _current_options(options: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
    """The names of the options not at an older revision's value (Table.canonical), worked out once
    per set of options (the values are the game's own: a key 1 is one with True)."""
    from core.kingdom import old_value

    return tuple(name for name, v in options if not old_value(name, v))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Table(ProcedureGame):
    game = "kingdom"
    cards: CardSet
    seats: tuple[str, ...]
    opts: dict[str, Any]

    def __init__(self, state: KingdomState, cards: CardSet) -> None:
        super().__init__(state)
        self.cards = cards
        self._names: dict[tuple[str, str], str] = {}  # name()'s words by seat and Noble; shared with clones

    @property
    def options(self) -> dict[str, Any]:
        return self.opts

    def canonical(self) -> Any:
        """The position; an option at its revision-1 or revision-2 value is left out of it, so an
        older record replays to the same digests (docs/rulings/kingdom.md, "Revisions")."""
        out = super().canonical()
        opts = self.opts
        out["options"] = {name: opts[name] for name in _current_options(tuple(opts.items()))}
        return out

    # -- names --------------------------------------------------------------------

    def card(self, cid: str) -> Card:
        return self.cards.by_id[cid]

    def label(self, cid: str) -> str:
        """A card as people read it: its name (and what tells it from another card of that name,
        core/kingdom/cards.py); never a face-down Trap's to anyone but its owner."""
        return self.cards.labels[cid]

    def standing_name(self, seat: int, cid: str) -> str:
        """A card standing in ``seat``'s kingdom: ``Castle``, ``Walls``, with its id only when
        another card there is called the same (``Land (land-3)``)."""
        realm = self.s.realms[seat]
        if slot_of(realm, cid) is None:
            return self.cards.labels[cid]
        return standing_title(self.cards, [(s.card, s.defences) for s in realm.slots], cid)

    def name(self, seat: int) -> str:
        noble, who = self.s.realms[seat].noble, self.seats[seat]
        if not noble:
            return who
        named = self._names.get((who, noble))  # worded for nearly every event: once each
        if named is None:
            key = self.cards.by_id[noble].key.title()
            named = self._names[who, noble] = f"{key} (you)" if who == "You" else f"{who} ({key})"
        return named

    def noble_key(self, seat: int) -> str:
        noble = self.s.realms[seat].noble
        return self.cards.by_id[noble].key if noble else ""

    def noble_number(self, seat: int) -> int:
        noble = self.s.realms[seat].noble
        return self.cards.by_id[noble].value if noble else 0

    # -- moving cards -------------------------------------------------------------

    def to_discard(self, *cids: str) -> None:
        self.s.discard.extend(cids)

    def take(self, seat: int, cid: str) -> None:
        """Take ``cid`` out of ``seat``'s hand or from beside its Castle (a Mercy), or out of play."""
        r = self.s.realms[seat]
        for pile in (r.hand, r.mercy, self.s.in_play):
            if cid in pile:
                pile.remove(cid)
                return
        raise RulesError(f"{self.label(cid)} is not {self.name(seat)}'s to play")

    def damage_adds_up(self) -> bool:
        return bool(self.opts.get("damage_adds_up", True))

    def attack_value(self, seat: int, cid: str) -> int:
        """An Attack or Mercenaries card's damage for ``seat`` (Charles's Cannons, Maria's Pikemen)."""
        c, noble = self.cards.by_id[cid], self.noble_key(seat)
        if c.key == "cannon" and noble == "charles":
            return CANNON_CHARLES
        if c.key == "pikemen" and noble == "maria":
            return PIKEMEN_MARIA
        return c.value

    def trap_real(self, seat: int, cid: str) -> bool:
        """A Trap is real if its card says so, or if it is Egbert's ("Characters")."""
        return self.cards.by_id[cid].real or self.noble_key(seat) == "egbert"

    def damage_lowers_score(self) -> bool:
        """Whether tucked damage lowers a kingdom's defence points (KD-6: only with the option,
        and only when damage adds up at all)."""
        return self.damage_adds_up() and bool(self.opts.get("damage_lowers_score", False))

    def scores(self) -> tuple[int, ...]:
        """Each kingdom's defence points, as the winner is found by ("Gameplay", KD-6)."""
        return tuple(score(self.cards, r, self.damage_lowers_score()) for r in self.s.realms)

    def standing_seats(self) -> list[int]:
        return [k for k, r in enumerate(self.s.realms) if not r.out and r.slots]  # lines.standing, inlined

    def order_from(self, seat: int) -> list[int]:
        """Every seat, clockwise from the one after ``seat``."""
        n = len(self.s.realms)
        return [(seat + i) % n for i in range(1, n + 1)]

    # -- the lines of defence -----------------------------------------------------

    def find_slot(self, seat: int, slot_card: str) -> Slot:
        slot = slot_of(self.s.realms[seat], slot_card)
        if slot is None or slot.card != slot_card:
            raise RulesError(f"{slot_card} is not a Castle or Land of {self.name(seat)}")
        return slot

    def find_card(self, seat: int, cid: str) -> bool:
        """Whether ``cid`` still stands in ``seat``'s kingdom (a Castle, Land or Defence)."""
        return slot_of(self.s.realms[seat], cid) is not None

    def bought(self, buyer: int, player: int, cid: str) -> Proc:
        """Gold bought ``cid`` from ``player``: into the buyer's hand ("Notes: Gold"); a Penalty
        bought is discarded, never taken in hand (KD-13)."""
        if self.cards.by_id[cid].type == "penalty":
            self.to_discard(cid)
            self.emit("gold", f"{self.name(buyer)} buys {self.cards.by_id[cid].name} and discards it", "KD-13", buyer)
        else:
            self.s.realms[buyer].hand.append(cid)
            self.emit("gold", f"{self.name(buyer)} takes {self.label(cid)} into hand", "kingdom notes.gold",
                      buyer, cid)
        return
        yield

    def where(self, seat: int, slot: Slot) -> str:
        """``Player 2 (Maria)'s Land (land-3)``: a Castle or Land by its owner and its name."""
        return f"{self.possessive(seat)} {self.standing_name(seat, slot.card)}"

    def possessive(self, seat: int, capital: bool = False) -> str:
        """"Player 2 (Maria)'s", or in solo "your" ("Your" to begin a sentence)."""
        if self.seats[seat] == "You":
            return "Your" if capital else "your"
        return f"{self.name(seat)}'s"

    def strike(self, by: int, seat: int, slot_card: str, points: int, tuck: str | None,
               reversed_: bool = False) -> Proc:
        """``points`` of damage from ``by`` on one Castle or Land of ``seat``, hitting its topmost
        Defence ("Attack (red) cards"). A Trap there is sprung first ("Traps"); a real one turns
        the attack back on ``by``, where the Trap's owner says, "as if they had been attacked": a
        Trap there springs in turn (KD-8; option ``reversal_springs_no_trap``: it does not,
        revision 2). Each sprung Trap is discarded, so the back-and-forth ends. Returns True when
        ``tuck`` was tucked under a card as damage."""
        slot = self.find_slot(seat, slot_card)
        if slot.trap is not None and not (reversed_ and self.opts.get("reversal_springs_no_trap", True)):
            trap, slot.trap = slot.trap, None
            self.to_discard(trap)
            if not self.trap_real(seat, trap):
                self.emit("trap", f"{self.where(seat, slot)} springs a Trap: a decoy, and the attack goes on",
                          "kingdom traps", seat, trap)
            else:
                why = " (Egbert's Traps are always real)" if not self.cards.by_id[trap].real else ""
                self.emit("trap", f"{self.where(seat, slot)} springs a real Trap{why}: the attack of {points} "
                          f"turns back on {self.name(by)}", "kingdom traps", seat, trap, by)
                targets = attackable(self.s.realms[by])
                if not targets:
                    return False
                where = yield from self.trap_target(seat, by, [t.card for t in targets], points)
                tucked = yield from self.strike(seat, by, where, points, tuck, reversed_=True)
                return tucked
        top = slot.top()
        realm = self.s.realms[seat]
        need = strength(self.cards, realm, top, self.damage_adds_up())
        if points >= need:
            self.emit("destroy", f"{points} damage destroys {self.possessive(seat)} {self.standing_name(seat, top)}"
                      + (f" (it needed {need})" if need != points else ""), "kingdom attack", seat, top, points)
            self.destroy(seat, top)
            return False
        slot.damage[top] = slot.damage.get(top, 0) + points
        adds = f"; damage so far {slot.damage[top]}" if self.damage_adds_up() else ""
        self.emit("damage", f"{points} damage to {self.possessive(seat)} {self.standing_name(seat, top)} (defence "
                  f"{need}): not enough, the attack is tucked under it{adds}",
                  "KD-6" if self.damage_adds_up() and slot.damage[top] > points else "kingdom attack", seat, top, points)
        if tuck is not None:
            self.s.in_play.remove(tuck)
            slot.tucked.setdefault(top, []).append(tuck)
            return True
        return False

    def destroy(self, seat: int, cid: str) -> None:
        """Remove a destroyed card and what is tucked under it; a destroyed Land goes with its
        Trap; a destroyed seat is the kingdom's fall."""
        realm = self.s.realms[seat]
        slot = slot_of(realm, cid)
        assert slot is not None
        gone = [cid, *slot.tucked.pop(cid, [])]
        slot.damage.pop(cid, None)
        if cid in slot.defences:
            slot.defences.remove(cid)
            self.to_discard(*gone)
            return
        if slot.trap:
            gone.append(slot.trap)
        self.to_discard(*gone)
        if slot is realm.slots[0]:
            realm.slots = []
            self.fall(seat)
        else:
            realm.slots.remove(slot)

    def fall(self, seat: int) -> None:
        """The seat has fallen ("Gameplay"): the kingdom is out (its cards discarded, KD-27), or
        restarts from the survival set."""
        realm, s = self.s.realms[seat], self.s
        self.to_discard(*realm.mercy, *realm.hand, *realm.pending, *([realm.frozen] if realm.frozen else []))
        realm.mercy, realm.hand, realm.pending, realm.frozen, realm.famine = [], [], [], None, False
        if s.survival and not realm.survived:  # KD-26: one survival set, once
            village = next(c for c in s.survival if self.cards.by_id[c].key == "village")
            land = next(c for c in s.survival if self.cards.by_id[c].key == "land")
            realm.slots = [Slot(village), Slot(land)]
            realm.hand = [c for c in s.survival if self.cards.by_id[c].key == "mercenaries"]
            s.survival = []
            realm.survived = True
            self.emit("survival", f"{self.possessive(seat, capital=True)} Castle falls: survival, the kingdom restarts with a "
                      "Village and a Land, and two Mercenaries in hand", "kingdom survival", seat)
            return
        realm.out = True
        self.emit("out", f"{self.possessive(seat, capital=True)} {'Village' if realm.survived else 'Castle'} falls: "
                  f"{self.name(seat)} is out of the game", "kingdom gameplay", seat)
        self.check_fallen(seat)

    def check_fallen(self, seat: int) -> None:
        """Raise :class:`Fallen` when the fall of ``seat`` ends the game."""
        if len(self.standing_seats()) <= 1:
            raise Fallen()

    def trap_target(self, owner: int, victim: int, slots: list[str], points: int) -> Proc:
        """The Trap's owner chooses where the turned-back attack lands ("Traps")."""
        if len(slots) == 1:
            return slots[0]
        code = yield from self.ask(owner, f"your real Trap turns {points} damage back on {self.name(victim)}: where?",
                                   [("at", victim, c) for c in slots], "target")
        return code[2]

    # -- out of turn -------------------------------------------------------------

    def starved(self, k: int) -> bool:
        """Famine holds ``k`` back from Deny, Gold, Mercy and Sabotage (KD-17): "on another
        player's turn, until it has come round to your turn again"; on its own turn too in solo
        ("they cannot play any Deny, Gold, Sabotage or Mercy cards in that round") and with
        option ``famine_own_turn`` (revision 2)."""
        return self.s.realms[k].famine and (k != self.s.current or bool(self.opts.get("famine_own_turn", True)))

    def answer_cards(self, seat: int, card: str | None, counter: bool = False) -> list[str]:
        """The cards ``seat`` could play out of turn against ``card`` (None: a Penalty's
        cancelling): Deny, Mercy (hand or beside the Castle), Gold, Sabotage against a
        mechanical attack. ``counter``: against an answer (a Gold), only Deny and Mercy."""
        r = self.s.realms[seat]
        if r.out or self.starved(seat):
            return []
        out = []
        for cid in [*r.hand, *r.mercy]:
            key = self.cards.by_id[cid].key
            if key in ("deny", "mercy"):
                out.append(cid)
            elif key == "gold" and card is not None and not counter:
                out.append(cid)
            elif key == "sabotage" and card is not None and not counter and self.cards.by_id[card].has("mechanical") \
                    and self.cards.by_id[card].type in ("attack", "mercenaries"):
                out.append(cid)
        return out

    def could_hold(self, seat: int) -> bool:
        """Whether ``seat`` is asked a question that only a card in its hand could answer (Morale or
        Spread in an attack, Deny or Mercy against a Penalty, Mercy against a Freeze) although it
        may hold none: whenever it has a hand, so the question tells nobody what the hand holds
        (KD-30; option ``always_ask``, off in revision 1 and in solo, where nothing is hidden)."""
        return bool(self.opts.get("always_ask", False)) and bool(self.s.realms[seat].hand)

    def may_answer(self, seat: int) -> bool:
        """Whether ``seat`` is asked in a window: what everyone can see (not out, no Famine, a hand
        or a Mercy beside its Castle), never what it holds (KD-11)."""
        r = self.s.realms[seat]
        return not r.out and not self.starved(seat) and bool(r.hand or r.mercy)

    def window(self, player: int, card: str, against: Iterable[int], what: str) -> Proc:
        """``card`` is played by ``player`` against ``against``: each of them in turn may answer
        it out of turn ("Action (blue) cards"). Returns ("played",), ("blocked", seat) or
        ("bought", seat): a Gold bought it, and Gold has gone to ``player`` (or away)."""
        c = self.cards.by_id[card]
        if c.key == "dawn-raid" and self.opts.get("dawn_raid_unanswerable", True):  # KD-14: revision 2's rule
            self.emit("window", "Dawn Raid cannot be answered out of turn", "KD-14", player)
            return ("played",)
        targets = set(against)
        while True:  # round the kingdoms until all decline in a row (a blocked Gold starts a new round)
            countered = False
            for seat in self.order_from(player):
                if seat not in targets or seat == player or not self.may_answer(seat):
                    continue
                answer = yield from self.answer(seat, player, card, what)
                if answer is None:
                    continue
                key = self.cards.by_id[answer].key
                self.take(seat, answer)
                self.s.in_play.append(answer)
                if key != "gold":
                    self.s.in_play.remove(answer)
                    self.to_discard(answer)
                    verb = "blocks" if key != "sabotage" else "sabotages"
                    self.emit("answer", f"{self.name(seat)} plays {self.cards.by_id[answer].name} out of turn and {verb} "
                              f"{self.label(card)}", "kingdom notes.deny" if key == "deny" else f"kingdom notes.{key}",
                              seat, answer, card)
                    return ("blocked", seat)
                self.emit("answer", f"{self.name(seat)} plays Gold out of turn to buy {self.label(card)}",
                          "kingdom notes.gold", seat, answer, card)
                counter = None
                if self.opts.get("gold_counterable", True):  # KD-13: by default a Gold, like a Deny, stands
                    counter = yield from self.counter_gold(player, seat, answer)
                self.s.in_play.remove(answer)
                if counter is not None:
                    self.take(player, counter)
                    self.to_discard(counter, answer)
                    self.emit("answer", f"{self.name(player)} blocks the Gold with {self.cards.by_id[counter].name}: "
                              f"{self.label(card)} goes on", "KD-13", player, counter)
                    countered = True
                    continue
                self.s.gold_uses += 1
                if self.s.gold_uses >= GOLD_USES:
                    self.to_discard(answer)
                    self.emit("gold", f"Gold has been used {GOLD_USES} times: it is discarded", "kingdom notes.gold",
                              answer)
                else:
                    self.gold_to(player, answer)
                    self.emit("gold", f"Gold goes to {self.name(player)} (used {self.s.gold_uses} of {GOLD_USES} times)",
                              "kingdom notes.gold", player, answer)
                return ("bought", seat)
            if not countered:
                return ("played",)

    def gold_to(self, seat: int, gold: str) -> None:
        self.s.realms[seat].hand.append(gold)

    def answer(self, seat: int, player: int, card: str, what: str) -> Proc:
        """``seat``'s out-of-turn answer to ``card`` (a card id), or None. Asked even when only
        "pass" fits, so the prompts never tell who holds what (KD-11)."""
        cards = self.answer_cards(seat, card)
        options: list[Code] = [(self.cards.by_id[c].key, c) for c in cards] + [("pass",)]
        code = yield from self.ask(seat, f"{self.name(player)} plays {self.cards.by_id[card].name} {what}: "
                                   "answer out of turn?", options, "respond")
        return None if code[0] == "pass" else code[1]

    def counter_gold(self, player: int, buyer: int, gold: str) -> Proc:
        """The player whose card is being bought may block the Gold with Deny or Mercy (KD-13,
        option ``gold_counterable``, revision 2)."""
        if not self.may_answer(player):
            return None
        cards = self.answer_cards(player, gold, counter=True)
        options: list[Code] = [(self.cards.by_id[c].key, c) for c in cards] + [("pass",)]
        code = yield from self.ask(player, f"{self.name(buyer)} plays Gold to buy your card: block it?",
                                   options, "respond")
        return None if code[0] == "pass" else code[1]

    # -- the end ------------------------------------------------------------------

    def strongest(self, seats: list[int]) -> tuple[int, ...]:
        """The standing kingdom with the most defence points; a tie goes to the higher Noble."""
        scores = self.scores()
        return tuple(sorted(seats, key=lambda k: (scores[k], self.noble_number(k)), reverse=True)[:1])

    def _result(self, why: str, rule: str) -> Result:
        alive = self.standing_seats()
        winners = self.strongest(alive)
        return Result(winners, why, rule, self.scores())

    def _finish(self, result: Result) -> None:
        super()._finish(result)
        self.to_discard(*self.s.in_play)  # a play cut short by the end (the last Castle fell)
        self.s.in_play = []
        scores = result.scores
        table = ", ".join(f"{self.name(k)} {scores[k]}" for k in self.standing_seats()) if scores else ""
        winner = self.name(result.winners[0]) if result.winners else "nobody"
        self.emit("end", f"Game over: {winner} wins ({result.reason}; defence points: {table})", result.rule,
                  *result.winners)

    # -- what a seat may see, and how options read --------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator; TABLE: the full table, every hand, Trap and deck)."""
        from core.kingdom.view import table_view

        return table_view(self, seat)

    def public_words(self, code: Code) -> str | None:
        """A Trap set face down: the others read where, never which Trap (KD-29). Every other
        choice is public: a card played from a hand is face up once played."""
        card = self.cards.by_id.get(str(code[1])) if code[0] == "place" and len(code) == 3 else None
        if card is None or card.type != "trap":
            return None
        where = str(code[2])
        k = next((k for k, r in enumerate(self.s.realms) if slot_of(r, where) is not None), self.s.current)
        return f"a Trap face down under {self.where(k, self.find_slot(k, where))}"

    def warning(self, code: Code) -> str | None:
        """Ending a turn with plays left, or discarding the solo card of the round unplayed: asked
        once, as neither can be taken back."""
        point, code = self.point(), tuple(code)
        if not isinstance(point, Decision) or code not in point.options:
            return None
        if code == ("done",) and self.s.plays > 0:
            return f"End your turn with {plural(self.s.plays, 'play')} left?"
        if code[0] == "discard" and len(point.options) > 1:
            return f"Discard {self.label(str(code[1]))} without playing it?"
        return None

    def describe(self, code: Code) -> str:
        from core.kingdom.words import describe

        return describe(self, code)

    def parse(self, text: str) -> Code:
        from core.kingdom.words import parse

        return parse(self, text)
