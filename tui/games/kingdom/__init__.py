"""Take the Kingdom at the command line and in the app: the text view (the app's position
pane until the game has a table widget), the rules in brief, its commands, the prompt's extras."""

from tui.games import TuiGame

PLUGIN = TuiGame(
    name="kingdom",
    board="tui.games.kingdom.board:KingdomBoard",
    text="tui.games.kingdom.text:position_text",
    rules="tui.games.kingdom:rules.md",
    cli="tui.games.kingdom.cli:register",
    console="tui.games.kingdom.console:CONSOLE",
    landmarks="tui.games.kingdom:LANDMARKS",
)
# The replay viewer's jumps: to the next attack, the next turn (multiplayer) or round (solo),
# the next kingdom to fall or restart.
LANDMARKS = (("a", "attack", ("attack",)), ("n", "turn", ("turn", "round")),
             ("f", "fall", ("out", "survival")))
