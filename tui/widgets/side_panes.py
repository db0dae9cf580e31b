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


def move_list_text(records: list[str], current: int | None = None) -> str:
    """Numbered pairs, ``1. e1-e4 f6-f9``; the move of step ``current`` is highlighted."""
    lines = []
    for i in range(0, len(records), 2):
        cells = [f"[reverse]{r}[/]" if j + 1 == current else r for j, r in enumerate(records[i:i + 2], start=i)]
        lines.append(f"{i // 2 + 1:>3}. " + " ".join(cells))
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

    def show_moves(self, records: list[str], current: int | None = None) -> None:
        """Show the move list, keeping the latest (or the current) move in view."""
        self.query_one("#moves", Static).update(move_list_text(records, current))
        scroll = self.query_one("#moves-scroll", VerticalScroll)
        if current is None:
            scroll.scroll_end(animate=False)
        else:
            scroll.scroll_to(y=max(0, (current - 1) // 2 - 3), animate=False)
