"""Tafl as plain text: the board with file letters and rank numbers, for ``replay show`` and the prompt."""

from __future__ import annotations

from typing import Any

from core.engine import Decision, Over
from core.tafl.board import PIECE_CHARS

# Empty special squares: corners and the throne or hof, and base camps.
_CORNER_OR_CENTRE = "*"
_CAMP = ","
_EMPTY = "."


def board(game: Any) -> str:
    """The board, rank 1 at the bottom: ``t`` attacker, ``T`` defender, ``K`` king;
    ``*`` an empty corner or centre, ``,`` an empty camp."""
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


def status(game: Any) -> str:
    point = game.point()
    if isinstance(point, Over):
        return f"game over: {point.result.reason}"
    if isinstance(point, Decision):
        return f"to move: {game.seats[point.seat]}"
    return f"chance: {point.label or point.kind}"


def position_text(game: Any, seat: int | None = None) -> str:
    """The board, the OpenTafl position string and the side to move (Tafl hides nothing from a seat)."""
    return "\n".join([board(game), f"position: {game.position()}", status(game)])
