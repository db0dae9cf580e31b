"""The Tafl board, drawn with the Line API at three columns a square: the plugin's ``board``.

Pieces are letters so they read without colour: ``A`` attacker, ``D``
defender, ``K`` king. Empty special squares: ``#`` corner, ``+`` throne or
hof, ``:`` camp. The cursor is drawn as ``[ ]``, the selected piece as
``< >``, a legal destination as ``*``, a square just captured as ``x``; the
last move as ``-`` on the square it left and ``( )`` around the piece it moved.
``f`` flips the board (the defenders' side at the bottom).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from core.engine import Game
from core.tafl import TaflGame
from core.tafl.board import ATTACKER, DEFENDER, EMPTY, KING, SIDE_NAMES, SIDE_OF
from tui.widgets.options import ChoiceRefused, OptionChosen

CELL = 3
MARGIN = 3  # rank numbers on the left and right
GLYPHS = {ATTACKER: "A", DEFENDER: "D", KING: "K"}
PIECE_WORDS = {ATTACKER: "an attacker", DEFENDER: "a defender", KING: "the king"}

# Colours are an extra: every mark also has a distinct character.
STYLES = {
    "light": Style(bgcolor="#d8c8a0", color="#202020"),
    "dark": Style(bgcolor="#c4b088", color="#202020"),
    "special": Style(bgcolor="#8a7550", color="#f0e8d0"),
    "camp": Style(bgcolor="#b09a70", color="#303030"),
    ATTACKER: Style(color="#8b1a1a", bold=True),
    DEFENDER: Style(color="#1a3f8b", bold=True),
    KING: Style(color="#6b4d00", bold=True, underline=True),
    "dest": Style(bgcolor="#9ccf8c"),
    "last": Style(bgcolor="#e6d36a"),
    "better": Style(bgcolor="#8cc4e6"),  # a review's better move (the replay viewer)
    "captured": Style(bgcolor="#e89a8a"),
    "cursor": Style(reverse=True),
    "label": Style(dim=True),
}


@dataclass(frozen=True)
class BoardView:
    """What the board draws: a snapshot, so the widget never holds a live game."""

    size: int
    board: tuple[int, ...]
    centre: int
    corners: frozenset[int]
    camps: tuple[int, ...]
    legal: tuple[tuple[int, int], ...]
    last: tuple[int, int, tuple[int, ...]] | None
    to_move: int
    names: tuple[str, ...]  # square -> its name, as move codes spell it
    over: bool

    @classmethod
    def of(cls, game: TaflGame, interactive: bool = True) -> "BoardView":
        g = game.geo
        legal = tuple(game.legal_moves()) if interactive and game.result is None else ()
        return cls(g.size, tuple(game.board), g.centre, g.corners, g.camp_of, legal, game.last, game.to_move,
                   tuple(g.names), game.result is not None)


class TaflBoard(Widget, can_focus=True):
    """A board with a cursor; Enter or a click selects a piece, then its destination,
    and the move goes out as OptionChosen((from, to)). A board that is not interactive
    (the replay viewer) neither takes focus nor offers moves."""

    wide: ClassVar[bool] = False

    DEFAULT_CSS = """
    TaflBoard { width: auto; height: auto; padding: 0 1; }
    TaflBoard:focus { background: $boost; }
    """
    BINDINGS = [
        Binding("up,k", "move_cursor(0, 1)", "Up", show=False, id="board.up"),
        Binding("down,j", "move_cursor(0, -1)", "Down", show=False, id="board.down"),
        Binding("left,h", "move_cursor(-1, 0)", "Left", show=False, id="board.left"),
        Binding("right,l", "move_cursor(1, 0)", "Right", show=False, id="board.right"),
        Binding("enter,space", "activate", "Select/move", id="board.select"),
        Binding("escape", "deselect", "Deselect", show=False, id="board.deselect"),
        Binding("f", "flip", "Flip board", show=False, id="board.flip"),
    ]

    cursor: reactive[int] = reactive(0)
    selected: reactive[int | None] = reactive(None)
    flipped: reactive[bool] = reactive(False)  # turned half round: rank 1 at the top, file a on the right

    def __init__(self, game: Game, seat: int | None = None, interactive: bool = True, *,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        assert isinstance(game, TaflGame)
        self.can_focus = interactive
        self.view = BoardView.of(game, interactive)
        self.cursor = self.view.centre
        self.better: tuple[int, int] | None = None  # a review's better move, from and to squares

    # -- state ---------------------------------------------------------------

    def show(self, game: Game, seat: int | None = None, interactive: bool = True) -> None:
        """Draw ``game``; its legal moves are offered when ``interactive`` (Tafl hides nothing from a seat)."""
        assert isinstance(game, TaflGame)
        self.view = BoardView.of(game, interactive)
        if self.selected is not None and not self._destinations(self.selected):
            self.selected = None
        self.refresh()

    def suggest(self, code: tuple[object, ...] | None) -> None:
        """Mark a review's better move (a move code: two square names), or none: the replay viewer's,
        for the step shown (core/review.py)."""
        names = self.view.names
        better = None
        if code is not None and len(code) == 2 and all(c in names for c in code):
            better = (names.index(str(code[0])), names.index(str(code[1])))
        if better != self.better:
            self.better = better
            self.refresh()

    def _destinations(self, frm: int) -> set[int]:
        return {t for f, t in self.view.legal if f == frm}

    def watch_cursor(self) -> None:
        self.refresh()

    def watch_selected(self) -> None:
        self.refresh()

    def watch_flipped(self) -> None:
        self.refresh()

    def commands(self) -> list[tuple[str, str, object]]:
        """The board's own commands for the command palette: (name, help, callback)."""
        return [("Flip the board", "Turn the board half round (f)", self.action_flip)]

    # -- input ---------------------------------------------------------------

    def action_move_cursor(self, dx: int, dy: int) -> None:
        n = self.view.size
        if self.flipped:
            dx, dy = -dx, -dy
        r, c = divmod(self.cursor, n)
        self.cursor = min(n - 1, max(0, r + dy)) * n + min(n - 1, max(0, c + dx))

    def action_activate(self) -> None:
        self.choose(self.cursor)

    def action_deselect(self) -> None:
        self.selected = None

    def action_flip(self) -> None:
        self.flipped = not self.flipped

    def choose(self, sq: int) -> None:
        """A square picked by Enter or a click: select a piece, or move the selected one; a square
        that can be neither says why (ChoiceRefused)."""
        if self.selected is not None and sq in self._destinations(self.selected):
            frm, self.selected = self.selected, None
            self.post_message(OptionChosen((self.view.names[frm], self.view.names[sq])))
        elif self._destinations(sq):
            self.selected = sq
        else:
            why = self.why_not(sq)
            self.selected = None
            self.post_message(ChoiceRefused(why))

    def why_not(self, sq: int) -> str:
        """Why ``sq`` can be neither selected nor moved to, in a line."""
        v = self.view
        name, piece, frm = v.names[sq], v.board[sq], self.selected
        if not v.legal:
            return "the game is over" if v.over else "not now: nobody here is to move"
        if frm is not None and frm != sq and piece == EMPTY:
            n = v.size
            if frm // n != sq // n and frm % n != sq % n:
                return f"{v.names[frm]} to {name}: a piece moves straight along its rank or file"
            return f"{v.names[frm]} to {name}: the way is blocked, or {name} is barred to that piece"
        side = SIDE_NAMES[v.to_move]
        if piece == EMPTY:
            return f"{name} is empty: choose one of the {side}' pieces"
        if SIDE_OF[piece] != v.to_move:
            return f"{name} holds {PIECE_WORDS[piece]}: the {side} are to move"
        return f"{PIECE_WORDS[piece].capitalize()} on {name} is hemmed in: it has no move"

    def on_click(self, event: events.Click) -> None:
        sq = self.square_at(event.x - self.styles.padding.left, event.y)
        if sq is not None:
            self.cursor = sq
            self.choose(sq)

    def square_at(self, x: int, y: int) -> int | None:
        n = self.view.size
        col = (x - MARGIN) // CELL if x >= MARGIN else -1
        row = n - y  # line 0 is the file letters, line 1 the top rank (row n-1)
        if 0 <= col < n and 1 <= y <= n:
            return (n - 1 - row) * n + (n - 1 - col) if self.flipped else row * n + col
        return None

    # -- drawing -------------------------------------------------------------

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return MARGIN * 2 + CELL * self.view.size

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.view.size + 2

    def render_line(self, y: int) -> Strip:
        n = self.view.size
        if y == 0 or y == n + 1:
            files = "".join(f" {chr(97 + c)} " for c in self._order(n))
            return Strip([Segment(" " * MARGIN + files + " " * MARGIN, STYLES["label"])])
        if not 1 <= y <= n:
            return Strip.blank(self.size.width)
        row = y - 1 if self.flipped else n - y
        label = f"{row + 1:>2} "
        segments = [Segment(label, STYLES["label"])]
        dests = self._destinations(self.selected) if self.selected is not None else set()
        for col in self._order(n):
            segments.append(self._cell(row * n + col, row, col, dests))
        segments.append(Segment(f" {row + 1:<2}", STYLES["label"]))
        return Strip(segments)

    def _order(self, n: int) -> range:
        """The files left to right as drawn."""
        return range(n - 1, -1, -1) if self.flipped else range(n)

    def _cell(self, sq: int, row: int, col: int, dests: set[int]) -> Segment:
        v = self.view
        piece = v.board[sq]
        special = sq == v.centre or sq in v.corners
        if special:
            style = STYLES["special"]
        elif v.camps[sq]:
            style = STYLES["camp"]
        else:
            style = STYLES["light"] if (row + col) % 2 == 0 else STYLES["dark"]
        captured = v.last is not None and sq in v.last[2]
        if v.last is not None and sq in v.last[:2]:
            style += STYLES["last"]
        if captured:
            style += STYLES["captured"]
        if sq in dests:
            style += STYLES["dest"]
        better = self.better is not None and sq in self.better
        if better:
            style += STYLES["better"]
        if piece != EMPTY:
            mark = GLYPHS[piece]
            style += STYLES[piece]
        elif sq in dests or (better and self.better is not None and sq == self.better[1]):
            mark = "*"
        elif captured:
            mark = "x"
        elif sq in v.corners:
            mark = "#"
        elif sq == v.centre:
            mark = "+"
        elif v.camps[sq]:
            mark = ":"
        else:
            mark = "."
        left, right = " ", " "
        if v.last is not None and piece == EMPTY and sq == v.last[0] and sq not in dests:
            mark = "-"
        elif v.last is not None and piece != EMPTY and sq == v.last[1]:
            left, right = "(", ")"
        if sq == self.selected:
            left, right = "<", ">"
        if sq == self.cursor and self.has_focus:
            left, right = "[", "]"
            style += STYLES["cursor"]
        return Segment(f"{left}{mark}{right}", style)
