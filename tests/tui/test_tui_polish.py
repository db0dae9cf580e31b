"""Pilot tests of the Tafl screen as a new user meets it: where the keys go, what a refused square
says, the last move without colour, the flip, the seed."""

from __future__ import annotations

import time

from textual.widgets import Input

from core.engine import Result
from tui.games.tafl.board import TaflBoard
from tui.screens.dialogs import GameOverDialog
from tui.screens.play import PlayScreen
from tui_support import (
    FAST_AI, HUMAN, KING_RUN, game_over_shown, gild9, screen_lines, start_game, text, type_move, wait_for_human,
    wait_until,
)

def thinking_until_stopped(screen: PlayScreen) -> None:
    """The AI seat's search stands in for one that thinks until the screen stops it: it sleeps
    (a real search would hold the interpreter and make each key press take a second in a test)."""
    runner = screen.runner

    def think():
        while not screen.driver.halted:
            time.sleep(0.01)
        return runner.point.options[0]

    runner.think = think


def row_text(board: TaflBoard, rank: int) -> str:
    """The characters the board draws for ``rank`` (1 = the bottom one unless flipped)."""
    n = board.view.size
    y = rank if board.flipped else n + 1 - rank
    return board.render_line(y).text


async def test_keys_go_back_to_the_board_and_escape_returns_there_while_the_ai_thinks(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, gild9(HUMAN, FAST_AI))
        thinking_until_stopped(screen)
        board = screen.query_one("#board", TaflBoard)
        await type_move(pilot, "d1-d3")
        assert screen.driver.thinking and app.focused is screen.query_one("#move-input", Input)  # it keeps the keys
        await pilot.press("escape")
        assert app.focused is board
        # The last move without colour: `-` where it left, `( )` round the piece that arrived.
        assert row_text(board, 1)[3 + 3 * 3:3 + 3 * 4] == " - "
        assert row_text(board, 3)[3 + 3 * 3:3 + 3 * 4] == "(A)"
        await pilot.press("t")
        assert app.focused is screen.query_one("#move-input", Input)
        await pilot.press("escape")  # the AI is still thinking
        assert screen.driver.thinking and app.focused is board
        # A square while nobody here is to move says so.
        await pilot.press("enter")
        assert text(screen.query_one("#error")) == "not now: nobody here is to move"
        await pilot.press("q")  # leaving stops the AI at once


async def test_enter_on_a_square_that_is_no_choice_says_why(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, gild9(HUMAN, HUMAN))
        board = screen.query_one("#board", TaflBoard)
        error = screen.query_one("#error")
        await pilot.press("enter")  # the king on e5, attackers to move
        assert text(error) == "e5 holds the king: the attackers are to move"
        await pilot.press("up", "up", "enter")
        assert text(error) == "e7 holds a defender: the attackers are to move"
        await pilot.press("left", "enter")
        assert text(error) == "d7 is empty: choose one of the attackers' pieces"
        await pilot.press("up", "up", "right", "enter")  # e9: between d9, f9 and e8
        assert text(error) == "An attacker on e9 is hemmed in: it has no move"
        await pilot.press("left", "enter", "down", "left", "enter")  # d9 selected, then c8
        assert text(error) == "d9 to c8: a piece moves straight along its rank or file"
        await pilot.press("right", "up", "enter", "left", "left", "left", "enter")  # d9, then the corner a9
        assert text(error) == "d9 to a9: the way is blocked, or a9 is barred to that piece"
        assert board.selected is None


async def test_flip_turns_the_board_and_the_keys_with_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, gild9(HUMAN, HUMAN, setup=KING_RUN))
        board = screen.query_one("#board", TaflBoard)
        await pilot.press("f")
        assert board.flipped
        assert board.render_line(0).text.split() == list("ihgfedcba")
        assert row_text(board, 3).split() == ["3", ".", ".", ".", ".", ".", ".", "K", ".", ".", "3"]
        # Up on the screen is down the board, left is right: from e5 to f4, then to the king on c3 and down to c1.
        await pilot.press("up", "left")
        assert board.cursor == screen.runner.game.geo.square("f4")
        await pilot.press("up", "right", "right", "right", "enter", "up", "up", "enter")
        assert screen.records == ["Kc3-c1"]
        await pilot.press("f", "up")  # back the usual way round, the cursor off c1
        assert not board.flipped and row_text(board, 1).split()[3] == "(K)"
        assert row_text(board, 3).split()[3] == "-"


async def test_each_new_game_form_has_a_fresh_seed(make_app) -> None:
    from textual.widgets import Input

    from tui.screens.setup import SetupScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        seeds = []
        for _ in range(3):
            app.action_new_game()
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            seeds.append(app.screen.query_one("#seed", Input).value)
            await pilot.press("escape")
        assert all(s.isdigit() for s in seeds) and len(set(seeds)) == 3


async def test_help_opens_on_the_keys_of_the_screen_below_then_the_rules(make_app, data) -> None:
    from tui.screens.help import HelpScreen, HelpText

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        home = app.screen.query_one(HelpText).source
        assert home.startswith("## Keys here\n\n**Home**")
        assert f"Your data folder is `{data}`" in home
        await pilot.press("escape")
        await start_game(app, pilot, gild9(HUMAN, HUMAN))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.query_one(HelpText).source
        here, rest = source.split("## Tafl in brief", 1)
        assert here.startswith("## Keys here\n\n**Play**") and "**Board (tafl)**" in here
        assert "**Home**" not in here and "**Board (taifa)**" not in here
        # The game's palette commands are listed with the keys here, and how to open the palette.
        assert "## Commands here" in here and "`ctrl+p`" in here
        assert "| Resign |" in here and "| Takeback |" in here and "| Save as |" in here and "| Flip the board |" in here
        assert rest.index("## Taifa in brief") < rest.index("## Keys elsewhere") and "**Home**" in rest
        shown = "\n".join(screen_lines(app.export_screenshot()))
        assert "Keys here" in shown and "play.type" in shown  # it opens on them


# -- the command palette, the game-over dialog, play from here --------------------------


async def palette(pilot, command: str, typed: str | None = None) -> None:
    """Run ``command`` from the command palette by keys: ctrl+p, its name (or the start of it,
    ``typed``), Enter on the first match."""
    from textual.command import CommandList, CommandPalette

    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    await pilot.press(*(typed or command))

    def first() -> str:
        found = app.screen.query(CommandList)
        return str(found.first().get_option_at_index(0).prompt) if found and found.first().option_count else ""

    await wait_until(pilot, lambda: command in first(), f"{command!r} in the palette")
    await pilot.press("enter")
    await pilot.pause()


async def test_resign_from_the_palette_is_recorded_then_reviewed(make_app, data) -> None:
    from notation.reader import read_record_file
    from notation.verify import verify
    from tui.screens.dialogs import ConfirmDialog
    from tui.screens.replay import ReplayScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, gild9(HUMAN, FAST_AI))
        await type_move(pilot, "d1-d3")
        await wait_for_human(pilot, screen)
        path = screen.runner.path
        await palette(pilot, "Resign", "resi")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await wait_until(pilot, lambda: game_over_shown(app), "the game-over dialog")
        dialog = app.screen
        assert text(dialog.query_one("#result-title")) == "Defenders won"
        assert text(dialog.query_one("#result-reason")) == "attackers resigned [resign]"
        assert dialog.query_one("#save-name", Input).value == path.stem  # a name offered
        await pilot.press("tab", "tab", "tab", "enter")  # Save, Rematch, Review
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        assert app.screen.path == path and app.screen.report.ok
        await pilot.press("end")
        assert " · result: attackers resigned · replay " in text(app.screen.query_one("#status"))
        await pilot.press("q")
        await pilot.pause()
        assert not any(isinstance(s, PlayScreen) for s in app.screen_stack)
    rec = read_record_file(path)
    assert rec.steps == 2 and rec.result.rule == "resign" and verify(rec).ok


async def test_rematch_is_the_same_game_with_a_fresh_seed(make_app) -> None:
    from tui_support import KING_AT_B1

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        first = await start_game(app, pilot, gild9(HUMAN, HUMAN, setup=KING_AT_B1, seed=5))
        await type_move(pilot, "Kb1-a1")
        await wait_until(pilot, lambda: game_over_shown(app), "the game-over dialog")
        await pilot.press("tab", "tab", "enter")  # Save, Rematch
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen is not first,
                         "the rematch")
        again = app.screen.runner
        assert again.header.setup == KING_AT_B1 and again.history == [] and again.path != first.runner.path
        assert [s.kind for s in again.header.seats] == ["human", "human"] and again.header.seed != 5
        assert sum(isinstance(s, PlayScreen) for s in app.screen_stack) == 1


async def test_the_palette_hands_a_side_over_saves_flips_and_plays_from_here(make_app, data) -> None:
    from notation.reader import read_record_file
    from tui.screens.dialogs import SaveDialog
    from textual.widgets import Select

    from tui.screens.setup import SetupScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_game(app, pilot, gild9(HUMAN, HUMAN, seed=9))
        await type_move(pilot, "d1-d3")  # the defenders to move: handed over and back before the AI thinks
        await palette(pilot, "Hand attackers to the AI", "hand")
        r = screen.runner
        assert [s.kind for s in read_record_file(r.path).header.seats] == ["ai", "human"]
        assert r.people == [1] and len(r.history) == 1 and human_to_move_seat(screen) == 1
        await palette(pilot, "Take attackers back from the AI", "take a")
        assert [s.kind for s in read_record_file(r.path).header.seats] == ["human", "human"]
        await palette(pilot, "Flip the board", "flip")
        assert screen.query_one("#board", TaflBoard).flipped
        await palette(pilot, "Save as", "save")
        assert isinstance(app.screen, SaveDialog)
        await pilot.press(*"kept", "enter")  # the offered name is selected: typing replaces it
        await pilot.pause()
        assert read_record_file(data / "saved" / "kept.fief").steps == 1
        await palette(pilot, "Play from here", "play f")
        form = app.screen
        assert isinstance(form, SetupScreen)
        assert form.query_one("#variant", Select).value == "gild-9"
        assert form.query_one("#seed", Input).value == "9"
        assert [form.query_one(f"#{s}-kind", Select).value for s in ("attackers", "defenders")] == ["human", "human"]
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen) and app.screen is not screen, "the game")
        branch = app.screen.runner
        assert [s.value for s in branch.history] == [("d1", "d3")] and branch.path != r.path
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is screen  # the game played from stays as it was


def human_to_move_seat(screen: PlayScreen) -> int | None:
    waiting = screen.runner.waiting
    return getattr(waiting, "seat", None)


async def test_the_game_over_dialog_opened_as_the_app_closes_raises_nothing(make_app, tmp_path) -> None:
    """The app closed as the game ends (a key that leaves, the last step landing): the game-over
    dialog opens with no children to focus, and says nothing (it raised NoMatches, a traceback)."""
    app = make_app()
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        app.push_screen(GameOverDialog(Result((0,), "the king is captured", "rule"), ("A", "B"), tmp_path / "r.fief"))
    assert app.return_code in (0, None)
