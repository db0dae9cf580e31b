"""Headless matches for `fiefdom simulate`: play, journal, tally, time."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.chance import SeededChance
from core.engine import Game, Result
from core.match import Controller, Match, RandomController
from core.rng import SplitMix64


@dataclass(frozen=True)
class SeatSpec:
    kind: str  # "ai" or "random"
    ai_time: float = 0.2
    ai_depth: int | None = None

    def controller(self, seed: int) -> Controller:
        if self.kind == "random":
            return RandomController(seed)
        from core.tafl.ai import TaflAI

        return TaflAI(time_budget=self.ai_time, max_depth=self.ai_depth, seed=seed)

    def describe(self) -> dict[str, str]:
        if self.kind == "random":
            return {"kind": "random", "detail": "uniform random mover"}
        from tui.session import ai_detail

        return {"kind": "ai", "detail": ai_detail(self.ai_time, self.ai_depth)}


def game_seeds(seed: int, games: int) -> list[int]:
    """One seed per game, drawn from the run's seed (so game k is reproducible alone)."""
    rng = SplitMix64(seed)
    return [rng.next() >> 1 for _ in range(games)]  # >> 1: fits msgpack's signed int64 too


def play_one(
    game: Game,
    seats: list[SeatSpec],
    seed: int,
    path: Path | None,
    options: dict[str, Any],
) -> Result:
    from notation.catalog import new_header
    from notation.format import Seat
    from notation.writer import Journal

    rng = SplitMix64(seed)
    controllers = [spec.controller(rng.next() >> 1) for spec in seats]
    journal = None
    sinks = []
    if path is not None:
        header = new_header(
            game.game,
            game.variant,
            [Seat(name=name, **spec.describe()) for name, spec in zip(game.seats, seats)],
            chance="seeded",
            seed=seed,
            options=options,
        )
        journal = Journal.create(path, header)
        sinks.append(journal)
    match = Match(game, controllers, SeededChance(seed), sinks)
    try:
        result = match.run()
        assert result is not None
        if journal is not None:
            journal.finish(result, game)
    finally:
        if journal is not None:
            journal.close()
    return result


def run_tafl(
    variant: str,
    options: dict[str, Any],
    games: int,
    seed: int,
    seats: list[SeatSpec],
    out: Path | None,
    progress: Callable[[str], None],
) -> str:
    from core.tafl import TaflGame

    template = TaflGame(variant, options)  # validates the variant and options up front
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    tally: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    plies = 0
    started = time.perf_counter()
    for number, game_seed in enumerate(game_seeds(seed, games), start=1):
        game = TaflGame(variant, options)
        path = out / f"tafl-{variant}-{seed}-{number:04d}.fief" if out is not None else None
        result = play_one(game, seats, game_seed, path, dict(template.opts))
        winner = game.seats[result.winners[0]] if result.winners else "draw"
        tally[winner] += 1
        reasons[result.reason] += 1
        plies += game.ply
        progress(f"game {number}: {winner} ({result.reason}) after {game.ply} moves")
    elapsed = time.perf_counter() - started
    lines = [
        f"{games} games of tafl {variant}, seed {seed}, players {','.join(s.kind for s in seats)}",
        "results: " + ", ".join(f"{k} {tally[k]}" for k in ("attackers", "defenders", "draw")),
        "reasons: " + "; ".join(f"{r}: {n}" for r, n in reasons.most_common()),
        f"moves: {plies} ({plies / games:.1f} per game)",
        f"time: {elapsed:.2f}s, {games / elapsed:.2f} games/s, {plies / elapsed:.0f} moves/s",
    ]
    if out is not None:
        lines.append(f"records: {out}")
    return "\n".join(lines)
