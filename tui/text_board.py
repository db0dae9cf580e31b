"""Positions drawn as plain text, for the CLI (``fiefdom replay show``)."""

from __future__ import annotations

from pprint import pformat

from core.engine import Decision, Game, Over
from core.tafl import TaflGame
from core.tafl.board import PIECE_CHARS

# Empty special squares: corners and the throne or hof, and base camps.
_CORNER_OR_CENTRE = "*"
_CAMP = ","
_EMPTY = "."


def tafl_board(game: TaflGame) -> str:
    """The board with file letters and rank numbers, rank 1 at the bottom:
    ``t`` attacker, ``T`` defender, ``K`` king; ``*`` an empty corner or centre, ``,`` an empty camp."""
    g = game.geo
    files = " ".join(chr(97 + c) for c in range(g.size))
    lines = [f"    {files}"]
    for row in range(g.size - 1, -1, -1):
        cells = []
        for col in range(g.size):
            sq = row * g.size + col
            piece = game.board[sq]
            if piece:
                cells.append(PIECE_CHARS[piece])
            elif sq in g.corners or sq == g.centre:
                cells.append(_CORNER_OR_CENTRE)
            else:
                cells.append(_CAMP if g.camp_of[sq] else _EMPTY)
        lines.append(f"{row + 1:>2}  {' '.join(cells)}  {row + 1}")
    lines.append(f"    {files}")
    return "\n".join(lines)


def position_text(game: Game) -> str:
    """The position and whose turn it is: for Tafl the board, the OpenTafl position
    string and the side to move; for other games their view, as data."""
    point = game.point()
    if isinstance(point, Over):
        status = f"game over: {point.result.reason}"
    elif isinstance(point, Decision):
        status = f"to move: {game.seats[point.seat]}"
    else:
        status = f"chance: {point.label or point.kind}"
    if isinstance(game, TaflGame):
        return "\n".join([tafl_board(game), f"position: {game.position()}", status])
    return "\n".join([pformat(game.view(None), width=100), status])
