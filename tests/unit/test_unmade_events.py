"""A game that is told nobody reads its events (core.engine.leave_events_unmade: a headless batch, a
verify) makes none, and plays exactly as one that makes them: the same points, the same positions
after every step, the same result and the same view at the end (a Taifa fight's deciding roll
included, which the view shows)."""

from __future__ import annotations

from typing import Any

import pytest

from core.chance import SeededChance
from core.digest import digest
from core.engine import TABLE, Game, leave_events_unmade
from core.games import info
from core.match import Match, RandomController, Step
from core.taifa.game import TaifaGame
from core.tafl import TaflGame


def taifa(variant: str, random_seats: int) -> Any:
    keys = TaifaGame(variant).s.kingdoms
    return TaifaGame(variant, None, keys[random_seats:])  # the first seats random movers, the rest bots


def played(make: Any, seed: int, unmade: bool) -> tuple[list[tuple[Any, ...]], Any, Any, list[Step]]:
    """Each step's point, value and position digest; the result; the full table's view at the end."""
    g: Game = make()
    if unmade:
        leave_events_unmade(g)
    steps: list[Step] = []
    controllers = {seat: RandomController(seed * 8 + seat) for seat in range(len(g.seats))}
    trail: list[tuple[Any, ...]] = []

    def sink(step: Step, game: Game) -> None:
        steps.append(step)
        trail.append((step.kind, step.seat, step.value, digest(game)))

    result = Match(g, controllers, SeededChance(seed), [sink]).run(max_steps=20_000)
    assert result is not None
    return trail, result, g.view(TABLE), steps


@pytest.mark.parametrize("make", [
    pytest.param(lambda: taifa("standard", 0), id="taifa-six-bots"),
    pytest.param(lambda: taifa("standard", 2), id="taifa-two-random-movers"),
    pytest.param(lambda: taifa("el-cid", 1), id="taifa-el-cid"),
    pytest.param(lambda: info("kingdom").make("multi-3", {}), id="kingdom-multi-3"),
    pytest.param(lambda: info("kingdom").make("solo", {}), id="kingdom-solo"),
])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_without_events_plays_the_same(make: Any, seed: int) -> None:
    told, result, view, told_steps = played(make, seed, unmade=False)
    untold, untold_result, untold_view, untold_steps = played(make, seed, unmade=True)
    assert untold == told and untold_result == result and untold_view == view
    assert sum(len(s.events) for s in told_steps) > len(told_steps)  # told: events at most steps
    assert not any(s.events for s in untold_steps[1:])  # untold: none (step 1 carries the start's)


def test_a_game_without_the_attribute_is_left_as_it_is() -> None:
    g = TaflGame("brandubh")  # Tafl makes few events, each once: it has no ``telling``
    leave_events_unmade(g)
    assert not hasattr(g, "telling") and g.apply(g.point().options[0])
