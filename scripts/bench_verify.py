"""Verify's speed over folders of records, in one process, as ``fiefdom replay verify DIR --jobs 1`` does
(notation/verify_files.py ``verdict`` for each file), without the command's start-up:

    python scripts/bench_verify.py DIR [DIR ...] [--runs 2] [--tree PATH]

Prints, for each folder, its files, its file records (every record of a file: steps, checkpoints, the
result) and the file records per CPU second of the first run, which starts with the game's caches
empty as a fresh ``replay verify`` does (Tafl's move generator fills its caches as it goes), and of
the best of ``--runs`` (``time.process_time``: the machine is shared). ``--tree PATH`` runs another checkout's code (a worktree of an older commit) on
the same folders, for a before-and-after: alternate the two a few times and take medians, as the
machine's speed drifts. Every record must verify: a folder that does not is an error, not a figure.

Folders to try it on, with the same bytes on every run::

    SOURCE_DATE_EPOCH=1800000000 fiefdom simulate taifa --games 300 --seed 1 --out /tmp/vr/taifa --quiet
    ... simulate kingdom --variant multi-3 --games 200 --seed 1 --seat 1=random --seat 2=greedy \\
        --seat 3=random --out /tmp/vr/kingdom
    ... simulate tafl --games 300 --seed 1 --seat attackers=random --seat defenders=random --out /tmp/vr/tafl
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    from notation.reader import read_record_file
    from notation.verify_files import OK, verdict

    for folder in args.folders:
        paths = sorted(str(p) for p in folder.rglob("*.fief"))
        records = sum(len(read_record_file(p).records) for p in paths)
        runs = []
        for _ in range(max(1, args.runs)):
            start = time.process_time()
            verdicts = [verdict(p) for p in paths]
            runs.append(time.process_time() - start)
            wrong = [v for v in verdicts if v.code != OK]
            if wrong:
                sys.exit(f"{wrong[0].path}: {wrong[0].line}")
        print(f"{folder}: {len(paths)} files, {records} file records, file records per CPU s: "
              f"{records / runs[0]:.0f} the first run ({runs[0]:.2f} CPU s), {records / min(runs):.0f} the best")


if __name__ == "__main__":
    main()
