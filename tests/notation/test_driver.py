"""The play driver with no screen (notation/driver.py): it plays a game with people, bots, AI and
chance to the end on an asyncio loop, tells its view every step's events, takes back, resigns and
hands seats over after stopping the AI at once, and imports no user interface."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from core.engine import Decision
from core.match import Limit
from notation.driver import LoopTable, PlayDriver
from notation.format import CommentRecord
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify

HUMAN, BOT, RANDOM = SeatPlan("human"), SeatPlan("bot"), SeatPlan("random")
QUICK_AI = SeatPlan("ai", Limit(depth=1))
SLOW_AI = SeatPlan("ai", Limit(seconds=600.0))  # thinks until it is stopped
ROOT = Path(__file__).resolve().parents[2]


async def until(done: Callable[[], bool], what: str, tries: int = 2000) -> None:
    """Let the loop run (at most ``tries`` short sleeps, about 20 s) until ``done()``."""
    for _ in range(tries):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def driven(setup: GameSetup, path: Path) -> tuple[PlayDriver, LoopTable]:
    table = LoopTable()
    driver = PlayDriver(Runner.start(setup, path), table)
    driver.speed = 0  # no pause between automatic steps
    return driver, table


def asked(driver: PlayDriver) -> bool:
    return driver.question() is not None


def test_the_driver_imports_no_user_interface() -> None:
    probe = ("import sys, notation.driver; bad = sorted(m for m in sys.modules if m.split('.')[0] in "
             "('textual', 'tui', 'rich')); print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


async def test_a_game_with_a_person_an_ai_and_a_bot_plays_to_the_end_without_a_screen(hoard, tmp_path) -> None:
    driver, table = driven(GameSetup("hoard", "short", (HUMAN, QUICK_AI, BOT), 4), tmp_path / "g.fief")
    driver.start()
    answered = 0
    while not table.ended:
        await until(lambda: asked(driver) or table.ended, "the person's turn or the end")
        if table.ended:
            break
        point = driver.runner.point
        assert isinstance(point, Decision) and point.seat == 0
        assert driver.play(point.options[answered % len(point.options)])
        answered += 1
    runner = driver.runner
    assert runner.result is not None and answered == 6 and not table.problems
    # The view was told every step's events, in order, and the move list has every step told.
    assert table.events == [e for step in runner.history for e in step.events]
    assert [e.step for e in driver.entries] == [s.index for s in runner.history]
    assert table.notes[-1].text == "the game is over: it was seed 4"  # hidden information: said at the end
    path = runner.path
    driver.close()
    assert verify(read_record_file(path)).ok


async def test_a_choice_while_nobody_here_is_asked_is_refused_with_the_reason(tmp_path) -> None:
    driver, table = driven(GameSetup("tafl", "brandubh", (SLOW_AI, HUMAN), 2), tmp_path / "g.fief")
    driver.start()
    await until(lambda: driver.thinking, "the AI to think")
    assert not driver.play(("d4", "d2")) and table.problems == ["wait: nobody here is to choose now"]
    await driver.leave()
    assert driver.runner.history == [] and driver.search is None


async def test_leaving_stops_the_ai_at_once_and_lets_go_of_the_record(tmp_path) -> None:
    path = tmp_path / "g.fief"
    driver, _ = driven(GameSetup("tafl", "brandubh", (SLOW_AI, HUMAN), 2), path)
    driver.think_apart()  # the AI in its own process, as the app has it
    driver.start()
    await until(lambda: driver.thinking, "the AI to think")
    await asyncio.wait_for(driver.leave(), 60)  # a bound against a hang, not a timing: it stops at once
    assert driver.runner.history == [] and not driver.thinking
    Runner.resume(path).close()  # free for the next writer


async def test_takeback_undoes_the_persons_move_and_the_ais_answer(tmp_path) -> None:
    path = tmp_path / "g.fief"
    driver, table = driven(GameSetup("tafl", "brandubh", (HUMAN, QUICK_AI), 2), path)
    driver.think_apart()
    driver.start()
    await until(lambda: asked(driver), "the person's turn")
    first = driver.runner
    assert driver.play(first.point.options[0])  # type: ignore[union-attr]
    await until(lambda: asked(driver) and len(driver.runner.history) == 2, "the AI's answer")
    assert await driver.takeback() == 2
    assert driver.runner is not first and driver.runner.history == [] and len(driver.entries) == 0
    assert table.notes[-1].text == "took back 2 move(s)"
    await until(lambda: asked(driver), "the person's turn again")
    assert driver.play(driver.runner.point.options[-1])  # type: ignore[union-attr]
    await until(lambda: asked(driver) and len(driver.runner.history) == 2, "the AI's answer again")
    driver.close()
    rec = read_record_file(path)
    comments = [r.text for r in rec.records if isinstance(r, CommentRecord)]
    assert comments == ["takeback: attackers took back 2 steps (steps 1-2)"] and verify(rec).ok


async def test_a_seat_handed_to_the_ai_plays_and_a_resignation_ends_the_game(tmp_path) -> None:
    path = tmp_path / "g.fief"
    driver, table = driven(GameSetup("tafl", "brandubh", (HUMAN, HUMAN), 2), path)
    driver.start()
    await until(lambda: asked(driver), "the first person's turn")
    assert driver.play(driver.runner.point.options[0])  # type: ignore[union-attr]
    assert await driver.reseat(1, "ai")
    assert table.notes[-1].text == "the AI plays defenders from here"
    await until(lambda: asked(driver) and len(driver.runner.history) == 2, "the AI's move")
    assert await driver.resign(0) and table.ended
    assert driver.runner.result is not None and driver.runner.result.winners == (1,)
    driver.close()
    rec = read_record_file(path)
    assert [s.kind for s in rec.header.seats] == ["human", "ai"] and verify(rec).ok
