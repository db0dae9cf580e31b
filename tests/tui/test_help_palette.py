"""The help screen lists the command palette's commands for the screen it was opened from (issue
30, "help for every key where the key is used"): exactly what the palette offers there, with
what each does and the key that opens the palette."""

from __future__ import annotations

import re
from typing import Any

from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot

from tui.screens.help import HelpScreen, HelpText
from tui_support import HUMAN, gild9, start_game, wait_until


async def palette_names(pilot: Pilot) -> set[str]:
    """The commands the palette lists before anything is typed (opened with ctrl+p, then closed)."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    commands = app.screen.query_one(CommandList)
    await wait_until(pilot, lambda: commands.option_count >= 4, "the palette's commands")
    names = {str(commands.get_option_at_index(i).prompt).split("\n")[0] for i in range(commands.option_count)}
    await pilot.press("escape")
    await wait_until(pilot, lambda: not isinstance(app.screen, CommandPalette), "the palette closed")
    return names


async def help_commands(pilot: Pilot) -> tuple[set[str], str]:
    """Help's "Commands here": the commands its table names, and the whole section."""
    app: Any = pilot.app
    await pilot.press("question_mark")
    await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
    source = app.screen.query_one(HelpText).source
    section = source.split("## Commands here", 1)[1].split("\n## ", 1)[0]
    names = set(re.findall(r"^\| (.+?) \| .+ \|$", section, re.M)) - {"command"}
    await pilot.press("escape")
    return names, section


async def test_help_lists_the_palette_commands_of_the_home_screen_and_of_a_game(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        offered = await palette_names(pilot)
        listed, section = await help_commands(pilot)
        assert listed == offered
        assert {"New game", "Continue", "Open record", "Help", "Theme", "Quit"} <= listed
        assert "`ctrl+p`" in section and "| New game | Set up and start a new game |" in section

        await start_game(app, pilot, gild9(HUMAN, HUMAN))
        offered = await palette_names(pilot)
        listed, section = await help_commands(pilot)
        assert listed == offered
        assert {"Resign", "Takeback", "Save as", "Flip the board", "New game", "Theme"} <= listed
        assert "| Takeback | Take back your last move (u) |" in section
