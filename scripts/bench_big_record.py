"""A very long Tafl record, and what each command costs on it: time and peak memory.

``python scripts/bench_big_record.py [--moves N] [--record PATH]`` (or ``make bench-big``)
writes a valid gild-9 game of about 188,000 moves (2.4 MB, near the reader's 200,000
records) unless PATH already holds one, then runs each command on it in a fresh process
and prints its wall-clock time and its peak resident memory (the child's own max RSS from
``os.wait4``). Not a test: nothing is asserted (docs/performance.md, "Big records").

The game: both seats are random movers, seeded (SplitMix64), with the repetition rule and
the quiet-move draw off, that never play a move that would end the game until the
record is long enough; then each takes a winning move when it has one. Every move is
legal and the record is written by the journal, as any game is.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core.engine import Decision
from core.match import Step
from core.rng import SplitMix64
from notation.catalog import build_game, new_header
from notation.format import Seat
from notation.writer import Journal

MOVES = 188_000
SEED = 1
OPTIONS = {"repetition": "off", "quiet_moves": 0}


def build(path: Path, moves: int = MOVES, seed: int = SEED) -> int:
    """Write the long game to ``path``; returns its number of moves."""
    seat = Seat("random", "random", "never ends the game early (benchmark)")
    header = new_header("tafl", "gild-9", (seat, seat), chance="none", options=OPTIONS,
                        app="fiefdom bench", created="2026-01-01T00:00:00Z")
    game = build_game(header)
    rng = SplitMix64(seed)
    with Journal.create(path, header) as journal:
        ply = 0
        while game.result is None:  # type: ignore[attr-defined]
            point = game.point()
            assert isinstance(point, Decision)
            code = _choose(game, point, rng, wants_end=ply >= moves)
            ply += 1
            journal(Step(ply, "decision", point.seat, code, tuple(game.apply(code))), game)
            if ply > moves + 2000:
                raise SystemExit("the game does not end: try another seed")
        journal.finish(game.result, game)  # type: ignore[attr-defined]
    return ply


def _choose(game, point: Decision, rng: SplitMix64, *, wants_end: bool):  # type: ignore[no-untyped-def]
    """A random option that does not end the game, or (``wants_end``) one that does if any."""
    order = rng.permutation(len(point.options))
    keeps = None
    for i in order:
        code = point.options[i]
        trial = game.clone()
        trial.apply(code)
        if (trial.result is not None) == wants_end:
            return code
        keeps = keeps or code
    if keeps is None:
        raise SystemExit("no move keeps the game going: try another seed")
    return keeps


# -- measuring -------------------------------------------------------------------------

# Writes an export through notation.export.export_stream, as `replay export` will (the
# command itself may still join it first): python -c STREAM RECORD FORMAT OUT.
STREAM = """
import sys
from notation.reader import read_record_file
from notation.export import export_stream
with open(sys.argv[3], "w", encoding="utf-8") as out:
    for piece in export_stream(read_record_file(sys.argv[1]), sys.argv[2]):
        out.write(piece)
"""

# Opens the record in the app (headless), then seeks: prints the seconds to the first
# screen drawn, to the whole record read, and for every seek (half of them one step on,
# half a jump anywhere) the screen's own work (position, move list, panes) and the time
# until the next frame is drawn (Textual's frame, 10-40 ms here, on top).
VIEWER = """
import asyncio, sys, tempfile, time
from pathlib import Path
from core.rng import SplitMix64
from tui.app import FiefdomApp
from tui.screens.replay import ReplayScreen

async def drawn(screen) -> None:
    done = asyncio.Event()
    screen.call_after_refresh(done.set)
    await done.wait()

async def main(path: Path) -> None:
    app = FiefdomApp(tempfile.mkdtemp())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        app.open_record(path)
        screen = app.screen
        assert isinstance(screen, ReplayScreen), "the record did not open"
        await drawn(screen)
        first = time.perf_counter() - start
        while getattr(screen, "replay", None) is None:
            await asyncio.sleep(0.01)
        read = time.perf_counter() - start
        await pilot.pause()
        rng, seeks = SplitMix64(7), []
        for k in range(40):
            n = rng.below(screen.last + 1) if k % 2 else min(screen.step + 1, screen.last)
            begin = time.perf_counter()
            screen.step = n
            screen.show_step()
            shown = time.perf_counter()
            await drawn(screen)
            seeks.append((shown - begin, time.perf_counter() - begin))
            await pilot.pause()
        print(first, read, " ".join(f"{a:.4f},{b:.4f}" for a, b in seeks))

asyncio.run(main(Path(sys.argv[1])))
"""

# The viewer's landmark jumps (tui.screens.replay.landmark_step) on the record read: a capture
# (Tafl's events stand in for a game's landmarks; the captures end early in this game) and the
# result, forward and back from several places: prints "what seconds" pairs.
LANDMARKS = """
import sys, time
from notation.reader import read_record_file
from notation.replay import Replay
from tui.screens.replay import landmark_step

replay = Replay(read_record_file(sys.argv[1]))
last = replay.steps
for name, step, kind, direction in (("capture-next-from-0", 0, "capture", 1),
                                    ("capture-next-from-middle", last // 2, "capture", 1),
                                    ("capture-previous-from-middle", last // 2, "capture", -1),
                                    ("capture-previous-from-end", last, "capture", -1),
                                    ("result-next-from-middle", last // 2, "result", 1)):
    start = time.perf_counter()
    landmark_step(replay, step, (kind,), direction)
    print(name, time.perf_counter() - start)
"""


def measure(args: list[str]) -> tuple[float, int, str]:
    """Run ``args``; (wall-clock seconds, the child's peak RSS in MB, its stdout)."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # 1: a record that does not verify
        raise SystemExit(f"{' '.join(args[:4])} failed")
    return seconds, usage.ru_maxrss // 1024, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=MOVES)
    parser.add_argument("--record", type=Path, default=Path(tempfile.gettempdir()) / "fiefdom-big-record.fief")
    parser.add_argument("--only", help="comma-separated command names to run (default: all)")
    opts = parser.parse_args()
    record: Path = opts.record
    if not record.exists():
        print(f"writing {record} ...", flush=True)
        build(record, opts.moves)
    print(f"{record}: {record.stat().st_size:,} bytes")
    fiefdom = str(Path(sys.executable).with_name("fiefdom"))
    scratch = Path(tempfile.mkdtemp())
    py = [sys.executable, "-c"]
    commands = {
        "verify": [fiefdom, "replay", "verify", str(record)],
        "show": [fiefdom, "replay", "show", str(record)],
        "show-middle": [fiefdom, "replay", "show", "--step", str(opts.moves // 2), str(record)],
        **{f"export-{f}": [fiefdom, "replay", "export", "--format", f, "--out", str(scratch / f"x.{f}"), str(record)]
           for f in ("text", "json", "otg")},
        **{f"stream-{f}": [*py, STREAM, str(record), f, str(scratch / f"s.{f}")] for f in ("text", "json", "otg")},
        "viewer": [*py, VIEWER, str(record)],
        "landmarks": [*py, LANDMARKS, str(record)],
    }
    wanted = opts.only.split(",") if opts.only else list(commands)
    print(f"{'command':<14} {'seconds':>8} {'peak MB':>8}")
    for name in wanted:
        seconds, mb, out = measure(commands[name])
        print(f"{name:<14} {seconds:>8.1f} {mb:>8}", flush=True)
        if name == "viewer" and out:
            first, read, *seeks = out.split()
            work = sorted(float(s.split(",")[0]) * 1000 for s in seeks)
            drawn = sorted(float(s.split(",")[1]) * 1000 for s in seeks)
            print(f"  first screen drawn {float(first):.3f} s, whole record read {float(read):.1f} s")
            print(f"  {len(seeks)} seeks: the screen's work median {work[len(work) // 2]:.1f} ms, max {work[-1]:.1f} ms;"
                  f" drawn median {drawn[len(drawn) // 2]:.1f} ms, max {drawn[-1]:.1f} ms")
        if name == "landmarks":
            for line in out.splitlines():
                what, seconds = line.split()
                print(f"  {what}: {float(seconds) * 1000:.1f} ms")
    for path in scratch.iterdir():
        path.unlink()
    scratch.rmdir()


if __name__ == "__main__":
    main()
