"""Taifa's board for the app (the plugin's ``board``): the map and the kingdoms' table,
drawn from a seat's view. Choices go through the options pane; the board only shows.

Each area is drawn at its map coordinates (x, y in core/taifa/data/map.toml),
scaled to the pane: its id on the owner's colour (2.2), ``+`` for a
garrison, ``*`` for a capital. The area of the fight in progress is
underlined. Areas out of play (El Cid, 10.1) are dim dots.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from core.engine import Game

from core.taifa.game import TaifaGame
from core.taifa.state import INDEPENDENT, OUT_OF_PLAY
from tui.games.taifa.map import INDEPENDENT_STYLE, kingdom_style
from tui.games.taifa.text import kingdom_rows

CELL = 4  # "33+*"


class TaifaMap(Widget):
    """The 58 areas placed by their coordinates and coloured by owner."""

    DEFAULT_CSS = "TaifaMap { height: 1fr; width: 100%; min-height: 6; }"

    def __init__(self, game: TaifaGame, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.view_ = game.view(None)

    def show(self, game: TaifaGame, seat: int | None = None) -> None:
        self.game = game
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


def kingdoms_text(game: TaifaGame, seat: int | None = None, width: int = 80) -> Text:
    """The kingdoms' table of the text view (tui/games/taifa/text.py), each name on its colours."""
    v = game.view(seat)
    t = Text(no_wrap=True, overflow="ellipsis")
    for i, (key, name, counts, army) in enumerate(kingdom_rows(game, seat, width)):
        t.append("▶" if i == v["current"] and v["result"] is None else " ")
        t.append(f" {name:<17} ", kingdom_style(key))
        t.append(counts)
        t.append(army, "dim")
        t.append("\n")
    draw = ", ".join(f"{d} {n}" for d, n in v["draw"].items())
    t.append(f"  turn {v['turn']}/3 · draw piles: {draw}", "dim")
    return t


def hand_text(game: TaifaGame, seat: int | None) -> Text | None:
    """The cards ``seat`` holds, when its view shows them (a person's own kingdom; 5.1)."""
    if seat is None:
        return None
    kingdoms = game.view(seat)["kingdoms"]
    hand = kingdoms[seat]["hand"] if 0 <= seat < len(kingdoms) else None
    if hand is None:
        return None
    t = Text()
    t.append(f"{kingdoms[seat]['name']}'s hand: ", "bold")
    t.append(", ".join(game.label(c) for c in hand) or "(empty)")
    return t


class KingdomsPane(Widget):
    DEFAULT_CSS = "KingdomsPane { height: auto; width: 100%; }"

    def __init__(self, game: TaifaGame, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.seat = game, None

    def show(self, game: TaifaGame, seat: int | None = None) -> None:
        self.game, self.seat = game, seat
        self.refresh(layout=True)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.game.s.kingdoms) + 1

    def render(self) -> Text:
        return kingdoms_text(self.game, self.seat, self.size.width)


class TaifaBoard(Vertical):
    """The map over the kingdoms' table, for one seat's view (None: a spectator)."""

    DEFAULT_CSS = """
    TaifaBoard { height: 1fr; width: 100%; }
    TaifaBoard #hand { height: auto; padding: 0 1; }
    """
    wide: ClassVar[bool] = True

    def __init__(self, game: Game, seat: int | None = None, interactive: bool = False, *,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        assert isinstance(game, TaifaGame)
        self.game, self.seat = game, seat

    def compose(self) -> ComposeResult:
        yield TaifaMap(self.game, id="map")
        yield KingdomsPane(self.game, id="kingdoms")
        yield Static(id="hand")

    def on_mount(self) -> None:
        self.show(self.game, self.seat)

    def show(self, game: Game, seat: int | None = None, interactive: bool = False) -> None:
        assert isinstance(game, TaifaGame)
        self.game, self.seat = game, seat
        self.query_one(TaifaMap).show(game, seat)
        self.query_one(KingdomsPane).show(game, seat)
        hand = hand_text(game, seat)
        shown = self.query_one("#hand", Static)
        shown.display = hand is not None
        shown.update(hand or "")
