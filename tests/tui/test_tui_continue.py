"""Continue: resume and take back a Tafl and a Taifa game through the app, delete an abandoned
one, skip a record that cannot be read; and ``FiefdomApp(resume_path=...)``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from textual.widgets import OptionList

from core.digest import digest
from core.engine import Decision
from core.match import Limit
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from tui.games.taifa.board import KingdomsPane, kingdoms_text
from tui.screens.dialogs import ConfirmDialog
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen
from notation.record_lock import in_play
from tui.session import unfinished_games
from tui_support import autosave_path
from tui_support import (
    FAST_AI, HUMAN, board_position, gild9, open_continue, text, type_move, wait_for_human, wait_until,
)


def state_of(screen: PlayScreen) -> bytes:
    return digest(screen.runner.game.canonical())


async def continue_first(app, pilot) -> PlayScreen:
    """Home -> Continue (c) -> the newest unfinished game (Enter): its play screen."""
    assert isinstance(app.screen, HomeScreen)
    await open_continue(pilot)
    await pilot.press("enter")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, PlayScreen)
    return screen


async def test_a_tafl_game_left_resumes_through_continue_and_takes_back(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_game(gild9(HUMAN, FAST_AI))
        await pilot.pause()
        screen = app.screen
        await type_move(pilot, "d1-d3")
        await wait_for_human(pilot, screen)
        before_second = screen.runner.game.position()
        second = min(screen.runner.point.options)
        await type_move(pilot, f"{second[0]}-{second[1]}")
        await wait_for_human(pilot, screen)
        position, moves = screen.runner.game.position(), list(screen.records)
        assert len(moves) == 4
        await pilot.press("escape", "q")  # leave: home
        await pilot.pause()

        resumed = await continue_first(app, pilot)
        assert resumed.runner.game.position() == position and resumed.records == moves
        assert board_position(resumed.query_one("#board")) == position  # type: ignore[arg-type]
        await pilot.press("u")
        await pilot.pause()
        assert resumed.runner.game.position() == before_second
        assert resumed.records == moves[:2]
        path = resumed.runner.path
    rec = read_record_file(path)
    assert rec.steps == 2 and verify(rec).ok and rec.result is None


async def test_a_taifa_game_resumes_through_continue_and_takes_back(make_app) -> None:
    """Castile is a person's, the five others the rulebook's bots: one choice in the options pane,
    leave, Continue: the same position; take back: the position before the choice."""
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.start_game(GameSetup("taifa", "standard", (HUMAN,) + (SeatPlan("bot"),) * 5, seed=3))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        r = screen.runner
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision), "Castile's first choice")
        start, steps_at_start = state_of(screen), len(r.history)
        options = screen.query_one("#options", OptionList)
        assert app.focused is options  # the map is not interactive: choices are in the pane
        first = r.game.describe(r.waiting.options[0])
        assert str(options.get_option_at_index(0).prompt).startswith(first + "  defence ")  # then what it means
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(r.history) > steps_at_start, "the choice to be played")
        assert screen.records[steps_at_start] == first
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision), "Castile's next choice")
        position, moves = state_of(screen), list(screen.records)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)

        resumed = await continue_first(app, pilot)
        assert state_of(resumed) == position and resumed.records == moves
        pane = resumed.query_one("#kingdoms", KingdomsPane)
        assert str(pane.render()) == kingdoms_text(resumed.runner.game, 0, pane.size.width).plain
        assert "Castile's hand:" in text(resumed.query_one("#hand"))
        assert "Castile (human) your move" in text(resumed.query_one("#status"))
        await pilot.press("u")
        await pilot.pause()
        assert state_of(resumed) == start and len(resumed.runner.history) == steps_at_start
        assert resumed.records == moves[:steps_at_start]
        assert isinstance(resumed.runner.waiting, Decision)
        path = resumed.runner.path
    rec = read_record_file(path)
    assert rec.steps == steps_at_start and verify(rec).ok


def unfinished(data: Path, game: str, variant: str, seats: tuple[SeatPlan, ...], steps: int) -> Path:
    path = autosave_path(data, game, variant)
    runner = Runner.start(GameSetup(game, variant, seats), path)
    runner.run(steps)
    runner.close()
    return path


async def test_continue_deletes_a_game_after_confirmation_and_skips_unreadable_files(make_app, data: Path) -> None:
    random2 = (SeatPlan("random"), SeatPlan("random"))
    older = unfinished(data, "tafl", "gild-9", random2, 3)
    newer = unfinished(data, "tafl", "traditional", random2, 5)
    (data / "autosave" / "damaged.fief").write_bytes(b"not a record")
    assert [g.path for g in unfinished_games(data)] == [newer, older]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_continue(pilot)
        menu = screen.query_one("#unfinished", OptionList)
        assert menu.option_count == 2
        assert str(menu.get_option_at_index(0).prompt).endswith("· 5 steps")
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert newer.name in text(app.screen.query_one("#question"))
        await pilot.press("n")  # no: nothing is deleted
        await pilot.pause()
        assert app.screen is screen and newer.exists() and menu.option_count == 2
        await pilot.press("down", "d")  # the older one this time, and yes
        await pilot.pause()
        assert older.name in text(app.screen.query_one("#question"))
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is screen
        assert not older.exists() and newer.exists()
        assert menu.option_count == 1 and screen.games[0].path == newer
        assert (data / "autosave" / "damaged.fief").exists()  # never listed, never touched


async def test_resume_path_opens_the_game_at_once(make_app, data: Path) -> None:
    path = unfinished(data, "tafl", "gild-9", (HUMAN, SeatPlan("ai", Limit(seconds=0.05))), 0)
    app = make_app(resume_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.runner.path == path and "attackers (human) your move" in text(screen.query_one("#status"))
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_a_resume_path_that_cannot_resume_is_one_error_and_home(make_app, data: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.fief"
    bad.write_bytes(b"garbage")
    app = make_app(resume_path=bad)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        errors = [n.message for n in app._notifications if n.severity == "error"]
        assert len(errors) == 1 and errors[0].startswith("cannot resume bad.fief:")


async def test_leaving_stops_the_ai_at_once(make_app) -> None:
    """An AI with 60 s a move is thinking; leaving stops it and goes home without waiting."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_game(gild9(SeatPlan("ai", Limit(seconds=60)), HUMAN))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await wait_until(pilot, lambda: screen.driver.thinking, "the AI to think")
        assert "attackers (ai) thinking…" in text(screen.query_one("#status"))
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home, with the AI stopped", tries=100)
        assert screen.runner.history == []


async def test_a_game_in_play_elsewhere_is_only_looked_at(make_app, data: Path) -> None:
    """Another process plays the record (holds its writer's lock): Continue says so, Enter opens it in
    the viewer, not for play, and `d` does not delete it; once that process ends, it plays again."""
    path = unfinished(data, "tafl", "gild-9", (HUMAN, SeatPlan("random")), 3)
    before = path.read_bytes()
    code = "import sys; from notation.record_lock import open_locked; f = open_locked(sys.argv[1]); sys.stdin.read()"
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], cwd=Path(__file__).resolve().parents[2],
                              stdin=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while in_play(path) is None:  # the very condition: the other process holds the lock
            assert time.monotonic() < deadline and holder.poll() is None, "the other process never took the lock"
            time.sleep(0.02)
        assert in_play(path).startswith(f"process {holder.pid}: -c "), in_play(path)  # type: ignore[union-attr]
        app = make_app()
        async with app.run_test(size=(100, 24)) as pilot:
            screen = await open_continue(pilot)
            menu = screen.query_one("#unfinished", OptionList)
            assert f"in play elsewhere (process {holder.pid}" in str(menu.get_option_at_index(0).prompt)
            await pilot.press("d")
            await pilot.pause()
            assert app.screen is screen and path.exists()  # refused, no question asked
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
            assert not any(isinstance(s, PlayScreen) for s in app.screen_stack)
    finally:
        holder.communicate("")
    assert path.read_bytes() == before
    assert in_play(path) is None
    app = make_app()
    async with app.run_test(size=(100, 24)) as pilot:
        screen = await continue_first(app, pilot)
        assert screen.runner.path == path
