"""Tafl in the app and at the command line: the board, the text board, the rules in brief, its commands."""

from tui.games import TuiGame

PLUGIN = TuiGame(
    name="tafl",
    board="tui.games.tafl.board:TaflBoard",
    text="tui.games.tafl.text:position_text",
    rules="tui.games.tafl:rules.md",
    cli="tui.games.tafl.cli:register",
    console="tui.games.tafl.console:CONSOLE",
)
