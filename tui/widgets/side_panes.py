"""The panes beside the board on the play and replay screens: moves and events,
and how a step reads in the move list."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import RichLog, Static

from core.engine import Chance, Event, Game, Point
from core.match import Step
from notation.wording import outcome_text, visible

RECORD_WIDTH = 72  # a shuffle lists every position: the move list shows its start


def event_line(e: Event) -> str:
    """An event with its rule citation, as Rich markup (control characters written out)."""
    return f"{escape(visible(e.text))}  [dim]{escape('[' + visible(e.rule) + ']')}[/]"


def record_text(worded: str, events: Sequence[Event]) -> str:
    """A step as the move list shows it: a ``move`` event's own record when the game gives one
    (``e1-e4xe5``, with its captures), else the step as worded before it was played."""
    move = next((e for e in events if e.kind == "move" and e.data), None)
    return shorten(visible(str(move.data[0]) if move is not None else worded), RECORD_WIDTH)


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the cut marked with an ellipsis."""
    return text if len(text) <= width else text[:width - 1] + "…"


def step_words(game: Game, point: Point, step: Step | Any) -> str:
    """A step worded on the position before it (``game`` there, ``point`` its point then)."""
    if step.kind == "decision":
        return game.describe(step.value)
    label = (point.label or point.kind) if isinstance(point, Chance) else "chance"
    return f"{label}: {outcome_text(step.value)}"


def per_line(seats: int, steps: Sequence[Step | Any]) -> int:
    """Two records a line (``1. d1-d3 e7-c7``) for a game of two seats taking turns with no
    chance steps; one a line otherwise."""
    return 2 if seats == 2 and all(s.kind == "decision" for s in steps) else 1


def move_list_text(records: list[str], current: int | None = None, per_line: int = 2, first_line: int = 0) -> str:
    """Numbered lines of ``per_line`` records (``1. e1-e4 f6-f9``); step ``current`` is highlighted.
    ``records`` may be a window of the list: the steps of its lines from ``first_line`` (0-based) on."""
    lines = []
    first = first_line * per_line  # the steps before the window
    for i in range(0, len(records), per_line):
        cells = [f"[reverse]{escape(r)}[/]" if first + j + 1 == current else escape(r)
                 for j, r in enumerate(records[i:i + per_line], start=i)]
        lines.append(f"{first_line + i // per_line + 1:>3}. " + " ".join(cells))
    return "\n".join(lines) or "(no moves yet)"


class SidePanes(Vertical):
    def __init__(self, events_title: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.events_title = events_title

    def compose(self) -> ComposeResult:
        yield Static("Moves", classes="pane-title")
        # Neither pane takes focus: the screen's keys (arrows, Home, End) stay the screen's.
        moves = VerticalScroll(id="moves-scroll")
        moves.can_focus = False
        with moves:
            yield Static(id="moves")
        yield Static(self.events_title, classes="pane-title")
        log = RichLog(id="events", markup=True, wrap=True, min_width=20)
        log.can_focus = False
        yield log

    @property
    def log(self) -> RichLog:
        return self.query_one("#events", RichLog)

    def show_moves(self, records: list[str], current: int | None = None, per_line: int = 2,
                   first_line: int = 0) -> None:
        """Show the move list (or the window of it from line ``first_line``), keeping the latest
        (or the current) move in view."""
        self.query_one("#moves", Static).update(move_list_text(records, current, per_line, first_line))
        scroll = self.query_one("#moves-scroll", VerticalScroll)
        if current is None:
            scroll.scroll_end(animate=False)
        else:
            scroll.scroll_to(y=max(0, (current - 1) // per_line - first_line - 3), animate=False)
