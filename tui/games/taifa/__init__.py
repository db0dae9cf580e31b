"""Taifa in the app and at the command line: the map, the text view, the rules in brief, its commands."""

from tui.games import TuiGame

PLUGIN = TuiGame(
    name="taifa",
    board="tui.games.taifa.board:TaifaBoard",
    text="tui.games.taifa.text:position_text",
    rules="tui.games.taifa:rules.md",
    cli="tui.games.taifa.cli:register",
    console="tui.games.taifa.console:CONSOLE",
    landmarks="tui.games.taifa:LANDMARKS",
)
# The replay viewer's jumps: to the next fight's deciding event, kingdom's round, turn.
LANDMARKS = (("c", "combat", ("combat",)), ("r", "round", ("round",)), ("n", "turn", ("turn",)))
