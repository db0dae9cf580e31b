"""How fast the play screen answers keys while a Tafl AI searches (docs/performance.md).

The app runs headless (Textual's test driver, a 120x40 screen) with a traditional Tafl game whose
attackers are the AI on a long time limit, so it searches all through the measure; ``--load``
more processes spin meanwhile, so that both cores are busy. Each round presses ``+`` (faster: the
screen's own handler, seen when the pace changes) and ``?`` (the help screen, seen when it is on
top with its page drawn), timing from the key's arrival in the app to the answer, then Esc.
Prints the median and the worst of each. (Keys are posted as a terminal's would be, not through
the test driver's press, which waits for the process to fall idle.)

    .venv/bin/python scripts/bench_keys.py [--rounds 20] [--load 1] [--in-thread]

``--in-thread``: the AI searches in a thread of the app's own process, as before it had a
process of its own (notation/ai_process.py), to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.match import Limit  # noqa: E402
from notation.runner import GameSetup, Runner, SeatPlan  # noqa: E402
from tui.app import FiefdomApp  # noqa: E402
from tui.screens.help import HelpScreen, HelpText  # noqa: E402
from tui.screens.play import PlayScreen  # noqa: E402


def spin() -> None:
    while True:
        pass


async def until(test: Callable[[], bool], most: float = 30.0) -> None:
    end = time.perf_counter() + most
    while not test():
        if time.perf_counter() > end:
            raise SystemExit("the screen did not answer within 30 s")
        await asyncio.sleep(0.001)


async def measure(rounds: int) -> tuple[list[float], list[float]]:
    keys: list[float] = []
    helps: list[float] = []
    with tempfile.TemporaryDirectory() as data:
        app = FiefdomApp(data=data)
        async with app.run_test(size=(120, 40)) as pilot:
            seats = (SeatPlan("ai", Limit(seconds=3600.0)), SeatPlan("human"))
            app.start_game(GameSetup("tafl", "traditional", seats, seed=1))
            await until(lambda: isinstance(app.screen, PlayScreen) and app.screen.driver.thinking)
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            await asyncio.sleep(1.0)  # well into its search
            for _ in range(rounds):
                before = screen.driver.speed
                start = time.perf_counter()
                app.simulate_key("minus" if before == 0 else "plus")
                await until(lambda: screen.driver.speed != before)
                keys.append(time.perf_counter() - start)
                start = time.perf_counter()
                app.simulate_key("question_mark")
                await until(lambda: isinstance(app.screen, HelpScreen)
                            and any(text.lines for text in app.screen.query(HelpText)))
                helps.append(time.perf_counter() - start)
                app.simulate_key("escape")
                await until(lambda: app.screen is screen)
                await asyncio.sleep(0.2)
            assert screen.driver.thinking, "the AI stopped searching during the measure"
            await pilot.press("q")
    return keys, helps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--load", type=int, default=1, help="processes spinning meanwhile (default 1)")
    parser.add_argument("--in-thread", action="store_true", help="the AI in a thread of the app's process")
    args = parser.parse_args()
    if args.in_thread:
        Runner.think_apart = lambda self: None  # type: ignore[method-assign]
    hogs = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.load)]
    for hog in hogs:
        hog.start()
    try:
        keys, helps = asyncio.run(measure(args.rounds))
    finally:
        for hog in hogs:
            hog.kill()
    where = "in a thread of the app" if args.in_thread else "in its own process"
    print(f"Tafl AI searching {where}, {args.load} more process(es) spinning, {args.rounds} rounds")
    for name, times in (("key (+/-) answered", keys), ("help (?) shown", helps)):
        print(f"{name}: median {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
