"""Take the Kingdom's board for the app (the plugin's ``board``): the kingdoms as lines of
defence, the viewing seat's hand, and in solo the round (panes.py), drawn from a seat's view.
Choices go through the options pane; the board shows their context.

Two arrangements, by the room the board has:

- compact (an 80x24 terminal): one pane at a time, chosen on the tab bar at the bottom
  (click, or focus it and use the arrows; ``k h r`` while the board has focus);
- stacked: the kingdoms on top, the hand (and in solo the round beside it) below.

When a person must decide, the pane that gives the decision its context comes forward: the
hand for an action, the round for the solo allocation, the kingdoms for a target.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container, Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.widgets import OptionList, Static, Tab, Tabs

from core.engine import Decision, Game
from tui.games.kingdom.panes import HandPane, KingdomPane, KingdomsPane, RoundPane, TurnLine, effect_line
from tui.games.kingdom.targets import TARGET_BINDINGS, KingdomsScroll, table_targets
from tui.widgets.redraw import set_content
from tui.widgets.tabbed_board import TabbedBoard, pane_bindings

__all__ = ["KingdomBoard", "context_pane"]

PANES = (("kingdoms", "[u]K[/u]ingdoms"), ("hand", "[u]H[/u]and"), ("round", "[u]R[/u]ound"))
ROUND_VERBS = ("take", "give")  # the solo allocation (core/kingdom/solo.py)


def context_pane(decision: Decision | None) -> str | None:
    """The pane a person deciding now needs to see; None when nobody here decides."""
    if decision is None:
        return None
    verbs = {code[0] for code in decision.options if code}
    if verbs & set(ROUND_VERBS):
        return "round"
    if decision.kind == "target" or "draft" in verbs:  # the draft builds one's kingdom from the pool
        return "kingdoms"
    return "hand"


class KingdomBoard(TabbedBoard):
    """The kingdoms, the hand and the round for one seat's view (None: a spectator)."""

    DEFAULT_CSS = """
    KingdomBoard { height: 1fr; width: 100%; }
    KingdomBoard #body { height: 1fr; layout: vertical; }
    KingdomBoard #kingdoms-scroll { height: 3fr; }
    KingdomBoard #below { height: 2fr; }
    KingdomBoard #below > * { width: 1fr; height: 1fr; }
    KingdomBoard.-solo #round-scroll { width: 2fr; }
    KingdomBoard #round-scroll { border-left: vkey $foreground 30%; }
    KingdomBoard #kingdoms-scroll { border-bottom: hkey $foreground 30%; }
    KingdomBoard.-compact #kingdoms-scroll { border-bottom: none; }
    KingdomBoard.-compact #round-scroll { border-left: none; }
    KingdomBoard.-compact #body > * { height: 1fr; }
    KingdomBoard.-compact #below.-tabs-only { height: 0; }
    KingdomBoard VerticalScroll { scrollbar-size-vertical: 1; }
    KingdomBoard #effect { height: auto; max-height: 5; width: 100%; }
    KingdomBoard #effect.-empty { display: none; }
    KingdomBoard Tabs { height: 1; }
    KingdomBoard Tabs Underline { display: none; }
    KingdomBoard Tabs Tab.-active { text-style: bold reverse; }
    """
    wide: ClassVar[bool] = True
    first_pane = "kingdoms"
    SCREEN_ACTIONS = ("pane",)  # the board's keys that work wherever the focus is (keys_footer.board_keys)
    BINDINGS: ClassVar[list[BindingType]] = [
        *pane_bindings("kingdom", (("k", "kingdoms"), ("h", "hand"), ("r", "round"))),
        *TARGET_BINDINGS,  # the kingdoms' own (targets.py), here for the help; Enter from the hand too
    ]

    @property
    def solo(self) -> bool:
        return bool(self.game.view(self.seat)["solo"])

    def compose(self) -> ComposeResult:
        yield TurnLine(self.game, self.seat, id="turn")
        yield Static(id="effect", classes="-empty")  # what the highlighted option's card does
        with Container(id="body"):
            with KingdomsScroll(id="kingdoms-scroll"):
                yield KingdomsPane(self.game, self.seat, id="kingdoms")
            with Horizontal(id="below"):
                with VerticalScroll(id="hand-scroll"):
                    yield HandPane(self.game, self.seat, id="hand")
                with VerticalScroll(id="round-scroll"):
                    yield RoundPane(self.game, self.seat, id="round")
        yield Tabs(*(Tab(Text.from_markup(label), id=f"tab-{name}") for name, label in PANES), id="pane-tabs")

    def on_mount(self) -> None:
        self.call_after_refresh(self.watch_options)

    def watch_options(self) -> None:
        """Follow the options pane's highlight (the play screen's ``#options``), to say in the
        details line what the highlighted option's card does."""
        try:
            options = self.screen.query_one("#options", OptionList)
        except NoMatches:
            return
        self.watch(options, "highlighted", lambda _: self.show_effect(), init=False)
        self.show_effect()

    def highlighted_code(self, decision: Decision | None) -> tuple[object, ...] | None:
        """The option highlighted in the options pane, when it lists ``decision``'s options."""
        try:
            options = self.screen.query_one("#options", OptionList)
        except NoMatches:
            return None
        codes, at = getattr(options, "codes", ()), options.highlighted
        if decision is None or tuple(codes) != tuple(decision.options) or at is None or not 0 <= at < len(codes):
            return None
        return tuple(codes[at])

    def show_effect(self) -> None:
        """The details line: the exact effect of the highlighted option's card (or of the card in
        play); hidden when there is none, or when the seat drawn is not the one deciding (hot seat:
        the table drawn for nobody while it changes hands)."""
        if not self.is_mounted:
            return
        point = self.game.point() if self.interactive else None
        decision = point if isinstance(point, Decision) and point.seat == self.seat else None  # theirs alone
        line = effect_line(self.game, decision, self.highlighted_code(decision)) if decision else Text()
        static = self.query_one("#effect", Static)
        set_content(static, line)
        static.set_class(not line.plain, "-empty")

    def show(self, game: Game, seat: int | None = None, interactive: bool = False) -> None:
        self.game, self.seat, self.interactive = game, seat, interactive
        self.call_after_refresh(self.show_effect)  # once the options pane lists the new options
        self.set_class(self.solo, "-solo")  # solo: a small hand, and the round's cards beside it
        point = game.point() if interactive else None
        decision = point if isinstance(point, Decision) else None
        self.query_one(KingdomsScroll).set_targets(table_targets(decision))
        for pane in self.query(KingdomPane):
            pane.show(game, seat)
        context = context_pane(decision)
        if context is not None and context != self.context:
            self.pane = context
        self.context = context
        self.place_panes()

    def offered(self) -> dict[str, bool]:
        """The panes there are: the hand for a seat (a spectator has none), the round in solo."""
        return {"kingdoms": True, "hand": self.seat is not None, "round": self.solo}

    def place_panes(self) -> None:
        """Compact, the chosen pane alone and the tab bar; else every pane there is, no tabs."""
        if not self.query(Tabs):  # not composed yet
            return
        compact, offered = self.compact, self.offered()
        pane = self.pane if offered.get(self.pane) else "kingdoms"
        shown = {name: offered[name] and (not compact or name == pane) for name in offered}
        self.query_one("#kingdoms-scroll").display = shown["kingdoms"]
        self.query_one("#hand-scroll").display = shown["hand"]
        self.query_one("#round-scroll").display = shown["round"]
        self.query_one("#below").display = shown["hand"] or shown["round"]
        self.keep_focus(pane)
        tabs = self.query_one(Tabs)
        tabs.display = compact
        self.shown = pane
        if tabs.active != f"tab-{pane}":
            tabs.active = f"tab-{pane}"
        for name, offer in offered.items():
            if tabs.query_one(f"#tab-{name}").has_class("-hidden") == offer:
                (tabs.show if offer else tabs.hide)(f"tab-{name}")

    def keep_focus(self, pane: str) -> None:
        """Keys stay with the board when the pane that had them is hidden: the one shown takes them."""
        focused = self.app.focused if self.is_attached else None
        if focused is None or self not in focused.ancestors or focused.display and all(
                w.display for w in focused.ancestors if w is not self and self in w.ancestors):
            return
        self.query_one(f"#{pane}-scroll").focus()

    def may_show(self, name: str) -> bool:
        return bool(self.offered().get(name))

    # The target keys when another pane of the board has the keys: the kingdoms' cursor.
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pane":
            return super().check_action(action, parameters)
        return self.query_one(KingdomsScroll).check_action(action, parameters) if self.is_mounted else True

    def action_target(self, step: int) -> None:
        self.query_one(KingdomsScroll).action_target(step)

    def action_choose(self) -> None:
        self.query_one(KingdomsScroll).action_choose()

    def action_share(self, points: int) -> None:
        self.query_one(KingdomsScroll).action_share(points)
