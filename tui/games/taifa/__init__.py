"""Taifa in the app and at the command line: the map, the text view, the rules in brief, its commands."""

from tui.games import TuiGame

PLUGIN = TuiGame(
    name="taifa",
    board="tui.games.taifa.board:TaifaBoard",
    text="tui.games.taifa.text:position_text",
    rules="tui.games.taifa:rules.md",
    cli="tui.games.taifa.cli:register",
    console="tui.games.taifa.console:CONSOLE",
)
