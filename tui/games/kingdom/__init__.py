"""Take the Kingdom in the app and at the command line: the table (the kingdoms as lines of
defence, the hand, the solo round), the text view, the rules in brief, its commands, the
prompt's extras."""

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
# the next kingdom to fall or restart. An attack is x: a is the viewer's own (analyse).
LANDMARKS = (("x", "attack", ("attack",)), ("n", "turn", ("turn", "round")),
             ("f", "fall", ("out", "survival")))
