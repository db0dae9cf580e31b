"""What writing records adds to ``fiefdom simulate``: CPU seconds with and without ``--out``.

    python scripts/bench_records.py [--variants traditional,gild-11] [--runs 10] [--games 200]
                                    [--tree DIR,DIR...]

Runs ``fiefdom simulate tafl --variant V --games N --seed 1 --players random,random`` as a fresh
process, without and with ``--out`` (a new folder each time), alternating the two (and each tree
given, to compare branches side by side), and prints the least and median CPU seconds (user +
system, of the child) and what writing adds: of the least, of the medians, and the median of each run's
with/without ratio (the pair runs back to back). Times are CPU seconds so that a busy machine skews
them less than wall-clock ones.

The record folders are kept until every run is over, then removed: on an ext4 file system without
a journal (this machine's), a new inode skips every inode deleted in the last minute or more, reading
each one, so deleting the last run's 200 files makes the next run's file creation several times
dearer (up to 0.5 ms a file instead of 0.05-0.1 ms).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds(tree: Path, variant: str, games: int, out: Path | None) -> float:
    """User + system CPU seconds of one ``fiefdom simulate`` process."""
    cmd = [str(tree / ".venv" / "bin" / "fiefdom"), "simulate", "tafl", "--variant", variant, "--games",
           str(games), "--seed", "1", "--players", "random,random"]
    if out is not None:
        cmd += ["--out", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, cwd=tree)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="traditional,gild-11")
    # Ten: on the project's virtual machine the same command's CPU time moves by 10-30% from run to run,
    # and the paired median of fewer runs by more than the +15% target's margin (docs/performance.md).
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tree", default=str(ROOT), help="checkouts with their own .venv, comma-separated")
    args = parser.parse_args()
    trees = [Path(t) for t in args.tree.split(",")]
    variants = args.variants.split(",")
    keep = Path(tempfile.mkdtemp(prefix="bench-records-"))
    times: dict[tuple[Path, str, bool], list[float]] = {}
    try:
        for run in range(args.runs):
            for variant in variants:
                for tree in trees:
                    for writing in (False, True):
                        out = keep / f"{run}-{variant}-{trees.index(tree)}" if writing else None
                        times.setdefault((tree, variant, writing), []).append(
                            cpu_seconds(tree, variant, args.games, out))
    finally:
        shutil.rmtree(keep, ignore_errors=True)
    print(f"load average after the runs: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for variant in variants:
        for tree in trees:
            plain, out = times[(tree, variant, False)], times[(tree, variant, True)]
            # Each run's pair ran back to back: the median of their ratios cancels the slow drifts of a
            # shared machine that the least and the medians of each side keep.
            paired = statistics.median(o / p for p, o in zip(plain, out))
            print(f"{variant:12} {tree.name:12} without --out {min(plain):.2f} s (median "
                  f"{statistics.median(plain):.2f}), with --out {min(out):.2f} s (median {statistics.median(out):.2f}): "
                  f"+{100 * (min(out) / min(plain) - 1):.0f}% (least), "
                  f"+{100 * (statistics.median(out) / statistics.median(plain) - 1):.0f}% (medians), "
                  f"+{100 * (paired - 1):.0f}% (paired)")


if __name__ == "__main__":
    main()
