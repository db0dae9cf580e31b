"""Tafl puzzles at the text prompt: the board as the prompt draws Tafl, the goal, moves typed in.

A wrong move is said to be wrong and the position stays; the defence answers a right one with its
strongest reply; ``hint`` names the piece, then its square; ``skip`` goes to the next puzzle,
``quit`` (or the input ending) stops; the score closes.
"""

from __future__ import annotations

from collections.abc import Callable

from core.tafl.puzzles import Puzzle, PuzzlePlay
from tui.cli_support import visible_lines
from tui.console import QUIT_WORDS
from tui.games.tafl import text

HELP = "type a move (e1-e4 or e1e4), or: hint (the piece, then its square), board, skip, quit"


def play_puzzles(puzzles: list[Puzzle], read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> str:
    """Play the puzzles in turn; returns the closing score line."""
    solved = skipped = 0
    out: Callable[[str], None] = lambda line: write(visible_lines(line))  # noqa: E731 - nothing steers the terminal
    for number, puzzle in enumerate(puzzles, start=1):
        play = PuzzlePlay(puzzle)
        source = f" (from {puzzle.source}, step {puzzle.step})" if puzzle.source else ""
        out(f"\npuzzle {number} of {len(puzzles)}{source}: {puzzle.goal}")
        out(text.board(play.game))
        while not play.solved:
            try:
                line = read(f"{play.status()}> ").strip()
            except (EOFError, OSError, RuntimeError, ValueError):
                return _score(solved, skipped, len(puzzles), "the input ended")
            word = line.lower()
            if word in QUIT_WORDS:
                return _score(solved, skipped, len(puzzles), "stopped")
            if word == "skip":
                out(f"skipped; the solution: {' '.join(puzzle.solution)}")
                skipped += 1
                break
            if word == "hint":
                out(play.hint())
            elif word == "board":
                out(text.board(play.game))
            elif word in ("help", "?", ""):
                out(HELP)
            else:
                verdict = play.try_move(line)
                out(verdict.text)
                if verdict.ok and not verdict.solved:
                    out(text.board(play.game))
        if play.solved:
            solved += 1
            extra = f", {play.wrong} wrong" if play.wrong else ""
            extra += f", {play.hints} hint{'s' if play.hints != 1 else ''}" if play.hints else ""
            out(f"solved{extra}")
    return _score(solved, skipped, len(puzzles), "done")


def _score(solved: int, skipped: int, total: int, why: str) -> str:
    return f"{why}: {solved} solved, {skipped} skipped, of {total} puzzle{'s' if total != 1 else ''}"
