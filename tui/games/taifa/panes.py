"""Taifa's panes beside the map: the turn line, the kingdoms, a seat's hand, the combat.

Each pane draws the facts text.py words (tagged lines) in colour; none words a fact
itself, so the prompt, ``replay show`` and the app say the same. All come from
``game.view(seat)``: a seat sees its own hand only, a spectator none. Every run is made
visible as it is drawn: the names and texts in it come from a map or decks file, and a game
may hold data its loader never checked (issue 26).
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from core.taifa.game import TaifaGame
from notation.wording import visible
from tui.games.taifa import text
from tui.games.taifa.map import kingdom_style
from tui.widgets.view_pane import ViewPane

# How each tag of text.py's lines is drawn ("k:<key>" is the kingdom's colours).
_MEASURE = Console(file=io.StringIO())  # Text.wrap measures with a console
STYLES = {"head": "bold", "dim": "dim", "hit": "bold green", "miss": "", "current": "bold",
          "hidden": "italic dim", "card": "bold"}


def coloured(lines: Iterable[text.Line], width: int = 0) -> Text:
    """text.py's tagged lines as one rich Text, each run made visible and styled by its tag; a
    line longer than ``width`` (0: no limit) wraps, indented under its first words."""
    out = Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        t = Text(no_wrap=True)
        for run, tag in line:
            t.append(visible(run), kingdom_style(tag[2:]) if tag.startswith("k:") else STYLES.get(tag, ""))
        out.append_text(_hang(t, width) if width else t)
    return out


def _hang(line: Text, width: int) -> Text:
    if line.cell_len <= width:
        return line
    indent = min(len(line.plain) - len(line.plain.lstrip(" ")) + 2, width // 2)
    parts = line.wrap(_MEASURE, width - indent, no_wrap=False)
    for part in parts[1:]:
        part.pad_left(indent)
    for part in parts:
        part.rstrip()  # in place (Text.rstrip returns nothing)
    return Text("\n").join(parts)


def kingdoms_text(game: TaifaGame, seat: int | None = None, width: int = 80) -> Text:
    """The kingdoms' table in colour, laid out for ``width`` columns."""
    return coloured(text.kingdom_lines(game, seat, width), width)


class TaifaPane(ViewPane):
    """A Taifa pane drawn from a seat's view."""

    game: TaifaGame

    def draw(self, width: int) -> Text:
        raise NotImplementedError


class TurnLine(TaifaPane):
    """The turn, the round, whose round it is, and the passes in a row."""

    DEFAULT_CSS = "TurnLine { height: 1; width: 100%; text-style: bold; text-wrap: nowrap; text-overflow: ellipsis; }"

    def draw(self, width: int) -> Text:
        return Text(visible(text.turn_line(self.game, self.seat)), no_wrap=True, overflow="ellipsis")


class KingdomsPane(TaifaPane):
    """Every kingdom's castles, Card Bonus, cards in hand, a bot's army and responses card by card,
    permanent events in force; and the draw piles."""

    def draw(self, width: int) -> Text:
        return kingdoms_text(self.game, self.seat, width)


class HandPane(TaifaPane):
    """The viewing seat's hand with each card's text; nothing of another seat's."""

    def draw(self, width: int) -> Text:
        lines = text.hand_lines(self.game, self.seat)
        if lines is None:
            return Text("No hand to show: " + ("a spectator sees no hand." if self.seat is None
                                               else "this seat's cards are not yours to see."), style="dim")
        return coloured(lines, width)


class CombatPane(TaifaPane):
    """The fight in progress, else the last combat as a whole (C1's ``last_combat``). During a
    fight the viewer's hand follows it: what it may still add is the question."""

    def draw(self, width: int) -> Text:
        lines = text.combat_lines(self.game, self.seat)
        hand = text.hand_lines(self.game, self.seat) if self.game.view(self.seat)["fight"] else None
        if hand:
            lines += [[]] + hand
        return coloured(lines, width) if lines else Text("No combat yet.", style="dim")
