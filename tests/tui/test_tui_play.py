"""Pilot tests of playing: real keys (and clicks) on home, setup, play and game over."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Select

from core.engine import RulesError
from notation.reader import read_record_file
from notation.verify import verify
from tui.widgets.side_panes import MoveList
from tui.games.tafl.board import TaflBoard
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen
from tui.screens.setup import SetupScreen
from tui_support import (
    FAST_AI, HUMAN, KING_AT_B1, KING_RUN, board_position, cell_offset, gild9, human_to_move, open_continue, text,
    game_over_shown, start_game, type_move, wait_for_human, wait_until,
)


async def start(app, pilot, setup) -> PlayScreen:
    screen = await start_game(app, pilot, setup)
    assert app.screen is screen
    return screen


def square(screen: PlayScreen, name: str) -> int:
    return screen.runner.game.geo.square(name)


# -- a whole game against the AI ---------------------------------------------------


async def test_a_short_game_against_the_ai_to_its_end_and_saved(make_app, data: Path) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(FAST_AI, HUMAN, setup=KING_RUN))
        board = screen.query_one("#board", TaflBoard)
        assert app.focused is board
        assert "defenders (human) your move" in text(screen.query_one("#status"))
        assert board.cursor == square(screen, "e5")  # the cursor starts on the centre

        # The king c3-c1 with the cursor keys: arrows and hjkl both move it.
        await pilot.press("left", "h", "down", "j")
        assert board.cursor == square(screen, "c3")
        await pilot.press("enter")
        assert board.selected == square(screen, "c3")
        await pilot.press("j", "down")
        assert board.cursor == square(screen, "c1")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.records[0] == "Kc3-c1"

        await wait_for_human(pilot, screen)
        assert len(screen.records) == 2 and screen.runner.result is None
        # One attacker cannot close both paths; a1 stays open whatever the AI did.
        assert ("c1", "a1") in screen.runner.point.options

        # The winning move typed in notation after `t`.
        await type_move(pilot, "Kc1-a1")
        await wait_until(pilot, lambda: game_over_shown(app), "the game-over dialog")
        dialog = app.screen
        assert text(dialog.query_one("#result-title")) == "Defenders won"
        assert text(dialog.query_one("#result-reason")).startswith("the king reached a corner")
        assert "defenders won: the king reached a corner" in text(screen.query_one("#status"))
        assert app.focused is dialog.query_one("#save-name", Input)

        await pilot.press(*"my-game", "enter")
        await wait_until(pilot, lambda: app.screen is screen, "the dialog to close")

    saved = data / "saved" / "my-game.fief"
    assert saved.is_file()
    rec = read_record_file(saved)
    report = verify(rec)
    assert report.ok, report.message
    assert rec.steps == 3 and rec.result is not None and rec.result.winners == (1,)
    assert rec.header.setup == KING_RUN
    assert [s.kind for s in rec.header.seats] == ["ai", "human"]


async def test_game_over_cites_the_rule(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(HUMAN, HUMAN, setup=KING_AT_B1))
        await type_move(pilot, "Kb1-a1")
        await wait_until(pilot, lambda: game_over_shown(app), "the game-over dialog")
        assert text(app.screen.query_one("#result-reason")) == "the king reached a corner [gild OBJECT]"
        assert text(screen.query_one("#status")).endswith(
            "defenders won: the king reached a corner [gild OBJECT]")


async def test_the_save_dialog_refuses_a_path_and_close_keeps_nothing(make_app, data: Path) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(HUMAN, HUMAN, setup=KING_AT_B1))
        await type_move(pilot, "Kb1-a1")
        await wait_until(pilot, lambda: game_over_shown(app), "the game-over dialog")
        dialog = app.screen
        await pilot.press(*"../up", "enter")
        assert app.screen is dialog
        assert "plain file name" in text(dialog.query_one("#result-reason"))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
    assert not (data / "saved").exists()


# -- home -> new game -> setup -> start, all by keys -----------------------------------


async def test_new_game_from_home_through_setup_by_keys(make_app, data: Path) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("n")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert app.focused is setup.query_one("#variant", Select)

        # Variant: open the list, one down (Tafl-Gild 9x9), pick it.
        await pilot.press("enter", "down", "enter")
        await pilot.pause()
        assert setup.query_one("#variant", Select).value == "gild-9"
        assert setup.query_one("#opt-quiet_moves", Input).value == "0"  # gild's own defaults
        # Defenders: human instead of the AI (the human attackers' AI time and strength are skipped).
        await pilot.press("tab", "tab")
        assert app.focused is setup.query_one("#defenders-kind", Select)
        await pilot.press("enter", "up", "enter")
        await pilot.pause()
        assert setup.query_one("#defenders-kind", Select).value == "human"
        # Seed 7 (a human seat has no AI time or strength to pass).
        await pilot.press("tab")
        assert app.focused is setup.query_one("#seed", Input)
        assert setup.query_one("#seed", Input).value.isdigit()  # a fresh one, shown
        await pilot.press("ctrl+a", "ctrl+k", "7")

        await pilot.press("ctrl+s")
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen)
        s = play.runner
        assert (s.header.variant, s.header.seed) == ("gild-9", 7)
        assert "tafl gild-9, seed 7" in str(play.query_one("#events").lines[0].text)
        assert [c.kind for c in s.header.seats] == ["human", "human"]
        assert s.game.options == {"quiet_moves": 0, "repetition": "draw"}
        assert text(play.query_one("#status")).startswith("tafl gild-9 · step 1 · nothing played yet")
        assert s.path.parent == data / "autosave" and s.path.is_file()

        # The setup screen was replaced: leaving the game goes home.
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


# -- illegal moves --------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["e5-e6", "d1-e2", "hello"])
async def test_an_illegal_typed_move_shows_one_error_and_the_game_goes_on(make_app, typed: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(HUMAN, FAST_AI))
        before = screen.runner.game.position()
        with pytest.raises(RulesError) as refused:
            screen.runner.game.clone().parse(typed)

        await type_move(pilot, typed)
        error = text(screen.query_one("#error"))
        assert error == str(refused.value) and "\n" not in error
        # Same position, no move made, still the human's turn; the box is empty for another try.
        assert screen.runner.game.position() == before
        assert screen.runner.history == [] and screen.records == []
        assert human_to_move(screen) and screen.runner.point.seat == 0
        assert "attackers (human) your move" in text(screen.query_one("#status"))
        assert screen.query_one("#move-input", Input).value == ""

        # A legal move afterwards clears the error and the AI answers.
        await pilot.press(*"d1-d3", "enter")
        await pilot.pause()
        assert text(screen.query_one("#error")) == ""
        await wait_for_human(pilot, screen)
        assert len(screen.records) == 2


@pytest.mark.parametrize("typed", ["[b]e1", "e1[/]"], ids=["open-tag", "close-tag"])
async def test_a_typed_move_with_brackets_is_echoed_verbatim(make_app, typed: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(HUMAN, HUMAN))
        with pytest.raises(RulesError) as refused:
            screen.runner.game.clone().parse(typed)
        await type_move(pilot, typed)
        assert text(screen.query_one("#error")) == str(refused.value)
        assert typed in str(refused.value)


# -- takeback ---------------------------------------------------------------------------


async def test_takeback_restores_the_position_before_the_humans_last_move(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(HUMAN, FAST_AI))
        s = screen.runner
        await type_move(pilot, "d1-d3")
        await wait_for_human(pilot, screen)
        first_two = list(screen.records)
        before_second = s.game.position()
        second = min(s.point.options)
        await type_move(pilot, f"{second[0]}-{second[1]}")
        await wait_for_human(pilot, screen)
        assert len(s.history) == len(screen.records) == 4

        # The move box keeps the keys after a typed move (the next word is a move, not shortcuts):
        # Escape hands them to the board, and there `u` takes back.
        assert app.focused is screen.query_one("#move-input", Input)
        await pilot.press("escape", "u")
        await wait_until(pilot, lambda: screen.runner is not s and human_to_move(screen), "the takeback")
        s = screen.runner  # the game resumed from the record written again
        assert s.game.position() == before_second
        assert screen.records == first_two and len(s.history) == 2
        assert human_to_move(screen) and s.point.seat == 0
        assert board_position(screen.query_one("#board", TaflBoard)) == before_second
        assert "took back 2 move(s)" in "\n".join(str(line.text) for line in screen.query_one("#events").lines)
        # The autosave was written again without the two moves.
        rec = read_record_file(s.path)
        assert rec.steps == 2 and verify(rec).ok

        await pilot.press("u")
        await wait_until(pilot, lambda: screen.runner is not s and human_to_move(screen), "the second takeback")
        s = screen.runner
        assert s.history == [] and screen.records == [] and s.game.position() == "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
        await pilot.press("u")
        await wait_until(pilot, lambda: text(screen.query_one("#error")) == "nothing to take back",
                         "the refusal")


# -- resume after the app went away mid-game ----------------------------------------


async def test_resume_after_the_app_is_torn_down_mid_game(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(HUMAN, FAST_AI))
        await type_move(pilot, "d1-d3")
        await wait_for_human(pilot, screen)
        second = min(screen.runner.point.options)
        await type_move(pilot, f"{second[0]}-{second[1]}")
        await wait_for_human(pilot, screen)
        position = screen.runner.game.position()
        moves = list(screen.records)
        moves_text = screen.query_one(MoveList).plain
    # No leave, no game over: the test simply stops, as a killed terminal would.

    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        picker = await open_continue(pilot)
        menu = picker.query_one("#unfinished", OptionList)
        assert menu.option_count == 1
        assert str(menu.get_option_at_index(0).prompt).endswith("· 4 steps")
        await pilot.press("enter")
        await pilot.pause()
        resumed = again.screen
        assert isinstance(resumed, PlayScreen)
        assert resumed.runner.game.position() == position
        assert resumed.records == moves
        assert resumed.query_one(MoveList).plain == moves_text
        assert board_position(resumed.query_one("#board", TaflBoard)) == position
        assert human_to_move(resumed) and resumed.runner.point.seat == 0
        assert [c.kind for c in resumed.runner.header.seats] == ["human", "ai"]
        assert resumed.runner.plans[1].limit.seconds == pytest.approx(0.05)


# -- the mouse -------------------------------------------------------------------------


async def test_click_a_piece_then_its_destination(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(HUMAN, HUMAN, setup=KING_RUN))
        board = screen.query_one("#board", TaflBoard)
        c3, c1 = square(screen, "c3"), square(screen, "c1")
        await pilot.click(board, offset=cell_offset(board, c3))
        await pilot.pause()
        assert board.selected == c3 and board.cursor == c3
        await pilot.click(board, offset=cell_offset(board, c1))
        await pilot.pause()
        assert screen.records == ["Kc3-c1"]
        assert screen.runner.game.position() == "/2K6/9/9/9/9/9/9/7t1/9/"


async def test_square_at_is_the_square_drawn_there(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot, gild9(HUMAN, HUMAN))
        board = screen.query_one("#board", TaflBoard)
        n = board.view.size
        pad = board.styles.padding.left
        wrong = {}
        for sq in range(n * n):
            x, y = cell_offset(board, sq)
            for dx in (-1, 0, 1):  # every column of the cell
                got = board.square_at(x + dx - pad, y)
                if got != sq:
                    wrong[screen.runner.game.geo.names[sq]] = got
        assert wrong == {}
