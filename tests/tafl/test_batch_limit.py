"""A batch's Tafl AI (simulate, a tournament) works to a count of nodes, never the clock: its records
are the same on any machine, under any load, for any --jobs (issue 32)."""

from __future__ import annotations

import itertools
import math

import pytest

from core.match import Limit
from core.tafl import GAME, NODES_PER_SECOND, TaflGame
from core.tafl import ai as tafl_ai
from core.tafl.ai import TaflAI
from notation.runner import SeatPlan
from tui.cli_support import seat_plans


def test_a_batch_ai_seat_gets_the_work_limit_unless_a_time_is_given() -> None:
    plans, _ = seat_plans(GAME, "traditional", [], people=False)
    assert plans == (SeatPlan("ai", Limit(nodes=NODES_PER_SECOND)),) * 2
    assert plans[0].seat("attackers", GAME).detail.endswith(f"{NODES_PER_SECOND} nodes per decision")
    strong, _ = seat_plans(GAME, "traditional", ["attackers=strong", "defenders=random"], people=False)
    assert strong[0] == SeatPlan("ai", Limit(nodes=NODES_PER_SECOND, level="strong"))
    deep, _ = seat_plans(GAME, "traditional", [], people=False, ai_depth=3)
    assert deep[0] == SeatPlan("ai", Limit(nodes=NODES_PER_SECOND, depth=3))
    timed, _ = seat_plans(GAME, "traditional", [], people=False, ai_time=0.5)
    assert timed[0] == SeatPlan("ai", Limit(seconds=0.5))
    played, _ = seat_plans(GAME, "traditional", ["attackers=human"], people=True)
    assert played[1] == SeatPlan("ai")  # a person's opponent thinks against the clock, as always


def test_the_node_limit_reads_back_from_a_record_seat() -> None:
    limit = Limit(nodes=12345, level="casual")
    assert Limit.parse(limit.text()) == limit
    assert Limit.parse("fiefdom-tafl-ai 5, 1234567890123 nodes per decision").nodes == 123456789


def test_work_means_no_clock_and_a_level_s_time_is_its_work() -> None:
    full = GAME.make_ai(1, Limit(nodes=5000))
    assert isinstance(full, TaflAI) and (full.time_budget, full.max_nodes) == (math.inf, 5000)
    beginner = GAME.make_ai(1, Limit(nodes=NODES_PER_SECOND, level="beginner"))
    assert isinstance(beginner, TaflAI)
    assert (beginner.time_budget, beginner.max_depth, beginner.max_nodes) == (math.inf, 1, NODES_PER_SECOND // 5)


def test_a_counted_search_plays_the_same_however_slow_the_clock_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    game = TaflGame("brandubh")
    first = GAME.make_ai(7, Limit(nodes=3000)).search(game)  # type: ignore[attr-defined]
    ticks = itertools.count()
    monkeypatch.setattr(tafl_ai, "perf_counter", lambda: 3600.0 * next(ticks))  # an hour a reading
    slow = GAME.make_ai(7, Limit(nodes=3000)).search(game)  # type: ignore[attr-defined]
    assert first.nodes >= 3000 and first.depth >= 2
    assert (slow.move, slow.score, slow.depth, slow.nodes) == (first.move, first.score, first.depth, first.nodes)
