"""Pilot tests of the replay viewer on a Taifa record: the map, the kingdoms and stepping."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from core.taifa.game import TaifaGame
from notation.reader import read_record_file
from notation.replay import Replay
from notation.runner import GameSetup, Runner, SeatPlan
from tui.games.taifa.board import KingdomsPane, kingdoms_text
from tui.games.taifa.map import MapCanvas
from tui.screens.replay import ReplayScreen
from tui_support import text


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A six-bot game played to its end by the runner."""
    path = tmp_path_factory.mktemp("taifa") / "six-bots.fief"
    runner = Runner.start(GameSetup("taifa", "standard", (SeatPlan("bot"),) * 6, seed=11), path)
    assert runner.run() is not None
    runner.close()
    return path


def rendered(widget) -> str:
    return str(widget.render())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_step_through_a_taifa_record(make_app, record: Path, size: tuple[int, int]) -> None:
    replay = Replay(read_record_file(record))
    assert replay.verify().ok
    app = make_app(open_path=record)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "taifa standard" in text(screen.query_one("#status"))
        canvas = screen.query_one(MapCanvas)
        drawn = "\n".join(strip.text for strip in canvas.paint())
        if canvas.layout_.wide:  # every area of the standard map is drawn, by id
            assert {int(n) for n in re.findall(r"[A-Za-z](\d+)·", drawn)} == set(range(1, 59))
        else:  # the schematic and the area list (the list scrolls: its first areas at least)
            assert "1 Cantabria" in drawn
        for _ in range(12):
            await pilot.press("right")
        await pilot.pause()
        assert screen.step == 12
        state = replay.state_at(12)
        assert isinstance(state, TaifaGame)
        assert rendered(screen.query_one("#kingdoms", KingdomsPane)).splitlines() == \
            kingdoms_text(state, None, screen.query_one("#kingdoms").size.width).plain.splitlines()
        assert text(screen.query_one("#timeline")).startswith(f"step 12/{replay.steps} · verified")
        await pilot.press("end")
        await pilot.pause()
        assert "result:" in text(screen.query_one("#status"))
        # Play from here works for any game, but not from the end of one.
        await pilot.press("p")
        await pilot.pause()
        assert app.screen is screen
        assert [n.message for n in app._notifications if n.severity == "warning"] == [
            "the game is over at this step"]
