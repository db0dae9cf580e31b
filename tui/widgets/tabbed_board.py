"""What a game's board with several panes does the same way in every game: at a small size its
panes take turns on a tab bar, the board's keys and the tabs choose one, and on the replay
viewer's board nothing takes focus.

A board subclasses :class:`TabbedBoard` (a Vertical), composes its panes and a ``Tabs`` bar whose
tabs are ``tab-<pane>``, and says where its panes go (:meth:`TabbedBoard.place_panes`) and
which it may show (:meth:`TabbedBoard.may_show`). Taifa's map board and Take the Kingdom's
table are two. Its pane keys (:func:`pane_bindings`) are bound on the screen too
(tui/widgets/keys_footer.py, ``board_keys``): they work wherever the focus is, and the footer
shows them as one item.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Resize
from textual.widgets import Tabs

COMPACT = (60, 26)  # a board narrower or lower than this shows one pane at a time
PANES = Binding.Group("Panes", compact=True)  # the footer shows a board's pane keys as one item


def pane_bindings(prefix: str, keys: Iterable[tuple[str, str]]) -> list[Binding]:
    """The keys that bring a board's panes forward: (key, pane) pairs, with ids ``<prefix>.<pane>``
    (keymap.toml may rebind them)."""
    return [Binding(key, f"pane('{name}')", name.capitalize(), id=f"{prefix}.{name}", group=PANES)
            for key, name in keys]


class TabbedBoard(Vertical):
    first_pane: str  # the pane chosen at the start

    def __init__(self, game: Any, seat: int | None = None, interactive: bool = False, *,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.game, self.seat, self.interactive = game, seat, interactive
        self.pane = self.first_pane  # the pane chosen: compact, the one shown
        self.context: str | None = None  # the pane the last decision brought forward
        self.shown = ""  # the pane the tab bar shows as active

    def show(self, game: Any, seat: int | None = None, interactive: bool = False) -> None:
        raise NotImplementedError

    def place_panes(self) -> None:
        """Show the panes for the room there is and the pane chosen; set the tab bar to match."""
        raise NotImplementedError

    def may_show(self, name: str) -> bool:
        """Whether pane ``name`` may be chosen now (a spectator has no hand, say)."""
        return True

    def resized(self, width: int, height: int) -> None:
        """A board's own arrangement for its new size, after the compact class is set."""

    def on_mount(self) -> None:
        if not self.interactive:  # the replay viewer's keys step through the record: the board only shows
            for widget in self.query("*"):
                widget.can_focus = False
        self.show(self.game, self.seat, self.interactive)

    @property
    def compact(self) -> bool:
        return self.has_class("-compact")

    def on_resize(self, event: Resize) -> None:
        width, height = event.size
        self.set_class(width < COMPACT[0] or height < COMPACT[1], "-compact")
        self.resized(width, height)
        self.place_panes()

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        event.stop()
        if event.tabs.active != event.tab.id:  # stale: the tab bar's first activation, say
            return
        name = (event.tab.id or "").removeprefix("tab-")
        if name and name != self.shown:  # a person's choice, not the echo of place_panes' own
            self.pane = name
            self.place_panes()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A pane's key only where that pane may be shown (not a solo game's round elsewhere)."""
        if action == "pane":
            return self.may_show(str(parameters[0])) if parameters else False
        return super().check_action(action, parameters)

    def action_pane(self, name: str) -> None:
        if self.may_show(name):
            self.pane = name
            self.place_panes()
