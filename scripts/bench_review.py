"""What ``fiefdom replay analyse`` costs a decision at each game's default budget (issue 31).

    python scripts/bench_review.py [--only tafl-brandubh,tafl-traditional,taifa,kingdom] [--sample 8]
                                   [--dir FOLDER]

For each game it makes a few seeded records with ``fiefdom simulate ... --out`` into a temporary
folder, picks the record and seats whose decisions come closest to the case's target (so that each
case stays within a few minutes; the pick is printed; Tafl traditional's is the issue's "100-move game at
1 s a move": 107 decisions), and analyses them twice at the default budget:

* ``--jobs 1``: CPU seconds (user + system of the process and its children) per decision;
* ``--jobs 2``: wall-clock seconds per decision with both cores (and its CPU seconds, the
  analysis' processes read from /proc: see :func:`run`).

The two runs' JSON must be the same (the work is counted, not timed: the figures do not depend on
the number of processes); the bench says so, or stops with exit code 1 and the first difference.
The per-decision figures include starting the command (about a second of CPU).

Then it judges ``--sample`` decisions of the same record in this process, counting the work the
reviewer really did (the Tafl search's nodes, the playouts), to give the speed in the reviewer's
own unit: nodes per CPU second (Tafl's ``per_second`` is 40,000), or rollouts of one candidate per
CPU second (Taifa's and Take the Kingdom's is 4), and "budget s / CPU s": how many seconds of
budget one CPU second buys here (above 1: the analysis is quicker than its budget says).

The records: Tafl with both sides the AI capped at depth 2 (``--ai-depth 2 --ai-time 60``: the same
games on any machine), both sides analysed; Taifa standard with Castile and the Catalan Counties the
AI (the rest the rulebook's bots), Take the Kingdom multi-3 with three AIs, one seat analysed.
The load (``/proc/loadavg``'s one-minute average) is printed before each run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIEFDOM = ROOT / ".venv" / "bin" / "fiefdom"


@dataclass(frozen=True)
class Case:
    name: str
    simulate: tuple[str, ...]  # the arguments after `fiefdom simulate`, without --out
    target: int  # the decisions to analyse: the record and seats closest to it are picked
    both: bool  # analyse every deciding seat together (else one seat)


CASES = (
    Case("tafl-brandubh", ("tafl", "--variant", "brandubh", "--games", "3", "--seed", "1", "--seat", "attackers=ai",
                           "--seat", "defenders=ai", "--ai-depth", "2", "--ai-time", "60"), 40, True),
    Case("tafl-traditional", ("tafl", "--variant", "traditional", "--games", "3", "--seed", "1", "--seat",
                              "attackers=ai", "--seat", "defenders=ai", "--ai-depth", "2", "--ai-time", "60"), 100, True),
    Case("taifa", ("taifa", "--variant", "standard", "--games", "3", "--seed", "1", "--seat", "1=ai", "--seat", "2=ai"),
         30, False),
    Case("kingdom", ("kingdom", "--variant", "multi-3", "--games", "3", "--seed", "1", "--seat", "1=ai", "--seat", "2=ai",
                     "--seat", "3=ai"), 30, False),
)


def load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def _tree_cpu(root: int, seen: dict[int, float]) -> None:
    """``root`` and each process below it into ``seen``: its own CPU seconds so far."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime: its own, not its children's
    for pid, t in times.items():
        p, hops = parents.get(pid, 0), 0
        while p and p != root and hops < 16:
            p, hops = parents.get(p, 0), hops + 1
        if pid == root or p == root:
            seen[pid] = max(seen.get(pid, 0.0), t)


def run(cmd: Sequence[str]) -> tuple[float, float, str]:
    """(CPU seconds of the command and every process it starts, wall-clock seconds, its stdout).

    The analysis' processes come from a forkserver the command never waits for, so its wait4 (the
    command and the processes it waited for) does not count them: each process of the tree is read
    from /proc each 0.1 s as well (its last reading kept: its last tenth of a second is missed), and
    the larger of the two sums is the figure (a process waited for would be in both). wait4 is the
    command's own, so commands run side by side in threads are told apart."""
    start = time.perf_counter()
    seen: dict[int, float] = {}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(list(cmd), stdout=out, stderr=err, text=True, cwd=ROOT)
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if Path("/proc/self/stat").exists():
                _tree_cpu(child.pid, seen)
            time.sleep(0.1)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if child.returncode != 0:
        sys.exit(f"failed ({child.returncode}): {' '.join(cmd)}\n{stderr[-2000:]}")
    return max(usage.ru_utime + usage.ru_stime, sum(seen.values())), wall, stdout


def simulate(args: Sequence[str], out: Path) -> list[Path]:
    run([str(FIEFDOM), "simulate", *args, "--out", str(out)])
    return sorted(out.glob("*.fief"))


def decisions_by_seat(path: Path) -> list[tuple[str, str, int]]:
    """Each seat's (name, kind, decisions with a choice) in the record: what ``analyse`` would judge."""
    from core import games
    from notation.analysis import tasks_of
    from notation.reader import read_record_file
    from notation.replay import Replay

    rec = read_record_file(path.read_bytes(), games=games.info)
    replay = Replay(rec, games=games.info)
    return [(s.name, s.kind, len(tasks_of(replay, [k]))) for k, s in enumerate(rec.header.seats)]


def pick(records: Sequence[Path], target: int, both: bool) -> tuple[Path, list[str], int]:
    """The record and seats (names) whose decisions come closest to ``target`` (the first of equals)."""
    options: list[tuple[int, Path, list[str], int]] = []
    for path in records:
        seats = [(name, n) for name, kind, n in decisions_by_seat(path) if kind == "ai" and n > 0]
        if both:
            options.append((abs(sum(n for _, n in seats) - target), path, [s for s, _ in seats],
                            sum(n for _, n in seats)))
        else:
            options += [(abs(n - target), path, [s], n) for s, n in seats]
    _, path, names, n = min(options, key=lambda o: o[0])
    return path, names, n


def analyse_cmd(path: Path, seats: Sequence[str], jobs: int, out: Path, seconds: float | None = None) -> list[str]:
    cmd = [str(FIEFDOM), "replay", "analyse", str(path), "--jobs", str(jobs), "--json", "--no-keep", "--force",
           "--out", str(out)]
    for s in seats:
        cmd += ["--seat", s]
    if seconds is not None:
        cmd += ["--seconds", str(seconds)]
    return cmd


def first_difference(a: object, b: object, where: str = "") -> str:
    if type(a) is not type(b):
        return f"{where or '.'}: {a!r} / {b!r}"
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return first_difference(a.get(k), b.get(k), f"{where}.{k}")
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} / {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{where}[{i}]")
    return f"{where or '.'}: {a!r} / {b!r}"


def counted_speed(path: Path, seats: Sequence[str], sample: int, seconds: float | None = None) -> dict[str, float]:
    """``sample`` decisions (spread over the record) judged in this process, the work counted."""
    import core.review as core_review
    import core.tafl.ai as tafl_ai
    from core import games
    from notation.analysis import Judge, seats_named, tasks_of, work_for
    from notation.reader import read_record_file
    from notation.replay import Replay

    searches: list[object] = []
    playouts = [0]
    base_search, base_play_out = tafl_ai._Search, core_review.play_out

    class Counted(base_search):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            searches.append(self)

    def counted_play_out(*args: object, **kwargs: object) -> object:
        playouts[0] += 1
        return base_play_out(*args, **kwargs)  # type: ignore[arg-type]

    rec = read_record_file(path.read_bytes(), games=games.info)
    replay = Replay(rec, games=games.info)
    reviewer = games.info(rec.header.game).reviewer()  # type: ignore[misc]
    work = work_for(reviewer, seconds)
    budget = reviewer.default_seconds if seconds is None else seconds
    tasks = tasks_of(replay, seats_named(rec.header, seats))
    chosen = [tasks[i * len(tasks) // sample] for i in range(min(sample, len(tasks)))]
    judge = Judge(replay, reviewer, work, 0)
    tafl_ai._Search, core_review.play_out = Counted, counted_play_out  # type: ignore[misc]
    try:
        start = time.process_time()
        candidates = 0
        for task in chosen:
            before = playouts[0]
            judge(task)
            if reviewer.unit == "rollouts":
                candidates += (playouts[0] - before) // work
        cpu = time.process_time() - start
    finally:
        tafl_ai._Search, core_review.play_out = base_search, base_play_out  # type: ignore[misc]
    out = {"decisions": len(chosen), "cpu": cpu, "budget_per_cpu": budget * len(chosen) / cpu, "work": work}
    if reviewer.unit == "nodes":
        nodes = sum(getattr(s, "nodes") for s in searches)
        out.update(nodes=nodes, per_cpu=nodes / cpu, nodes_per_decision=nodes / len(chosen))
    else:
        out.update(playouts=playouts[0], per_cpu=playouts[0] / max(1, candidates) * len(chosen) / cpu,
                   playout_cpu=cpu / max(1, playouts[0]), candidates=candidates / len(chosen))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="cases to run, comma-separated: " + ", ".join(c.name for c in CASES))
    ap.add_argument("--sample", type=int, default=8, help="decisions judged in this process to count the work")
    ap.add_argument("--dir", type=Path, default=None, help="the folder for the records (default: a temporary one)")
    args = ap.parse_args()
    only = {s for s in args.only.split(",") if s}
    unknown = only - {c.name for c in CASES}
    if unknown:
        ap.error(f"unknown case(s): {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"fiefdom replay analyse at the default budget; {os.cpu_count()} cores; "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        for case in CASES:
            if only and case.name not in only:
                continue
            records = simulate(case.simulate, folder / case.name)
            path, seats, n = pick(records, case.target, case.both)
            print(f"\n{case.name}: fiefdom simulate {' '.join(case.simulate)} --out DIR")
            print(f"  record {path.name}, seats {', '.join(seats)}: {n} decisions")
            results = {}
            for jobs in (1, 2):
                at = load()
                cpu, wall, _ = run(analyse_cmd(path, seats, jobs, folder / f"{case.name}-{jobs}.json"))
                results[jobs] = json.loads((folder / f"{case.name}-{jobs}.json").read_text())
                print(f"  --jobs {jobs} (load {at}): {cpu:.1f} CPU s, {wall:.1f} s wall clock; per decision "
                      f"{cpu / n:.3f} CPU s, {wall / n:.3f} s wall clock")
            if results[1] != results[2]:
                print(f"  FAILED: --jobs 1 and --jobs 2 differ at {first_difference(results[1], results[2])}")
                return 1
            summary = "; ".join(f"{seat}: {s['inaccuracies']}/{s['mistakes']}/{s['blunders']}"
                                for seat, s in results[1]["summary"].items())
            print(f"  --jobs 1 and --jobs 2: the same JSON ({len(results[1]['decisions'])} decisions, "
                  f"{results[1]['work']} {results[1]['unit']} each; inaccuracies/mistakes/blunders {summary})")
            at = load()
            c = counted_speed(path, seats, args.sample)
            if "nodes" in c:
                print(f"  counted, {c['decisions']} decisions in this process (load {at}): {c['nodes']:,} nodes in "
                      f"{c['cpu']:.2f} CPU s: {c['per_cpu']:,.0f} nodes per CPU s ({c['nodes_per_decision']:,.0f} "
                      f"a decision of {c['work']:,}); budget s / CPU s {c['budget_per_cpu']:.2f}")
            else:
                print(f"  counted, {c['decisions']} decisions in this process (load {at}): {c['playouts']} playouts "
                      f"({c['candidates']:.1f} candidates a decision, {c['work']} each) in {c['cpu']:.2f} CPU s, "
                      f"{1000 * c['playout_cpu']:.0f} ms a playout: {c['per_cpu']:.1f} rollouts of a candidate per "
                      f"CPU s; budget s / CPU s {c['budget_per_cpu']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
