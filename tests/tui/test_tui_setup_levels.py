"""The New game form offers a game's AI strengths by name (GameDescriptor.ai_levels): Tafl's
from Beginner to Full, picked by keys, reach the seat's limit and the record; the full
strength records no level, as AI seats did before levels; Take the Kingdom offers its greedy
baseline; a game with one strength (Taifa) shows none."""

from __future__ import annotations

from textual.widgets import Select

from core import games as core_games
from core.tafl import LEVELS
from notation.runner import SeatPlan
from test_tui_kingdom_setup import choose, kingdom_variant, new_game_form, start
from tui.screens.setup import slug
from tui_support import wait_until


async def test_a_tafl_ai_seat_plays_at_the_strength_chosen_by_name(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        level = setup.query_one("#defenders-level", Select)
        assert level.value == "full" and not level.disabled
        titles = [str(prompt) for prompt, _ in level._options]  # type: ignore[attr-defined]
        assert titles == [lv.title for lv in LEVELS.values()]
        await choose(pilot, "defenders-level", "beginner", list(LEVELS))
        play = await start(pilot)
        defenders = play.runner.plans[1]
        assert defenders.kind == "ai" and defenders.limit is not None and defenders.limit.level == "beginner"
        assert "level beginner" in play.runner.header.seats[1].detail
        assert SeatPlan.of(play.runner.header.seats[1]).limit.level == "beginner"


async def test_a_kingdom_ai_seat_can_be_the_greedy_baseline(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        await kingdom_variant(pilot, setup, "multi-3")
        assert setup.query_one("#player-1-level", Select).disabled  # a person: no strength
        assert setup.query_one("#player-2-level", Select).value == "full"
        await choose(pilot, "player-3-level", "greedy", ["greedy", "casual", "full"])
        play = await start(pilot)
        plans = play.runner.plans
        assert plans[1].limit is None or plans[1].limit.level is None
        assert "level" not in play.runner.header.seats[1].detail
        assert plans[2].limit is not None and plans[2].limit.level == "greedy"
        assert "level greedy" in play.runner.header.seats[2].detail


async def test_full_strength_records_no_level_and_one_strength_games_offer_none(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        play = await start(pilot)
        assert "level" not in play.runner.header.seats[1].detail
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.screen.query("#board"), "home")
        setup = await new_game_form(pilot)
        setup.query_one("#game", Select).value = "taifa"  # the Taifa AI has one strength
        taifa = {f"{slug(seat.name)}-kind" for seat in core_games.info("taifa").seat_specs("standard")}

        def taifas_seats() -> bool:  # the seat rows are mounted after the form says it shows Taifa
            return {w.id for w in setup.query(".seat Select") if (w.id or "").endswith("-kind")} == taifa

        await wait_until(pilot, taifas_seats, "Taifa's seats on the form")
        assert not any((w.id or "").endswith("-level") for w in setup.query(".seat Select"))
