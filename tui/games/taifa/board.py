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

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Vertical, VerticalScroll
from textual.widgets import Tab, Tabs

from core.engine import Code, Decision, Game
from core.taifa.game import TaifaGame
from core.taifa.moves import VERBS
from tui.games.taifa.map import MapPane, kingdom_style
from tui.games.taifa.panes import CombatPane, HandPane, KingdomsPane, TaifaPane, TurnLine, kingdoms_text
from tui.widgets.tabbed_board import TabbedBoard, pane_bindings

__all__ = ["TaifaBoard", "map_targets", "kingdom_style", "KingdomsPane", "kingdoms_text"]

# The verbs whose one argument is an area (core/taifa/moves.py): attack, garrison, area.
AREA_VERBS = frozenset(verb for verb, kinds in VERBS.items() if kinds == ("area",))
SIDE_WIDTH = 120  # a board this wide puts the panes beside the map
PANES = (("map", "[u]M[/u]ap"), ("kingdoms", "[u]K[/u]ingdoms"), ("hand", "[u]H[/u]and"), ("combat", "[u]C[/u]ombat"))


def map_targets(decision: Decision | None) -> dict[int, Code]:
    """The areas ``decision`` may choose, each with its option code (empty when no person is to
    choose, or the choice is not of an area)."""
    if decision is None:
        return {}
    return {int(code[1]): code for code in decision.options if len(code) == 2 and code[0] in AREA_VERBS}


# -- the board ---------------------------------------------------------------------------------


class TaifaBoard(TabbedBoard):
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
    first_pane = "map"  # not compact, the hand or combat go beside the map
    BINDINGS: ClassVar[list[BindingType]] = [
        *pane_bindings("taifa", (("m", "map"), ("k", "kingdoms"), ("h", "hand"), ("c", "combat"))),
        Binding("slash", "find", "Find", id="taifa.find"),
    ]
    SCREEN_ACTIONS = ("pane", "find")  # the board's keys that work wherever the focus is (keys_footer.board_keys)

    def __init__(self, game: Game, seat: int | None = None, interactive: bool = False, *,
                 id: str | None = None) -> None:
        assert isinstance(game, TaifaGame)
        super().__init__(game, seat, interactive, id=id)
        self.last_combat: dict[str, Any] | None = None  # the last fight drawn (the viewer's combat pane)

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

    def show(self, game: Game, seat: int | None = None, interactive: bool = False) -> None:
        assert isinstance(game, TaifaGame)
        self.game, self.seat, self.interactive = game, seat, interactive
        point = game.point() if interactive else None
        decision = point if isinstance(point, Decision) else None
        targets = map_targets(decision)
        self.query_one(MapPane).show(game, seat, targets)
        for pane in self.query(TaifaPane):
            pane.show(game, seat)
        context = self.context_pane(decision, bool(targets)) if interactive else self.fight_shown(game)
        finding = self.query_one(MapPane).finding  # a person typing an area's name keeps the map
        if (context is not None and context != self.context and not finding
                and (self.compact or context in ("hand", "combat"))):
            self.pane = context
        self.context = context
        self.place_panes()

    def action_find(self) -> None:
        """`/`: the map (brought forward when the panes take turns) and its finder, to choose an
        area by name or number."""
        if not self.interactive:
            return
        self.action_pane("map")
        self.query_one(MapPane).open_finder()

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

    def fight_shown(self, game: TaifaGame) -> str | None:
        """Not interactive (the replay viewer): the combat pane, while a fight is on or when the
        position shows a fight resolved since the last one drawn; else None."""
        view = game.view(self.seat)
        new = view["last_combat"] is not None and view["last_combat"] != self.last_combat
        self.last_combat = view["last_combat"]
        return "combat" if view["fight"] is not None or new else None

    def resized(self, width: int, height: int) -> None:
        self.set_class(not self.compact and width >= SIDE_WIDTH, "-side")

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

    def may_show(self, name: str) -> bool:
        return name != "hand" or self.seat is not None  # a spectator has no hand
