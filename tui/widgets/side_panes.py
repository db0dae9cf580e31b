"""The panes beside the board on the play and replay screens: moves and events."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from rich.markup import escape
from textual.widgets import RichLog, Static

from core.engine import Event


def event_line(e: Event) -> str:
    """An event with its rule citation, as Rich markup."""
    return f"{escape(e.text)}  [dim]{escape('[' + e.rule + ']')}[/]"


def move_list_text(records: list[str], current: int | None = None, per_line: int = 2) -> str:
    """Numbered lines of ``per_line`` records (``1. e1-e4 f6-f9``); step ``current`` is highlighted."""
    lines = []
    for i in range(0, len(records), per_line):
        cells = [f"[reverse]{escape(r)}[/]" if j + 1 == current else escape(r)
                 for j, r in enumerate(records[i:i + per_line], start=i)]
        lines.append(f"{i // per_line + 1:>3}. " + " ".join(cells))
    return "\n".join(lines) or "(no moves yet)"


class SidePanes(Vertical):
    def __init__(self, events_title: str) -> None:
        super().__init__(id="side")
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

    def show_moves(self, records: list[str], current: int | None = None, per_line: int = 2) -> None:
        """Show the move list, keeping the latest (or the current) move in view."""
        self.query_one("#moves", Static).update(move_list_text(records, current, per_line))
        scroll = self.query_one("#moves-scroll", VerticalScroll)
        if current is None:
            scroll.scroll_end(animate=False)
        else:
            scroll.scroll_to(y=max(0, (current - 1) // per_line - 3), animate=False)
