"""SVG snapshots of the four main screens at 80x24 and 120x40.

Each snapshot's run_before makes Pilot assertions about the screen it is about
to capture, and the test checks that run_before ran to its end: a crashed or
wrong screen fails the test instead of being saved as the expected picture.
Regenerate with ``pytest tests/tui --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Select

from tui.widgets.side_panes import MoveList
from tui.games.taifa.board import KingdomsPane, kingdoms_text
from tui.games.taifa.map import MapCanvas
from tui.games.tafl.board import TaflBoard
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen
from tui.screens.setup import SetupScreen
from tui_support import GOLDEN, HUMAN, TAIFA_GOLDEN, board_position, gild9, text

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@SIZES
def test_home_snapshot(snap_compare, make_app, size) -> None:
    checked = []

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        app = pilot.app
        assert isinstance(app.screen, HomeScreen)
        menu = app.screen.query_one("#home-menu", OptionList)
        assert app.focused is menu and menu.highlighted == 0 and menu.option_count == 6
        assert "fiefdom" in text(app.screen.query_one("#title"))
        checked.append(True)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    assert checked


@SIZES
def test_setup_snapshot(snap_compare, make_app, size, monkeypatch) -> None:
    monkeypatch.setattr("tui.session.new_seed", lambda: 1)  # a fresh seed each time, but one screen to compare
    checked = []

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        app = pilot.app
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert app.focused is screen.query_one("#variant", Select)
        assert screen.query_one("#variant", Select).value == "traditional"
        assert screen.query_one("#attackers-kind", Select).value == "human"
        assert screen.query_one("#defenders-kind", Select).value == "ai"
        assert screen.query_one("#seed", Input).value == "1"
        assert screen.query_one("#opt-quiet_moves", Input).value == "50"
        assert text(screen.query_one("#setup-error")) == ""
        checked.append(True)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    assert checked


@SIZES
def test_play_mid_game_snapshot(snap_compare, make_app, size) -> None:
    """Human against human on Gild 9x9: one move typed, one made with the cursor,
    and a piece selected so its destinations show."""
    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        await pilot.pause()
        app.start_game(gild9(HUMAN, HUMAN))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        board = screen.query_one("#board", TaflBoard)
        geo = screen.runner.game.geo

        await pilot.press("t", *"d1-d3", "enter", "escape")  # typed, then back to the board
        assert app.focused is board
        await pilot.press("k", "k", "enter", "h", "h", "enter")  # e7-c7 with the cursor
        await pilot.press("j", "j", "h", "enter")  # select the attacker on b5
        await pilot.pause()

        s = screen.runner
        assert screen.records == ["d1-d3", "e7-c7"]
        assert board_position(board) == s.game.position() == (
            "/4tt3/4t4/3tT4/t3T3t/ttTTKTTtt/t3T3t/2T6/4t4/3ttt3/")
        assert board.selected == board.cursor == geo.square("b5")
        assert text(screen.query_one("#status")) == (
            "tafl gild-9 · step 3 · last: e7-c7 · attackers (human) your move")
        assert screen.query_one(MoveList).plain == "  1. d1-d3 e7-c7"
        assert text(screen.query_one("#error")) == ""
        checked.append(True)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    assert checked


async def go_to_step(pilot: Pilot, n: int) -> ReplayScreen:
    """In the replay viewer, press g, the step number and Enter; the viewer is at step n."""
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen)
    await pilot.press("g", *str(n), "enter")
    await pilot.pause()
    assert pilot.app.screen is screen and screen.step == n
    return screen


@SIZES
def test_replay_snapshot(snap_compare, make_app, size) -> None:
    """The golden Gild 9x9 record at step 20 (g, 20, Enter)."""
    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        screen = await go_to_step(pilot, 20)
        assert board_position(screen.query_one("#board", TaflBoard)) == (
            screen.replay.state_at(20).position())
        total = screen.replay.steps
        assert screen.report.ok, f"{GOLDEN.name} no longer verifies: regenerate with make goldens"
        assert text(screen.query_one("#timeline")) == f"step 20/{total} · verified · speed 0.5s"
        assert text(screen.query_one("#status")) == (
            f"tafl gild-9 · attackers to move · replay {GOLDEN.name}")
        assert [n for n in app._notifications] == []
        checked.append(True)

    assert snap_compare(make_app(open_path=GOLDEN), terminal_size=size, run_before=run_before)
    assert checked


@SIZES
def test_taifa_replay_snapshot(snap_compare, make_app, size) -> None:
    """The golden six-bot Taifa record at step 60: the map by owner and the kingdoms."""
    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        screen = await go_to_step(pilot, 60)
        state = screen.replay.state_at(60)
        assert screen.report.ok, f"{TAIFA_GOLDEN.name} no longer verifies: regenerate with make goldens"
        pane = screen.query_one("#kingdoms", KingdomsPane)
        assert str(pane.render()) == kingdoms_text(state, None, pane.size.width).plain
        canvas = screen.query_one(MapCanvas)
        if canvas.region.height:  # at 80x24 the combat pane may stand in front of the map
            drawn = "\n".join(strip.text for strip in canvas.paint())
            assert "Cantabria" in drawn or ("57·" in drawn and "23·" in drawn)  # the list, or Malaga and Calatayud
        else:
            assert screen.query_one("#combat").region.height and state.view(None)["last_combat"] is not None
        status = text(screen.query_one("#status"))
        assert status.startswith("taifa standard · ") and status.endswith(f" · replay {TAIFA_GOLDEN.name}")
        assert [n for n in app._notifications] == []
        checked.append(True)

    assert snap_compare(make_app(open_path=TAIFA_GOLDEN), terminal_size=size, run_before=run_before)
    assert checked


@SIZES
def test_taifa_end_of_game_snapshot(snap_compare, make_app, size) -> None:
    """The end of the golden six-bot Taifa game: the winner, the reason with its rule, the castles."""
    from tui.screens.dialogs import GameOverDialog

    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end")
        await pilot.pause()
        state = screen.replay.state_at(screen.last)
        result = state.result
        assert result is not None and result.rule in ("taifa 8", "TA-27")
        score_word = screen.replay.games("taifa").score_word
        await app.push_screen(GameOverDialog(result, tuple(state.seats), TAIFA_GOLDEN, score_word))
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, GameOverDialog)
        assert text(dialog.query_one("#result-reason")) == f"{result.reason} [{result.rule}]"
        castles = text(dialog.query_one("#result-scores"))
        assert castles.startswith("castles: ") and all(f"{n} {c}" in castles
                                                      for n, c in zip(state.seats, result.scores))
        checked.append(True)

    assert snap_compare(make_app(open_path=TAIFA_GOLDEN), terminal_size=size, run_before=run_before)
    assert checked
