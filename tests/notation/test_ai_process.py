"""An AI seat that thinks in its own process (notation/ai_process.py): the same record as one that
thinks here, for every game; it stops at once when asked; a takeback rebuilds its mirror; and a
game it cannot build there (registered in this process only) is played here instead."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from core.engine import Decision
from core.match import Limit
from notation.runner import GameSetup, Runner, SeatPlan

AI = SeatPlan("ai", Limit(depth=2))  # a depth, not a time: the same answer on a busy machine


def _played(setup: GameSetup, apart: bool, steps: int, where: list[bool] | None = None) -> list[tuple[str, Any]]:
    """The steps of a game played ``steps`` far (a person takes the first option); ``where``: told,
    for each AI seat, whether it thought in its own process."""
    runner = Runner.start(setup)
    if apart:
        runner.think_apart()
    try:
        for _ in range(steps):
            point = runner.point
            if isinstance(point, Decision) and runner.seat_kind(point.seat) == "human":
                runner.decide(point.options[0])
            elif runner.step() is None:
                break
        if where is not None:
            where += [ai.process is not None and not ai.broken for ai in runner.remote.values()]
        return [(s.kind, s.value) for s in runner.history]
    finally:
        runner.close()


@pytest.mark.parametrize("game,variant,seats,steps", [
    ("tafl", "brandubh", (AI, AI), 24),
    ("kingdom", "multi-3", (SeatPlan("ai"), SeatPlan("random"), SeatPlan("ai")), 120),
    ("taifa", "el-cid", (SeatPlan("bot"), SeatPlan("bot"), SeatPlan("bot"), SeatPlan("ai", Limit(rollouts=4))), 80),
], ids=["tafl", "kingdom", "taifa"])
def test_an_ai_apart_plays_the_same_steps_as_one_here(game: str, variant: str, seats: tuple, steps: int) -> None:
    setup = GameSetup(game, variant, seats, seed=5)
    here = _played(setup, False, steps)
    where: list[bool] = []
    apart = _played(setup, True, steps, where)
    assert where and all(where)  # every AI seat thought in its own process
    assert len(here) > 10 and apart == here


def test_a_search_apart_stops_at_once_when_asked() -> None:
    runner = Runner.start(GameSetup("tafl", "traditional", (SeatPlan("ai", Limit(seconds=60.0)), SeatPlan("human"))))
    stop = threading.Event()
    runner.set_stop(stop.is_set)
    runner.think_apart()
    answers: list[Any] = []
    try:
        thinker = threading.Thread(target=lambda: answers.append(runner.think()))
        thinker.start()
        ai = runner.remote[0]
        for _ in range(6000):  # until its process is ready: the question follows, and a stop is heard either way
            if ai.conn is not None or ai.broken:
                break
            time.sleep(0.01)
        assert ai.conn is not None and not ai.broken and not answers  # searching, apart
        asked = time.monotonic()
        stop.set()
        thinker.join(20)
        assert answers and answers[0] in runner.point.options  # type: ignore[union-attr]
        assert time.monotonic() - asked < 20  # the join's own bound: it did not search its minute out
    finally:
        runner.close()


def test_a_takeback_builds_the_mirror_again(tmp_path: Path) -> None:
    setup = GameSetup("tafl", "brandubh", (SeatPlan("human"), AI), seed=3)

    def moves(runner: Runner, *picks: int) -> None:
        for pick in picks:  # the person's pick among the options, then the AI's answer
            runner.decide(runner.point.options[pick])  # type: ignore[union-attr]
            assert runner.step() is not None

    runner = Runner.start(setup, tmp_path / "game.fief")
    runner.think_apart()
    try:
        moves(runner, 0, 0)
        before = len(runner.history)
        resumed = runner.takeback()
        assert resumed is not None
        runner = resumed
        assert before - len(runner.history) == 2  # the person's last move and the AI's answer to it
        moves(runner, -1)  # another move: the mirror, which had the first, is built again
        apart = [(s.kind, s.value) for s in runner.history]
    finally:
        runner.close()
    here = Runner.start(setup)
    moves(here, 0, -1)
    assert apart == [(s.kind, s.value) for s in here.history]


def test_a_game_registered_here_only_is_thought_here(hoard: Any) -> None:
    setup = GameSetup("hoard", "short", (SeatPlan("ai"), SeatPlan("ai"), SeatPlan("bot")), seed=2)
    where: list[bool] = []
    assert _played(setup, True, 40, where) == _played(setup, False, 40)
    assert where == [False, False]  # no process can build a game registered in this one only


def test_closing_while_the_process_starts_ends_it_and_the_ai_answers_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app may close an AI seat (the person leaves) while the AI's thread is starting its process:
    the close neither fails nor waits for the start, the process is ended as soon as it has started,
    and the search that was under way answers here (once failed with "can only join a started process")."""
    import multiprocessing

    from notation import ai_process

    starting, go_on = threading.Event(), threading.Event()
    made: list[Any] = []
    real_start = multiprocessing.process.BaseProcess.start

    def slow_start(process: Any) -> None:
        made.append(process)
        starting.set()
        go_on.wait(30)
        real_start(process)

    runner = Runner.start(GameSetup("tafl", "brandubh", (AI, SeatPlan("human")), seed=3))
    runner.think_apart()
    remote = runner.remote[0]
    assert isinstance(remote, ai_process.RemoteAI)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", slow_start)
    answers: list[Any] = []
    thinking = threading.Thread(target=lambda: answers.append(runner.think()))
    thinking.start()
    assert starting.wait(30)
    remote.close()  # while its process is starting
    go_on.set()
    thinking.join(60)
    assert not thinking.is_alive() and answers and answers[0] in runner.point.options  # type: ignore[union-attr]
    assert remote.process is None and made
    made[0].join(10)  # ended by the close: reaped once the kill lands (a busy machine may take a moment)
    assert not made[0].is_alive()
    runner.close()
