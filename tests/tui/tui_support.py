"""Helpers shared by the TUI tests (imported by name: tests/tui is on sys.path)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any
from pathlib import Path

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from core.engine import Decision
from core.match import Limit
from core.tafl.board import format_position
from notation.runner import GameSetup, SeatPlan
from tui.games.tafl.board import CELL, MARGIN, TaflBoard
from tui.screens.dialogs import GameOverDialog
from tui.screens.play import PlayScreen
from tui.screens.setup import ContinueScreen
from tui.session import new_autosave

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = ROOT / "replays"
GOLDEN = REPLAYS / "tafl-gild-9-5-0001.fief"  # a whole AI game on Gild 9x9 (make goldens)
TAIFA_GOLDEN = REPLAYS / "taifa-standard-7-0001.fief"  # six rulebook bots (make goldens)

HUMAN = SeatPlan("human")
BOT = SeatPlan("bot")
FAST_AI = SeatPlan("ai", Limit(seconds=0.05))  # a small budget: the AI answers at once and tests stay quick

# Gild 9x9: the defenders' king on c3, one attacker far away on h8, defenders to move.
# Kc3-c1 threatens both bottom corners; one attacker cannot stop Kc1-a1 next move.
KING_RUN = {"position": "/9/9/2K6/9/9/9/9/7t1/9/", "to_move": 1}
# The king one step from the a1 corner: Kb1-a1 wins at once.
KING_AT_B1 = {"position": "/1K7/9/9/9/9/9/9/7t1/9/", "to_move": 1}


def autosave_path(data: Path, game: str, variant: str) -> Path:
    """A free autosave name in the data folder ``data``, as the app names one, for a test to write a game to."""
    return new_autosave(data, game, variant, lambda path: path)


def text(widget: Widget) -> str:
    """What a Static or Label shows, as plain text (markup applied)."""
    return str(widget.render())


def gild9(*seats: SeatPlan, setup: dict | None = None, seed: int = 1) -> GameSetup:
    return GameSetup("tafl", "gild-9", tuple(seats), seed, {}, dict(setup or {}))


def board_position(board: TaflBoard) -> str:
    """The position the board widget draws, as an OpenTafl string."""
    return format_position(list(board.view.board), board.view.size)


def cell_offset(board: TaflBoard, square: int) -> tuple[int, int]:
    """Where a square is drawn, relative to the board widget's region (for pilot.click).

    Line 0 holds the file letters, line 1 the top rank; each square is CELL
    columns wide after a MARGIN of rank numbers, inside the widget's padding.
    The middle column of the cell is returned."""
    n = board.view.size
    row, col = divmod(square, n)
    return board.styles.padding.left + MARGIN + col * CELL + 1, n - row


def human_to_move(screen: PlayScreen) -> bool:
    return isinstance(screen.runner.waiting, Decision) and not screen.driver.thinking


async def wait_until(pilot: Pilot, done: Callable[[], bool], what: str, tries: int = 250) -> None:
    """Poll (at most ``tries`` short pauses, about 5 s) until ``done()``; fail saying ``what``."""
    for _ in range(tries):
        if done():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def game_over_shown(app: Any) -> bool:
    """The game-over dialog is the screen and its contents are mounted (on a busy machine the
    screen is pushed a few frames before its labels exist)."""
    return isinstance(app.screen, GameOverDialog) and bool(app.screen.query("#result-title"))


async def wait_for_human(pilot: Pilot, screen: PlayScreen) -> None:
    await wait_until(pilot, lambda: human_to_move(screen) or screen.runner.result is not None,
                     "the AI to move")


async def open_continue(pilot: Pilot) -> ContinueScreen:
    """From home, `c`: the Continue screen."""
    await pilot.pause()
    await pilot.press("c")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ContinueScreen)
    return screen


async def type_move(pilot: Pilot, move: str) -> None:
    """`t` focuses the move box (unless it has the keys already, as after a typed move); the move
    is typed key by key and sent with Enter."""
    focused = pilot.app.focused
    keys = [*move, "enter"] if focused is not None and focused.id == "move-input" else ["t", *move, "enter"]
    await pilot.press(*keys)
    await pilot.pause()


_SVG_TEXT = re.compile(r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
                       r'clip-path="url\(#terminal-(?:\d+-)?line-(\d+)\)">([^<]*)</text>')
_CELL_WIDTH = 12.2  # Rich's SVG export: pixels per terminal column


def screen_lines(svg: str) -> list[str]:
    """The characters of an exported SVG screenshot, line by line (colours dropped)."""
    rows: dict[int, dict[int, str]] = {}
    for x, line, body in _SVG_TEXT.findall(svg):
        col = round(float(x) / _CELL_WIDTH)
        row = rows.setdefault(int(line), {})
        for i, ch in enumerate(html.unescape(body).replace("\xa0", " ")):
            row[col + i] = ch
    return ["".join(r.get(i, " ") for i in range(max(r, default=-1) + 1)).rstrip()
            for r in (rows.get(n, {}) for n in range(max(rows, default=-1) + 1))]


def region_rows(svg: str, region: Region) -> list[str]:
    """The rows of an exported SVG screenshot inside ``region``, cropped to it."""
    return [line[region.x:region.right] for line in screen_lines(svg)[region.y:region.bottom]]


def drawn_in(app: Any, widget: Widget) -> list[str]:
    """The rows of the screen inside ``widget``'s region, as drawn now."""
    return region_rows(app.export_screenshot(), widget.region)


async def start_game(app: Any, pilot: Pilot, setup: GameSetup) -> PlayScreen:
    """Start ``setup`` from the app; its play screen (a hand-over screen may stand on top of it)."""
    app.start_game(setup)
    await pilot.pause()
    return next(s for s in app.screen_stack if isinstance(s, PlayScreen))

