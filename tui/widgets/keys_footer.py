"""The footer of every screen, and the keys a screen adds to its own for its game.

The footer is Textual's, composed again only when the keys it shows change: Textual's builds
all its keys anew at every change of focus (its bindings_updated signal), which was a tenth of
a busy screen's drawing."""

from __future__ import annotations

from dataclasses import replace

from textual.actions import parse
from textual.binding import Binding, BindingsMap
from textual.css.scalar import Scalar
from textual.geometry import Region, Size
from textual.layout import ArrangeResult, Layout, WidgetPlacement
from textual.layouts.horizontal import HorizontalLayout
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterLabel, KeyGroup


NARROW = 100  # a screen narrower than this has the footer's keys packed close, and no palette key


class KeysFooter(Footer):
    DEFAULT_CSS = "KeysFooter.-compact FooterLabel { padding-right: 1; }"  # a group's label, then the next key
    _shown: tuple[object, ...] | None = None  # what the keys were composed from

    def keys_shown(self) -> tuple[object, ...]:
        """Everything Footer.compose reads: each active binding as the footer shows it."""
        app = self.app
        keys = tuple((key, b.action, b.description, b.show, b.group, b.tooltip, enabled, tooltip, app.get_key_display(b))
                     for key, (_, b, enabled, tooltip) in self.screen.active_bindings.items())
        return keys, self.compact, self.show_command_palette, self.combine_groups, self._bindings_ready

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        shown = self.keys_shown()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
        self.call_after_refresh(self.fit)

    def on_resize(self) -> None:
        """Narrow (an 80x24 terminal), every key the screen shows fits: packed close, without the
        palette's key (ctrl+p still opens it; the help lists its commands), on two lines if need be
        (:class:`WrappingLayout`)."""
        narrow = self.app.size.width < NARROW
        if (self.compact, self.show_command_palette) != (narrow, not narrow):
            self.compact = narrow
            self.show_command_palette = not narrow
            self.refresh(recompose=True)  # neither is a reactive that composes the keys again
        self.call_after_refresh(self.fit)

    @property
    def layout(self) -> Layout:
        return _WRAP

    def fit(self) -> None:
        """As many lines as the keys take (one unless the screen is narrow): every key the screen
        offers stays in sight."""
        tops = [child.region.y for child in self.children if child.display and child.region]
        lines = max(tops) - min(tops) + 1 if tops else 1
        if self.styles.height != Scalar.parse(str(lines)):
            self.styles.height = lines


class WrappingLayout(HorizontalLayout):
    """A horizontal layout that goes on at the start of the next line when a line is full (a
    group's keys and its label stay together)."""

    name = "wrapping"

    def arrange(self, parent: Widget, children: list[Widget], size: Size, greedy: bool = True) -> ArrangeResult:
        placements = super().arrange(parent, children, Size(10**6, size.height), greedy)
        out: list[WidgetPlacement] = []
        shift, line = 0, 0
        for i, p in enumerate(placements):
            region = p.region
            end = region.right + p.margin.right
            if isinstance(p.widget, KeyGroup) and i + 1 < len(placements):  # with its label
                end = placements[i + 1].region.right + placements[i + 1].margin.right
            if end - shift > size.width and region.x > shift and not isinstance(p.widget, FooterLabel):
                shift, line = region.x - p.margin.left, line + 1
            out.append(p._replace(region=Region(region.x - shift, region.y + line, region.width, region.height)))
        return out


_WRAP = WrappingLayout()


def with_bindings(bindings: BindingsMap, extra: list[Binding], after: str | None = None) -> BindingsMap:
    """``bindings`` with ``extra`` added after the binding whose id is ``after`` (the footer's
    order), or at the end."""
    pairs = list(bindings)
    at = next((i + 1 for i, (_, b) in enumerate(pairs) if b.id == after), len(pairs))
    keys: dict[str, list[Binding]] = {}
    for key, binding in [*pairs[:at], *BindingsMap(extra), *pairs[at:]]:
        keys.setdefault(key, []).append(binding)
    return BindingsMap.from_keys(keys)


def renamed(bindings: BindingsMap, binding_id: str, description: str) -> BindingsMap:
    """``bindings`` with the one of id ``binding_id`` described as ``description`` (the footer's word)."""
    return BindingsMap.from_keys({key: [replace(b, description=description) if b.id == binding_id else b
                                        for b in found] for key, found in bindings.key_to_bindings.items()})


def board_keys(board_class: type | None, taken: set[str], actions: tuple[str, ...] | None = None) -> list[Binding]:
    """A board's keys that work wherever the focus is on its screen: those of its bindings whose
    action is one of its ``SCREEN_ACTIONS`` (or of ``actions``), bound again on the screen as
    ``board('<action>')`` (the screen runs it on the board). A key the screen uses already is
    left out: the board's own binding still has it while the board has the focus."""
    wanted = getattr(board_class, "SCREEN_ACTIONS", ()) if actions is None else actions
    bindings = Binding.make_bindings(getattr(board_class, "BINDINGS", ()))
    return [replace(b, action=f"board({b.action!r})") for b in bindings
            if b.action.split("(")[0] in wanted and b.key not in taken]


def board_allows(board: DOMNode | None, parameters: tuple[object, ...]) -> bool | None:
    """The screen's check of a board's key (``board('<action>')``): the board's own check of that action."""
    if board is None or not parameters:
        return False
    _, name, params = parse(str(parameters[0]))
    return board.check_action(name, params)
