"""How the work scales (docs/performance.md, "Every core"): ``fiefdom simulate`` and ``fiefdom replay
verify`` through the command line on 1 and 2 processes and on a local Dask cluster of two workers.

    .venv/bin/python scripts/bench_jobs.py [--games N] [--only simulate,verify,cluster] [--runs K]

For each command: the wall clock of each way of running it (the best of ``--runs``), the speed-up of
2 processes over 1, and for one process the CPU seconds (the command's own, from the kernel) with
games or file records per CPU second. Speed-ups want an otherwise idle machine: the load is printed.
The records of every way are compared byte for byte (SOURCE_DATE_EPOCH fixed): a figure of a run that
wrote other bytes would be no figure at all.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIEFDOM = str(Path(sys.executable).parent / "fiefdom")
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1800000000"}
SIMULATE = {
    "taifa standard": ["taifa", "--variant", "standard"],
    "taifa el-cid": ["taifa", "--variant", "el-cid"],
    "kingdom multi-4 random": ["kingdom", "--variant", "multi-4", "--seat", "1=random", "--seat", "2=random",
                               "--seat", "3=random", "--seat", "4=random"],
    "tafl traditional random": ["tafl", "--seat", "attackers=random", "--seat", "defenders=random"],
}


def timed(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child and what it waited for) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, env=ENV, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best(args: list[str], runs: int, out: Path | None = None) -> tuple[float, float]:
    results = []
    for _ in range(runs):
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
        results.append(timed(args))
    return min(results)


def folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def file_records(path: Path) -> int:
    from notation.reader import read_record_file

    return sum(len(read_record_file(p.read_bytes()).records) for p in path.iterdir())


class Cluster:
    """A scheduler and two single-threaded workers on 127.0.0.1, as tests/cli/test_cluster.py starts them."""

    def __enter__(self) -> str:
        self.here = Path(tempfile.mkdtemp())
        plan = self.here / "scheduler.json"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        py = [sys.executable, "-m"]
        self.processes = [subprocess.Popen([*py, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                                            "0", "--no-dashboard", "--scheduler-file", str(plan)], cwd=self.here,
                                           **quiet)]
        while not plan.exists() or not plan.read_text().strip().endswith("}"):
            time.sleep(0.1)
        address = str(json.loads(plan.read_text())["address"])
        for n in range(2):
            self.processes.append(subprocess.Popen([*py, "distributed.cli.dask_worker", address, "--nthreads", "1",
                                                    "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
                                                    "--local-directory", str(self.here / f"w{n}")], cwd=self.here,
                                                   **quiet))
        from distributed import Client

        with Client(address) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(2, timeout=120)
        return address

    def __exit__(self, *exc: object) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait()
        shutil.rmtree(self.here, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--only", default="simulate,verify,cluster")
    parser.add_argument("--games-set", default=",".join(SIMULATE), help="which of: " + ", ".join(SIMULATE))
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each figure as it comes
    only = set(args.only.split(","))
    print(f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores, {args.games} games, best of {args.runs}")
    work = Path(tempfile.mkdtemp())
    try:
        for name in args.games_set.split(","):
            game = SIMULATE[name]
            base = [FIEFDOM, "simulate", *game, "--games", str(args.games), "--quiet"]
            one_dir, two_dir = work / f"{name}-1", work / f"{name}-2"
            wall1, cpu1 = best([*base, "--jobs", "1", "--out", str(one_dir), "--force"], args.runs, one_dir)
            if "simulate" in only:
                wall2, _ = best([*base, "--jobs", "2", "--out", str(two_dir), "--force"], args.runs, two_dir)
                same = folder(one_dir) == folder(two_dir)
                print(f"simulate {name}: 1 process {wall1:.2f} s ({cpu1:.2f} CPU s, {args.games / cpu1:.0f} games "
                      f"per CPU s); 2 processes {wall2:.2f} s: x{wall1 / wall2:.2f}; records "
                      f"{'the same' if same else 'DIFFERENT'}")
            if "verify" in only:
                records = file_records(one_dir)
                v1, c1 = best([FIEFDOM, "replay", "verify", str(one_dir), "--quiet", "--jobs", "1"], args.runs)
                v2, _ = best([FIEFDOM, "replay", "verify", str(one_dir), "--quiet", "--jobs", "2"], args.runs)
                print(f"verify {name}: {args.games} files, {records} records: 1 process {v1:.2f} s ({c1:.2f} CPU s, "
                      f"{records / c1:.0f} records per CPU s); 2 processes {v2:.2f} s: x{v1 / v2:.2f}")
            if "cluster" in only:
                with Cluster() as address:
                    cluster_dir = work / f"{name}-cluster"
                    wc, _ = best([*base, "--cluster", address, "--out", str(cluster_dir), "--force"], args.runs,
                                 cluster_dir)
                    same = folder(one_dir) == folder(cluster_dir)
                    if "simulate" not in only:
                        wall2, _ = best([*base, "--jobs", "2", "--out", str(two_dir), "--force"], args.runs, two_dir)
                    print(f"cluster {name}: two workers {wc:.2f} s against 2 processes {wall2:.2f} s "
                          f"(x{wall2 / wc:.2f}); records {'the same' if same else 'DIFFERENT'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
