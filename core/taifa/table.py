"""The Taifa table's elementary operations, shared by every procedure.

Procedures (an attack, an event, a bot's round) are generators run by
:class:`core.procedure.ProcedureGame`, which also gives them ``ask``, ``roll``,
``pick`` and ``emit``. This module holds what every Taifa rule uses besides:
drawing and discarding, the Card Bonus, borders and truces, the dice of a
fight, and the bots' target dice (9.5).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.engine import Chance
from core.procedure import Proc, ProcedureGame
from core.taifa.cards import Card, Decks
from core.taifa.map import KINGDOM_NAMES, TaifaMap
from core.taifa.state import BONUS_MAX, BONUS_MIN, INDEPENDENT, TaifaState


def dice_word(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def agree(subject: str, verb: str) -> str:
    """The present-tense ``verb`` (given for a singular subject) agreeing with ``subject``:
    the Catalan Counties and the Almoravids are plural."""
    if not subject.endswith("s"):
        return verb
    irregular = {"has": "have", "is": "are", "was": "were"}
    if verb in irregular:
        return irregular[verb]
    return verb[:-2] if verb.endswith(("sses", "shes", "ches", "xes")) else verb[:-1] if verb.endswith("s") else verb


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def forbidden_words(actions: Iterable[str]) -> str:
    """A truce's forbidden actions as a verb phrase: attack, raid (incursion)."""
    return " or ".join({"incursion": "raid"}.get(a, a) for a in actions)


def hits(dice: Iterable[int]) -> int:
    """Dice that hit: 4, 5 or 6 (2.3)."""
    return sum(1 for d in dice if d >= 4)


def qualities(c: Card) -> tuple[str, ...]:
    """What a card's face shows besides its name that tells copies apart: strength, Offensive (9.3)."""
    return ((str(c.strength),) if c.strength else ()) + (("offensive",) if c.offensive else ())


def card_words(c: Card) -> str:
    """``Mesnada (3)``, ``Cavalry Charge (offensive)``, ``Champion``: a card without its id."""
    q = qualities(c)
    return f"{c.name} ({', '.join(q)})" if q else c.name


_DOES: dict[tuple[str, ...], dict[tuple[int, str], str]] = {}  # Table.does, by the game's kingdoms
_KEPT = 4096  # positions kept worked out (Table._front, neighbours, leaders): an AI's search meets many
Near = dict[tuple[int, tuple[int, ...]], tuple[int, ...]]  # neighbours(k), by (k, every area's owner)
Fronts = dict[tuple[int, tuple[int, ...]], "tuple[int, ...] | None"]  # Table._front(k), the same way
_LAYOUT_TABLES: dict[int, tuple[TaifaMap, Near, Fronts]] = {}  # by id(map): see _layout_tables


def _layout_tables(m: TaifaMap) -> tuple[Near, Fronts]:
    """What follows from who holds which area alone, by (kingdom, every area's owner), on map ``m``:
    the bots ask at most rounds, and castles change hands far less often. Keyed by the owners
    themselves, as rules and set positions change ``s.owner`` in place; shared by every game on
    the map (each begins where the others did) and their clones."""
    kept = _LAYOUT_TABLES.get(id(m))
    if kept is None or kept[0] is not m:
        kept = m, {}, {}
        if len(_LAYOUT_TABLES) >= 8:  # a user's own maps come and go: keep a few
            _LAYOUT_TABLES.clear()
        _LAYOUT_TABLES[id(m)] = kept
    return kept[1], kept[2]

_CARD_TABLES: dict[int, tuple[Decks, dict[str, Card], dict[str, str]]] = {}  # by id(decks): see _card_tables


def _card_tables(decks: Decks) -> tuple[dict[str, Card], dict[str, str]]:
    """Every card of ``decks`` by id, and its words (:func:`card_words`): made once for the decks
    and shared, read-only, by every game played with them (a batch builds a game per record)."""
    kept = _CARD_TABLES.get(id(decks))
    if kept is None or kept[0] is not decks:
        cards = {c.id: c for d in decks for c in d}
        kept = decks, cards, {cid: card_words(c) for cid, c in cards.items()}
        if len(_CARD_TABLES) >= 8:  # a user's own decks come and go: keep a few
            _CARD_TABLES.clear()
        _CARD_TABLES[id(decks)] = kept
    return kept[1], kept[2]


class Table(ProcedureGame):
    """State plus the map and decks, and the operations every rule uses (TaifaGame adds the units)."""

    s: TaifaState
    m: TaifaMap
    decks: Decks
    opts: dict[str, Any]  # the rule options, complete (TaifaGame sets them; core/taifa/__init__.py)

    def __init__(self, state: TaifaState, taifa_map: TaifaMap, decks: Decks) -> None:
        super().__init__(state)
        self.m, self.decks = taifa_map, decks
        self._cards, self._words = _card_tables(decks)
        # Pure and asked for at every event: worded once a game (clones share them; the kingdoms
        # never change). The ``does`` cache only grows, by the few verbs the rules use, and is
        # shared by every game of the same kingdoms.
        self._names = {INDEPENDENT: "independent", **{k: KINGDOM_NAMES[key] for k, key in enumerate(state.kingdoms)}}
        self._does = _DOES.setdefault(state.kingdoms, {})
        self._rings: dict[int, tuple[int, ...]] = {}  # others(k), clockwise from k
        self._near, self._fronts = _layout_tables(taifa_map)
        self._leads: dict[tuple[int, ...], frozenset[int]] = {}  # leaders(), by the owners alone
        self.invasion_routes = tuple(a.id for a in taifa_map.areas if a.invasion)  # 2.5, 9.6
        self._borders = (), *(a.borders for a in taifa_map.areas)  # by area id (0 unused)
        self._printed = 0, *(a.defence for a in taifa_map.areas)  # each area's printed defence, by id

    # -- naming and events -----------------------------------------------------

    def card(self, cid: str) -> Card:
        return self._cards[cid]

    def label(self, cid: str, among: Iterable[str] = ()) -> str:
        """A card as people read it: its name and what its face shows besides (a Troop's strength,
        the Offensive symbol), ``Mesnada (3)``, ``Cavalry Charge (offensive)``; its id only when a
        card of ``among`` reads the same, ``Mesnada (C05, 3)`` (card ids are not names)."""
        words = self._words[cid]
        if among == ():
            return words
        if any(other != cid and self._words[other] == words for other in among):
            c = self._cards[cid]
            return f"{c.name} ({', '.join((cid, *qualities(c)))})"
        return words

    def name(self, k: int) -> str:
        try:
            return self._names[k]
        except KeyError:  # no kingdom of this game (an index from the end, as a list reads it)
            return KINGDOM_NAMES[self.s.kingdoms[k]]

    def does(self, k: int, verb: str) -> str:
        """``Castile draws`` but ``Catalan Counties draw``: the kingdom with its verb agreeing."""
        try:
            return self._does[k, verb]
        except KeyError:
            name = self.name(k)
            said = self._does[k, verb] = f"{name} {agree(name, verb)}"
            return said

    def area_name(self, a: int) -> str:
        return self.m.areas[a - 1].name

    # -- cards -------------------------------------------------------------------

    def deck_of(self, cid: str) -> str:
        return self._cards[cid].deck

    def hand_seen(self, k: int) -> frozenset[int]:
        """Who may see ``k``'s hand: its player; nobody at the table for a bot's face-down pile
        (9.1; TA-37, TA-38)."""
        return frozenset() if self.s.bots[k] else frozenset((k,))

    def to_discard(self, cid: str) -> None:
        self.s.discard[self.deck_of(cid)].append(cid)

    def take_from_hand(self, k: int, cid: str) -> None:
        self.s.hands[k].remove(cid)

    def draw_cards(self, k: int, n: int, *, on_top: bool = False) -> Proc:
        """``k`` draws ``n`` cards from its deck; a bot's go face down on top of its pile (9.1).

        An empty draw pile is refilled by shuffling the discards (TA-17); with
        none left either, the draw stops short.
        """
        deck = self.s.decks[k]
        got: list[str] = []
        for _ in range(n):
            if not self.s.draw[deck]:
                yield from self.reshuffle(deck, self.s.discard[deck], "the draw pile ran out", "TA-17")
                self.s.discard[deck] = []
                if not self.s.draw[deck]:
                    self.emit("draw", f"{self.name(k)} cannot draw: the {deck} deck is used up", "TA-17", k, 0)
                    break
            got.append(self.s.draw[deck].pop())
        if on_top:
            self.s.hands[k][:0] = got[::-1]
        else:
            self.s.hands[k].extend(got)
        if got and self.telling:
            said = f"{self.does(k, 'draws')} {len(got)} card{'s' if len(got) != 1 else ''}"
            words = self._words  # each card alone: label(c)
            cards = ", ".join([words[c] for c in got])
            self.emit("draw", f"{said}: {cards}", "taifa 7", k, len(got), seen=self.hand_seen(k), public=said)

    def reshuffle(self, deck: str, cards: list[str], why: str, rule: str) -> Proc:
        """Shuffle ``cards`` (with the draw pile) into a new draw pile: a Chance point."""
        pool = sorted(self.s.draw[deck] + cards)
        if not pool:
            self.s.draw[deck] = []
            return
        perm = yield from self.shuffle(len(pool), f"shuffle the {deck} deck")
        self.s.draw[deck] = [pool[i] for i in perm]
        self.emit("shuffle", f"The {deck} deck is shuffled ({len(pool)} cards): {why}", rule, deck, len(pool))

    # -- Card Bonus --------------------------------------------------------------

    def move_bonus(self, k: int, n: int, rule: str) -> None:
        """Move ``k``'s Card Bonus by ``n``; steps past -2..+2 are ignored (7)."""
        if k == INDEPENDENT or n == 0:
            return
        before = self.s.bonus[k]
        after = max(BONUS_MIN, min(BONUS_MAX, before + n))
        self.s.bonus[k] = after
        if not self.telling:
            return
        note = "" if after - before == n else " (the track ends there, 7)"
        self.emit("bonus", f"{possessive(self.name(k))} Card Bonus {before:+d} -> {after:+d}{note}", rule, k, after)

    # -- the map -----------------------------------------------------------------

    def forbidden(self, actor: int, against: int, action: str) -> bool:
        """A truce in force forbids ``actor`` to ``action`` against ``against`` (5.4, 10.2; TA-15)."""
        truces = self.s.truces
        return bool(truces) and any(p == against and b == actor and action in f for p, b, f in truces)

    def attackable(self, k: int, truces: bool = True) -> list[int]:
        """Areas ``k`` may attack (5.1 step 1): bordering, not its own, no truce against it (with
        ``truces=False``: truce or not); only its capital while it holds no area."""
        s = self.s
        front = self._front(k)
        if front is None:
            front = (s.capitals[k],)
        if not (truces and s.truces):  # with none in force, the test is skipped
            return list(front)
        owner, forbidden = s.owner, self.forbidden
        return [b for b in front if (o := owner[b]) == INDEPENDENT or not forbidden(k, o, "attack")]

    def _front(self, k: int) -> tuple[int, ...] | None:
        """The areas bordering ``k``'s, not its own and in play, by id; None while it holds none."""
        owner = self.s.owner
        key = k, tuple(owner)
        try:
            return self._fronts[key]
        except KeyError:
            pass
        borders = self._borders
        own = self.s.areas_of(k)
        front = tuple(sorted({b for a in own for b in borders[a] if (o := owner[b]) != k and o >= INDEPENDENT})) \
            if own else None
        if len(self._fronts) >= _KEPT:
            self._fronts.clear()
        self._fronts[key] = front
        return front

    def neighbours(self, k: int) -> list[int]:
        """Kingdoms with an area bordering one of ``k``'s (5.3), in play order."""
        owner = self.s.owner
        key = k, tuple(owner)
        near = self._near.get(key)
        if near is None:
            borders = self._borders
            near = tuple(sorted({o for a in self.s.areas_of(k) for b in borders[a] if (o := owner[b]) >= 0 and o != k}))
            if len(self._near) >= _KEPT:
                self._near.clear()
            self._near[key] = near
        return list(near)

    def leaders(self) -> frozenset[int]:
        """The kingdoms with the most castles (8; ties lead together)."""
        key = tuple(self.s.owner)
        lead = self._leads.get(key)
        if lead is None:
            castles = list(map(key.count, range(len(self.s.kingdoms))))  # each one's (TaifaState.castles)
            most = max(castles)
            lead = frozenset(x for x, n in enumerate(castles) if n == most)
            if len(self._leads) >= _KEPT:
                self._leads.clear()
            self._leads[key] = lead
        return lead

    def defence(self, a: int) -> int:
        """An area's defence counting its garrison, as a bot reckons it (9.2)."""
        return self._printed[a] + (1 if self.s.garrison[a] else 0)

    def others(self, k: int) -> list[int]:
        """The other kingdoms, clockwise (in play order) from ``k``."""
        ring = self._rings.get(k)
        if ring is None:
            n = len(self.s.kingdoms)
            ring = self._rings[k] = tuple((k + i) % n for i in range(1, n)) if k >= 0 else tuple(range(n))
        return list(ring)

    # -- dice --------------------------------------------------------------------

    def roll_d6(self, n: int, label: str) -> Proc:
        """Roll ``n`` dice (2.3; none when n is 0) and show them as the table's last throw."""
        if n <= 0:  # as ProcedureGame.roll, a generator fewer to pass the dice through
            return ()
        dice = yield Chance("dice", (n, 6), label)
        self.s.last_dice = (label, dice)
        return dice

    # -- the bots' target dice (9.5) -------------------------------------------

    def bot_die(self, k: int, why: str) -> Proc:
        """The die a bot throws to choose (9.5); not shown as the table's last throw."""
        return self.roll(1, 6, f"{self.does(k, 'chooses')} {why}" + ("" if "(9." in why else " (9.5)"))

    def bot_area(self, k: int, candidates: list[int], why: str) -> Proc:
        """A bot's pick among areas: one die, 1-3 the lowest id, 4-6 the highest (9.5)."""
        if len(candidates) == 1:
            return candidates[0]
        (die,) = yield from self.bot_die(k, why)
        pick = min(candidates) if die <= 3 else max(candidates)
        if self.telling:
            self.emit("choice", f"{self.does(k, 'rolls')} {die} for {why}: {'lowest' if die <= 3 else 'highest'} id, "
                      f"{self.area_name(pick)} ({pick})", "taifa 9.5", k, die, pick)
        return pick

    def bot_kingdom(self, k: int, candidates: list[int], why: str) -> Proc:
        """A bot's pick among kingdoms: 1-3 the first counter-clockwise, 4-6 the first clockwise (9.5)."""
        if len(candidates) == 1:
            return candidates[0]
        (die,) = yield from self.bot_die(k, why)
        ring = self.others(k)  # clockwise
        pick = next(o for o in (ring if die >= 4 else ring[::-1]) if o in candidates)
        if self.telling:
            self.emit("choice", f"{self.does(k, 'rolls')} {die} for {why}: first "
                      f"{'clockwise' if die >= 4 else 'counter-clockwise'}, {self.name(pick)}", "taifa 9.5", k, die, pick)
        return pick
