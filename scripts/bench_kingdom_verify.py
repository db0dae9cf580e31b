"""Take the Kingdom's speed, and proof that it plays the same: seeded headless games, then verifying their records.

    python scripts/bench_kingdom_verify.py [--games 200] [--verify-runs 3] [--only NAME] [--keep DIR]

(a) Plays, for each set of games in ``SETS`` (variants multi-3, multi-4, solo and survival, with
random, greedy and ai seats), ``--games`` seeded games as ``fiefdom simulate kingdom --jobs 1 --out``
does (tui/simulate.py ``run``), with ``SOURCE_DATE_EPOCH=1800000000``, which fixes the records'
creation time: the same seed gives the same bytes. Prints the games per CPU second of each set, and
a blake2b digest of every record's bytes, in the order of the sets and of the file names: a change
that keeps the digests keeps every record byte for byte (and every choice the AI made).

(b) Verifies every record of the folder in this process as ``fiefdom replay verify DIR`` does
(notation/verify_files.py ``verdict``: read_record_file, then notation.verify.verify),
``--verify-runs`` times, and prints the file records (every record of a file: steps, checkpoints,
the result) per CPU second of the best run.

CPU seconds are ``time.process_time`` (user + system of this process): the machine is shared, so
compare before and after in the same minute. Writing the record files counts in the play's time.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ["SOURCE_DATE_EPOCH"] = "1800000000"  # read by tui.simulate.run_stamp when a run starts

from notation.reader import read_record_file  # noqa: E402
from notation.verify_files import OK, verdict  # noqa: E402
from tui.cli_support import new_game  # noqa: E402
from tui.simulate import Batch, run  # noqa: E402

# name: (variant, seats, options, share of --games, seed)
SETS: dict[str, tuple[str, list[str], list[str], float, int]] = {
    "multi-3-random": ("multi-3", ["1=random"], [], 1.0, 1),
    "multi-4-greedy": ("multi-4", ["1=greedy", "2=random", "3=greedy", "4=random"], [], 0.5, 2),
    "multi-2-survival": ("multi-2", ["1=greedy", "2=random"], ["survival=true"], 0.5, 3),
    "multi-3-ai": ("multi-3", ["1=ai", "2=greedy", "3=random"], [], 0.1, 4),
    "solo-random": ("solo", ["1=random"], [], 0.5, 5),
    "solo-ai": ("solo", ["1=ai"], [], 0.1, 6),
}


def simulate(name: str, games: int, out: Path) -> tuple[float, int]:
    """Play one set into ``out``; its CPU seconds and its games."""
    variant, seats, options, share, seed = SETS[name]
    n = max(1, round(games * share))
    chosen = new_game("kingdom", variant, seats, options, [], {}, seed, people=False)
    batch = Batch(chosen.setup, n, out=out / name, jobs=1)
    start = time.process_time()
    run(batch, chosen.games)
    return time.process_time() - start, n


def check(files: list[Path]) -> tuple[float, int]:
    """Verify every record; the CPU seconds, and the file records read (counted outside the time)."""
    start = time.process_time()
    for path in files:
        v = verdict(str(path))
        if v.code != OK:
            raise SystemExit(f"{path}: {v.line}")
    seconds = time.process_time() - start
    return seconds, sum(len(read_record_file(p.read_bytes()).records) for p in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games of the multi-3 set (the others: a share)")
    parser.add_argument("--verify-runs", type=int, default=3)
    parser.add_argument("--only", action="append", choices=sorted(SETS), help="these sets only")
    parser.add_argument("--keep", metavar="DIR", help="write the records here (an empty folder), not to a temporary one")
    args = parser.parse_args()
    names = args.only or list(SETS)
    with tempfile.TemporaryDirectory() as temp:
        out = Path(args.keep or temp)
        everything = hashlib.blake2b(digest_size=16)
        all_files: list[Path] = []
        for name in names:
            seconds, n = simulate(name, args.games, out)
            files = sorted((out / name).glob("*.fief"))
            one = hashlib.blake2b(digest_size=16)
            for path in files:
                data = path.read_bytes()
                one.update(data)
                everything.update(data)
            all_files += files
            print(f"{name}: {n} games, {seconds:.2f} CPU s, {n / seconds:.1f} games per CPU second, "
                  f"blake2b {one.hexdigest()}")
        print(f"records: {len(all_files)} files, blake2b {everything.hexdigest()}")
        if args.verify_runs > 0:
            runs = [check(all_files) for _ in range(args.verify_runs)]
            best, count = min(runs)
            print(f"verify: {count} file records, {best:.2f} CPU s (best of {len(runs)}), "
                  f"{count / best:.0f} file records per CPU second")


if __name__ == "__main__":
    main()
