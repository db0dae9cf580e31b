"""Tafl puzzles in the app: the board (tui/games/tafl/board.py), the goal, hints, the next puzzle.

Every move chosen on the board is checked by the rules engine (legal, and winning within the
moves left: core/tafl/puzzles.py proves it); a wrong one is said to be wrong and the position
stays; a right one is answered by the defence's strongest reply. ``fiefdom tafl puzzle FILE``
opens :class:`PuzzleApp`, and q goes back to the shell.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from core.tafl.puzzles import Puzzle, PuzzlePlay
from notation.wording import visible
from tui.games.tafl.board import TaflBoard
from tui.widgets.options import ChoiceRefused, OptionChosen


class PuzzleScreen(Screen[None]):
    """One puzzle at a time: the board takes the moves; ``?`` a hint, ``n`` the next puzzle,
    ``r`` the puzzle again from its start, ``q`` back to the shell."""

    DEFAULT_CSS = """
    PuzzleScreen #puzzle-goal { height: 1; padding: 0 1; background: $panel; text-style: bold; }
    PuzzleScreen #puzzle-side { width: 1fr; min-width: 30; padding: 0 1; }
    PuzzleScreen #puzzle-message { height: auto; }
    PuzzleScreen #puzzle-moves { height: auto; margin-top: 1; }
    PuzzleScreen #puzzle-score { height: auto; margin-top: 1; }
    PuzzleScreen #puzzle-source { height: auto; margin-top: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("question_mark", "hint", "Hint (the piece, then its square)", key_display="?", id="puzzle.hint"),
        Binding("n", "next", "Next puzzle", id="puzzle.next"),
        Binding("r", "again", "Start again", id="puzzle.again"),
        Binding("q", "app.quit", "Quit", id="puzzle.quit"),
    ]

    def __init__(self, puzzles: list[Puzzle]) -> None:
        super().__init__()
        assert puzzles, "a puzzle file has at least one puzzle"
        self.puzzles = puzzles
        self.index = 0
        self.solved: set[int] = set()
        self.play = PuzzlePlay(puzzles[0])
        self.thinking = False  # a move or a hint being worked out off the screen's thread

    def compose(self) -> ComposeResult:
        yield Static(id="puzzle-goal", markup=False)
        with Horizontal():
            yield TaflBoard(self.play.game, id="puzzle-board")
            with Vertical(id="puzzle-side"):
                yield Static(id="puzzle-message", markup=False)
                yield Static(id="puzzle-moves", markup=False)
                yield Static(id="puzzle-score", markup=False)
                yield Static(id="puzzle-source", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._draw("Choose a piece, then its square (Enter or a click). ? for a hint.")
        self.query_one(TaflBoard).focus()

    @property
    def board(self) -> TaflBoard:
        return self.query_one(TaflBoard)

    def _draw(self, message: str) -> None:
        puzzle = self.puzzle
        source = f"From {visible(puzzle.source)}, step {puzzle.step}" if puzzle.source else ""
        goal = "Solved! n for the next puzzle" if self.play.solved else self.play.status().capitalize()
        self.query_one("#puzzle-goal", Static).update(f"Puzzle {self.index + 1} of {len(self.puzzles)}: {goal}")
        self.query_one("#puzzle-source", Static).update(source)
        self.query_one("#puzzle-message", Static).update(visible(message))
        self.query_one("#puzzle-moves", Static).update("Moves: " + (" ".join(self.play.played) or "none yet"))
        self.query_one("#puzzle-score", Static).update(f"Solved {len(self.solved)} of {len(self.puzzles)}")
        self.board.show(self.play.game, interactive=not self.play.solved)

    @property
    def puzzle(self) -> Puzzle:
        return self.puzzles[self.index]

    @on(OptionChosen)
    def move_chosen(self, message: OptionChosen) -> None:
        message.stop()
        code = message.code
        self._think("Checking the move...", lambda play: play.try_move(code).text)

    def _think(self, note: str, work: Callable[[PuzzlePlay], str]) -> None:
        """Run ``work`` (a proof: up to a second or two) off the screen's thread, the board still
        meanwhile; its line is shown when it is done, unless the puzzle changed in between."""
        if self.thinking:
            self.query_one("#puzzle-message", Static).update("Still working on the last one...")
            return
        self.thinking = True
        play = self.play
        self.board.show(play.game, interactive=False)
        self.query_one("#puzzle-message", Static).update(note)

        def run() -> None:
            line = work(play)
            self.app.call_from_thread(self._done, play, line)

        self.run_worker(run, thread=True, group="puzzle")

    def _done(self, play: PuzzlePlay, line: str) -> None:
        if play is not self.play:  # the next puzzle was chosen meanwhile
            return
        self.thinking = False
        if play.solved:
            self.solved.add(self.index)
        self._draw(line)

    @on(ChoiceRefused)
    def choice_refused(self, message: ChoiceRefused) -> None:
        message.stop()
        self.query_one("#puzzle-message", Static).update(visible(message.why))

    def action_hint(self) -> None:
        self._think("Looking for a hint...", lambda play: play.hint())

    def action_next(self) -> None:
        self.thinking = False  # a proof still running is for the puzzle left: its line is dropped
        self.index = (self.index + 1) % len(self.puzzles)
        self.play = PuzzlePlay(self.puzzle)
        self._draw("The next puzzle." if self.index else "Back to the first puzzle.")

    def action_again(self) -> None:
        self.thinking = False
        self.play = PuzzlePlay(self.puzzle)
        self._draw("From the start again.")


class PuzzleApp(App[None]):
    """The puzzle screen alone, as ``fiefdom tafl puzzle FILE`` opens it."""

    TITLE = "fiefdom: Tafl puzzles"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(self, puzzles: list[Puzzle]) -> None:
        super().__init__()
        self.puzzles = puzzles

    def on_mount(self) -> None:
        self.push_screen(PuzzleScreen(self.puzzles))
