"""A batch's games as independent tasks (notation/tasks.py): ``fiefdom simulate`` and a tournament.

Game ``k`` of a batch is played from the batch's header with its own seed, the ``k``-th drawn from the
batch's seed (:func:`game_seeds`), whatever process or machine plays it: its record's bytes are the
same on any of them. A task is a chunk of games (a few milliseconds of work each would otherwise cost
more to send than to play); what comes back is each game's :class:`Played`, the record's bytes
included when the caller keeps records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from core.engine import Game, Result, leave_events_unmade
from core.rng import SplitMix64
from notation.catalog import GameLookup
from notation.format import Header
from notation.runner import Runner
from notation.writer import Journal

def game_seeds(seed: int) -> Iterator[int]:
    """Each game's seed, drawn from the run's seed (so game k is reproducible alone); endless and lazy."""
    rng = SplitMix64(seed)
    while True:
        yield rng.next() >> 1  # >> 1: fits msgpack's signed int64 too


@dataclass(frozen=True)
class Games:
    """What every game of a chunk shares: the header (its seed replaced by each game's), the registry
    lookup (with a user's data files), whether the record's bytes come back, and a game's own
    observation of how a game ended (a module-level function: it travels to the worker)."""

    header: Header
    games: GameLookup
    keep: bool = False
    observe: Callable[[Game, Result], Any] | None = None


@dataclass(frozen=True)
class Played:
    """One game of a batch, as it ended: its number (from 1), seed, result, steps, seat names, what
    ``observe`` made of it, and its record when kept."""

    number: int
    seed: int
    result: Result
    steps: int
    seats: tuple[str, ...]
    observed: Any = None
    record: bytes | None = None


@dataclass(frozen=True)
class Chunk:
    """Games ``first`` .. ``first + len(seeds) - 1`` of a batch, with their seeds: one task."""

    games: Games
    first: int
    seeds: tuple[int, ...]


def play(chunk: Chunk) -> list[Played]:
    """The task: play a chunk's games one after the other through the runner."""
    shared = chunk.games
    return [play_one(shared, chunk.first + i, seed) for i, seed in enumerate(chunk.seeds)]


def play_one(shared: Games, number: int, seed: int) -> Played:
    """One game of a batch: the batch's header with this game's seed, played to its end."""
    header = replace(shared.header, seed=seed)
    journal = Journal.create(None, header, games=shared.games, whole=True) if shared.keep else None
    runner = Runner(header, shared.games, journal)
    leave_events_unmade(runner.game)  # nobody reads them: the record and the result are the same
    try:
        result = runner.run()
    finally:
        runner.close()
    # Only a person's answer stops a game before the end, and a batch has no person in it
    assert result is not None, "a game with nobody to answer stopped before its end"
    observed = shared.observe(runner.game, result) if shared.observe is not None else None
    return Played(number, seed, result, len(runner.history), tuple(runner.game.seats), observed,
                  journal.data if journal is not None else None)


def chunks(shared: Games, seeds: Iterator[int], games: int, size: int) -> Iterator[Chunk]:
    """The batch's ``games`` games as chunks of ``size`` (the last may be smaller), lazily."""
    first = 1
    while first <= games:
        take = tuple(islice(seeds, min(size, games - first + 1)))
        yield Chunk(shared, first, take)
        first += len(take)


def flatten(results: Iterator[Sequence[Played]]) -> Iterator[Played]:
    for chunk in results:
        yield from chunk
