"""Tafl puzzles in the app (tui/games/tafl/puzzle_screen.py): the goal is shown, a hint names the
piece then its square, a wrong move is refused, and the board's keys and clicks solve a puzzle."""

from __future__ import annotations

from textual.widgets import Static

from core.tafl import TaflGame
from core.tafl.puzzles import Puzzle, puzzle_of, winning_move
from tui.games.tafl.board import TaflBoard
from tui.games.tafl.puzzle_screen import PuzzleApp, PuzzleScreen

from tui_support import cell_offset, text, wait_until

WIN_IN_2 = "/4T2/1K2tt1/7/5t1/2t4/7/7/"  # defenders: b2-a2, then a corner
WIN_IN_1 = "/2t4/7/4t2/4t2/4T2/1t5/1K5/"  # attackers: c1-c7 takes the king


def puzzles() -> list[Puzzle]:
    found = [puzzle_of(TaflGame("brandubh", None, WIN_IN_2, 1)), puzzle_of(TaflGame("brandubh", None, WIN_IN_1, 0))]
    assert all(p is not None for p in found)
    return [p for p in found if p is not None]


def said(app: PuzzleApp, widget: str) -> str:
    return text(app.screen.query_one(f"#puzzle-{widget}", Static))


async def test_the_goal_hints_and_solving_by_keys_and_clicks() -> None:
    app = PuzzleApp(puzzles())
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, PuzzleScreen) and bool(app.screen.query(TaflBoard)),
                         "the puzzle screen")
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        assert "Puzzle 1 of 2: Defenders to move and win in 2" in said(app, "goal")
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: said(app, "message") == "move the king on b2", "the first hint")
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: said(app, "message") == "move the king on b2 to a2", "the second hint")
        # A wrong move, by the keys (the cursor starts on the throne, d4): b2-b3 is legal but does not win.
        await pilot.press("left", "left", "down", "down", "enter", "up", "enter")
        await wait_until(pilot, lambda: "does not win in 2" in said(app, "message"), "the wrong move refused")
        assert screen.play.game.position() == WIN_IN_2
        # The right one: b2-a2 (the cursor is on b3 now).
        await pilot.press("down", "enter", "left", "enter")
        await wait_until(pilot, lambda: "right." in said(app, "message"), "the defence's answer")
        assert "Defenders to move and win in 1" in said(app, "goal")
        # The last move by clicks: the king, then the corner still open.
        board = screen.query_one(TaflBoard)
        move = winning_move(screen.play.game, 1)
        assert move is not None and move[0] == "a2"
        names = board.view.names
        await pilot.click(TaflBoard, offset=cell_offset(board, names.index(move[0])))
        await pilot.click(TaflBoard, offset=cell_offset(board, names.index(move[1])))
        await wait_until(pilot, lambda: screen.play.solved, "the puzzle solved")
        assert "Solved!" in said(app, "goal") and "Solved 1 of 2" in said(app, "score")
        await pilot.press("n")
        await wait_until(pilot, lambda: "Puzzle 2 of 2: Attackers to move and win in 1" in said(app, "goal"),
                         "the next puzzle")
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running, "the app to close")
