"""Headless games for ``fiefdom simulate``: play a batch through the runner, tally, time.

Nothing here knows a game: a batch is a :class:`GameSetup` (the game, its
variant, who plays each seat, options) played again and again, each game with
its own seed drawn from the run's. Each game's ``simulate <game>`` command (in
its CLI plugin) builds the setup and words the summary.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from core import games as core_games
from core.engine import Result, RulesError
from core.rng import SplitMix64
from notation.catalog import GameLookup, utc_now
from notation.runner import GameSetup, Runner
from notation.writer import Journal


def game_seeds(seed: int) -> Iterator[int]:
    """Each game's seed, drawn from the run's seed (so game k is reproducible alone); endless and lazy."""
    rng = SplitMix64(seed)
    while True:
        yield rng.next() >> 1  # >> 1: fits msgpack's signed int64 too


@dataclass
class Tally:
    """What a run of games gave: wins per seat name, shared wins, reasons, steps, time."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    shared: int = 0  # games won by more than one seat (each winner counted in ``wins``)
    draws: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    steps: int = 0
    seconds: float = 0.0

    def add(self, result: Result, seat_names: Sequence[str], reason: str, steps: int) -> str:
        """Count one game; returns who won, in words."""
        self.games += 1
        self.steps += steps
        self.reasons[reason] += 1
        if not result.winners:
            self.draws += 1
            return "draw"
        names = [seat_names[w] for w in result.winners]
        self.wins.update(names)
        if len(names) > 1:
            self.shared += 1
        return " and ".join(names)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def reasons_line(self) -> str:
        return "reasons: " + "; ".join(f"{r}: {n}" for r, n in self.reasons.most_common())

    def speed_lines(self, noun: str, out: Path | None) -> list[str]:
        lines = [
            f"{noun}: {self.steps} ({self.steps / self.games:.1f} per game)",
            f"time: {self.seconds:.2f}s, {self.games_per_second:.2f} games/s, "
            f"{self.steps / self.seconds if self.seconds else 0:.0f} {noun}/s",
        ]
        if out is not None:
            lines.append(f"records: {out}")
        return lines


@dataclass(frozen=True)
class Batch:
    """A run of headless games: the setup every game starts from (its seed is the run's), how many,
    where records go (``<game>-<variant>-<run seed>-<n>.fief``), and how progress is worded."""

    setup: GameSetup
    games: int
    out: Path | None = None
    progress: Callable[[str], None] = lambda line: None
    noun: str = "steps"  # what a step is called in the progress lines ("moves" for Tafl)
    reason: Callable[[Result], str] = lambda result: result.reason  # how reasons are tallied

    @property
    def kinds(self) -> str:
        return ",".join(plan.kind for plan in self.setup.seats)


def run(batch: Batch, games: GameLookup = core_games.info) -> Tally:
    """Play the batch's games one after the other through the runner; RulesError (one line) for a bad setup."""
    setup = batch.setup
    if "human" in batch.kinds.split(",") or setup.chance != "seeded":
        raise RulesError("a simulated game has no person in it: no human seats, no dice typed from a table")
    header = setup.header(games(setup.game), games)  # checks the seats, options and setup once
    if batch.out is not None:
        batch.out.mkdir(parents=True, exist_ok=True)
    tally = Tally()
    started = time.perf_counter()
    for number, seed in zip(range(1, batch.games + 1), game_seeds(setup.seed)):
        this = replace(header, seed=seed, created=utc_now())
        path = None if batch.out is None else batch.out / f"{setup.game}-{setup.variant}-{setup.seed}-{number:04d}.fief"
        runner = Runner(this, games, Journal.create(path, this, games=games) if path is not None else None)
        try:
            result = runner.run()
        finally:
            runner.close()
        steps = len(runner.history)
        winner = tally.add(result, runner.game.seats, batch.reason(result), steps)
        batch.progress(f"game {number}: {winner} ({result.reason}) after {steps} {batch.noun}")
    tally.seconds = time.perf_counter() - started
    return tally
