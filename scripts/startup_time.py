"""Time from starting Python to the app's first frame (the home screen drawn), headless.

Each run is a fresh interpreter: ``python scripts/startup_time.py [runs] [--cli]`` prints
every run and the median. The child stamps the wall clock when Textual sends ``Ready``
(the first frame is displayed) and exits at once. ``--cli`` imports the command line
first, as ``fiefdom play`` does (typer and the CLI's own imports come on top).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time

CHILD = """
import sys, time
if "--cli" in sys.argv:
    import tui.cli
from pathlib import Path
from tui.app import FiefdomApp

class Timed(FiefdomApp):
    CSS_PATH = str(Path(sys.modules["tui.app"].__file__).with_name(FiefdomApp.CSS_PATH))

    def on_ready(self) -> None:
        print(time.time(), ",".join(sorted(m for m in sys.modules if m.startswith(("core.", "notation.", "tui.")))))
        self.exit()

Timed(data=sys.argv[1]).run(headless=True, size=(80, 24))
"""


def once(data: str, cli: bool) -> tuple[float, str]:
    start = time.time()
    args = [sys.executable, "-c", CHILD, data] + (["--cli"] if cli else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    stamp, _, modules = out.strip().partition(" ")
    return float(stamp) - start, modules


def main() -> None:
    cli = "--cli" in sys.argv
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    runs = int(numbers[0]) if numbers else 7
    with tempfile.TemporaryDirectory() as data:
        once(data, cli)  # warm the disk cache and the bytecode
        times = []
        for _ in range(runs):
            seconds, modules = once(data, cli)
            times.append(seconds)
            print(f"{seconds:.3f} s")
    # On a shared machine the fastest run is the steadiest figure; the median says how it usually goes.
    print(f"fastest {min(times):.3f} s, median {statistics.median(times):.3f} s over {runs} runs")
    print("game modules imported:", ", ".join(m for m in modules.split(",") if ".tafl" in m or ".taifa" in m) or "none")


if __name__ == "__main__":
    main()
