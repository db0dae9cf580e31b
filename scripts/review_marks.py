"""Do the review's marks agree with the players' strength? (issue 31)

    python scripts/review_marks.py [--only tafl,kingdom] [--games 4] [--seed 1] [--jobs 2]
                                   [--tafl-variant brandubh] [--tafl-seconds 0.25] [--kingdom-seconds 1]
                                   [--dir FOLDER]

Plays small seeded batches of a stronger AI against a weaker one with ``fiefdom simulate ... --out``
into a temporary folder, analyses every seat of every record with ``fiefdom replay analyse --json``
at a modest budget, and prints, per game, pairing and strength: the seats played (a game's two
greedy seats count twice), their wins (a shared win counts for each winner), the decisions
judged, the inaccuracies, mistakes and blunders per 100 decisions, and the average loss (points of
the decider's chance to win lost a decision, the JSON summary's ``average_loss``). If the marks
mean anything, the weaker side's rates and loss are the higher.

* Tafl (``--tafl-variant``, brandubh by default): the full AI against beginner, and against casual,
  each colour ``--games`` games. Every AI seat is capped at depth 3 (``--ai-depth 3 --ai-time 60``:
  beginner and casual stay at their own depth 1 and 2), so the records are the same on any machine.
* Take the Kingdom multi-3: one full AI and two greedy ones, the full seat moved round the table,
  ``--games`` games a seat. A rollout budget below 0.5 s is one rollout a candidate, never marked
  (a loss must be more than twice its standard error), hence 1 s by default.

The analyses run ``--jobs`` at a time, each ``--jobs 1`` (the figures do not depend on it).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_review import FIEFDOM, load, run  # noqa: E402


@dataclass(frozen=True)
class Batch:
    game: str  # "tafl" or "kingdom"
    pairing: str  # "full vs beginner"
    seats: dict[str, str]  # seat name -> level, as the record names the seat
    simulate: tuple[str, ...]
    seconds: float


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    decisions: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    lost: float = 0.0  # points of chance, summed over decisions

    def add(self, summary: dict[str, float], won: bool) -> None:
        self.games += 1  # a seat in a game: Take the Kingdom's two greedy seats count twice a game
        self.wins += int(won)
        n = int(summary["decisions"])
        self.decisions += n
        self.inaccuracies += int(summary["inaccuracies"])
        self.mistakes += int(summary["mistakes"])
        self.blunders += int(summary["blunders"])
        self.lost += summary["average_loss"] * n

    def row(self, label: Sequence[str]) -> str:
        per = (lambda k: f"{100 * k / self.decisions:.1f}") if self.decisions else (lambda k: "-")
        loss = f"{self.lost / self.decisions:.2f}" if self.decisions else "-"
        return " | ".join([*label, str(self.games), str(self.wins), str(self.decisions), per(self.inaccuracies),
                           per(self.mistakes), per(self.blunders), loss])


def batches(args: argparse.Namespace) -> list[Batch]:
    out = []
    n, seed = str(args.games), str(args.seed)
    if "tafl" in args.only:
        for weak in ("beginner", "casual"):
            for strong_side, weak_side in (("attackers", "defenders"), ("defenders", "attackers")):
                out.append(Batch("tafl", f"full vs {weak}", {strong_side: "full", weak_side: weak}, (
                    "tafl", "--variant", args.tafl_variant, "--games", n, "--seed", seed, "--seat",
                    f"{strong_side}=full", "--seat", f"{weak_side}={weak}", "--ai-depth", "3", "--ai-time", "60"),
                    args.tafl_seconds))
    if "kingdom" in args.only:
        for full in (1, 2, 3):
            levels = {f"Player {k}": ("full" if k == full else "greedy") for k in (1, 2, 3)}
            seats = [a for k in (1, 2, 3) for a in ("--seat", f"{k}={levels[f'Player {k}']}")]
            out.append(Batch("kingdom", "full vs greedy", levels, (
                "kingdom", "--variant", "multi-3", "--games", n, "--seed", seed, *seats), args.kingdom_seconds))
    return out


def winners(path: Path) -> set[str]:
    from core import games
    from notation.reader import read_record_file

    rec = read_record_file(path.read_bytes(), games=games.info)
    names = [s.name for s in rec.header.seats]
    won = getattr(rec.result, "winners", ()) if rec.result is not None else ()
    return {names[k] for k in won}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="tafl,kingdom", help="games: tafl, kingdom (comma-separated)")
    ap.add_argument("--games", type=int, default=4, help="games a batch (Tafl: a pairing and colour; "
                                                         "Take the Kingdom: a seat of the full AI)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="analyses at a time")
    ap.add_argument("--tafl-variant", default="brandubh")
    ap.add_argument("--tafl-seconds", type=float, default=0.25)
    ap.add_argument("--kingdom-seconds", type=float, default=1.0)
    ap.add_argument("--dir", type=Path, default=None, help="the folder for the records (default: a temporary one)")
    args = ap.parse_args()
    args.only = {s for s in args.only.split(",") if s}
    todo = batches(args)
    cpu_total = 0.0
    started = time.perf_counter()
    print(f"review marks; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {load()}")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        work: list[tuple[Batch, Path]] = []
        for i, batch in enumerate(todo):
            out = folder / f"batch-{i}"
            cpu, _, _ = run([str(FIEFDOM), "simulate", *batch.simulate, "--out", str(out)])
            cpu_total += cpu
            work += [(batch, path) for path in sorted(out.glob("*.fief"))]

        def analyse(item: tuple[Batch, Path]) -> tuple[float, dict[str, object]]:
            batch, path = item
            report = path.with_suffix(".json")
            cmd = [str(FIEFDOM), "replay", "analyse", str(path), "--jobs", "1", "--json", "--no-keep", "--force",
                   "--out", str(report), "--seconds", str(batch.seconds)]
            for seat in batch.seats:
                cmd += ["--seat", seat]
            cpu, _, _ = run(cmd)
            return cpu, json.loads(report.read_text())

        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            reports = list(pool.map(analyse, work))
        load_after = load()
        tallies: dict[tuple[str, ...], Tally] = {}
        units: dict[str, str] = {}
        for (batch, path), (cpu, report) in zip(work, reports):
            cpu_total += cpu
            won = winners(path)
            units[batch.game] = f"{report['work']} {report['unit']} a decision ({batch.seconds} s)"
            for seat, summary in report["summary"].items():  # type: ignore[attr-defined]
                level = batch.seats[seat]
                side = seat if batch.game == "tafl" else "any seat"
                for key in ((batch.game, batch.pairing, level, side), (batch.game, batch.pairing, level, "all")):
                    tallies.setdefault(key, Tally()).add(summary, seat in won)
    print(f"{len(work)} records; {cpu_total:.0f} CPU s, {time.perf_counter() - started:.0f} s wall clock; "
          f"load at the end {load_after}")
    for game, unit in units.items():
        print(f"{game}: {unit}")
    print()
    print("game | pairing | strength | side | seats played | wins | decisions | inaccuracies /100 | mistakes /100 | "
          "blunders /100 | average loss (points)")
    print("|".join(["---"] * 11))
    for key in sorted(tallies, key=lambda k: (k[0], k[1], k[2] != "full", k[2], k[3] == "all", k[3])):
        print(tallies[key].row(key))
    return 0


if __name__ == "__main__":
    sys.exit(main())
