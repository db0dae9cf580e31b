"""Multiplayer Take the Kingdom (take-the-kingdom.txt, "Multiplayer Setup" and "Gameplay").

Units (core/procedure.py): ``("setup",)`` (Nobles, the kingdom-building draft, Mercy,
the Nobles' starting cards, the shuffle and the first hands), then ``("turn", seat)``
for each turn. The game ends when one kingdom stands, or when the deck is spent and
every kingdom in a row has played no card (KD-12).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from core.engine import Code, Result, RulesError
from core.kingdom.cards import CardSet
from core.kingdom.draft import Kingdom, Pool, completable, pool_of
from core.kingdom.lines import DRAFT_KEYS, has_land, places, score
from core.kingdom.plays import perform, play_options
from core.kingdom.state import MAX_DEFENCES, MAX_LANDS, KingdomState, Realm, Slot
from core.kingdom.table import Fallen, Table, plural
from core.procedure import GameEnded, Proc, Unit

HAND, SIMON_HAND, SURVIVAL_HAND = 5, 6, 4  # "Gameplay", "Characters", "Survival mode"
PLAYS = 3  # "Gameplay": up to three cards a turn
START_POINTS = 12  # "Kingdom building phase": 12 points including the Castle
NOBLE_KEYS = ("charles", "simon", "egbert", "maria", "baligant", "anne")
_DRAFT_ORDER = tuple(sorted(DRAFT_KEYS))  # the draft's options, key by key


@lru_cache(maxsize=1)
def option_specs() -> tuple[Any, ...]:
    """The options (frozen, so made once: every game built reads them)."""
    from core.games import OptionSpec

    return (
        OptionSpec("nobles", "choice", "choose", "KD-2", "Nobles chosen in seat order, or dealt at random",
                   choices=("choose", "deal")),
        OptionSpec("draft_may_fall_short", "bool", False, "KD-4",
                   "the draft offers any card that fits, even one that leaves a kingdom short of 12 points "
                   "or Egbert's Village without room (revision 3)"),
        OptionSpec("survival", "bool", False, "kingdom survival",
                   "survival mode: the first kingdom to lose its Castle restarts from the survival set"),
        OptionSpec("damage_adds_up", "bool", True, "KD-6",
                   "damage tucked under a card adds up with later attacks (off: each attack stands alone)"),
        OptionSpec("damage_lowers_score", "bool", False, "KD-6",
                   "damage tucked under a card lowers the kingdom's defence points (revision 3)"),
        OptionSpec("gold_counterable", "bool", False, "KD-13",
                   "the player whose card a Gold buys may block the Gold with Deny or Mercy (revision 2)"),
        OptionSpec("deny_blocks_spread", "bool", False, "KD-11",
                   "one target's Deny blocks a whole Spread attack, its shares on other kingdoms too (revision 2)"),
        OptionSpec("dawn_raid_unanswerable", "bool", False, "KD-14",
                   "Dawn Raid cannot be answered out of turn (revision 2)"),
        OptionSpec("reversal_springs_no_trap", "bool", False, "KD-8",
                   "an attack turned back by a real Trap springs no Trap of the attacker's (revision 2)"),
        OptionSpec("always_ask", "bool", True, "KD-30",
                   "Morale or Spread in an attack, cancelling a Penalty and removing a Freeze are asked whenever "
                   "the hand could hold the card (off: only when it does, which tells the others; revision 1)"),
        OptionSpec("famine_own_turn", "bool", False, "KD-17",
                   "Famine also forbids Deny, Gold, Mercy and Sabotage on the turn it strikes (revision 2)"),
        OptionSpec("pass_round_ends", "bool", False, "KD-12",
                   "a round in which no card is played ends the game even while the deck has cards (revision 2)"),
    )


@lru_cache(maxsize=8)
def _draft_kinds(cards: CardSet) -> dict[str, tuple[bool, int]]:
    """Each draft card's kind for the search (core/kingdom/draft.py): whether a Land, and its value."""
    return {c.id: (c.key == "land", c.value) for c in cards.cards if c.key in DRAFT_KEYS}


@lru_cache(maxsize=1 << 14)
def _stays_completable(states: tuple[tuple[int, Kingdom], ...], pool: Pool, seat: int, keep_room: int | None,
                       land: bool, value: int) -> bool:
    """Whether every kingdom still drafting (``states``: seat and reckoning) can reach 12 after
    ``seat`` takes a card of this kind from ``pool``, Egbert's (``keep_room``) keeping a slot;
    the same positions come up game after game, so the answers are kept."""
    after = dict(states)
    need, lands, slots = after[seat]
    after[seat] = (need - value, lands - land, slots + (MAX_DEFENCES if land else -1))
    if keep_room is not None:
        need, lands, slots = after[keep_room]
        after[keep_room] = (need, lands, slots - 1)
    i = next(i for i, (is_land, v, _) in enumerate(pool) if is_land == land and v == value)
    left = (*pool[:i], (land, value, pool[i][2] - 1), *pool[i + 1:])
    return completable(tuple(after.values()), left)


class KingdomGame(Table):
    """The multiplayer game for 2 to 4 players (KD-1)."""

    def __init__(self, variant: str, options: dict[str, Any], cards: CardSet) -> None:
        players = int(variant.removeprefix("multi-"))
        self.variant = variant
        specs = {s.name: s for s in option_specs()}
        unknown = set(options) - set(specs)
        if unknown:
            raise RulesError(f"unknown kingdom option {sorted(unknown)[0]!r} (known: {', '.join(specs)})")
        self.opts = {n: specs[n].coerce(options[n]) if n in options else sp.default for n, sp in specs.items()}
        self.seats = tuple(f"Player {i + 1}" for i in range(players))
        state = KingdomState(realms=[Realm(None) for _ in range(players)], deck=[])
        super().__init__(state, cards)
        self._draft_kinds = _draft_kinds(cards)  # shared with clones: never changed
        self._start(("setup",))

    @property
    def bot_seats(self) -> frozenset[int]:
        return frozenset()

    # -- units --------------------------------------------------------------------

    def _unit_proc(self, unit: Unit) -> Proc:
        return self._setup() if unit[0] == "setup" else self._turn(unit[1])

    def _next_unit(self, returned: Any) -> Unit | None:
        s = self.s
        if self.result is not None:
            return None
        if self._unit[0] == "setup":
            first = max(range(len(s.realms)), key=self.noble_number)
            self.emit("first", f"{self.name(first)} has the highest Noble and plays first", "kingdom characters", first)
            return ("turn", first)
        k = self._unit[1]
        alive = self.standing_seats()
        if s.extra and k in alive:
            return ("turn", k)
        if s.idle >= len(alive):
            why = ("the deck is spent" if not s.deck else "no kingdom can draw" if self.opts["pass_round_ends"]
                   else "no kingdom can play a card")
            self._finish(self._result(f"{why} and no more cards are played: the strongest kingdom wins", "KD-12"))
            return None
        nxt = next(o for o in self.order_from(k) if o in alive)
        return ("turn", nxt)

    def _ended(self, end: GameEnded) -> Result:
        assert isinstance(end, Fallen)
        return self._result("the last kingdom standing", "kingdom gameplay")

    # -- setup --------------------------------------------------------------------

    def _setup(self) -> Proc:
        s, cards = self.s, self.cards
        n = len(s.realms)
        nobles = [c.id for c in cards.cards if c.type == "noble"]
        if self.opts["nobles"] == "deal":
            perm = yield from self.shuffle(len(nobles), "the Nobles are dealt")
            dealt = [nobles[i] for i in perm]
            for k in range(n):
                s.realms[k].noble = dealt[k]
                self.emit("noble", f"{self.seats[k]} is {cards[dealt[k]].name} ({cards[dealt[k]].value})",
                          "kingdom characters", k, dealt[k])
        else:
            for k in range(n):
                left = [c for c in nobles if all(r.noble != c for r in s.realms)]
                code = yield from self.ask(k, "choose your Noble", [("noble", c) for c in left], "choose")
                s.realms[k].noble = code[1]
                self.emit("noble", f"{self.seats[k]} chooses {cards[code[1]].name} ({cards[code[1]].value})",
                          "kingdom characters", k, code[1])
        s.box += [c for c in nobles if all(r.noble != c for r in s.realms)]
        castles = [c.id for c in cards.cards if c.key == "castle"]
        for k in range(n):
            s.realms[k].slots = [Slot(castles[k])]
        s.box += castles[n:]
        setup_mercy = [c.id for c in cards.cards if c.key == "mercy" and not c.solo]
        for k in range(n):
            s.realms[k].mercy = [setup_mercy[k]]
        s.box += setup_mercy[n:]
        taken = {c for r in s.realms for c in [r.noble, *r.mercy, r.slots[0].card]} | set(s.box)
        rest = [c.id for c in cards.cards if c.id not in taken]
        if self.opts["survival"]:
            for key, value in (("village", None), ("land", None), ("mercenaries", 1), ("mercenaries", 2)):
                cid = next(c for c in rest if cards[c].key == key and (value is None or cards[c].value == value))
                rest.remove(cid)
                s.survival.append(cid)
            self.emit("survival", "Survival mode: a Village, a Land and two Mercenaries (1 and 2) are set aside",
                      "KD-26")
        s.pool = [c for c in rest if cards[c].key in DRAFT_KEYS]
        rest = [c for c in rest if c not in s.pool]
        village_for = next((k for k in range(n) if self.noble_key(k) == "egbert"), None)
        keep_room = village_for if any(cards[c].key == "village" for c in rest) else None
        yield from self._draft(keep_room)
        rest += s.pool
        s.pool = []
        for k in range(n):
            key = self.noble_key(k)
            if key == "egbert":
                village = next((c for c in rest if cards[c].key == "village"), None)
                if village:
                    rest.remove(village)
                    wheres = places(cards, s.realms[k], village)
                    if not wheres:  # KD-5: no room left by the draft: it starts in his hand
                        s.realms[k].hand.append(village)
                        self.emit("place", f"{self.name(k)} has no room for his Village: it starts in his hand",
                                  "KD-5", k, village)
                        continue
                    s.in_play.append(village)
                    code = yield from self.ask(k, "Egbert's Village: where does it go?",
                                               [("place", village, w) for w in wheres], "target")
                    s.in_play.remove(village)
                    self.find_slot(k, code[2]).defences.append(village)
                    self.emit("place", f"{self.name(k)} starts with a Village (+{cards[village].value}) on "
                              f"{self.where(k, self.find_slot(k, code[2]))}", "kingdom characters", k, village)
            for start_key, who in (("gold", "charles"), ("dawn-raid", "anne")):
                if key == who:
                    held = next((c for c in rest if cards[c].key == start_key), None)
                    if held:
                        rest.remove(held)
                        s.realms[k].hand.append(held)
                        self.emit("noble", f"{self.name(k)} starts with {cards[held].name} in hand",
                                  "kingdom characters", k, held)
        perm = yield from self.shuffle(len(rest), "the deck is shuffled")
        s.deck = [rest[i] for i in perm]
        self.emit("shuffle", f"The other {len(rest)} cards are shuffled into the deck", "kingdom setup")
        for k in range(n):  # KD-10: the starting hands
            self.top_up(k)

    def _draft(self, keep_room: int | None) -> Proc:
        """Seat order from Player 1 (KD-3), one face-up Defend card at a time, until each
        kingdom has 12 points with its Castle; a card never takes it past 12, and (unless the
        option ``draft_may_fall_short`` plays revision 3's draft) never leaves a kingdom unable
        to reach 12, nor Egbert's kingdom (``keep_room``: his seat, when a Village awaits him)
        without room for his Village (KD-4, KD-5)."""
        s, cards = self.s, self.cards
        by_id = cards.by_id
        done = [False] * len(s.realms)
        while not all(done):
            for k in range(len(s.realms)):
                if done[k]:
                    continue
                need = START_POINTS - score(cards, s.realms[k], True)
                first: dict[str, str] = {}  # the pool's first card of each key that fits (the pool: DRAFT_KEYS)
                for c in s.pool:
                    card = by_id[c]
                    if card.value <= need and card.key not in first:
                        first[card.key] = c
                opts: list[Code] = []
                for key in _DRAFT_ORDER:
                    cid = first.get(key)
                    if cid:
                        opts += [("draft", cid, w) for w in places(cards, s.realms[k], cid)]
                why = ""
                if not self.opts["draft_may_fall_short"] and opts:
                    opts, why = self._completing(k, opts, done, keep_room)
                if need <= 0 or not opts:
                    done[k] = True
                    continue
                code = yield from self.ask(k, f"build your kingdom: take a Defend card ({plural(need, 'point')} to go{why})",
                                           opts, "action")
                cid, where = code[1], code[2]
                s.pool.remove(cid)
                r = s.realms[k]
                if where == "new":
                    r.slots.append(Slot(cid))
                else:
                    self.find_slot(k, where).defences.append(cid)
                self.emit("draft", f"{self.name(k)} takes {self.label(cid)} (+{cards[cid].value}) "
                          + ("as a Land" if where == "new" else f"onto {self.where(k, self.find_slot(k, where))}"),
                          "kingdom setup", k, cid)

    def _completing(self, seat: int, opts: list[Code], done: list[bool],
                    keep_room: int | None) -> tuple[list[Code], str]:
        """The draft options after which every kingdom still drafting can reach 12 exactly and
        Egbert's keeps a slot for his Village (KD-4, KD-5; core/kingdom/draft.py), and the words
        saying which cards are left out and why. When none can (a deck of one's own short of
        cards), every option that fits, as in revision 3."""
        s, cards = self.s, self.cards
        states = []
        for k, r in enumerate(s.realms):
            if not done[k] or k == keep_room:
                slots = sum(MAX_DEFENCES - len(sl.defences) for sl in r.slots)
                states.append((k, (START_POINTS - score(cards, r, True), MAX_LANDS - len(r.lands), slots)))
        kinds = self._draft_kinds
        pool = pool_of(Counter(map(kinds.__getitem__, s.pool)))
        after_all = tuple(states)

        known: dict[tuple[bool, int, bool], bool] = {}

        def fits(cid: str, reserve: bool) -> bool:
            """Whether the draft stays completable after ``cid``: the same for every card of its kind
            and value (``known``, so the big key is hashed once a kind), and for the same kingdoms and
            pool in any game (kept by _stays_completable)."""
            land, value = kinds[cid]
            got = known.get((land, value, reserve))
            if got is None:
                got = known[land, value, reserve] = _stays_completable(after_all, pool, seat,
                                                                       keep_room if reserve else None, land, value)
            return got

        ids = {str(o[1]) for o in opts}
        out = {cid for cid in ids if not fits(cid, True)}
        if out == ids:
            return opts, ""
        short = {cards[c].name for c in out if keep_room is None or not fits(c, False)}
        village = {cards[c].name for c in out} - short
        why = "".join(f"; not {' or '.join(sorted(names))}: {reason}" for names, reason in (
            (short, "a kingdom could not make 12 (KD-4)"),
            (village, "no room would be left for Egbert's Village (KD-5)")) if names)
        return [o for o in opts if str(o[1]) not in out], why

    # -- a turn -------------------------------------------------------------------

    def hand_size(self, k: int) -> int:
        r = self.s.realms[k]
        if r.survived:
            return SURVIVAL_HAND
        return SIMON_HAND if self.noble_key(k) == "simon" and has_land(self.cards, r) else HAND

    def top_up(self, k: int) -> int:
        s, r = self.s, self.s.realms[k]
        want = self.hand_size(k)
        new = s.deck[:max(0, want - len(r.hand))]
        del s.deck[:len(new)]
        r.hand += new
        drawn = len(new)
        if drawn and self.telling:  # what is drawn only the drawer reads (KD-29); the others, how many
            told = f"{self.name(k)} draws {plural(drawn, 'card')}"
            labels = self.cards.labels
            self.emit("draw", f"{told}: {', '.join([labels[c] for c in new])} (hand of {want})",
                      "kingdom characters" if want == SIMON_HAND else "kingdom gameplay", k, drawn, *new,
                      seen=frozenset((k,)), public=f"{told} (hand of {want})")
        if not s.deck and drawn:
            self.emit("deck", "The deck is spent: play goes on with the cards in hand", "kingdom gameplay")
        return drawn

    def _turn(self, k: int) -> Proc:
        s, r = self.s, self.s.realms[k]
        s.current, s.turn = k, s.turn + 1
        again = s.extra
        s.extra, s.banned, s.plays = False, [], PLAYS
        if self.telling:  # worded only when someone reads it (core.engine.leave_events_unmade)
            self.emit("turn", f"Turn {s.turn}: {self.name(k)}" + (" (Fortune: another turn)" if again else ""),
                      "kingdom gameplay", s.turn, k)
        r.famine = False
        drew = self.top_up(k)
        for pen in list(r.pending):
            r.pending.remove(pen)
            yield from self.suffer(k, pen, "played on it by Baligant")
        if self.noble_key(k) != "baligant":
            by_id = self.cards.by_id
            for pen in [c for c in r.hand if by_id[c].type == "penalty"]:
                r.hand.remove(pen)
                yield from self.suffer(k, pen, "drawn")
        if r.frozen:
            yield from self.thaw(k)
        played = could = False
        while s.plays > 0:
            opts = play_options(self, k)
            if not could:
                could = any(o[0] != "move" for o in opts)
            if not opts:
                break
            code = yield from self.ask(k, f"play a card ({plural(s.plays, 'play')} left), or done",
                                       [*opts, ("done",)], "action")
            if code[0] == "done":
                break
            used = yield from perform(self, k, code)
            s.plays = max(0, s.plays - used)
            played = played or code[0] != "move"
        if r.frozen:
            self.to_discard(r.frozen)
            r.frozen = None
        # KD-12: a turn without a card counts towards the end; while the deck has cards, only
        # a turn in which no card could be played does (option pass_round_ends: any, revision 2)
        waived = bool(s.deck) and could and not self.opts["pass_round_ends"]
        s.idle = 0 if played or drew or waived else s.idle + 1

    def suffer(self, k: int, pen: str, how: str) -> Proc:
        """A Penalty strikes ``k`` ("Penalty (grey) cards"): one of its plays, unless a Deny or
        Mercy cancels it at the cost of another play. Asked whenever its hand could hold one, a
        Deny or Mercy it holds or not (KD-30)."""
        s, r = self.s, self.s.realms[k]
        name = self.card(pen).name
        s.plays = max(0, s.plays - 1)
        s.in_play.append(pen)
        self.emit("penalty", f"{name} strikes {self.name(k)} ({how}): one of its plays", "kingdom penalty", k, pen)
        may = s.plays >= 1 and not self.starved(k)  # KD-17: the order two Penalties strike in does not matter
        cancel = [c for c in [*r.hand, *r.mercy] if self.card(c).key in ("deny", "mercy")] if may else []
        if cancel or (may and self.could_hold(k)):  # KD-30: asked when the others cannot tell
            code = yield from self.ask(k, f"{name}: cancel it with Deny or Mercy (another play)?",
                                       [*(("cancel", c) for c in cancel), ("accept",)], "choose")
            if code[0] == "cancel":
                self.take(k, code[1])
                s.in_play.remove(pen)
                self.to_discard(code[1], pen)
                s.plays -= 1
                self.emit("penalty", f"{self.name(k)} cancels {name} with {self.card(code[1]).name}",
                          "kingdom penalty", k, code[1])
                return
        s.in_play.remove(pen)
        self.to_discard(pen)
        key = self.card(pen).key
        if key == "famine":
            r.famine = True
            self.emit("penalty", f"Famine: {self.name(k)} may not play Deny, Gold, Mercy or Sabotage until its "
                      "next turn", "kingdom penalty", k)
        elif key == "disease":
            s.banned.append("attack")
            self.emit("penalty", f"Disease: {self.name(k)} may not attack this turn", "KD-17", k)
        else:
            s.banned.append("defend")
            self.emit("penalty", f"Plague: {self.name(k)} may not place or move Defend cards this turn", "KD-17", k)

    def thaw(self, k: int) -> Proc:
        """A frozen kingdom plays nothing this turn, unless Mercy removes the Freeze (KD-15). Asked
        whenever its hand could hold a Mercy, a Mercy it holds or not (KD-30)."""
        s, r = self.s, self.s.realms[k]
        may = not self.starved(k) and s.plays > 0
        mercy = [c for c in [*r.hand, *r.mercy] if self.card(c).key == "mercy"] if may else []
        if mercy or (may and self.could_hold(k)):  # KD-30: asked when the others cannot tell
            code = yield from self.ask(k, "you are frozen: remove the Freeze with Mercy (a play)?",
                                       [*(("unfreeze", c) for c in mercy), ("accept",)], "choose")
            if code[0] == "unfreeze":
                self.take(k, code[1])
                self.to_discard(code[1], r.frozen)
                r.frozen = None
                s.plays -= 1
                self.emit("freeze", f"{self.name(k)} removes the Freeze with Mercy", "kingdom notes.mercy", k)
                return
        s.plays = 0
        self.emit("freeze", f"{self.name(k)} is frozen and plays nothing this turn", "KD-15", k)


