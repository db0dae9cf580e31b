"""Pilot tests of the keys themselves: help, the command palette, a user keymap."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette

from tui.games.tafl.board import TaflBoard
from tui.screens.dialogs import Dialog, JoinDialog
from tui.screens.help import HelpScreen, HelpText
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen
from tui.screens.setup import ContinueScreen, SetupScreen
from tui_support import HUMAN, gild9, screen_lines, text, wait_until


def help_rows(source: str) -> dict[str, tuple[str, str]]:
    """binding id -> (keys, action) from the help's Markdown tables."""
    rows = {}
    for line in source.splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and "." in cells[2]:
            rows[cells[2]] = (cells[0], cells[1])
    return rows


async def open_help(pilot, key: str = "question_mark") -> str:
    """Press the help key: the help screen's Markdown source."""
    await pilot.pause()
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, HelpScreen)
    return pilot.app.screen.query_one(HelpText).source


async def test_help_lists_every_binding_id_with_its_keys(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        rows = help_rows(await open_help(pilot))
        for cls in (HomeScreen, TaflBoard, PlayScreen, ReplayScreen):
            for binding in cls.BINDINGS:
                assert binding.id in rows, binding.id
        assert rows["board.up"] == ("up, k", "Up")
        assert rows["board.select"] == ("enter, space", "Select/move")
        assert rows["play.type"] == ("t", "Type move")
        assert rows["play.takeback"] == ("u", "Takeback")
        assert rows["replay.goto"] == ("g", "Go to")
        assert rows["home.help"] == ("?, f1", "Help")
        assert rows["app.quit"] == ("ctrl+q", "Quit")
        # The tables are drawn, not only written: the first rows are on the screen.
        shown = "\n".join(screen_lines(app.export_screenshot()))
        assert "home.new" in shown and "New game" in shown
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_help_lists_the_keys_of_every_screen(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        rows = help_rows(await open_help(pilot))
        for cls in (SetupScreen, ContinueScreen, Dialog, HelpScreen):
            for binding in cls.BINDINGS:
                assert binding.id in rows, binding.id
        assert rows["setup.start"] == ("ctrl+s", "Start")


async def test_command_palette_offers_the_main_actions(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        commands = palette.query_one(CommandList)
        await wait_until(pilot, lambda: commands.option_count >= 4, "the palette's commands")
        names = {str(commands.get_option_at_index(i).prompt).split("\n")[0]
                 for i in range(commands.option_count)}
        assert {"New game", "Continue", "Open record", "Help", "Theme"} <= names, names

        await pilot.press(*"new game")
        await wait_until(pilot, lambda: commands.option_count >= 1
                         and str(commands.get_option_at_index(0).prompt).startswith("New game"),
                         "the palette to find New game")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")


async def test_a_keymap_in_the_data_folder_remaps_a_binding(make_app, data: Path) -> None:
    data.mkdir(parents=True)
    (data / "keymap.toml").write_text('"board.up" = "w"\n', "utf-8")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert [n for n in app._notifications] == []
        app.start_game(gild9(HUMAN, HUMAN))
        await pilot.pause()
        board = app.screen.query_one("#board", TaflBoard)
        assert app.focused is board
        n = board.view.size
        centre = board.cursor
        await pilot.press("w")
        assert board.cursor == centre + n  # one rank up
        await pilot.press("k")  # the default key is replaced, not added to
        assert board.cursor == centre + n
        await pilot.press("j")  # other bindings keep their keys
        assert board.cursor == centre
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert help_rows(app.screen.query_one(HelpText).source)["board.up"] == ("w", "Up")


async def test_an_unusable_keymap_is_one_warning(make_app, data: Path) -> None:
    data.mkdir(parents=True)
    (data / "keymap.toml").write_text('"board.up" = 5\n', "utf-8")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        warnings = [n.message for n in app._notifications if n.severity == "warning"]
        assert len(warnings) == 1 and "board.up" in warnings[0]
        assert isinstance(app.screen, HomeScreen)
        app.start_game(gild9(HUMAN, HUMAN))
        await pilot.pause()
        board = app.screen.query_one("#board", TaflBoard)
        centre = board.cursor
        await pilot.press("k")  # the defaults still work
        assert board.cursor == centre + board.view.size
        assert "your move" in text(app.screen.query_one("#status"))


async def test_help_has_each_games_rules_in_brief_and_board_keys(make_app, hoard) -> None:
    """Rules come from each game's plugin (tui/games/<game>/rules.md); a game without one
    (Hoard, registered in core alone) simply has none, and help still opens."""
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        source = await open_help(pilot, "f1")
        assert "## Tafl in brief" in source and "## Taifa in brief" in source
        assert "**Board (tafl)**" in source and "Board (hoard)" not in source
        rows = help_rows(source)
        assert rows["play.options"] == ("o", "Options")
        assert rows["continue.delete"] == ("d, delete", "Delete game")
        assert rows["confirm.yes"] == ("y", "Yes")


async def test_the_home_menu_does_what_its_entries_say_by_enter_and_by_click(make_app) -> None:
    """Each entry of the home menu opens its screen (they once did nothing but for their keys)."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        await pilot.press("enter")  # the first entry, New game
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup form")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home again")
        await pilot.press("down", "down", "down", "enter")  # Join a hosted game
        await wait_until(pilot, lambda: isinstance(app.screen, JoinDialog), "the invitation's box")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home after join")
        await pilot.press("down", "enter")  # Help
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home once more")
        await pilot.click("#home-menu", offset=(4, 2))  # the second entry's line: Continue
        await wait_until(pilot, lambda: isinstance(app.screen, ContinueScreen), "the Continue screen")
