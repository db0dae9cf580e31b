"""Headless matches for `fiefdom simulate`: play, journal, tally, time.

One loop serves every game (:func:`run`); :func:`run_tafl` and
:func:`run_taifa` only say how to build a game and how to word the tally.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core import games as core_games
from core.chance import SeededChance
from core.engine import Game, Result, RulesError
from core.match import Controller, Match, RandomController, Sink
from core.rng import SplitMix64

SEAT_KINDS = ("bot", "ai", "random")  # what `--seats` / `--players` may name
BOT_DETAIL = {"taifa": "rulebook bot (taifa 9)"}  # where each game's rulebook defines its bots
RANDOM_DETAIL = "uniform random mover"


@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat: the game's rulebook bot (rules, not a controller), its AI, or a random mover."""

    kind: str  # "bot", "ai" or "random"; "human" when the caller answers the seat (fiefdom taifa play)
    ai_time: float = 0.2  # Tafl's AI only
    ai_depth: int | None = None

    def controller(self, game: str, seed: int) -> Controller | None:
        """The controller answering this seat's decisions; None for a rulebook bot (the engine plays it)."""
        if self.kind in ("bot", "human"):
            return None
        if self.kind == "random":
            return RandomController(seed)
        if game == "taifa":
            return _taifa_ai()(seed=seed)
        from core.tafl.ai import TaflAI

        return TaflAI(time_budget=self.ai_time, max_depth=self.ai_depth, seed=seed)

    def describe(self, game: str) -> dict[str, str]:
        """The seat's ``kind`` and ``detail`` in a record header."""
        if self.kind == "bot":
            return {"kind": "bot", "detail": BOT_DETAIL.get(game, "rulebook bot")}
        if self.kind == "human":
            return {"kind": "human", "detail": ""}
        if self.kind == "random":
            return {"kind": "random", "detail": RANDOM_DETAIL}
        if game == "taifa":
            from core.taifa.ai import AI_VERSION  # _taifa_ai() has checked it imports

            return {"kind": "ai", "detail": str(AI_VERSION)}
        from tui.session import ai_detail

        return {"kind": "ai", "detail": ai_detail(self.ai_time, self.ai_depth)}


def _taifa_ai() -> Any:
    try:
        from core.taifa.ai import TaifaAI
    except ImportError:
        raise RulesError("the Taifa AI is not available in this fiefdom (play those seats bot or random)") from None
    return TaifaAI


def game_seeds(seed: int, games: int) -> list[int]:
    """One seed per game, drawn from the run's seed (so game k is reproducible alone)."""
    rng = SplitMix64(seed)
    return [rng.next() >> 1 for _ in range(games)]  # >> 1: fits msgpack's signed int64 too


def play_one(
    game: Game,
    seats: Sequence[SeatSpec],
    seed: int,
    path: Path | None,
    options: dict[str, Any],
    setup: dict[str, Any] | None = None,
    answered: Mapping[int, Controller] | None = None,
    sinks: Sequence[Sink] = (),
    games: Any = None,
) -> tuple[Result, int]:
    """Play ``game`` to its end with seeded chance; write it to ``path`` when given.

    ``answered`` are controllers the caller brings (people at a prompt) for
    seats whose spec has none of its own; ``sinks`` see every step after the journal.

    Returns the result and the number of steps (decisions and chance outcomes).
    Each seat's controller gets its own seed from ``seed``, drawn for every
    seat in order whatever its kind, so a seat's play does not depend on the others'.
    """
    from notation.catalog import new_header
    from notation.format import Seat
    from notation.writer import Journal

    rng = SplitMix64(seed)
    seeds = [rng.next() >> 1 for _ in seats]
    controllers = {n: c for n, (spec, s) in enumerate(zip(seats, seeds))
                   if (c := spec.controller(game.game, s)) is not None}
    controllers.update(answered or {})
    journal = None
    sinks = list(sinks)
    if path is not None:
        header = new_header(
            game.game,
            game.variant,
            [Seat(name=name, **spec.describe(game.game)) for name, spec in zip(game.seats, seats)],
            chance="seeded",
            seed=seed,
            options=options,
            setup=setup,
        )
        journal = Journal.create(path, header, **({"games": games} if games else {}))
        sinks.insert(0, journal)
    match = Match(game, controllers, SeededChance(seed), sinks)
    try:
        result = match.run()
        assert result is not None
        if journal is not None:
            journal.finish(result, game)
    finally:
        if journal is not None:
            journal.close()
    return result, match.steps


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


@dataclass(frozen=True)
class Batch:
    """A run of headless games: how many, the run's seed, who plays each seat, where records go."""

    games: int
    seed: int
    seats: Sequence[SeatSpec]
    out: Path | None = None
    progress: Callable[[str], None] = lambda line: None

    @property
    def kinds(self) -> str:
        return ",".join(s.kind for s in self.seats)


def run(
    make: Callable[[], Game],
    batch: Batch,
    *,
    name: str,
    options: dict[str, Any],
    setup: dict[str, Any] | None = None,
    reason_key: Callable[[Result], str] = lambda r: r.reason,
    noun: str = "steps",
    games: Any = None,
) -> Tally:
    """Play ``batch.games`` games made by ``make``; write records ``<name>-<seed>-<n>.fief`` into ``batch.out``."""
    out = batch.out
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    tally = Tally()
    started = time.perf_counter()
    for number, game_seed in enumerate(game_seeds(batch.seed, batch.games), start=1):
        game = make()
        path = out / f"{name}-{batch.seed}-{number:04d}.fief" if out is not None else None
        result, steps = play_one(game, batch.seats, game_seed, path, options, setup, games=games)
        winner = tally.add(result, game.seats, reason_key(result), steps)
        batch.progress(f"game {number}: {winner} ({result.reason}) after {steps} {noun}")
    tally.seconds = time.perf_counter() - started
    return tally


def _speed_lines(tally: Tally, noun: str, out: Path | None) -> list[str]:
    lines = [
        f"{noun}: {tally.steps} ({tally.steps / tally.games:.1f} per game)",
        f"time: {tally.seconds:.2f}s, {tally.games_per_second:.2f} games/s, "
        f"{tally.steps / tally.seconds if tally.seconds else 0:.0f} {noun}/s",
    ]
    if out is not None:
        lines.append(f"records: {out}")
    return lines


def _reasons_line(tally: Tally) -> str:
    return "reasons: " + "; ".join(f"{r}: {n}" for r, n in tally.reasons.most_common())


def run_tafl(variant: str, options: dict[str, Any], batch: Batch) -> str:
    from core.tafl import TaflGame

    template = TaflGame(variant, options)  # validates the variant and options up front
    tally = run(lambda: TaflGame(variant, options), batch, name=f"tafl-{variant}",
                options=dict(template.opts), noun="moves")
    lines = [
        f"{batch.games} games of tafl {variant}, seed {batch.seed}, players {batch.kinds}",
        "results: " + ", ".join(f"{k} {tally.wins[k] if k != 'draw' else tally.draws}"
                                for k in ("attackers", "defenders", "draw")),
        _reasons_line(tally),
    ]
    return "\n".join(lines + _speed_lines(tally, "moves", batch.out))


def _taifa_reason(result: Result) -> str:
    """Reasons tallied without their counts: ``most castles after turn 3 (10)`` -> ``(n)``."""
    return re.sub(r"(?<!turn )(?<!all )\b\d+\b", "n", result.reason)


def run_taifa(variant: str, options: dict[str, Any], batch: Batch, data: dict[str, Any] | None = None) -> str:
    """Headless Taifa games: each seat the rulebook bot, the AI or a random mover (no seats: all bots)."""
    from core.taifa.data import resolve, setup_fields
    from core.taifa.game import TaifaGame

    data = data or {}
    fields = setup_fields(data)
    taifa_map, decks = resolve(fields, data)
    template = TaifaGame(variant, options, None, taifa_map, decks)  # validates the scenario and options up front
    names, keys = template.seats, template.s.kingdoms
    if not batch.seats:
        batch = replace(batch, seats=[SeatSpec("bot")] * len(names))
    if len(batch.seats) != len(names):
        raise RulesError(f"--seats lists {len(batch.seats)} seats; taifa {variant} has {len(names)} "
                         f"({', '.join(names)})")
    if any(s.kind == "ai" for s in batch.seats):
        _taifa_ai()
    bots = [k for k, spec in zip(keys, batch.seats) if spec.kind == "bot"]
    tally = run(lambda: TaifaGame(variant, options, bots, taifa_map, decks), batch, name=f"taifa-{variant}",
                options=dict(template.opts), setup={"bots": bots, **fields}, reason_key=_taifa_reason,
                games=core_games.lookup({"taifa": data}))
    wins = ", ".join(f"{n} {tally.wins[n]}" for n in names)
    lines = [
        f"{batch.games} games of taifa {variant}, seed {batch.seed}, seats {batch.kinds}",
        f"wins: {wins}" + (f"; no winner {tally.draws}" if tally.draws else ""),
        f"shared wins: {tally.shared} (each winner of a shared win is counted above)",
        _reasons_line(tally),
    ]
    return "\n".join(lines + _speed_lines(tally, "steps", batch.out))
