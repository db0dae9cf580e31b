"""Choosing a Castle or Land on the table itself: when a decision asks for a target (where an
attack, a Spread share or a Trap's turned-back damage lands, where Egbert's Village goes), the
legal targets are marked on the kingdoms, a cursor walks them, and Enter or a click chooses.

Only the decision's own options are targets, so only what the lines-of-defence rule allows
(core/kingdom/lines.py, ``attackable``) can be picked; the options pane lists the same choices.
A Spread share has its points too: Enter gives the target all the damage left, a digit that many.
"""

from __future__ import annotations

from typing import Any, ClassVar

import io

from rich.console import Console
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.geometry import Region

from core.engine import Code, Decision
from tui.widgets.options import OptionChosen
from tui.widgets.view_pane import ViewPane

__all__ = ["CURSOR", "TARGET", "Slot", "TARGET_BINDINGS", "KingdomsScroll", "table_targets"]

Slot = tuple[int, str]  # a kingdom (its seat) and the card of one of its Castle or Lands
TARGET, CURSOR = ">", "▶"  # a Castle or Land that may be chosen; the one Enter chooses

TARGET_BINDINGS: list[BindingType] = [
    Binding("up,left", "target(-1)", "Previous target", show=False, id="kingdom.target_previous"),
    Binding("down,right", "target(1)", "Next target", show=False, id="kingdom.target_next"),
    Binding("enter,space", "choose", "Choose target", id="kingdom.choose"),
    *(Binding(str(n), f"share({n})", f"Spread: {n} points here", show=False, id=f"kingdom.share_{n}")
      for n in range(1, 10)),
]


def table_targets(decision: Decision | None) -> dict[Slot, tuple[Code, ...]]:
    """The Castles and Lands ``decision`` may choose, each with its option codes (a Spread share:
    one code for each number of points), in the options' order; empty when it asks no target."""
    if decision is None or decision.kind != "target":
        return {}
    out: dict[Slot, list[Code]] = {}
    for code in decision.options:
        if code[0] == "at":  # ("at", seat, slot[, points])
            out.setdefault((int(code[1]), str(code[2])), []).append(code)
        elif code[0] == "place" and code[2] != "new":  # ("place", card, slot): one's own kingdom
            out.setdefault((decision.seat, str(code[2])), []).append(code)
    return {slot: tuple(codes) for slot, codes in out.items()}


def share(codes: tuple[Code, ...], points: int | None) -> Code | None:
    """The code among one target's that gives it ``points`` (None: the most there is); a code
    without points when the target takes the whole attack."""
    if len(codes) == 1 and len(codes[0]) < 4:
        return codes[0] if points is None else None
    shares = {int(code[3]): code for code in codes if len(code) >= 4}
    if points is None:
        return shares[max(shares)] if shares else None
    return shares.get(points)


class KingdomsScroll(VerticalScroll):
    """The kingdoms' scroll: with targets, its keys walk and choose them; else they scroll."""

    BINDINGS: ClassVar[list[BindingType]] = TARGET_BINDINGS

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.targets: dict[Slot, tuple[Code, ...]] = {}
        self.cursor: Slot | None = None
        self.note = ""  # why the last key did nothing, shown above the kingdoms

    def set_targets(self, targets: dict[Slot, tuple[Code, ...]]) -> None:
        """A new decision's targets: the cursor goes to the first unless it is on one still."""
        if set(targets) != set(self.targets) or self.cursor not in targets:
            self.cursor = next(iter(targets), None)
            self.note = ""
        if bool(targets) != bool(self.targets) and self.is_attached:
            self.refresh_bindings()  # "Choose target" in the footer only when there is one
        self.targets = targets

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self.targets) or action not in ("choose", "share")

    def action_target(self, step: int) -> None:
        if not self.targets:
            (self.scroll_down if step > 0 else self.scroll_up)(animate=False)
            return
        order = list(self.targets)
        at = order.index(self.cursor) if self.cursor in order else -1
        self.cursor = order[(at + step) % len(order)]
        self.note = ""
        self.drawn()

    def action_choose(self) -> None:
        self.pick(None)

    def action_share(self, points: int) -> None:
        self.pick(points)

    def action_click(self, seat: int, slot: str) -> None:
        """A click on a Castle or Land: the cursor goes there, and a target is chosen."""
        if (seat, slot) in self.targets:
            self.cursor = (seat, slot)
            self.pick(None)
        else:
            self.say("that is not a target now" if self.targets else "no target to choose now")

    def pick(self, points: int | None) -> None:
        if self.cursor is None or self.cursor not in self.targets:
            self.say("no target to choose now: choose in the options (o)")
            return
        codes = self.targets[self.cursor]
        code = share(codes, points)
        if code is None:
            most = max((int(c[3]) for c in codes if len(c) >= 4), default=0)
            self.say(f"this target takes 1 to {most} points" if most else "a digit is for a Spread's share")
            return
        self.note = ""
        self.post_message(OptionChosen(code))

    def say(self, text: str) -> None:
        self.note = text
        self.drawn()

    def mark(self, seat: int, slot: str) -> str:
        """The mark of a Castle or Land: the cursor, a target, or none."""
        if (seat, slot) not in self.targets:
            return ""
        return CURSOR if (seat, slot) == self.cursor else TARGET

    def drawn(self) -> None:
        """Draw the kingdoms again (the cursor or the note changed) and keep the cursor in view."""
        pane = self.query_one(ViewPane)
        pane.redraw()
        width = pane.size.width
        if self.cursor is None or not width:
            return
        out = io.StringIO()
        console = Console(file=out, width=width, color_system=None, legacy_windows=False)
        console.print(pane.draw(width))
        lines = out.getvalue().splitlines()
        row = next((i for i, line in enumerate(lines) if CURSOR in line), 0)
        self.scroll_to_region(Region(0, max(0, row - 1), 1, 3), animate=False, immediate=True)
