"""The panes beside the board on the play and replay screens: moves and events,
and how a step reads in the move list.

The play screen's panes follow the newest line; the viewer's show one step: the move list
keeps the current step in view (its lines may wrap), the events are shown from the top with
the current one highlighted and scrolled into view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Region, Spacing
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import RichLog, Static

from core.engine import Event
from core.match import Step
from notation.wording import visible
from tui.widgets.keys_footer import board_allows
from tui.widgets.redraw import set_content

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


def per_line(seats: int, steps: Sequence[Step | Any]) -> int:
    """Two records a line (``1. d1-d3 e7-c7``) for a game of two seats taking turns with no
    chance steps; one a line otherwise."""
    return 2 if seats == 2 and all(s.kind == "decision" for s in steps) else 1


def move_lines(records: list[str], current: int | None = None, per_line: int = 2, first_line: int = 0,
               marks: Mapping[int, str] | None = None) -> list[str]:
    """Numbered lines of ``per_line`` records (``1. e1-e4 f6-f9``), as markup; step ``current`` is
    highlighted. ``records`` may be a window of the list: the steps of its lines from ``first_line``
    (0-based) on. ``marks``: step -> markup put after its record (a review's ``??``)."""
    lines = []
    first = first_line * per_line  # the steps before the window
    marks = marks or {}
    for i in range(0, len(records), per_line):
        cells = [(f"[reverse]{escape(r)}[/]" if first + j + 1 == current else escape(r)) + marks.get(first + j + 1, "")
                 for j, r in enumerate(records[i:i + per_line], start=i)]
        lines.append(f"{first_line + i // per_line + 1:>3}. " + " ".join(cells))
    return lines


class MoveList(Vertical):
    """The move list in blocks of BLOCK lines: a new move draws the last block again, not the whole
    list (a long game's list took most of a draw's time)."""

    DEFAULT_CSS = "MoveList { height: auto; } MoveList > Static { height: auto; }"
    BLOCK = 32
    EMPTY = "(no moves yet)"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []
        # The blocks shown, in order; kept here, not read from the children, so a block being removed
        # (its removal is done a moment later) is never drawn into again.
        self.blocks: list[Static] = [Static(self.EMPTY)]

    def compose(self) -> ComposeResult:
        yield from self.blocks

    follow = False  # kept scrolled to its end (the play screen's list; the viewer's shows a step)

    def on_resize(self) -> None:
        """Grown (a new line, a line wrapped anew): still at the end when following."""
        scroll = self.parent
        if self.follow and isinstance(scroll, VerticalScroll):
            scroll.call_after_refresh(scroll.scroll_end, animate=False, immediate=True)

    @property
    def content(self) -> str:
        """The list as markup (as a Static's ``content``)."""
        return "\n".join(self.lines) or self.EMPTY

    @property
    def plain(self) -> str:
        """The list as it reads on the screen (markup applied)."""
        return Content.from_markup(self.content).plain

    @property
    def first_block(self) -> Static:
        return self.blocks[0]

    def show(self, lines: list[str]) -> None:
        self.lines = lines
        texts = ["\n".join(lines[i:i + self.BLOCK]) for i in range(0, len(lines), self.BLOCK)] or [self.EMPTY]
        for static, text in zip(self.blocks, texts):
            set_content(static, text)
        if len(texts) > len(self.blocks):
            new = [Static(text) for text in texts[len(self.blocks):]]
            self.blocks += new
            self.mount_all(new)
        for extra in self.blocks[len(texts):]:
            extra.remove()
        del self.blocks[len(texts):]


BOTH = 14  # rows the two panes need to show both; lower (an 80x24 terminal), they take turns


class SidePanes(Vertical):
    """The moves and the events, one above the other; when the column is too low for both, one
    at a time, the screen's ``e`` switching them (a tab with its key, as a board's panes)."""

    DEFAULT_CSS = """
    SidePanes.-one.-events #moves-title, SidePanes.-one.-events #moves-scroll { display: none; }
    SidePanes.-one.-moves #events-title, SidePanes.-one.-moves #events { display: none; }
    """
    KEY = "e"  # the screen's key that switches the panes (its binding's description says so too)

    def __init__(self, events_title: str, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-events")
        self.events_title = events_title
        self._current_line: int | None = None  # the line to keep in view (None: the last)

    @property
    def one_at_a_time(self) -> bool:
        return self.has_class("-one")

    def on_resize(self) -> None:
        one = self.size.height < BOTH
        if one != self.one_at_a_time:
            self.set_class(one, "-one")
            self._titles()
            self.screen.refresh_bindings()  # the footer offers the switch, or no longer

    def switch(self) -> None:
        """The other pane, when they take turns."""
        events = self.has_class("-events")
        self.set_class(not events, "-events")
        self.set_class(events, "-moves")
        self._titles()
        if events:  # the moves shown again: at their end, or the viewer's current step
            if self.query_one(MoveList).follow:
                self.query_one("#moves-scroll", VerticalScroll).scroll_end(animate=False)
            else:
                self.call_after_refresh(self._reveal_current)

    def _titles(self) -> None:
        """Each title, saying which key shows the other pane when they take turns."""
        one = self.one_at_a_time
        self.query_one("#moves-title", Static).update(f"Moves · {self.KEY}: events" if one else "Moves")
        self.query_one("#events-title", Static).update(
            escape(self.events_title) + (f" · {self.KEY}: moves" if one else ""))

    def compose(self) -> ComposeResult:
        yield Static("Moves", id="moves-title", classes="pane-title")
        # Neither pane takes focus: the screen's keys (arrows, Home, End) stay the screen's.
        moves = VerticalScroll(id="moves-scroll")
        moves.can_focus = False
        with moves:
            yield MoveList(id="moves")
        yield Static(self.events_title, id="events-title", classes="pane-title")
        log = RichLog(id="events", markup=True, wrap=True, min_width=20)
        log.can_focus = False
        yield log

    @property
    def event_log(self) -> RichLog:
        """The events pane. Not ``log``: that is Textual's logger, which it calls on every widget."""
        return self.query_one("#events", RichLog)

    def set_events_title(self, title: str) -> None:
        self.events_title = title
        self._titles()

    def show_moves(self, records: list[str], current: int | None = None, per_line: int = 2,
                   first_line: int = 0, marks: Mapping[int, str] | None = None) -> None:
        """Show the move list (or the window of it from line ``first_line``), keeping the latest
        (or the current) move in view."""
        self.query_one(MoveList).show(move_lines(records, current, per_line, first_line, marks))
        scroll = self.query_one("#moves-scroll", VerticalScroll)
        if current is None:
            self._current_line = None
            self.query_one(MoveList).follow = True
            scroll.scroll_end(animate=False)
        else:
            self.query_one(MoveList).follow = False
            self._current_line = (current - 1) // per_line - first_line if current else -1
            self.call_after_refresh(self._reveal_current)  # once the list is laid out at its width

    def _reveal_current(self) -> None:
        """Scroll the move list so the current line is in view, with a line around it: its place
        is the height of the lines before it, wrapped as the list wraps them."""
        line, lines = self._current_line, self.query_one(MoveList).lines
        scroll = self.query_one("#moves-scroll", VerticalScroll)
        if line is None or not 0 <= line < len(lines):
            if line is not None:
                scroll.scroll_home(animate=False)
            return
        moves = self.query_one(MoveList).first_block  # every block is as wide, and wraps as it does
        width = moves.content_size.width
        if width <= 0:
            return
        rules = cast(RulesMap, moves.styles)  # a widget's styles read as its rules, as Textual's OptionList does
        top = Content.from_markup("\n".join(lines[:line])).get_height(rules, width) if line else 0
        height = Content.from_markup(lines[line]).get_height(rules, width)
        scroll.scroll_to_region(Region(0, top, width, height), spacing=Spacing(1, 0, 1, 0),
                                animate=False, immediate=True)

    def show_events(self, lines: list[str], current: int | None = None, *, same_step: bool = False) -> None:
        """The viewer's events of one step (markup lines), from the top; line ``current`` is
        highlighted and scrolled into view. ``same_step``: the view stays where it was if the
        current line is in it (the cursor moved within the step)."""
        log = self.event_log
        log.auto_scroll = False
        keep = round(log.scroll_y) if same_step else 0
        log.clear()
        spans = []  # each line's (first, end) rows in the log
        for i, line in enumerate(lines):
            start = len(log.lines)
            log.write(f"[reverse]{line}[/reverse]" if i == current else line)
            spans.append((start, len(log.lines)))
        top = 0
        if current is not None and 0 < current < len(spans):
            first, end = spans[current]
            height = max(log.scrollable_content_region.height, 1)
            top = keep if keep <= first and end <= keep + height else (
                max(first - 1, 0) if first < keep else end + 1 - height)
            top = max(0, min(first, top))
        log.scroll_to(y=top, animate=False)


if TYPE_CHECKING:
    _Screen = Screen[None]  # what the mixin is mixed into, for the checker
else:
    _Screen = object


class TableKeys(_Screen):
    """The play and replay screens' keys for what they show beside the status line: the board's
    pane keys (:func:`board_keys`, run on the board as ``board('<action>')``) and ``e``, which
    switches the moves and the events when they take turns (side_panes.SidePanes)."""

    @property
    def board(self) -> Widget | None:
        raise NotImplementedError

    def table_check(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether a table key works now (True for any other action)."""
        if action == "logs":
            return self.is_mounted and self.query_one(SidePanes).one_at_a_time
        if action == "board":
            return board_allows(self.board, parameters) if self.is_mounted else False
        return True

    async def action_board(self, action: str) -> None:
        """A board's key read by the screen: run on the board."""
        board = self.board
        if board is not None:
            await self.app.run_action(action, board)

    def action_logs(self) -> None:
        self.query_one(SidePanes).switch()
