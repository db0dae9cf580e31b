"""Random-play plies/s of fiefdom's Tafl and of the PyPI ``hnefatafl`` 0.1.1 package, side by side.

Both run the same harness shape: every legal move listed, one picked at random,
applied, the game checked for its end, at most 300 plies a game. fiefdom goes
through its public API (``point``/``apply``); the anchor through ``TaflBoard``
(``get_all_valid_moves``/``make_move``, which checks the game's end itself).

    python scripts/bench_tafl_anchor.py [--anchor-python .venv-bench/bin/python]

Run by the app's Python it measures fiefdom, then runs itself under the bench
environment's Python (``--only anchor``) for the anchor, and prints the ratio;
``--runs N`` alternates the two N times (each fiefdom run in a fresh process, as
the first) and prints each side's range and the ratio of the medians.
Times are CPU seconds of the process (``time.process_time``), so that a busy
machine skews neither side's figure much.
The anchor is never installed into the app's environment (``make bench``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
from time import process_time

PLY_CAP = 300


def fiefdom(games: int, seed: int) -> tuple[int, float]:
    """(plies, seconds) of ``games`` random traditional games through TaflGame's public API."""
    from core.engine import Over
    from core.tafl import TaflGame

    rng, plies = random.Random(seed), 0
    start = process_time()
    for _ in range(games):
        g = TaflGame("traditional")
        for _ply in range(PLY_CAP):
            point = g.point()
            if isinstance(point, Over):
                break
            g.apply(rng.choice(point.options))
            plies += 1
    return plies, process_time() - start


def anchor(games: int, seed: int) -> tuple[int, float]:
    """(plies, seconds) of ``games`` random games of ``hnefatafl.TaflBoard`` (its 11x11 Copenhagen-like board)."""
    from hnefatafl import TaflBoard

    rng, plies = random.Random(seed), 0
    start = process_time()
    for _ in range(games):
        board = TaflBoard()
        for _ply in range(PLY_CAP):
            moves = board.get_all_valid_moves()
            if not moves:
                break
            over = board.make_move(rng.choice(moves))
            plies += 1
            if over:
                break
    return plies, process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("fiefdom", "anchor"), help="measure one side and print plies and seconds")
    parser.add_argument("--games", type=int, default=0, help="games to play (default: 300 fiefdom, 20 anchor)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--anchor-python", default=".venv-bench/bin/python",
                        help="the bench environment's Python, where hnefatafl 0.1.1 is installed")
    parser.add_argument("--runs", type=int, default=1, help="alternate the two this many times")
    args = parser.parse_args()
    if args.only:
        run = fiefdom if args.only == "fiefdom" else anchor
        plies, seconds = run(args.games or (300 if args.only == "fiefdom" else 20), args.seed)
        print(plies, seconds)
        return
    if args.runs == 1:
        ours, ours_s = fiefdom(args.games or 300, args.seed)
        theirs, theirs_s = _side(args.anchor_python, "anchor", args)
        mine, other = ours / ours_s, theirs / theirs_s
        print(f"random play, traditional 11x11, plies per CPU second: fiefdom {mine:,.0f} ({ours} in {ours_s:.2f}s), "
              f"hnefatafl 0.1.1 {other:,.0f} ({theirs} in {theirs_s:.2f}s): {mine / other:.1f}x")
        return
    rates: dict[str, list[float]] = {"fiefdom": [], "anchor": []}
    for _ in range(args.runs):
        for side, python in (("fiefdom", sys.executable), ("anchor", args.anchor_python)):
            plies, seconds = _side(python, side, args)
            rates[side].append(plies / seconds)
    mine, other = statistics.median(rates["fiefdom"]), statistics.median(rates["anchor"])
    print(f"random play, traditional 11x11, plies per CPU second, {args.runs} runs each, alternated: "
          f"fiefdom {min(rates['fiefdom']):,.0f}-{max(rates['fiefdom']):,.0f} (median {mine:,.0f}), "
          f"hnefatafl 0.1.1 {min(rates['anchor']):,.0f}-{max(rates['anchor']):,.0f} (median {other:,.0f}): "
          f"{mine / other:.1f}x")


def _side(python: str, side: str, args: argparse.Namespace) -> tuple[int, float]:
    """(plies, CPU seconds) of one side, measured in a fresh process of ``python``."""
    command = [python, __file__, "--only", side, "--seed", str(args.seed)]
    if args.games and side == "fiefdom":  # the anchor plays its own 20 games, as with one run
        command += ["--games", str(args.games)]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
    return int(out[0]), float(out[1])


if __name__ == "__main__":
    sys.exit(main())
