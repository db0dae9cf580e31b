"""The reviewers (core/review.py and each game's): marks by the rules written down (docs/review.md),
a forced win found and a move that throws it away marked, the determinization that never shows the
decider more than its view, and judgements that depend on the position, work and seed alone."""

from __future__ import annotations

from collections import Counter

import pytest

from core import games
from core.engine import Decision, Game
from core.review import Judgement, Thresholds
from core.rng import SplitMix64
from core.tafl import TaflGame
from core.tafl.ai import MATE_BOUND

# Brandubh, rows from rank 1 up: the attackers take the king on b7 with c1-c7 (tests/tafl/test_puzzles.py).
WIN_IN_1 = "/2t4/7/4t2/4t2/4T2/1t5/1K5/"


def test_thresholds_mark_by_the_chance_lost() -> None:
    t = Thresholds(50, 100, 150)
    assert [t.mark(n) for n in (0, 49, 50, 99, 100, 149, 150, 1000)] == [
        "", "", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_no_mark_for_the_preferred_option_nor_for_a_loss_within_the_noise() -> None:
    t = Thresholds(50, 100, 150)
    j = Judgement((600, 400), ("a",), 600, 400)
    assert j.loss == 200 and j.mark(t, ("b",)) == "blunder" and j.mark(t, ("a",)) == ""
    noisy = Judgement((600, 400), ("a",), 600, 400, noise=120)
    assert noisy.mark(t, ("b",)) == ""  # 200 < 2 x 120: a few rollouts cannot tell it from luck
    assert Judgement((600, 400), ("a",), 600, 400, noise=90).mark(t, ("b",)) == "blunder"


def _decision(g: Game) -> Decision:
    point = g.point()
    assert isinstance(point, Decision)
    return point


def test_tafl_finds_the_winning_move_and_marks_a_move_that_throws_it_away() -> None:
    reviewer = games.info("tafl").reviewer()
    g = TaflGame("brandubh", None, WIN_IN_1, 0)
    d = _decision(g)
    other = next(o for o in d.options if o != ("c1", "c7"))
    j = reviewer.judge(g, d, other, 4000, 1, lambda: False)
    assert j.best == ("c1", "c7") and j.score is not None and j.score > MATE_BOUND
    assert j.best_chance == 1000 and j.chances == (1000, 0)
    assert j.mark(reviewer.thresholds, other) == "blunder"
    right = reviewer.judge(g, d, ("c1", "c7"), 4000, 1, lambda: False)
    assert right.mark(reviewer.thresholds, ("c1", "c7")) == "" and right.loss == 0


def _playing(game: str, variant: str, steps: int, seed: int) -> Game:
    """A game of ``game`` after ``steps`` steps of seeded random play (a decision of a person's seat next)."""
    gi = games.info(game)
    specs = gi.seat_specs(variant)
    g = gi.make(variant, setup=gi.setup_for(variant, [s.default if s.default != "human" else "ai" for s in specs]))
    rng = SplitMix64(seed)
    from core.chance import draw

    for _ in range(steps):
        point = g.point()
        if isinstance(point, Decision):
            g.apply(point.options[rng.below(len(point.options))])
        elif hasattr(point, "kind"):
            g.resolve(draw(rng, point))
        else:
            break
    while not isinstance(g.point(), Decision):
        g.resolve(draw(rng, g.point()))
    return g


@pytest.mark.parametrize("game,variant,redeal", [
    ("kingdom", "multi-3", "core.kingdom.review:redeal"),
    ("taifa", "standard", "core.taifa.ai:deal_hidden"),
])
def test_the_determinization_changes_nothing_the_decider_sees(game: str, variant: str, redeal: str) -> None:
    import importlib

    module, name = redeal.split(":")
    deal = getattr(importlib.import_module(module), name)
    g = _playing(game, variant, 40, 7)
    seat = _decision(g).seat
    for seed in range(5):
        h = g.clone()
        deal(h, seat, SplitMix64(seed))
        assert h.view(seat) == g.view(seat)  # the decider cannot tell the redealt table from the real one
        assert Counter(map(str, _cards(h))) == Counter(map(str, _cards(g)))  # no card made or lost


def _cards(g: Game) -> list[object]:
    s = getattr(g, "s")
    if hasattr(s, "all_cards"):
        return list(s.all_cards())
    return [c for pile in s.draw.values() for c in pile] + [c for hand in s.hands for c in hand]


def test_a_rollout_judgement_depends_on_the_position_work_and_seed_alone() -> None:
    reviewer = games.info("kingdom").reviewer()
    g = _playing("kingdom", "multi-3", 30, 3)
    d = _decision(g)
    played = d.options[-1]
    first = reviewer.judge(g, d, played, 2, 11, lambda: False)
    again = reviewer.judge(g.clone(), d, played, 2, 11, lambda: False)
    assert first == again
    assert 0 <= first.played_chance <= 1000 and len(first.chances) == 3
    assert first.best in d.options


def test_a_budget_never_buys_less_than_a_judgement_needs() -> None:
    from notation.analysis import work_for

    assert work_for(games.info("kingdom").reviewer(), 0.01) == 2  # one rollout could never be marked
    assert work_for(games.info("taifa").reviewer(), 4.0) == 24
    assert work_for(games.info("tafl").reviewer(), 0.001) == 512 and work_for(games.info("tafl").reviewer(), None) == 40_000
