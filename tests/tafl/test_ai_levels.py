"""The Tafl AI's named strengths and how it spends its time."""

from __future__ import annotations

import pytest

from core.engine import RulesError
from core.match import Limit
from core.tafl import GAME, LEVELS, TaflGame
from core.tafl.ai import TaflAI


def test_the_descriptor_offers_every_level_by_name_weakest_first() -> None:
    assert [key for key, _ in GAME.ai_levels] == ["beginner", "casual", "strong", "full"] == list(LEVELS)
    assert all(title for _, title in GAME.ai_levels)


@pytest.mark.parametrize("level, depth, seconds, noise", [
    ("beginner", 1, 0.2, 400), ("casual", 2, 0.5, 120), ("strong", 4, 5.0, 0), ("full", None, 5.0, 0),
])
def test_a_level_caps_the_limit(level: str, depth: int | None, seconds: float, noise: int) -> None:
    ai = GAME.make_ai(3, Limit(seconds=5.0, level=level))
    assert isinstance(ai, TaflAI)
    assert (ai.max_depth if depth else None, ai.time_budget, ai.noise) == (depth, seconds, noise)


def test_a_depth_limit_below_the_level_cap_is_kept() -> None:
    assert GAME.make_ai(3, Limit(depth=1, level="strong")).max_depth == 1
    assert GAME.make_ai(3, Limit(level=None)).noise == 0


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(RulesError, match="unknown tafl AI level 'grandmaster'"):
        GAME.make_ai(3, Limit(level="grandmaster"))


def test_noise_is_seeded_and_changes_choices() -> None:
    game = TaflGame("traditional")
    calm = {TaflAI(max_depth=1, time_budget=60, seed=s).search(game).move for s in range(8)}
    noisy = [TaflAI(max_depth=1, time_budget=60, seed=s, noise=400).search(game).move for s in range(8)]
    assert noisy == [TaflAI(max_depth=1, time_budget=60, seed=s, noise=400).search(game).move for s in range(8)]
    assert len(set(noisy)) > len(calm)


def test_a_stopped_iteration_reports_the_last_depth_finished() -> None:
    # Stopped part way into a depth: the answer is a searched, legal move, and the depth reported
    # is the last one searched to the end (the nodes lie between that depth's and the next's).
    game = TaflGame("gild-9")
    polls = {"n": 0}

    def stop() -> bool:
        polls["n"] += 1
        return polls["n"] > 30

    info = TaflAI(time_budget=60, seed=1, stop=stop).search(game)
    assert info.move in game.point().options
    done = TaflAI(max_depth=info.depth, time_budget=60, seed=1).search(game)
    deeper = TaflAI(max_depth=info.depth + 1, time_budget=60, seed=1).search(game)
    assert done.nodes < info.nodes < deeper.nodes
