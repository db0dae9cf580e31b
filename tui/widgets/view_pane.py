"""A board's pane drawn from a seat's view of the game: shown a new position, or resized, it
draws itself again for its width. A game's pane says only what it draws (``draw``).

Drawn again only when it changed: a Text is compared as it is; anything else (a table, a group)
is rendered here at the pane's width, compared line by line with what is shown, and shown from
those lines (tui/widgets/redraw.py)."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.events import Resize
from textual.widgets import Static

from tui.widgets.redraw import Drawn, set_content


class ViewPane(Static):
    DEFAULT_CSS = "ViewPane { height: auto; width: 100%; }"

    def __init__(self, game: Any, seat: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.seat = game, seat

    def on_mount(self) -> None:
        self.redraw()

    def show(self, game: Any, seat: int | None = None) -> None:
        self.game, self.seat = game, seat
        self.redraw()

    def on_resize(self, event: Resize) -> None:
        self.redraw()

    def redraw(self) -> None:
        width = self.size.width
        drawn = self.draw(width)
        if width <= 0 or not all(node.display for node in self.ancestors_with_self):
            # Out of the layout (hidden, or not laid out yet): measured and drawn when it comes back,
            # which lays the screen out anyway.
            set_content(self, drawn, layout=False)
        elif isinstance(drawn, Text):
            set_content(self, drawn)
        else:
            options = self.app.console_options.update(width=width, highlight=False)
            lines = self.app.console.render_lines(drawn, options, pad=False)
            shown = self.content
            if not (isinstance(shown, Drawn) and shown.lines == lines):
                # As many lines as before at the same width: the pane's size is the same, and the
                # screen need not be laid out again (most of a redraw's time).
                same_size = isinstance(shown, Drawn) and len(shown.lines) == len(lines) and shown.width == width
                self.update(Drawn(lines, width), layout=not same_size)

    def draw(self, width: int) -> RenderableType:
        raise NotImplementedError
