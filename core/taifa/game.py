"""TaifaGame: the standard game (3-8) and El Cid (10) on the engine contract.

The game runs in units (core/procedure.py): the start of a turn (draws), one
kingdom's round, the end of a turn (reshuffles, scoring). This module says
what each unit's procedure is, which unit follows which, and what a sudden
victory (8) makes of the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from core.engine import TABLE, Code, Decision, Event, Result, RulesError
from core.games import OptionSpec
from core.procedure import GameEnded, Proc, Unit
from core.taifa.bots import bot_round, quiet_round
from core.taifa.cards import Decks
from core.taifa.data import packaged_cards, packaged_map
from core.taifa.combat import SuddenVictory, attack, carries, combat_view, incursion
from core.taifa.effects import can_play, play_event
from core.taifa.map import CHRISTIAN, KINGDOM_NAMES, TaifaMap
from core.taifa.state import BONUS_MAX, CASTLES, INDEPENDENT, OUT_OF_PLAY, TURNS, TaifaState
from core.taifa.table import Table, agree, forbidden_words

from core.taifa import REVISION_1, RULES_REVISION, _option_specs  # noqa: F401 - RULES_REVISION: read by records
VARIANTS: tuple[str, ...] = ("standard", "el-cid")
STANDARD_HAND = 8  # 3.1, 7
EL_CID_HANDS = {"almoravids": 12, "castile": 5, "catalans": 5, "el_cid": 7}  # 10.1
EL_CID_WIN_LIMIT = 10  # 10.3: the Almoravids must hold fewer areas than this


@lru_cache(maxsize=None)
def _specs(variant: str) -> tuple[Mapping[str, OptionSpec], Mapping[str, OptionSpec]]:
    """The option specs of ``variant`` by name, and those of every scenario (read at every game built)."""
    specs = {spec.name: spec for spec in _option_specs(variant)}
    every = {spec.name: spec for v in VARIANTS for spec in _option_specs(v)}
    return MappingProxyType(specs), MappingProxyType(every)


def coerce_options(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """Check rule options against the scenario's specs (strings from a command line are read);
    return them complete, each missing one at its default."""
    specs, every = _specs(variant)
    out: dict[str, Any] = {}
    for name, value in options.items():
        if name not in every:
            raise RulesError(f"unknown taifa option {str(name)[:40]!r} (known: {', '.join(every)})")
        if name not in specs:
            raise RulesError(f"{name} is an El Cid option ({every[name].ruling.removeprefix('taifa ')})")
        out[name] = specs[name].coerce(value)
    return {name: out.get(name, spec.default) for name, spec in specs.items()}


class TaifaGame(Table):
    game = "taifa"

    def __init__(
        self,
        variant: str = "standard",
        options: dict[str, Any] | None = None,
        bots: Iterable[str] | None = None,
        taifa_map: TaifaMap | None = None,
        decks: Decks | None = None,
    ) -> None:
        if variant not in VARIANTS:
            raise RulesError(f"unknown taifa scenario {variant!r} (known: {', '.join(VARIANTS)})")
        self.variant = variant
        self.opts = coerce_options(variant, dict(options or {}))
        m = taifa_map or packaged_map()  # the packaged reconstruction unless the setup brings others
        decks = decks or packaged_cards()
        dep = m.standard if variant == "standard" else m.el_cid
        kingdoms = dep.kingdoms
        bot_keys = set(kingdoms if bots is None else bots)
        unknown = bot_keys - set(kingdoms)
        if unknown:
            raise RulesError(f"no kingdom {sorted(unknown)[0]!r} in {variant} (kingdoms: {', '.join(kingdoms)})")
        owner = [OUT_OF_PLAY] * (len(m) + 1)
        for a in dep.areas:
            o = dep.owner(a)
            owner[a] = kingdoms.index(o) if o in kingdoms else INDEPENDENT
        garrison = [a in dep.garrisons for a in range(len(m) + 1)]
        deck_of = tuple("christian" if k in CHRISTIAN else "muslim" for k in kingdoms)
        used = sorted(set(deck_of))
        held: list[str] = []
        draw: dict[str, list[str]] = {}
        for d in used:
            ids = [c.id for c in decks.deck(d)]
            if variant == "el-cid" and d == "christian":
                truce = decks.christian.by_name("Truce")[0].id  # 10.2: set aside for El Cid
                ids.remove(truce)
                held.append(truce)
            draw[d] = sorted(ids)
        n = len(kingdoms)
        state = TaifaState(
            kingdoms=kingdoms, decks=deck_of, bots=tuple(k in bot_keys for k in kingdoms),
            capitals=tuple(dep.capital(k) for k in kingdoms), owner=owner, garrison=garrison,
            bonus=[0] * n, hands=[[] for _ in range(n)], army=[[] for _ in range(n)], ready=[[] for _ in range(n)],
            kept=[0] * n, permanent=[[] for _ in range(n)], draw=draw, discard={d: [] for d in used}, held=held,
        )
        super().__init__(state, m, decks)
        self.seats = tuple(KINGDOM_NAMES[k] for k in kingdoms)
        if variant == "el-cid":
            self.hand_sizes = tuple(self.opts["almoravid_hand"] if k == "almoravids" else EL_CID_HANDS[k] for k in kingdoms)
        else:
            self.hand_sizes = (STANDARD_HAND,) * n
        self._start(("turn_start",))

    @property
    def options(self) -> dict[str, Any]:
        return self.opts

    def canonical(self) -> Any:
        """The position; an option at its revision-1 value is left out of it, so a revision-1
        record replays to the same digests (docs/rulings/taifa.md, "Revisions")."""
        out = super().canonical()
        out["options"] = {name: v for name, v in self.opts.items() if name not in REVISION_1 or REVISION_1[name] != v}
        return out

    @property
    def bot_seats(self) -> frozenset[int]:
        """Seats the rulebook bot plays (9): they never decide."""
        return frozenset(k for k, bot in enumerate(self.s.bots) if bot)

    def restart(self, unit: Unit | None = None) -> list[Event]:
        """Begin ``unit`` afresh from the state as it is now (default: the current kingdom's round).

        For set positions and scenario tests: edit ``self.s`` (hands, owners,
        garrisons...), then restart. Returns the events up to the first question.
        """
        return super().restart(unit or ("round", self.s.current))

    # -- units -------------------------------------------------------------------

    def _unit_proc(self, unit: Unit) -> Proc:
        if unit[0] == "turn_start":
            return self._turn_start()
        if unit[0] == "round":  # a bot's straight to its procedure: a generator fewer to pass each die through
            return bot_round(self, unit[1]) if self.s.bots[unit[1]] else self._round(unit[1])
        return self._turn_end()

    def _quiet(self, unit: Unit) -> bool:
        """A bot's round that throws no die (bots.quiet_round); the last turn's end (scoring, no
        reshuffle); a turn's start that shuffles nothing: not the first turn, no pile runs out,
        no El Cid's Truce to place (6, 7, 10.2)."""
        s = self.s
        kind = unit[0]
        if kind == "round":
            return s.bots[unit[1]] and quiet_round(self, unit[1])
        if kind == "turn_end":
            return s.turn >= TURNS
        if s.turn == 0 or (self.variant == "el-cid" and s.held):
            return False
        due = dict.fromkeys(s.draw, 0)
        for k, deck in enumerate(s.decks):  # as _turn_start reckons each draw
            due[deck] += max(0, self.hand_sizes[k] + s.bonus[k] - (0 if s.bots[k] else s.kept[k]))
        return all(len(s.draw[deck]) >= n for deck, n in due.items())

    def _next_unit(self, returned: Any) -> Unit | None:
        s = self.s
        kind = self._unit[0]
        if kind == "turn_start":
            s.current, s.passes, s.round = 0, 0, 1
            return ("round", 0)
        if kind == "round":
            s.passes = s.passes + 1 if returned else 0
            if s.passes >= len(s.kingdoms):
                return ("turn_end",)
            s.current = (self._unit[1] + 1) % len(s.kingdoms)
            s.round += 1  # counted here, so the round's starting state (its frame) shows it
            return ("round", s.current)
        return None if self.result is not None else ("turn_start",)

    def _ended(self, end: GameEnded) -> Result:
        assert isinstance(end, SuddenVictory)  # the only way a Taifa procedure ends the game (8, 10.3)
        return Result((end.kingdom,), f"{self.does(end.kingdom, 'has')} placed all 13 castles",
                      "taifa 10.3" if self.variant == "el-cid" else "taifa 8", self._scores())

    def _finish(self, result: Result) -> None:
        super()._finish(result)
        names = ", ".join(self.seats[w] for w in result.winners) or "nobody"
        verb = agree(names, "wins") if len(result.winners) == 1 else "win"
        self.emit("end", f"Game over: {names} {verb} ({self._account(result)})",
                  result.rule, *result.winners)

    def _turn_start(self) -> Proc:
        """4 steps 1-2 (and 3.1 on the first turn): shuffle, draw, reset the Card Bonus."""
        s = self.s
        s.turn += 1
        s.round = 0
        self.emit("turn", f"Turn {s.turn} of {TURNS} begins", "taifa 4", s.turn)
        if s.turn == 1:
            for deck in sorted(s.draw):
                yield from self.reshuffle(deck, [], "the game begins", "taifa 3.1")
        for k in range(len(s.kingdoms)):
            reduce = 0 if s.bots[k] else s.kept[k]  # 9.1 KEY RULE: bots do not reduce their draws
            n = max(0, self.hand_sizes[k] + s.bonus[k] - reduce)
            note = f" -{reduce} kept" if reduce else (f" ({s.kept[k]} deployed cards do not count, 9.1)" if s.kept[k] else "")
            self.emit("draw", f"{self.does(k, 'is')} due {n} cards: {self.hand_sizes[k]} {s.bonus[k]:+d} bonus{note}",
                      "taifa 9.1" if s.bots[k] and s.kept[k] else "taifa 7", k, n)
            yield from self.draw_cards(k, n)
        s.bonus = [0] * len(s.kingdoms)
        self.emit("bonus", "Every Card Bonus is back to 0", "taifa 7")
        if self.variant == "el-cid" and s.held:
            yield from self._el_cid_truce()

    def _el_cid_truce(self) -> Proc:
        """10.2: El Cid applies his Truce to a Christian kingdom of his choice this turn."""
        s = self.s
        cid_k = s.kingdoms.index("el_cid")
        pool = [k for k, key in enumerate(s.kingdoms) if key in CHRISTIAN and k != cid_k]
        if s.bots[cid_k]:
            chosen = yield from self.bot_kingdom(cid_k, pool, "the kingdom under his Truce (TA-29)")
        else:
            code = yield from self.ask(cid_k, "Truce: which Christian kingdom is at peace with you this turn?",
                                       [("truce", s.kingdoms[k]) for k in pool], "target")
            chosen = s.kingdoms.index(code[1])
        forbid = set()
        for e in self.card(s.held[0]).effect:
            if e.op == "truce":
                forbid.update(e["forbid"])
        forbid.add("incursion")
        s.truces.append((cid_k, chosen, tuple(sorted(forbid))))
        self.emit("truce", f"El Cid's Truce: {self.name(chosen)} may not {forbidden_words(sorted(forbid))} El Cid this turn",
                  "taifa 10.2", cid_k, chosen)

    def _round(self, k: int) -> Proc:
        """One kingdom's round: one action (5). Returns True when it passed."""
        s = self.s
        if s.bots[k]:  # it begins the round itself
            passed = yield from bot_round(self, k)
            return passed
        s.current = k
        self.emit("round", f"Round {s.round}: {self.name(k)} (player)", "taifa 5", s.round, k)
        passed = yield from self._player_round(k)
        return passed

    def _player_round(self, k: int) -> Proc:
        s = self.s
        code = yield from self.ask(k, "your action: attack, incursion, event, discard or pass", self.actions(k),
                                   "action")
        verb = code[0]
        if verb == "pass":
            self.emit("pass", f"{self.does(k, 'passes')}", "taifa 5.6", k)
            return True
        if verb == "discard":
            self.take_from_hand(k, code[1])
            self.to_discard(code[1])
            self.emit("discard", f"{self.does(k, 'discards')} {self.label(code[1])}", "taifa 5.5", k, code[1])
        elif verb == "attack":
            yield from attack(self, k, code[1])
        elif verb == "incursion":
            yield from incursion(self, k, s.kingdoms.index(code[1]))
        else:  # event
            self.take_from_hand(k, code[1])
            yield from play_event(self, k, code[1], bot=False)
        return False

    def actions(self, k: int) -> list[Code]:
        """A player's options for its round (5): an attack needs a card to carry it (a Troop card,
        or a Response that adds dice, TA-19); an incursion a Troop card to discard (5.3)."""
        s = self.s
        hand = sorted(s.hands[k])
        opts: list[Code] = []
        if any(carries(self, c) for c in hand):
            opts += [("attack", a) for a in self.attackable(k)]
        if any(self.card(c).kind == "troop" for c in hand):
            opts += [("incursion", s.kingdoms[o]) for o in self.neighbours(k) if not self.forbidden(k, o, "incursion")]
        opts += [("event", c) for c in hand if can_play(self, k, c, bot=False)]
        opts += [("discard", c) for c in hand]
        opts.append(("pass",))
        return opts

    def _turn_end(self) -> Proc:
        """6: collect the permanents, score after turn 3, else reshuffle each deck."""
        s = self.s
        self.emit("turn", f"Every kingdom passed: turn {s.turn} ends", "taifa 6", s.turn)
        s.truces = []
        for k, cards in enumerate(s.permanent):
            for cid in cards:
                if self.card(cid).removed_when_played:  # P and D: out of the game now (TA-26)
                    s.removed.append(cid)
                    self.emit("event", f"{self.card(cid).name} is removed from the game", "TA-26", cid)
                else:
                    self.to_discard(cid)
            s.permanent[k] = []
        # 5.6, 7: what each kingdom carries over; a bot's are its deployed cards (9.1, TA-36)
        s.kept = [len(s.army[k]) + len(s.ready[k]) if s.bots[k] else len(h) for k, h in enumerate(s.hands)]
        if s.turn >= TURNS:
            self._finish(self._score())
            return
        for deck in sorted(s.draw):
            yield from self.reshuffle(deck, s.discard[deck], f"end of turn {s.turn}", "taifa 6")
            s.discard[deck] = []

    # -- winning -----------------------------------------------------------------

    def _scores(self) -> tuple[int, ...]:
        return tuple(self.s.castles(k) for k in range(len(self.s.kingdoms)))

    def _score(self) -> Result:
        s, scores = self.s, self._scores()
        if self.variant == "el-cid":
            cid_k, alm = s.kingdoms.index("el_cid"), s.kingdoms.index("almoravids")
            if scores[cid_k] > scores[alm] and scores[alm] < EL_CID_WIN_LIMIT:
                return Result((cid_k,), f"El Cid holds {scores[cid_k]} areas to the Almoravids' {scores[alm]}",
                              "taifa 10.3", scores)
            return Result((alm,), f"El Cid holds {scores[cid_k]} areas, the Almoravids {scores[alm]}: "
                          "El Cid has not stopped them", "TA-28", scores)
        best = max(scores)
        tied = [k for k in range(len(scores)) if scores[k] == best]
        if len(tied) == 1:
            return Result((tied[0],), f"most castles after turn 3 ({best})", "taifa 8", scores)
        top = max(s.bonus[k] for k in tied)
        winners = tuple(k for k in tied if s.bonus[k] == top)
        how = "the highest Card Bonus breaks the tie" if len(winners) == 1 else "tied on castles and Card Bonus: a shared win"
        return Result(winners, f"{best} castles after turn 3; {how}", "taifa 8" if len(winners) == 1 else "TA-27", scores)

    def _account(self, result: Result) -> str:
        """The result told in full for the end event: the castles, the runner-up, the tie-break.

        The reason itself stays short and as it was: it is in every record and in the final
        position's digest, so a finished record of an earlier fiefdom still verifies."""
        s, scores = self.s, result.scores
        if result.rule not in ("taifa 8", "TA-27") or CASTLES in scores or not scores:
            return result.reason  # El Cid's counts are in its reason; a 13th castle says it all
        best = scores[result.winners[0]]
        tied = [k for k, n in enumerate(scores) if n == best]
        if len(result.winners) > 1:
            return (f"{best} castles each after turn {s.turn} and the same Card Bonus "
                    f"({s.bonus[result.winners[0]]:+d}): a shared win")
        if len(tied) == 1:
            second = max(n for n in scores if n < best)
            next_ = " and ".join(self.name(k) for k, n in enumerate(scores) if n == second)
            return f"{best} castles after turn {s.turn}, the most ({next_} next with {second})"
        others = " and ".join(self.name(k) for k in tied if k not in result.winners)
        bonuses = " to ".join(f"{b:+d}" for b in sorted({s.bonus[k] for k in tied}, reverse=True))
        return (f"{best} castles after turn {s.turn}, tied with {others}; the highest Card Bonus ({bonuses}) "
                "breaks the tie")

    # -- what a seat may see, and how options read --------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator; TABLE: the full table, every hand, every
        face-down card, the draw piles' order). A player sees its own hand; other hands and a
        bot's face-down pile (9.1) only as counts, face-down cards of a fight only to the kingdom
        that placed them (TA-37, TA-38). ``hand`` is sorted, a bot's pile top first (TABLE);
        ``draw_order`` each draw pile top first (TABLE only, else None). ``round`` is the round
        in progress in this turn (0 before the first); ``last_combat`` the last fight resolved,
        all of it public (combat.combat_view)."""
        s = self.s
        table = seat == TABLE
        kingdoms = []
        for k, key in enumerate(s.kingdoms):
            if table:
                hand: tuple[str, ...] | None = tuple(s.hands[k]) if s.bots[k] else tuple(sorted(s.hands[k]))
            else:
                hand = tuple(sorted(s.hands[k])) if seat == k and not s.bots[k] else None
            kingdoms.append({
                "key": key, "name": self.seats[k], "bot": s.bots[k], "deck": s.decks[k],
                "castles": s.castles(k), "bonus": s.bonus[k], "capital": s.capitals[k],
                "hand": hand, "hand_count": len(s.hands[k]), "army": tuple(s.army[k]), "ready": tuple(s.ready[k]),
                "permanent": tuple(s.permanent[k]), "kept": s.kept[k],
            })
        fight = None
        if s.fight is not None:
            f = s.fight
            fight = {
                "kind": f.kind, "attacker": f.attacker, "defender": f.defender, "area": f.area, "force": f.force,
                "cards": tuple((side, k, cid if up or k == seat or table else None) for side, k, cid, up in f.cards),
                "down": tuple(not up for _, _, _, up in f.cards),  # which cards lie face down (public)
                "garrisons": tuple(f.garrisons), "dice": dict(f.dice),
            }
        return {
            "variant": self.variant, "turn": s.turn, "current": s.current, "passes": s.passes,
            "kingdoms": tuple(kingdoms), "owner": tuple(s.owner), "garrison": tuple(s.garrison),
            "draw": {d: len(p) for d, p in s.draw.items()}, "discard": {d: tuple(p) for d, p in s.discard.items()},
            "draw_order": {d: tuple(reversed(p)) for d, p in s.draw.items()} if table else None,
            "removed": tuple(s.removed), "held": tuple(s.held), "truces": tuple(s.truces),
            "fight": fight, "last_dice": s.last_dice, "result": self.result, "round": s.round,
            "last_combat": combat_view(s.last_combat),
            # An event being resolved is played face up (5.4); a fight's own cards are in "fight".
            "playing": tuple(c for c in s.in_play if not (s.fight and any(c == fc for _, _, fc, _ in s.fight.cards))),
        }

    def public_words(self, code: Code) -> str | None:
        """What the other seats read of a choice that puts a card face down (5.1 steps 2-3): who
        places a card on which side; None for every other choice, all of them public."""
        p = self.point()
        if not isinstance(p, Decision) or not code or code[0] not in ("add", "respond"):
            return None
        side = "attack" if code[0] == "add" else code[1]
        return f"{self.does(p.seat, 'places')} a card face down on the {side}"

    def warning(self, code: Code) -> str | None:
        """A question to ask once before a choice a player may regret: a pass that ends the turn
        (or the game) with cards still in hand (5's NOTE, 5.6), the bonus when the track is at +2
        already, where it is lost (7, TA-32)."""
        p = self.point()
        if not isinstance(p, Decision):
            return None
        s, k = self.s, p.seat
        held = len(s.hands[k])
        if code == ("pass",) and held and s.passes + 1 >= len(s.kingdoms):
            cards = f"{held} card{'s' if held != 1 else ''}"
            if s.turn >= TURNS:
                return f"Every other kingdom has passed: pass and end the game with {cards} unplayed?"
            return (f"Every other kingdom has passed: pass and end turn {s.turn} with {cards} in hand? "
                    f"You would draw {held} fewer next turn (5.6).")
        if code == ("bonus",) and s.bonus[k] >= BONUS_MAX:
            return "Your Card Bonus is at +2 already: take the bonus and lose it (7), rather than a garrison?"
        return None

    def describe(self, code: Code) -> str:
        from core.taifa.moves import describe

        return describe(self, code)

    def parse(self, text: str) -> Code:
        from core.taifa.moves import parse

        return parse(self, text)

