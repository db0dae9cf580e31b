"""The published Tafl rulesets in the app: the New game form offers them from the registry, and
Brandubh's 7x7 board draws whole and plays at 80x24."""

from __future__ import annotations

from textual.widgets import Checkbox, Select

from notation.runner import GameSetup
from tui.games.tafl.board import TaflBoard
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen
from tui.screens.setup import SetupScreen
from tui_support import HUMAN, board_position, cell_offset, screen_lines, start_game, type_move, wait_until


async def test_the_form_offers_every_ruleset_and_starts_brandubh(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("n")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        variant = setup.query_one("#variant", Select)
        offered = [value for _, value in variant._options]  # the registry's variants, in order
        assert offered[-3:] == ["copenhagen", "fetlar", "brandubh"]
        await pilot.press("enter", *["down"] * offered.index("brandubh"), "enter")
        await pilot.pause()
        assert variant.value == "brandubh"
        assert setup.query_one("#opt-strong_king_at_throne", Checkbox).value is False  # TF-28's default
        await pilot.press("ctrl+s")
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen)
        assert play.runner.header.variant == "brandubh"
        board = play.query_one("#board", TaflBoard)
        assert board.view.size == 7
        assert board_position(board) == "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"


async def test_brandubh_board_fits_80x24_and_plays_by_click_and_by_typing(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, GameSetup("tafl", "brandubh", (HUMAN, HUMAN), 1, {}, {}))
        board = screen.query_one("#board", TaflBoard)
        region = board.region
        assert region.right <= 80 and region.bottom <= 24
        # Every square is drawn inside the board's region, inside the screen.
        assert all(region.contains(region.x + x, region.y + y)
                   for x, y in (cell_offset(board, sq) for sq in range(49)))
        geo = screen.runner.game.geo
        d6, e6 = geo.square("d6"), geo.square("e6")
        await pilot.click(board, offset=cell_offset(board, d6))
        await pilot.pause()
        await pilot.click(board, offset=cell_offset(board, e6))
        await pilot.pause()
        assert screen.records == ["d6-e6"]
        await type_move(pilot, "c4-c6")
        await wait_until(pilot, lambda: len(screen.records) == 2, "the typed move")
        assert screen.records[-1] == "c4-c6"
        shown = "\n".join(screen_lines(app.export_screenshot()))
        assert "brandubh" in shown and " 7 " in shown and " a " in shown  # status, rank 7, file a


async def test_copenhagen_starts_and_plays(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, GameSetup("tafl", "copenhagen", (HUMAN, HUMAN), 1, {}, {}))
        await type_move(pilot, "d1-d3")
        await wait_until(pilot, lambda: screen.records == ["d1-d3"], "the typed move")
        assert screen.runner.game.variant == "copenhagen"
