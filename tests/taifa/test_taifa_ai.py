"""The Taifa AI (core/taifa/ai.py): legal answers, determinism, no peeking, and it beats the bot."""

from __future__ import annotations

import copy
from functools import cache

import pytest

from core.chance import SeededChance
from core.digest import digest
from core.engine import Decision, Over
from core.match import Match, RandomController
from core.rng import SplitMix64
from core.taifa.ai import AI_VERSION, TaifaAI, p_win
from core.taifa.game import TaifaGame
from core.taifa.map import KINGDOMS

EL_CID = ("almoravids", "castile", "catalans", "el_cid")


def kind(d: Decision) -> str:
    """A name for the kind of decision, from its option codes."""
    verbs = {o[0] for o in d.options}
    if "pass" in verbs:
        return "main"
    if "garrison" in verbs and "bonus" in verbs:
        return "reward"
    if "garrison" in verbs:
        return "garrison" if ("done",) in d.options else "place_garrison"
    for v in ("add", "respond", "attack", "target", "take", "area", "troop", "truce"):
        if v in verbs:
            return v
    return "other"


def play_checked(game: TaifaGame, seed: int, ai_seats: set[int], random_seats: set[int], seen: dict) -> None:
    """Random movers play ``random_seats``; at each of their decisions the AI is asked too and must
    answer legally, and leave the game as it was (it is ``reads_only``). ``ai_seats`` are played
    by the AI itself."""
    chance = SeededChance(seed)
    movers = {s: RandomController(seed * 31 + s) for s in random_seats}
    ais = {s: TaifaAI(seed + s) for s in ai_seats | random_seats}
    steps = 0
    while True:
        p = game.point()
        if isinstance(p, Over):
            return
        steps += 1
        assert steps < 20_000
        if isinstance(p, Decision):
            before = digest(game.canonical())
            code = ais[p.seat].choose(game, p)  # the game itself: a reads_only controller's (core.match)
            assert digest(game.canonical()) == before, "the AI changed the game it was asked about"
            assert code in p.options, (kind(p), code, p.options)
            seen[kind(p)] = seen.get(kind(p), 0) + 1
            if p.seat in random_seats:
                code = movers[p.seat].choose(game, p)
            game.apply(code)
        else:
            game.resolve(p.validate(chance.outcome(p)))


def test_combat_odds_are_exact() -> None:
    assert p_win(1, 0) == 0.5
    assert p_win(0, 0) == 0.0  # a tie holds (5.2)
    assert p_win(1, 1) == 0.25  # only hit-against-miss wins
    assert p_win(2, 1) == pytest.approx(0.5)  # 2 hits (1/4) always, 1 hit (1/2) against a miss (1/2)
    assert all(p_win(a + 1, 3) > p_win(a, 3) for a in range(1, 20))
    assert all(p_win(6, d + 1) < p_win(6, d) for d in range(0, 10))


def test_answers_every_kind_of_decision_legally() -> None:
    seen: dict[str, int] = {}
    for seed in range(12):
        # every seat a random mover (the AI is asked at each decision), then AIs against bots
        play_checked(TaifaGame("standard", bots=[]), seed, set(), set(range(6)), seen)
    for seed in range(6):
        play_checked(TaifaGame("standard", bots=[k for i, k in enumerate(KINGDOMS) if i not in (1, 4)]),
                     100 + seed, {1, 4}, set(), seen)
        play_checked(TaifaGame("el-cid", bots=EL_CID[:3]), 200 + seed, set(), {3}, seen)
        play_checked(TaifaGame("el-cid", bots=EL_CID[:3]), 300 + seed, {3}, set(), seen)
    for k in ("main", "add", "respond", "garrison", "place_garrison", "reward", "attack", "target", "take",
              "area", "troop", "truce"):
        assert seen.get(k), f"no {k} decision was met: {seen}"


def _match(seed: int, seat: int) -> tuple:
    g = TaifaGame("standard", bots=[k for i, k in enumerate(KINGDOMS) if i != seat])
    codes: list = []
    result = Match(g, {seat: TaifaAI(seed)}, SeededChance(seed), sinks=[lambda s, _g: codes.append(s.value)]).run()
    return result, codes


def test_deterministic_for_a_seed() -> None:
    for seed in (3, 8):
        assert _match(seed, 2) == _match(seed, 2)


def _shuffle_hidden(game: TaifaGame, seat: int, rng: SplitMix64) -> None:
    """Deal the cards ``seat`` cannot see (other hands, the draw piles) afresh, keeping every count."""
    s = game.s
    for deck in sorted(s.draw):
        places = [s.draw[deck]] + [s.hands[k] for k in range(len(s.kingdoms)) if k != seat and s.decks[k] == deck]
        pool = [c for p in places for c in p]
        perm = rng.permutation(len(pool))
        pool = [pool[i] for i in perm]
        for p in places:
            n = len(p)
            p[:], pool = pool[:n], pool[n:]


def test_ignores_what_its_seat_cannot_see() -> None:
    rng = SplitMix64(99)
    checked = 0
    for seed in range(4):
        for variant, bots, seat in (("standard", [k for k in KINGDOMS if k != "seville"], 3),
                                    ("standard", [], 0), ("el-cid", EL_CID[:3], 3)):
            g = TaifaGame(variant, bots=bots)
            chance = SeededChance(seed)
            movers = {s: RandomController(s) for s in range(len(g.seats))}
            ai = TaifaAI(seed)
            while not isinstance(p := g.point(), Over):
                if not isinstance(p, Decision):
                    g.resolve(p.validate(chance.outcome(p)))
                    continue
                if p.seat == seat:
                    twin = g.clone()
                    _shuffle_hidden(twin, seat, rng)
                    assert twin.view(seat) == g.view(seat)
                    a = copy.deepcopy(ai).choose(g.clone(), p)
                    b = copy.deepcopy(ai).choose(twin, p)
                    assert a == b
                    checked += 1
                    code = ai.choose(g.clone(), p)
                else:
                    code = movers[p.seat].choose(g, p)
                g.apply(code)
    assert checked > 200


def test_rollouts_answer_legally_and_ignore_hidden_cards() -> None:
    """The optional look-ahead deals the unseen cards afresh: what is really hidden never matters."""
    rng = SplitMix64(5)
    g = TaifaGame("standard", bots=[k for k in KINGDOMS if k != "valencia"])
    chance = SeededChance(11)
    ai = TaifaAI(11, rollouts=1)
    asked = 0
    while not isinstance(p := g.point(), Over) and asked < 6:
        if not isinstance(p, Decision):
            g.resolve(p.validate(chance.outcome(p)))
            continue
        if "pass" in {o[0] for o in p.options}:
            asked += 1
            twin = g.clone()
            _shuffle_hidden(twin, p.seat, rng)
            a = copy.deepcopy(ai).choose(g.clone(), p)
            assert a == copy.deepcopy(ai).choose(twin, p)
            assert a in p.options
        g.apply(ai.choose(g.clone(), p))
    assert asked == 6


@cache
def _bots_winners(variant: str, seed: int) -> tuple[int, ...]:
    """Who wins the seeded game of bots in every seat: the same game for every seat compared, played once."""
    return Match(TaifaGame(variant), {}, SeededChance(seed)).run().winners


def _win_share(seeds: range, seat: int, variant: str = "standard", keys: tuple[str, ...] = KINGDOMS) -> tuple[float, float]:
    """(AI's share of wins, the bot's share in the same seat) over ``seeds``; a shared win counts as a fraction."""
    ai = bot = 0.0
    for seed in seeds:
        g = TaifaGame(variant, bots=[k for i, k in enumerate(keys) if i != seat])
        r = Match(g, {seat: TaifaAI(seed)}, SeededChance(seed)).run()
        ai += 1 / len(r.winners) if seat in r.winners else 0.0
        winners = _bots_winners(variant, seed)
        bot += 1 / len(winners) if seat in winners else 0.0
    return ai / len(seeds), bot / len(seeds)


@pytest.mark.parametrize("seat", [0, 4])
def test_beats_the_bot_in_its_seat(seat: int) -> None:
    ai, bot = _win_share(range(40), seat)
    assert ai >= bot + 0.15, (ai, bot)


def test_beats_the_bot_as_el_cid() -> None:
    ai, bot = _win_share(range(40), 3, "el-cid", EL_CID)
    assert ai >= bot + 0.1, (ai, bot)


def test_version() -> None:
    assert AI_VERSION.startswith("taifa-ai")
