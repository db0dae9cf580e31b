"""What writing records adds to ``fiefdom simulate``: CPU seconds with and without ``--out``.

    python scripts/bench_records.py [--variants traditional,gild-11] [--runs 10] [--games 200]
                                    [--tree DIR,DIR...] [--dir FOLDER]

Runs ``fiefdom simulate tafl --variant V --games N --seed 1 --seat attackers=random --seat defenders=random`` as a fresh
process, without and with ``--out`` (a new folder each time), alternating the two (and each tree
given, to compare branches side by side), and prints the least and median CPU seconds (user +
system, of the child) and what writing adds: of the least, of the medians, and the median of each run's
with/without ratio (the pair runs back to back). Times are CPU seconds so that a busy machine skews
them less than wall-clock ones. The system time is shown apart, with the user time's share alone:
the kernel's part is mostly making the record files, which the file system decides.

The records go under ``--dir`` (default: the system's temporary folder), whose file system is
printed. On an ext4 file system without a journal (this machine's root, so its ``/tmp``), making an
inode skips every free inode deleted in the last minute (six while its inode table block is not yet
written back), looking each one up from the block group's start for every new file: after
many files were deleted (a test run, the last run of this bench), a new file costs 0.3-0.7 ms of
system time instead of 0.03-0.15 ms, which adds up to 10 points to what writing adds
(docs/performance.md, "Writing records"). The record folders are kept until every run is over,
then removed, so the bench does not do that to itself; waiting a few minutes after deleting many files,
or a ``--dir`` on tmpfs or a journaled file system, measures writing without it.
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


def cpu_seconds(tree: Path, variant: str, games: int, out: Path | None) -> tuple[float, float]:
    """User and system CPU seconds of one ``fiefdom simulate`` process."""
    cmd = [str(tree / ".venv" / "bin" / "fiefdom"), "simulate", "tafl", "--variant", variant, "--games",
           str(games), "--seed", "1", "--seat", "attackers=random", "--seat", "defenders=random"]
    if out is not None:
        cmd += ["--out", str(out)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True, cwd=tree)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def file_system(folder: Path) -> str:
    """The type of the file system ``folder`` is on, from /proc/mounts (the longest mount point
    that holds it); "unknown" where there is no /proc."""
    try:
        mounts = [line.split()[1:3] for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "unknown"
    where = str(folder.resolve())
    found = [(len(point), kind) for point, kind in mounts
             if where == point or where.startswith(point.rstrip("/") + "/")]
    return max(found)[1] if found else "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="traditional,gild-11")
    # Ten: on the project's virtual machine the same command's CPU time moves by 10-30% from run to run,
    # and the paired median of fewer runs by more than the +15% target's margin (docs/performance.md).
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tree", default=str(ROOT), help="checkouts with their own .venv, comma-separated")
    parser.add_argument("--dir", default=None, help="where the records go (default: the temporary folder)")
    args = parser.parse_args()
    trees = [Path(t) for t in args.tree.split(",")]
    variants = args.variants.split(",")
    keep = Path(tempfile.mkdtemp(prefix="bench-records-", dir=args.dir))
    times: dict[tuple[Path, str, bool], list[float]] = {}  # user + system
    system: dict[tuple[Path, str, bool], list[float]] = {}
    try:
        for run in range(args.runs):
            for variant in variants:
                for tree in trees:
                    for writing in (False, True):
                        out = keep / f"{run}-{variant}-{trees.index(tree)}" if writing else None
                        user, kernel = cpu_seconds(tree, variant, args.games, out)
                        times.setdefault((tree, variant, writing), []).append(user + kernel)
                        system.setdefault((tree, variant, writing), []).append(kernel)
    finally:
        shutil.rmtree(keep, ignore_errors=True)
    print(f"records under {keep.parent} ({file_system(keep.parent)}); "
          f"load average after the runs: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for variant in variants:
        for tree in trees:
            plain, out = times[(tree, variant, False)], times[(tree, variant, True)]
            # Each run's pair ran back to back: the median of their ratios cancels the slow drifts of a
            # shared machine that the least and the medians of each side keep.
            paired = statistics.median(o / p for p, o in zip(plain, out))
            print(f"{variant:12} {tree.name:12} without --out {min(plain):.2f} s (median "
                  f"{statistics.median(plain):.2f}), with --out {min(out):.2f} s (median {statistics.median(out):.2f}): "
                  f"{100 * (min(out) / min(plain) - 1):+.0f}% (least), "
                  f"{100 * (statistics.median(out) / statistics.median(plain) - 1):+.0f}% (medians), "
                  f"{100 * (paired - 1):+.0f}% (paired)")
            # The kernel's part: mostly making the record files, which on some file systems costs far
            # more than writing's own work (docs/performance.md, "Writing records").
            kernel_plain, kernel_out = system[(tree, variant, False)], system[(tree, variant, True)]
            user_plain = statistics.median(t - k for t, k in zip(plain, kernel_plain))
            user_out = statistics.median(t - k for t, k in zip(out, kernel_out))
            print(f"{'':12} {'':12} of which system time: without --out median {statistics.median(kernel_plain):.2f} s, "
                  f"with --out median {statistics.median(kernel_out):.2f} s; "
                  f"user time alone: {100 * (user_out / user_plain - 1):+.0f}% (medians)")


if __name__ == "__main__":
    main()
