"""Peak memory of long headless runs (issue 32): ``fiefdom simulate`` at growing game counts.

Each count is played by a fresh child process (the installed ``fiefdom`` beside this Python), and
its own resource usage, from ``os.wait4``, gives the peak RSS and the CPU seconds: a long run's
memory should stay flat as the count grows, and its speed with it.

    .venv/bin/python scripts/bench_memory.py                      # tafl traditional, random seats
    .venv/bin/python scripts/bench_memory.py --game kingdom --variant multi-3 --counts 1000,10000
    .venv/bin/python scripts/bench_memory.py --game taifa --variant el-cid --seat "" --counts 100,1000

Two checks run in this process instead, through the runner as ``simulate`` plays (notation.runner):

``--digest N`` plays N seeded games, each journaled whole with a fixed ``created`` stamp, and prints
a blake2b digest of every record's bytes in order and the games per CPU second: a change that only
touches caches must keep the digest.

``--trace A,B`` plays B games and prints what tracemalloc saw grow between the end of game A and
the end of game B, by the line that allocated it: what a long run keeps.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FIEFDOM = Path(sys.executable).with_name("fiefdom")
CREATED = "2026-01-01T00:00:00Z"  # every record's stamp in --digest: the same seed gives the same bytes


def run(game: str, variant: str | None, seats: list[str], options: list[str], games: int,
        seed: int) -> tuple[float, float, float]:
    """Play ``games`` games in a child process: (peak RSS in MB, CPU seconds, wall seconds)."""
    cmd = [str(FIEFDOM), "simulate", game, "--games", str(games), "--seed", str(seed)]
    if variant:
        cmd += ["--variant", variant]
    for seat in seats:
        cmd += ["--seat", seat]
    for option in options:
        cmd += ["--option", option]
    start = time.perf_counter()
    # One process plays every game (simulate shares them among every core by default): the memory
    # measured is one process's, and wait4 counts no worker it did not wait for.
    env = dict(os.environ, FIEFDOM_JOBS="1")
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    # wait4 gives this child's own usage (RUSAGE_CHILDREN would hold the largest child so far).
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    err = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({child.returncode}):\n{err}")
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, wall  # ru_maxrss: KiB on Linux


def games_in_process(game: str, variant: str | None, seats: list[str], options: list[str], seed: int,
                     keep: bool) -> Iterator[bytes | None]:
    """Each seeded game of a batch, played here through the runner as ``simulate`` plays it: its
    record's bytes when ``keep`` (journaled whole, stamped CREATED), else None."""
    from notation.runner import Runner
    from notation.writer import Journal
    from tui.cli_support import new_game
    from tui.simulate import game_seeds

    chosen = new_game(game, variant, seats, options, [], {}, seed, people=False)
    setup, lookup = chosen.setup, chosen.games
    header, _ = setup.start(lookup(setup.game), lookup)
    header = replace(header, created=CREATED)
    for game_seed in game_seeds(setup.seed):
        this = replace(header, seed=game_seed)
        journal = Journal.create(None, this, games=lookup, whole=True) if keep else None
        runner = Runner(this, lookup, journal)
        try:
            assert runner.run() is not None
        finally:
            runner.close()
        yield journal.data if journal is not None else None


def digest(args: argparse.Namespace, seats: list[str]) -> None:
    h = hashlib.blake2b(digest_size=16)
    played = games_in_process(args.game, args.variant, seats, args.option, args.seed, keep=True)
    start = time.process_time()
    size = 0
    for _, data in zip(range(args.digest), played):
        assert data is not None
        h.update(data)
        size += len(data)
    cpu = time.process_time() - start
    print(f"{args.digest} games: {size} bytes of records, blake2b {h.hexdigest()}; "
          f"{cpu:.1f} CPU s, {args.digest / cpu:.1f} games per CPU second")


def trace(args: argparse.Namespace, seats: list[str]) -> None:
    first, last = (int(n) for n in args.trace.split(","))
    tracemalloc.start(1)
    played = games_in_process(args.game, args.variant, seats, args.option, args.seed, keep=False)
    before = None
    for number, _ in zip(range(1, last + 1), played):
        if number == first:
            before = tracemalloc.take_snapshot()
    after = tracemalloc.take_snapshot()
    assert before is not None
    skip = [tracemalloc.Filter(False, tracemalloc.__file__)]
    diff = after.filter_traces(skip).compare_to(before.filter_traces(skip), "lineno")
    print(f"grown between game {first} and game {last}:")
    for stat in diff[:args.top]:
        print(f"  {stat.size_diff / 1024:+10.1f} KiB {stat.count_diff:+8d} blocks  {stat.traceback}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tafl")
    parser.add_argument("--variant", default=None, help="default: the game's first (tafl: traditional)")
    parser.add_argument("--seat", action="append", default=None,
                        help="NAME=KIND, repeatable (default for tafl: both sides random; "
                             "'' alone: the game's default seats)")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    parser.add_argument("--counts", default="1000,10000,100000", help="comma-separated game counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--digest", type=int, metavar="N", help="play N games here and digest their records")
    parser.add_argument("--trace", metavar="A,B", help="tracemalloc's growth from game A to game B, here")
    parser.add_argument("--top", type=int, default=15, help="lines --trace shows")
    args = parser.parse_args(argv)
    if args.seat is None:
        seats = ["attackers=random", "defenders=random"] if args.game == "tafl" else []
    else:
        seats = [s for s in args.seat if s]
    if args.digest:
        return digest(args, seats)
    if args.trace:
        return trace(args, seats)
    counts = [int(c) for c in args.counts.split(",") if c.strip()]
    label = " ".join([args.game, args.variant or "(default variant)", *seats, *args.option])
    print(f"{label}; seed {args.seed}")
    print(f"{'games':>8} {'peak MB':>8} {'CPU s':>8} {'games/CPU s':>12} {'wall s':>8}")
    for n in counts:
        peak, cpu, wall = run(args.game, args.variant, seats, args.option, n, args.seed)
        print(f"{n:>8} {peak:>8.1f} {cpu:>8.1f} {n / cpu:>12.1f} {wall:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
