"""Tafl's touches at the prompt (tui/console.py): the board above every move, and a board command."""

from __future__ import annotations

from typing import Any

from tui.console import Command, ConsoleExtras
from tui.games.tafl import text


def _header(game: Any, seat: int) -> str:
    return text.board(game)


CONSOLE = ConsoleExtras(
    header=_header,
    commands=(Command("board", "the board and the position string", lambda game, seat: text.position_text(game)),),
    typing="e1-e4, or e1e4",
    list_limit=16,
)
