"""Taifa's map pane: the 58 areas drawn as the peninsula, with a cursor, a finder and a legend.

Each area sits at its map coordinates (x, y in core/taifa/data/map.toml) scaled
to the pane; the land around it takes its owner's colour (2.2), the sea is
blue with a sparse ``~``. Every mark is also a character, so the map reads
without colour:

- wide panes draw each area as ``C10 4+*``: the owner's letter (``LETTERS``),
  the id, the defence value, ``+`` a garrison, ``*`` a capital (or ``»`` an
  invasion route, ``~`` a Mallorca sea link); a leading ``>`` marks a target
  to choose, ``!`` the area under attack;
- small panes (80x24's board) draw a schematic, one letter per area, beside
  a list of the areas that follows the cursor.

The pane shows only a seat's view and the map data. ``MapPane.show(game, seat,
targets)`` offers ``targets`` (area -> option code): Enter or a click on one
posts OptionChosen, as the options pane does. Every name it draws (``area_name``,
``kingdom_name``) is made visible, as the other panes' text is: it comes from a map file, and a
game may hold data its loader never checked (issue 26).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input, Static

from core.engine import Code
from core.taifa.game import TaifaGame
from core.taifa.map import TaifaMap
from core.taifa.rows import fold_name
from core.taifa.state import INDEPENDENT, OUT_OF_PLAY
from notation.wording import visible
from tui.widgets.options import OptionChosen
from tui.widgets.redraw import set_content

# 2.2 and 10.1: the castle colours, as (background, foreground).
COLOURS: dict[str, tuple[str, str]] = {
    "castile": ("red3", "white"), "catalans": ("gold1", "black"), "valencia": ("pale_green3", "black"),
    "seville": ("sky_blue2", "black"), "badajoz": ("dark_green", "white"), "leon": ("navy_blue", "white"),
    "almoravids": ("pale_green3", "black"), "el_cid": ("navy_blue", "white"),
}
INDEPENDENT_STYLE = "black on grey70"
OUT_STYLE = "grey78 on grey39"
SEA_STYLE = "steel_blue on grey15"
LINK_STYLE = "bold bright_cyan on grey15"
# The owner as a letter, so the map reads without colour.
LETTERS: dict[str, str] = {
    "castile": "C", "catalans": "A", "valencia": "V", "seville": "S", "badajoz": "B", "leon": "L",
    "almoravids": "M", "el_cid": "E",
}
INDEPENDENT_LETTER, OUT_LETTER = "i", "·"
NO_STYLE, CURSOR, CURSOR_FOCUS = Style(), Style(reverse=True), Style(reverse=True, blink=False, italic=True)
SEA_ISLAND = "mallorca"  # 2.5: the only sea links are Mallorca's
TARGET, FIGHT, GARRISON, CAPITAL, ROUTE, SEA, DOT, LINK = ">", "!", "+", "*", "»", "~", "·", "•"
WIDE_CELL = 8  # ">C10·4+*"
SMALL_CELL = 2  # "C>": letter and one mark
WIDE_MIN = (56, 14)  # below this the wide labels never fit (tried down to 60x16)
SCHEMATIC_MIN, SCHEMATIC_MAX, LIST_MIN = 20, 40, 18
LAND = 3.0  # map units of land drawn around an area's label


def kingdom_style(key: str) -> str:
    bg, fg = COLOURS.get(key, ("grey50", "white"))
    return f"{fg} on {bg}"


def owner_letter(view: Mapping[str, Any], area: int) -> str:
    """The owner of ``area`` as one letter: a kingdom's, ``i`` independent, ``·`` out of play."""
    return _owner(view, area)[0]


def owner_style(view: Mapping[str, Any], area: int) -> str:
    return _owner(view, area)[1]


def area_name(m: TaifaMap, a: int) -> str:
    """Area ``a``'s name as the pane draws it: made visible."""
    return visible(m.areas[a - 1].name)


def kingdom_name(kingdom: Mapping[str, Any]) -> str:
    """A kingdom's name (an entry of the view's ``kingdoms``) as the pane draws it: made visible."""
    return visible(kingdom["name"])


def _owner(view: Mapping[str, Any], area: int) -> tuple[str, str]:
    """The owner's letter and style."""
    owner = view["owner"][area]
    if owner == OUT_OF_PLAY:
        return OUT_LETTER, OUT_STYLE
    if owner == INDEPENDENT:
        return INDEPENDENT_LETTER, INDEPENDENT_STYLE
    key = view["kingdoms"][owner]["key"]
    return LETTERS.get(key, key[:1].upper()), kingdom_style(key)


def sea_links(m: TaifaMap) -> frozenset[tuple[int, int]]:
    """Mallorca's borders (2.5: sea links), each pair (low id, high id)."""
    return frozenset((min(a.id, b), max(a.id, b)) for a in m.areas if fold_name(a.name) == SEA_ISLAND
                     for b in a.borders)


# -- layout: where each area goes, cached per map and size --------------------------------------


@dataclass(frozen=True)
class Layout:
    """Where things are drawn on a canvas of ``width`` x ``height``.

    ``wide``: labels of WIDE_CELL characters; else a schematic of SMALL_CELL
    characters per area, left of an area list starting at column ``list_col``."""

    width: int
    height: int
    wide: bool
    cell: int
    spots: dict[int, tuple[int, int]]  # area -> (row, col) of its label
    region: tuple[tuple[int, ...], ...]  # per row, per column: the area whose land it is (0: sea)
    runs: tuple[tuple[tuple[int, int, int], ...], ...]  # per row: (start, end, area) of region
    base: tuple[str, ...]  # per row: the sea's sparse ~ and the land's blanks
    links: tuple[tuple[int, int, str], ...]  # (row, col, char) of the drawn sea links
    list_col: int  # compact: where the area list starts (width when there is none)
    linked: frozenset[int]  # the areas with a sea link
    xs: float  # columns per map unit
    ys: float  # rows per map unit


_CACHE: dict[tuple[int, int, int], tuple[TaifaMap, Layout]] = {}


def layout_for(m: TaifaMap, width: int, height: int) -> Layout:
    """The wide layout when every label fits near its place, else the compact one (cached)."""
    key = (id(m), width, height)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is m:
        return hit[1]
    if len(_CACHE) > 64:
        _CACHE.clear()
    lay = _place(m, width, height, WIDE_CELL) if width >= WIDE_MIN[0] and height >= WIDE_MIN[1] else None
    if lay is None:
        lay = _compact(m, width, height)
    _CACHE[key] = (m, lay)
    return lay


def _compact(m: TaifaMap, width: int, height: int) -> Layout:
    """A schematic beside an area list at least LIST_MIN wide; the list alone when none fits."""
    for loose in (False, True):
        for w in range(min(SCHEMATIC_MAX, width - LIST_MIN - 1), SCHEMATIC_MIN - 1, -2):
            lay = _place(m, w, height, SMALL_CELL, width, loose)
            if lay is not None:
                return lay
    empty = tuple(() for _ in range(height))
    return Layout(width, height, False, SMALL_CELL, {}, empty, empty, ("",) * height, (), 0, _linked(m), 1.0, 1.0)


def _place(m: TaifaMap, width: int, height: int, cell: int, total: int | None = None,
           loose: bool = False) -> Layout | None:
    """Each label at the free spot nearest its scaled coordinates; None when one lands too far.

    Wide labels may move one label's width or one row; schematic cells, which
    carry no id, up to three cells and two rows (``loose``: five cells, three rows)."""
    areas = m.areas
    x0, x1 = min(a.x for a in areas), max(a.x for a in areas)
    y0, y1 = min(a.y for a in areas), max(a.y for a in areas)
    if width < cell + 2 or height < 3:
        return None
    wide = cell == WIDE_CELL
    top = 1 if wide and height >= 24 else 0  # a row of sea above and below, when there is room
    left = 1 if wide else 0
    xs = (width - cell - 2 * left) / max(1, x1 - x0)  # columns per map unit
    ys = (height - 1 - 2 * top) / max(1, y1 - y0)  # rows per map unit
    busy = [[False] * width for _ in range(height)]
    spots: dict[int, tuple[int, int]] = {}
    reach_c, reach_r = (cell + 1, 1) if wide else (5 * (cell + 1), 3) if loose else (3 * (cell + 1), 2)
    for a in sorted(areas, key=lambda a: (a.y, a.x)):
        r0, c0 = top + round((a.y - y0) * ys), left + round((a.x - x0) * xs)
        best: tuple[float, int, int] | None = None
        for r in range(max(0, r0 - reach_r), min(height, r0 + reach_r + 1)):
            row = busy[r]
            for c in range(max(0, c0 - reach_c), min(width - cell, c0 + reach_c) + 1):
                cost = abs(c - c0) + abs(r - r0) * 2.5  # a row is about two columns high
                if (best is None or cost < best[0]) and not any(row[max(0, c - 1):c + cell + 1]):
                    best = (cost, r, c)
        if best is None:
            return None
        _, r, c = best
        busy[r][c:c + cell] = [True] * cell
        spots[a.id] = (r, c)
    region = _regions(spots, width, height, cell, xs, ys)
    links = _links(m, spots, region, cell) if wide else ()
    runs = tuple(_runs(row) for row in region)
    base = tuple("".join("~" if not a and (x + 2 * y) % 5 == 0 else " " for x, a in enumerate(row))
                 for y, row in enumerate(region))
    return Layout(total or width, height, wide, cell, spots, region, runs, base, links,
                  width if wide else width + 1, _linked(m), xs, ys)


def _linked(m: TaifaMap) -> frozenset[int]:
    return frozenset(a for pair in sea_links(m) for a in pair)


def _runs(row: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    out, start = [], 0
    for x in range(1, len(row) + 1):
        if x == len(row) or row[x] != row[start]:
            out.append((start, x, row[start]))
            start = x
    return tuple(out)


def _regions(spots: dict[int, tuple[int, int]], width: int, height: int, cell: int,
             xs: float, ys: float) -> tuple[tuple[int, ...], ...]:
    """Each canvas cell's nearest area within LAND map units, lakes filled (0: sea)."""
    best = [[math.inf] * width for _ in range(height)]
    owner = [[0] * width for _ in range(height)]
    xs, ys = max(xs, 0.3), max(ys, 0.3)
    rr, rc = int(LAND * ys) + 1, int(LAND * xs) + 1
    for aid, (r, c) in spots.items():
        cc = c + (cell - 1) / 2
        for y in range(max(0, r - rr), min(height, r + rr + 1)):
            dy2 = ((y - r) / ys) ** 2
            brow, orow = best[y], owner[y]
            for x in range(max(0, c - rc), min(width, c + cell + rc)):
                d = ((x - cc) / xs) ** 2 + dy2
                if d < brow[x] and d <= LAND * LAND:
                    brow[x], orow[x] = d, aid
    for aid, (r, c) in spots.items():
        owner[r][c:c + cell] = [aid] * cell
    _fill_lakes(owner)
    return tuple(tuple(row) for row in owner)


def _fill_lakes(owner: list[list[int]]) -> None:
    """Sea the edge cannot reach is land: each lake cell goes to the area whose shore is nearest."""
    height, width = len(owner), len(owner[0]) if owner else 0
    sea = [[False] * width for _ in range(height)]
    todo = [(y, x) for y in range(height) for x in (0, width - 1)] + [(y, x) for x in range(width) for y in (0, height - 1)]
    while todo:
        y, x = todo.pop()
        if sea[y][x] or owner[y][x]:
            continue
        sea[y][x] = True
        if y > 0:
            todo.append((y - 1, x))
        if y < height - 1:
            todo.append((y + 1, x))
        if x > 0:
            todo.append((y, x - 1))
        if x < width - 1:
            todo.append((y, x + 1))
    lake = [(y, x) for y in range(height) for x in range(width) if not owner[y][x] and not sea[y][x]]
    if not lake:
        return
    queue = deque((y, x) for y in range(height) for x in range(width) if owner[y][x])
    while queue:
        y, x = queue.popleft()
        for v, u in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
            if 0 <= v < height and 0 <= u < width and not owner[v][u] and not sea[v][u]:
                owner[v][u] = owner[y][x]
                queue.append((v, u))


def _links(m: TaifaMap, spots: dict[int, tuple[int, int]], region: tuple[tuple[int, ...], ...],
           cell: int) -> tuple[tuple[int, int, str], ...]:
    """Each sea link as a dotted line of ``~`` over the sea between the two labels."""
    out: list[tuple[int, int, str]] = []
    for a, b in sorted(sea_links(m)):
        (r1, c1), (r2, c2) = spots[a], spots[b]
        c1, c2 = c1 + cell // 2, c2 + cell // 2
        steps = max(abs(r2 - r1), abs(c2 - c1), 1)
        for i in range(steps + 1):
            r, c = round(r1 + (r2 - r1) * i / steps), round(c1 + (c2 - c1) * i / steps)
            if region[r][c] == 0:
                out.append((r, c, LINK))
    return tuple(out)


# -- what each area shows: from a seat's view and the map only ------------------------------------


@dataclass(frozen=True)
class Marks:
    """The state the canvas draws, so a repaint happens only when it changes."""

    letters: tuple[str, ...]  # per area id (index 0 unused)
    styles: tuple[str, ...]
    garrison: tuple[bool, ...]
    capitals: frozenset[int]
    fight: int  # the area under attack (0: none)
    targets: frozenset[int]


def marks_of(view: Mapping[str, Any], m: TaifaMap, targets: frozenset[int]) -> Marks:
    ids = range(len(m.areas) + 1)
    fight = view["fight"]["area"] if view.get("fight") else 0
    return Marks(
        letters=tuple(owner_letter(view, a) if a else "" for a in ids),
        styles=tuple(owner_style(view, a) if a else "" for a in ids),
        garrison=tuple(bool(view["garrison"][a]) for a in ids),
        capitals=frozenset(k["capital"] for k in view["kingdoms"] if view["owner"][k["capital"]] != OUT_OF_PLAY),
        fight=fight or 0, targets=targets,
    )


def area_mark(m: TaifaMap, marks: Marks, a: int, links: frozenset[int]) -> str:
    """The one character after the garrison: capital, invasion route or sea link."""
    if a in marks.capitals:
        return CAPITAL
    if m.areas[a - 1].invasion:
        return ROUTE
    return SEA if a in links else ""


def wide_label(m: TaifaMap, marks: Marks, a: int, links: frozenset[int]) -> str:
    """``>C10·4+*``: state, owner, id, defence, garrison, capital/route/sea link (out of play: ``·22``)."""
    state = FIGHT if a == marks.fight else TARGET if a in marks.targets else " "
    if marks.letters[a] == OUT_LETTER:
        return f"{state}{OUT_LETTER}{a}".ljust(WIDE_CELL)
    gar = GARRISON if marks.garrison[a] else ""
    return f"{state}{marks.letters[a]}{a}{DOT}{m.areas[a - 1].defence}{gar}{area_mark(m, marks, a, links)}".ljust(WIDE_CELL)


def list_line(m: TaifaMap, marks: Marks, a: int, links: frozenset[int], name_w: int) -> str:
    """``>10 Burgos       C4+*``: a line of the compact area list (owner letter at name_w + 5)."""
    state = FIGHT if a == marks.fight else TARGET if a in marks.targets else " "
    name = area_name(m, a)
    name = name if len(name) <= name_w else name[:name_w - 1] + "…"
    if marks.letters[a] == OUT_LETTER:
        return f"{state}{a:>2} {name:<{name_w}} {OUT_LETTER}"
    gar = GARRISON if marks.garrison[a] else " "
    return f"{state}{a:>2} {name:<{name_w}} {marks.letters[a]}{m.areas[a - 1].defence}{gar}{area_mark(m, marks, a, links)}"


def small_label(marks: Marks, a: int) -> str:
    """``C>``: owner and the most pressing mark (under attack, target, capital, garrison)."""
    mark = (FIGHT if a == marks.fight else TARGET if a in marks.targets else CAPITAL if a in marks.capitals
            else GARRISON if marks.garrison[a] else " ")
    return marks.letters[a] + mark


def _patch(style: str) -> str:
    """An owner's land around the labels: its background."""
    return "on " + style.split(" on ")[-1]


class MapCanvas(Widget, can_focus=True):
    """The drawn map (and, when small, the schematic and the area list); keys move the cursor."""

    DEFAULT_CSS = "MapCanvas { height: 1fr; width: 100%; min-height: 3; }"
    BINDINGS = [
        Binding("up", "move(0, -1)", "Up", show=False, id="map.up"),
        Binding("down", "move(0, 1)", "Down", show=False, id="map.down"),
        Binding("left", "move(-1, 0)", "Left", show=False, id="map.left"),
        Binding("right", "move(1, 0)", "Right", show=False, id="map.right"),
        Binding("enter,space", "choose", "Choose area", id="map.choose"),
        Binding("l", "legend", "Legend", id="map.legend"),
        Binding("slash", "find", "Find area", id="map.find"),  # the board has `/` too, wherever the focus is
    ]

    def __init__(self, pane: MapPane, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pane = pane
        self._lines: list[Strip] = []
        self._key: tuple[Any, ...] | None = None
        self.list_top = 0  # first area shown in the compact list
        self.want: int | None = None  # an area the list must show
        self._followed = 0

    @property
    def layout_(self) -> Layout:
        return layout_for(self.pane.game.m, max(1, self.size.width), max(1, self.size.height))

    # -- input -------------------------------------------------------------------------------

    def action_move(self, dx: int, dy: int) -> None:
        self.pane.select(self.next_area(self.pane.cursor, dx, dy))

    def action_choose(self) -> None:
        self.pane.choose(self.pane.cursor)

    def action_legend(self) -> None:
        self.pane.toggle_legend()

    def next_area(self, frm: int, dx: int, dy: int) -> int:
        """The nearest area in the direction (dx, dy) on screen; ``frm`` when there is none."""
        lay = self.layout_
        if frm not in lay.spots:  # the list alone: up and down walk it
            return min(len(self.pane.game.m.areas), max(1, frm + dx + dy))
        r0, c0 = lay.spots[frm]
        best: tuple[float, int] | None = None
        for a, (r, c) in lay.spots.items():
            along = (c - c0) * dx / 2 + (r - r0) * dy  # a column is about half a row
            across = abs((c - c0) * dy / 2) + abs((r - r0) * dx)
            if a != frm and along > 0:
                score = along + 2.5 * across
                if best is None or score < best[0]:
                    best = (score, a)
        return best[1] if best else frm

    def action_find(self) -> None:
        self.pane.open_finder()

    def area_at(self, x: int, y: int) -> int:
        lay = self.layout_
        if 0 <= y < lay.height and 0 <= x < len(lay.region[y]):
            return lay.region[y][x]
        if x >= lay.list_col:
            i = self.list_top + y
            return i + 1 if 0 <= i < len(self.pane.game.m.areas) else 0
        return 0

    def on_click(self, event: events.Click) -> None:
        a = self.area_at(event.x, event.y)
        if a:
            self.pane.select(a)
            self.pane.choose(a, quiet=True)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._scroll_list(3, event)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._scroll_list(-3, event)

    def _scroll_list(self, by: int, event: events.MouseEvent) -> None:
        lay = self.layout_
        if not lay.wide:
            event.stop()
            self.list_top = max(0, min(len(self.pane.game.m.areas) - lay.height, self.list_top + by))
            self.refresh()

    def follow(self, a: int) -> None:
        """Scroll the compact list so area ``a`` shows (at the next paint, when its height is known)."""
        self.want = a
        self.refresh()

    # -- drawing -----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        if self.pane.cursor != self._followed:  # however the cursor moved, the list shows it
            self._followed = self.want = self.pane.cursor
        key = (self.size, self.pane.marks, self.pane.cursor, self.has_focus, self.list_top, self.want,
               id(self.pane.game.m))
        if key != self._key:
            self._lines = self.paint()
            self._key = key
        return self._lines[y] if 0 <= y < len(self._lines) else Strip.blank(self.size.width)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def paint(self) -> list[Strip]:
        """Every line of the canvas: the layout's land and sea with the labels laid over them."""
        lay, m, marks = self.layout_, self.pane.game.m, self.pane.marks
        links = lay.linked
        over: list[list[tuple[int, str, Style]]] = [[] for _ in range(lay.height)]
        link = Style.parse(LINK_STYLE)
        for y, x, ch in lay.links:
            over[y].append((x, ch, link))
        cursor = CURSOR_FOCUS if self.has_focus else CURSOR
        for a, (y, x) in lay.spots.items():
            text = wide_label(m, marks, a, links) if lay.wide else small_label(marks, a)
            style = Style.parse(marks.styles[a] + " bold")
            if a in marks.targets or a == marks.fight:
                style += Style(underline=True)
            over[y].append((x, text, style + cursor if a == self.pane.cursor else style))
        if not lay.wide:
            self._list_overlay(over, lay, m, marks, links, cursor)
        land = [Style.parse(SEA_STYLE)] + [Style.parse(_patch(st)) for st in marks.styles[1:]]
        return [_strip(lay.base[y], lay.runs[y], sorted(over[y], key=lambda o: o[0]), land, lay.width)
                for y in range(lay.height)]

    def _list_overlay(self, over: list[list[tuple[int, str, Style]]], lay: Layout, m: TaifaMap,
                      marks: Marks, links: frozenset[int], cursor: Style) -> None:
        """The compact area list, ``>10 Burgos    C4+*`` a line, the cursor's line reversed."""
        x0, width = lay.list_col, lay.width - lay.list_col
        if width < 12:
            return
        if self.want is not None:
            if self.want - 1 < self.list_top:
                self.list_top = self.want - 1
            elif self.want > self.list_top + lay.height:
                self.list_top = self.want - lay.height
            self.want = None
        self.list_top = max(0, min(self.list_top, len(m.areas) - lay.height))
        name_w = min(12, width - 9)
        for y in range(lay.height):
            a = self.list_top + y + 1
            if a > len(m.areas):
                break
            text = list_line(m, marks, a, links, name_w)
            own = Style.parse(marks.styles[a] + " bold")
            extra = cursor if a == self.pane.cursor else NO_STYLE
            cut = name_w + 5
            over[y] += [(x0, text[:cut], extra), (x0 + cut, text[cut], own + extra), (x0 + cut + 1, text[cut + 1:], extra)]


def _strip(base: str, runs: tuple[tuple[int, int, int], ...], over: list[tuple[int, str, Style]],
           land: list[Style], width: int) -> Strip:
    """One line: ``base`` coloured by ``runs`` (start, end, area), with ``over`` laid on top."""
    segments: list[Segment] = []
    at = 0  # the first run that may still show

    def fill(a: int, b: int) -> None:
        nonlocal at
        while at < len(runs) and runs[at][1] <= a:
            at += 1
        i = at
        while i < len(runs) and runs[i][0] < b:
            start, end, area = runs[i]
            segments.append(Segment(base[max(a, start):min(b, end)], land[area]))
            i += 1
        if b > len(base) and a < b:
            segments.append(Segment(" " * (b - max(a, len(base)))))

    pos = 0
    for x, text, style in over:
        if x < pos or not text:
            continue
        fill(pos, x)
        segments.append(Segment(text, style))
        pos = x + len(text)
    fill(pos, width)
    return Strip(segments, width)


class Finder(Input):
    """The area finder: a name or an id; Escape closes it."""

    BINDINGS = [Binding("escape", "close", "Close finder", id="map.find_close")]

    def action_close(self) -> None:
        pane = next((p for p in self.ancestors if isinstance(p, MapPane)), None)
        if pane is not None:
            pane.close_finder()


# -- the pane ---------------------------------------------------------------------------------------


class MapPane(Vertical):
    """The map with its legend, the selected area's details and a finder (C3).

    ``show(game, seat, targets)`` draws ``seat``'s view (None: a spectator)
    and offers ``targets`` (area -> option code). Selecting an area posts
    AreaSelected; Enter or a click on a target posts OptionChosen."""

    DEFAULT_CSS = """
    MapPane { height: 1fr; width: 100%; }
    MapPane > #map-legend { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    MapPane > #map-legend.-full { text-wrap: wrap; }
    MapPane > #map-details { height: auto; max-height: 4; }
    MapPane.-compact > #map-details { max-height: 2; text-wrap: nowrap; text-overflow: ellipsis; }
    MapPane > #map-note { height: auto; color: $text-error; }
    MapPane > #map-find { height: 1; border: none; padding: 0 1; display: none; }
    """

    class AreaSelected(Message):
        """The cursor is on ``area`` now (by key, click or finder)."""

        def __init__(self, area: int) -> None:
            super().__init__()
            self.area = area

    def __init__(self, game: TaifaGame, seat: int | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game, self.seat = game, seat
        self.view_ = game.view(seat)
        self.targets: dict[int, Code] = {}
        self.marks = marks_of(self.view_, game.m, frozenset())
        self.cursor = self._first_in_play()
        self.full_legend = False

    def compose(self) -> ComposeResult:
        yield MapCanvas(self, id="map-canvas")
        yield Static(id="map-legend")
        yield Static(id="map-details")
        yield Static(id="map-note")
        yield Finder(placeholder="area name or id, Enter to go, Escape to close", id="map-find")

    def on_mount(self) -> None:
        self.query_one("#map-note").display = False
        self._refresh_text()

    def on_resize(self) -> None:
        w, h = self.size
        self.set_class(not (w >= WIDE_MIN[0] and h - 4 >= WIDE_MIN[1]), "-compact")
        self._refresh_text()

    # -- the game --------------------------------------------------------------------------------

    def show(self, game: TaifaGame, seat: int | None = None, targets: Mapping[int, Code] | None = None) -> None:
        """Draw ``game`` as ``seat`` sees it; ``targets``: the areas a decision may choose now."""
        targets = dict(targets or {})
        fresh = bool(targets) and set(targets) != set(self.targets)
        self.game, self.seat, self.targets = game, seat, targets
        self.view_ = game.view(seat)
        self.marks = marks_of(self.view_, game.m, frozenset(targets))
        if fresh:
            self.select(next(iter(targets)))
        elif not 1 <= self.cursor <= len(game.m.areas):
            self.cursor = self._first_in_play()
        self._refresh_text()
        self.query_one(MapCanvas).refresh()

    def _first_in_play(self) -> int:
        return next((a.id for a in self.game.m.areas if self.view_["owner"][a.id] != OUT_OF_PLAY), 1)

    def select(self, area: int) -> None:
        """Put the cursor on ``area`` and say so (AreaSelected)."""
        canvas = self.query_one(MapCanvas) if self.is_mounted else None
        self.cursor = area
        if canvas is not None:
            canvas.follow(area)
            canvas.refresh()
            self._refresh_text()
        self.post_message(self.AreaSelected(area))

    def choose(self, area: int, quiet: bool = False) -> None:
        """Enter or a click on ``area``: a target is chosen; else (unless ``quiet``) say why not."""
        if area in self.targets:
            self.post_message(OptionChosen(self.targets[area]))
            self.note("")
        elif not quiet:
            self.note(f"{area_name(self.game.m, area)} is not a choice now" if self.targets
                      else "no area to choose now")

    def note(self, text: str) -> None:
        """A one-line message under the details (empty: none): made visible, and never read as
        markup (it may quote what a person typed in the finder)."""
        shown = self.query_one("#map-note", Static)
        set_content(shown, Text(visible(text)))
        shown.display = bool(text)

    # -- the finder ------------------------------------------------------------------------------

    @property
    def finding(self) -> bool:
        """Whether the finder is open (the panes stay as they are meanwhile)."""
        return bool(self.query_one(Finder).display)

    def open_finder(self) -> None:
        finder = self.query_one(Finder)
        finder.value = ""
        finder.display = True
        self.screen.set_focus(finder)  # at once: keys typed right after `/` go to it

    def close_finder(self) -> None:
        self.note("")
        self.query_one(Finder).display = False
        self.screen.set_focus(self.query_one(MapCanvas))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "map-find":
            return
        event.stop()
        found = find_area(self.game.m, event.value)
        if found is None:
            self.note(f"no area is called or numbered {event.value.strip()!r}" if event.value.strip()
                      else "type an area's name or id")
            return
        self.close_finder()
        self.select(found)

    # -- text ------------------------------------------------------------------------------------

    def toggle_legend(self) -> None:
        self.full_legend = not self.full_legend
        self._refresh_text()

    def _refresh_text(self) -> None:
        if not self.is_mounted:
            return
        width = max(20, self.size.width)
        legend = full_legend(self.view_) if self.full_legend else legend_line(self.view_, width)
        shown = self.query_one("#map-legend", Static)
        shown.set_class(self.full_legend, "-full")
        set_content(shown, legend)
        short = self.has_class("-compact")
        set_content(self.query_one("#map-details", Static), details(self.game, self.view_, self.cursor, self.targets, short))


def find_area(m: TaifaMap, typed: str) -> int | None:
    """The area ``typed`` names: an id, a whole name, else the first name it begins (case and accents ignored)."""
    text = fold_name(typed)
    if not text:
        return None
    if text.isdigit():
        n = int(text)
        return n if 1 <= n <= len(m.areas) else None
    for a in m.areas:
        if fold_name(a.name) == text:
            return a.id
    return next((a.id for a in m.areas if fold_name(a.name).startswith(text)), None)


def legend_line(view: Mapping[str, Any], width: int) -> Text:
    """The legend in one line: the richest that fits ``width``."""
    kingdoms = [(LETTERS.get(k["key"], "?"), kingdom_name(k), kingdom_style(k["key"])) for k in view["kingdoms"]]
    kingdoms.append((INDEPENDENT_LETTER, "independent", INDEPENDENT_STYLE))
    if any(o == OUT_OF_PLAY for o in view["owner"][1:]):
        kingdoms.append((OUT_LETTER, "out of play", OUT_STYLE))
    marks = [(GARRISON, "garrison", "gar"), (CAPITAL, "capital", "cap"), (ROUTE, "invasion", "inv"),
             (SEA, "sea link", "sea"), (TARGET, "target", "tgt"), (FIGHT, "attacked", "att")]
    t = Text()
    # (kingdom names, letters padded, marks in full, keys in full), richest first
    for names, pad, words, keys in ((True, " ", True, True), (False, " ", True, True),
                                    (False, " ", False, True), (False, "", False, False)):
        t = Text(no_wrap=True, overflow="ellipsis")
        for letter, name, style in kingdoms:
            t.append(f"{pad}{letter}{pad}", style)
            t.append(f" {_short(name)} " if names else "")
        t.append(" " + pad + " ".join(f"{c}{w if words else s}" for c, w, s in marks))
        t.append("  l: legend  /: find" if keys else " l:more")
        if t.cell_len <= width:
            return t
    return t


def _short(name: str) -> str:
    return name.replace("Taifa of ", "").replace("Catalan Counties", "Catalans")


def full_legend(view: Mapping[str, Any]) -> Text:
    """Every mark explained, shown with `l`."""
    t = Text()
    for k in view["kingdoms"]:
        t.append(f" {LETTERS.get(k['key'], '?')} ", kingdom_style(k["key"]))
        t.append(f" {kingdom_name(k)}  ")
    t.append(f" {INDEPENDENT_LETTER} ", INDEPENDENT_STYLE)
    t.append(" independent  ")
    t.append(f" {OUT_LETTER} ", OUT_STYLE)
    t.append(" out of play (El Cid, 10.1)\n")
    t.append(f" C10{DOT}4+* ", kingdom_style("castile"))
    t.append(" owner's letter, area id, defence (dice); "
             f"{GARRISON} a garrison (+1 die), {CAPITAL} a capital, {ROUTE} an invasion route (9.6), "
             f"{SEA} a sea link to Mallorca (2.5; {LINK}{LINK}{LINK} across the sea, whose waves are {SEA})\n")
    t.append(f" {TARGET} an area you may choose now (Enter or a click), {FIGHT} the area under attack; "
             f"small maps show one letter and the most pressing mark, the list the rest\n")
    t.append(" keys: arrows move, Enter chooses, / finds an area by name or id, l closes this legend")
    return t


def details(game: TaifaGame, view: Mapping[str, Any], a: int, targets: Mapping[int, Code],
            short: bool = False) -> Text:
    """What the cursor's area is: owner, defence, garrison, capital, marks, borders, who can attack it.

    ``short``: two lines, borders as ids and kingdoms as letters."""
    m = game.m
    area = m.areas[a - 1]
    owner = view["owner"][a]
    t = Text()
    t.append(f"{a} {area_name(m, a)}", "bold")
    t.append(" ")
    if owner == OUT_OF_PLAY:
        t.append(f" {OUT_LETTER} out of play ", OUT_STYLE)
        t.append(" (El Cid, 10.1)")
        return t
    name = "independent" if owner == INDEPENDENT else kingdom_name(view["kingdoms"][owner])
    t.append(f" {owner_letter(view, a)} {name} ", owner_style(view, a))
    facts = [f"defence {area.defence}"]
    if view["garrison"][a]:
        facts.append(f"garrison (+1, {area.defence + 1} dice)")
    facts += [f"capital of {kingdom_name(k)}" for k in view["kingdoms"] if k["capital"] == a]
    if area.invasion:
        facts.append("invasion route")
    sea = sorted(b for pair in sea_links(m) if a in pair for b in pair if b != a)
    if sea:
        facts.append("sea link to " + ", ".join(area_name(m, b) for b in sea))
    fight = view.get("fight")
    if fight and fight["area"] == a:
        facts.append("under attack now")
    if a in targets:
        facts.append("a choice now: Enter")
    t.append(" · " + " · ".join(facts) + "\n")
    borders = [b for b in area.borders if view["owner"][b] != OUT_OF_PLAY]
    who = [i for i in range(len(view["kingdoms"])) if i != owner and a in game.attackable(i)]
    if short:
        t.append("attackers: ")
        for i in who:
            k = view["kingdoms"][i]
            t.append(LETTERS.get(k["key"], "?"), kingdom_style(k["key"]))
            t.append(" ")
        t.append(("" if who else "none ") + "· borders " + ",".join(map(str, borders)))
        return t
    t.append("borders: " + ", ".join(f"{area_name(m, b)} {b}" for b in borders) + "\n")
    names = [kingdom_name(view["kingdoms"][i]) for i in who]
    t.append("can attack it: " + (", ".join(names) if names else "no kingdom now (borders, truces)"))
    return t
