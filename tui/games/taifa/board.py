"""Taifa's board for the app (the plugin's ``board``): the map with the kingdoms, the hand and
the combat (panes.py), drawn from a seat's view. Choices go through the options pane; the board
shows their context, highlights the areas a decision may choose on the map, and (the map's
part, C3) lets a person choose one there.

Three arrangements, by the room the board has:

- compact (an 80x24 terminal): one pane at a time, chosen on the tab bar at the bottom
  (click, or focus it and use the arrows; ``m k h c`` while the board has focus);
- stacked: the map on top, the kingdoms and the hand or the combat side by side below it;
- side by side (a wide board): the map on the left, the kingdoms and the hand or combat beside.

When a person must decide, the pane that gives the decision its context comes forward: the
combat while a fight is on, the hand for an action, the map for an area to choose (compact).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical, VerticalScroll
from textual.events import Resize
from textual.widget import Widget
from textual.widgets import Tab, Tabs

from core.engine import Code, Decision, Game
from core.taifa.game import TaifaGame
from core.taifa.moves import VERBS
from core.taifa.state import INDEPENDENT, OUT_OF_PLAY
from tui.games.taifa.panes import CombatPane, HandPane, KingdomsPane, TaifaPane, TurnLine, kingdoms_text

__all__ = ["TaifaBoard", "map_targets", "kingdom_style", "KingdomsPane", "kingdoms_text"]

# The verbs whose one argument is an area (core/taifa/moves.py): attack, garrison, area.
AREA_VERBS = frozenset(verb for verb, kinds in VERBS.items() if kinds == ("area",))
COMPACT = (60, 26)  # a board narrower or lower than this shows one pane at a time
SIDE_WIDTH = 120  # a board this wide puts the panes beside the map
PANES = (("map", "[u]M[/u]ap"), ("kingdoms", "[u]K[/u]ingdoms"), ("hand", "[u]H[/u]and"), ("combat", "[u]C[/u]ombat"))


def map_targets(decision: Decision | None) -> dict[int, Code]:
    """The areas ``decision`` may choose, each with its option code (empty when no person is to
    choose, or the choice is not of an area)."""
    if decision is None:
        return {}
    return {int(code[1]): code for code in decision.options if len(code) == 2 and code[0] in AREA_VERBS}


# -- until map.py (C3) lands: today's map behind MapPane's API ---------------------------------

# 2.2 and 10.1: the castle colours, as (background, foreground).
COLOURS: dict[str, tuple[str, str]] = {
    "castile": ("red3", "white"), "catalans": ("gold1", "black"), "valencia": ("pale_green3", "black"),
    "seville": ("sky_blue2", "black"), "badajoz": ("dark_green", "white"), "leon": ("navy_blue", "white"),
    "almoravids": ("pale_green3", "black"), "el_cid": ("navy_blue", "white"),
}
INDEPENDENT_STYLE = "black on grey70"
CELL = 4  # "33+*"


def kingdom_style(key: str) -> str:
    bg, fg = COLOURS.get(key, ("grey50", "white"))
    return f"{fg} on {bg}"


class TaifaMap(Widget):
    """The 58 areas placed by their coordinates and coloured by owner; areas a decision may
    choose are reversed."""

    DEFAULT_CSS = "TaifaMap { height: 1fr; width: 100%; min-height: 6; }"

    def __init__(self, game: TaifaGame, seat: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.view_ = game.view(seat)
        self.targets: Mapping[int, Code] = {}

    def show(self, game: TaifaGame, seat: int | None = None, targets: Mapping[int, Code] | None = None) -> None:
        self.game, self.targets = game, dict(targets or {})
        self.view_ = game.view(seat)
        self.refresh()

    def render(self) -> Text:
        g, v = self.game, self.view_
        width, height = max(self.size.width, CELL + 1), max(self.size.height, 2)
        areas = g.m.areas
        max_x = max(a.x for a in areas) or 1
        max_y = max(a.y for a in areas) or 1
        rows: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(height)]
        fight = v["fight"]["area"] if v["fight"] else 0
        capitals = {k["capital"] for k in v["kingdoms"]}
        for a in sorted(areas, key=lambda a: (a.y, a.x)):
            row = round((a.y - 1) * (height - 1) / max(1, max_y - 1))
            col = round((a.x - 1) * (width - CELL) / max(1, max_x - 1))
            owner = v["owner"][a.id]
            if owner == OUT_OF_PLAY:
                label, style = f"{a.id:>2}  ", "grey30"
            else:
                mark = ("+" if v["garrison"][a.id] else " ") + ("*" if a.id in capitals and owner >= 0
                                                                and v["kingdoms"][owner]["capital"] == a.id else " ")
                label = f"{a.id:>2}{mark}"
                style = INDEPENDENT_STYLE if owner == INDEPENDENT else kingdom_style(v["kingdoms"][owner]["key"])
                if a.id == fight:
                    style += " underline bold"
                if a.id in self.targets:
                    style += " reverse bold"
            # Crowded at small sizes: slide right, then down, to the first free cells.
            spot = _free(rows, row, col, width, height)
            if spot is None:
                continue  # no room at all in a tiny pane
            row, col = spot
            for i, ch in enumerate(label.rstrip() if len(label.rstrip()) < CELL else label):
                if col + i < width:
                    rows[row][col + i] = (ch, style)
        text = Text(no_wrap=True, overflow="crop")
        for r, line in enumerate(rows):
            for ch, style in line:
                text.append(ch, style)
            if r < height - 1:
                text.append("\n")
        return text


def _free(rows: list[list[tuple[str, str]]], row: int, col: int, width: int, height: int) -> tuple[int, int] | None:
    """The first place at or after (row, col), reading order, with CELL free cells."""
    for r in range(row, height):
        for c in range(col if r == row else 0, width - CELL + 1):
            if all(rows[r][x][0] == " " for x in range(max(0, c - 1), c + CELL)):  # a gap before it too
                return r, c
    return None


class MapPane(TaifaMap):
    """C3's ``MapPane(game, seat, id=...)`` and ``.show(game, seat, targets)`` on today's map."""


# -- the board ---------------------------------------------------------------------------------


class TaifaBoard(Vertical):
    """The map and the panes for one seat's view (None: a spectator)."""

    DEFAULT_CSS = """
    TaifaBoard { height: 1fr; width: 100%; }
    TaifaBoard #body { height: 1fr; layout: grid; grid-size: 2 2; grid-columns: 1fr 1fr; grid-rows: 1fr 40%; }
    TaifaBoard #map { column-span: 2; height: 1fr; }
    TaifaBoard.-side #body { grid-columns: 1fr 64; grid-rows: 1fr 1fr; }
    TaifaBoard.-side #map { column-span: 1; row-span: 2; }
    TaifaBoard.-compact #body { layout: vertical; }
    TaifaBoard.-compact #body > * { height: 1fr; }
    TaifaBoard.-compact #cards.-tabs-only { height: 1; }
    TaifaBoard #kingdoms-scroll, TaifaBoard #cards { height: 1fr; }
    TaifaBoard #hand-scroll, TaifaBoard #combat-scroll { height: 1fr; }
    TaifaBoard VerticalScroll { scrollbar-size-vertical: 1; }
    TaifaBoard Tabs { height: 1; }
    TaifaBoard Tabs Underline { display: none; }
    TaifaBoard Tabs Tab.-active { text-style: bold reverse; }
    """
    wide: ClassVar[bool] = True
    BINDINGS: ClassVar[list[Binding]] = [
        Binding(key, f"pane('{name}')", name.capitalize(), show=False, id=f"taifa.{name}")
        for key, name in (("m", "map"), ("k", "kingdoms"), ("h", "hand"), ("c", "combat"))
    ]

    def __init__(self, game: Game, seat: int | None = None, interactive: bool = False, *,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        assert isinstance(game, TaifaGame)
        self.game, self.seat, self.interactive = game, seat, interactive
        self.pane = "map"  # the pane chosen: in compact the one shown; else the hand or combat beside the map
        self.context: str | None = None  # the pane the last decision brought forward
        self.shown = ""  # the pane the tab bar shows as active

    def compose(self) -> ComposeResult:
        yield TurnLine(self.game, self.seat, id="turn")
        with Container(id="body"):
            yield MapPane(self.game, self.seat, id="map")
            with VerticalScroll(id="kingdoms-scroll"):
                yield KingdomsPane(self.game, self.seat, id="kingdoms")
            with Vertical(id="cards"):
                with VerticalScroll(id="hand-scroll"):
                    yield HandPane(self.game, self.seat, id="hand")
                with VerticalScroll(id="combat-scroll"):
                    yield CombatPane(self.game, self.seat, id="combat")
                yield Tabs(*(Tab(Text.from_markup(label), id=f"tab-{name}") for name, label in PANES), id="pane-tabs")

    def on_mount(self) -> None:
        self.show(self.game, self.seat, self.interactive)

    @property
    def compact(self) -> bool:
        return self.has_class("-compact")

    def show(self, game: Game, seat: int | None = None, interactive: bool = False) -> None:
        assert isinstance(game, TaifaGame)
        self.game, self.seat, self.interactive = game, seat, interactive
        point = game.point() if interactive else None
        decision = point if isinstance(point, Decision) else None
        targets = map_targets(decision)
        self.query_one(MapPane).show(game, seat, targets)
        for pane in self.query(TaifaPane):
            pane.show(game, seat)
        context = self.context_pane(decision, bool(targets))
        if context is not None and context != self.context and (self.compact or context in ("hand", "combat")):
            self.pane = context
        self.context = context
        self.place_panes()

    def context_pane(self, decision: Decision | None, targets: bool) -> str | None:
        """The pane a person deciding now needs to see: the fight, the hand for an action, the map
        for an area; None when nobody here decides."""
        if decision is None:
            return None
        if self.game.view(self.seat)["fight"] is not None or decision.kind == "choose":  # in a fight, or after one
            return "combat"
        if decision.kind == "action" or not targets:
            return "hand"
        return "map"

    def on_resize(self, event: Resize) -> None:
        width, height = event.size
        self.set_class(width < COMPACT[0] or height < COMPACT[1], "-compact")
        self.set_class(not self.compact and width >= SIDE_WIDTH, "-side")
        self.place_panes()

    def place_panes(self) -> None:
        """Show the chosen pane (and, not compact, the map and kingdoms always); the tab bar offers
        what is not always shown."""
        if not self.query(Tabs):  # not composed yet
            return
        compact = self.compact
        pane = self.pane  # not compact, the map and kingdoms are always shown: the hand or combat beside
        if not compact and pane in ("map", "kingdoms"):
            pane = self.context if self.context in ("hand", "combat") else "hand" if self.seat is not None else "combat"
        shown = {name: name == pane or (not compact and name in ("map", "kingdoms")) for name, _ in PANES}
        self.query_one("#map").display = shown["map"]
        self.query_one("#kingdoms-scroll").display = shown["kingdoms"]
        self.query_one("#hand-scroll").display = shown["hand"]
        self.query_one("#combat-scroll").display = shown["combat"]
        self.query_one("#cards").set_class(compact and pane in ("map", "kingdoms"), "-tabs-only")
        self.shown = pane
        tabs = self.query_one(Tabs)
        if tabs.active != f"tab-{pane}":
            tabs.active = f"tab-{pane}"
        offered = {"map": compact, "kingdoms": compact, "hand": self.seat is not None}  # a spectator has no hand
        for name, offer in offered.items():
            if tabs.query_one(f"#tab-{name}").has_class("-hidden") == offer:
                (tabs.show if offer else tabs.hide)(f"tab-{name}")

    def on_tabs_tab_activated(self, event: Tabs.TabActivated) -> None:
        event.stop()
        if event.tabs.active != event.tab.id:  # stale: the tab bar's first activation, say
            return
        name = (event.tab.id or "").removeprefix("tab-")
        if name and name != self.shown:  # a person's choice, not the echo of place_panes' own
            self.pane = name
            self.place_panes()

    def action_pane(self, name: str) -> None:
        if name == "hand" and self.seat is None:
            return
        self.pane = name
        self.place_panes()
