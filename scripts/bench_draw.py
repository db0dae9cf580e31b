"""What drawing a game costs the play screen (docs/performance.md, "The app").

The app runs headless (Textual's test driver, 120x40) and plays a whole seeded game nobody here
decides, at speed 0 (the driver draws at most once a 30 ms slice): Take the Kingdom for three
greedy AIs, Taifa for six rulebook bots, traditional Tafl for two random movers. Prints, for each,
the steps, the screen updates Textual made, and the process's CPU time: in all, a step and an
update. The same games without a screen (the runner alone, its record written too) are the floor.

    .venv/bin/python scripts/bench_draw.py [--games kingdom,taifa,tafl]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual.screen import Screen  # noqa: E402

from core.match import Limit  # noqa: E402
from notation.runner import GameSetup, Runner, SeatPlan  # noqa: E402
from tui.app import FiefdomApp  # noqa: E402
from tui.screens.dialogs import GameOverDialog  # noqa: E402
from tui.screens.play import PlayScreen  # noqa: E402

GREEDY = SeatPlan("ai", Limit(level="greedy"))
SETUPS = {
    "kingdom": GameSetup("kingdom", "multi-3", (GREEDY, GREEDY, GREEDY), seed=1),
    "taifa": GameSetup("taifa", "standard", (SeatPlan("bot"),) * 6, seed=1),
    "tafl": GameSetup("tafl", "traditional", (SeatPlan("random"),) * 2, seed=1),
}

updates = 0
_refresh = Screen._compositor_refresh


def _counted(self: Screen) -> None:
    global updates
    updates += 1
    _refresh(self)


Screen._compositor_refresh = _counted  # type: ignore[method-assign]


async def on_screen(setup: GameSetup) -> tuple[int, int, float]:
    """The game played on the play screen: its steps, Textual's screen updates, CPU seconds."""
    global updates
    with tempfile.TemporaryDirectory() as data:
        app = FiefdomApp(data=data)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            updates, start = 0, time.process_time()
            app.start_game(setup)
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, PlayScreen))
            screen.driver.speed = 0
            while not (isinstance(app.screen, GameOverDialog) and app.screen.query("#save-name")):
                await asyncio.sleep(0.01)  # the game over, its dialog drawn
            cpu = time.process_time() - start
            steps = len(screen.runner.history)
    return steps, updates, cpu


def alone(setup: GameSetup) -> float:
    """The same game by the runner alone, its record written as the screen's is: CPU seconds."""
    with tempfile.TemporaryDirectory() as folder:
        start = time.process_time()
        runner = Runner.start(setup, Path(folder) / "game.fief")
        runner.run()
        runner.close()
        return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(SETUPS))
    args = parser.parse_args()
    print("| game | steps | screen updates | CPU on the screen | a step | an update | the runner alone |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        steps, count, cpu = asyncio.run(on_screen(SETUPS[name]))
        floor = alone(SETUPS[name])
        print(f"| {name} | {steps} | {count} | {cpu:.2f} s | {cpu / steps * 1000:.1f} ms | "
              f"{cpu / max(count, 1) * 1000:.1f} ms | {floor:.2f} s |")


if __name__ == "__main__":
    main()
