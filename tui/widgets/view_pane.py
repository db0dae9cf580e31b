"""A board's pane drawn from a seat's view of the game: shown a new position, or resized, it
draws itself again for its width. A game's pane says only what it draws (``draw``)."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from textual.events import Resize
from textual.widgets import Static


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
        self.update(self.draw(self.size.width))  # 0 while hidden: drawn again when shown

    def draw(self, width: int) -> RenderableType:
        raise NotImplementedError
