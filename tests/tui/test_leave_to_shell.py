"""A screen the command line opened at once is left for the shell, not the home screen (issue 30):
``fiefdom replay view FILE`` then ``q``; a screen opened from home goes back home."""

from __future__ import annotations

from pathlib import Path

from tui.app import FiefdomApp
from tui.screens.home import HomeScreen
from tui.screens.replay import ReplayScreen

RECORD = sorted((Path(__file__).resolve().parents[2] / "replays").glob("*.fief"))[0]


async def until(pilot, condition, what: str) -> None:
    for _ in range(1500):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"waited 30 s for {what}")


async def test_the_viewer_opened_from_the_command_line_leaves_for_the_shell(tmp_path: Path) -> None:
    app = FiefdomApp(tmp_path, open_path=RECORD)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None, "the app to end")
        assert app.return_code == 0


async def test_the_viewer_opened_from_home_goes_back_home(tmp_path: Path) -> None:
    app = FiefdomApp(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        app.open_record(RECORD)
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen), "home again")
        assert app.return_code is None
