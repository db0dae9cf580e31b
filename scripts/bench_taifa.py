"""Taifa's speed, and proof that it plays the same: seeded headless games and verifying their records.

    python scripts/bench_taifa.py [--variant standard|el-cid] [--games 200] [--seed 1]
                                  [--seat NAME=KIND ...] [--verify-runs 1] [--profile FILE]

(a) Plays ``--games`` seeded games of the scenario as ``fiefdom simulate taifa --out`` does, each
through notation/batch.py's ``play_one`` (every seat the rulebook's bot unless ``--seat`` names
another), its record kept whole in memory, with a fixed ``created`` stamp, so that the same seed
gives the same bytes on every run. Prints the games per CPU second and a blake2b digest of every
record's bytes, concatenated in order: a change that keeps the digest keeps every record byte for
byte.

(b) Reads and verifies those records in this process (notation.reader.read_record_file over the
bytes, then notation.verify.verify), ``--verify-runs`` times, and prints the file records (every
record of a file: steps, checkpoints, the result) per CPU second of the best run.

CPU seconds are ``time.process_time`` (user + system of this process): the machine is shared.
``--profile FILE`` writes a cProfile of the play to FILE (pstats), and runs no verify.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from notation.batch import Games, game_seeds, play_one  # noqa: E402
from notation.reader import read_record_file  # noqa: E402
from notation.verify import verify  # noqa: E402
from tui.cli_support import new_game  # noqa: E402

CREATED = "2026-01-01T00:00:00Z"  # every record's stamp: the same seed gives the same bytes


def play(variant: str, games: int, seed: int, seats: list[str]) -> tuple[list[bytes], float, int]:
    """The records of ``games`` seeded games, the CPU seconds they took, and their steps."""
    chosen = new_game("taifa", variant, seats, [], [], {}, seed, people=False)
    setup, lookup = chosen.setup, chosen.games
    header, _ = setup.start(lookup(setup.game), lookup)
    shared = Games(replace(header, created=CREATED), lookup, keep=True)
    records: list[bytes] = []
    steps = 0
    start = time.process_time()
    for number, game_seed in zip(range(1, games + 1), game_seeds(setup.seed)):
        played = play_one(shared, number, game_seed)
        assert played.record is not None
        records.append(played.record)
        steps += played.steps
    return records, time.process_time() - start, steps


def check(records: list[bytes]) -> tuple[float, int]:
    """Read and verify every record; the CPU seconds, and the file records read."""
    count = 0
    start = time.process_time()
    for data in records:
        recording = read_record_file(data)
        report = verify(recording)
        if not report.ok:
            raise SystemExit(f"a record does not verify: {report.message}")
        count += len(recording.records)
    return time.process_time() - start, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="standard", choices=("standard", "el-cid"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat", action="append", default=[], metavar="NAME=KIND")
    parser.add_argument("--verify-runs", type=int, default=1)
    parser.add_argument("--profile", metavar="FILE")
    args = parser.parse_args()
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        play(args.variant, args.games, args.seed, args.seat)
        profile.disable()
        profile.dump_stats(args.profile)
        return
    records, seconds, steps = play(args.variant, args.games, args.seed, args.seat)
    digest = hashlib.blake2b(b"".join(records), digest_size=16).hexdigest()
    seats = " ".join(f"--seat {s}" for s in args.seat)
    print(f"taifa {args.variant}, {args.games} games, seed {args.seed}{', ' + seats if seats else ''}: "
          f"{steps} steps ({steps / args.games:.1f} per game)")
    print(f"play: {seconds:.2f} CPU s, {args.games / seconds:.1f} games per CPU second")
    print(f"records: {sum(map(len, records))} bytes, blake2b {digest}")
    if args.verify_runs > 0:
        runs = [check(records) for _ in range(args.verify_runs)]
        best, count = min(runs)
        print(f"verify: {count} file records, {best:.2f} CPU s (best of {len(runs)}), "
              f"{count / best:.0f} file records per CPU second")


if __name__ == "__main__":
    main()
