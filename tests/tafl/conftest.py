from __future__ import annotations

from collections.abc import Callable

import pytest

from core.tafl import TaflGame, variant
from core.tafl.board import ATTACKER, DEFENDER, KING, format_position

Setup = Callable[..., TaflGame]


def make_game(
    name: str,
    attackers: str = "",
    defenders: str = "",
    king: str | None = None,
    to_move: str = "attackers",
    **options: object,
) -> TaflGame:
    """A game in a hand-built position: squares are space-separated names."""
    v = variant(name)
    board = [0] * (v.size * v.size)
    for names, piece in ((attackers, ATTACKER), (defenders, DEFENDER), (king or "", KING)):
        for sq in names.split():
            board[v.geometry.square(sq)] = piece
    return TaflGame(name, options, format_position(board, v.size), 0 if to_move == "attackers" else 1)


@pytest.fixture
def setup() -> Setup:
    return make_game
