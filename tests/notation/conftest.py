"""Fixtures for the notation tests: games played by core.match.Match and written
through the Journal sink, as the app writes them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from core.chance import SeededChance
from core.engine import Code, Over
from core.match import Match, RandomController
from core.tafl import TaflGame
from core import games as core_games
from notation.catalog import GameLookup, new_header
from notation.format import Header, RecordError, Seat
from notation.reader import read_record_file
from notation.verify import verify
from notation.writer import Journal

SEATS = (Seat("Astrid", "human"), Seat("fief-random", "random", "seed 2"))
CREATED = "2025-01-31T12:34:56Z"

# A 9x9 Tafl-Gild position that ends in four moves: a capture, two king moves, an escape.
SHORT_POSITION = "/9/9/2K6/9/9/3t1T3/9/3T5/9/"
SHORT_MOVES: tuple[Code, ...] = (("d6", "d7"), ("c3", "c1"), ("d7", "c7"), ("c1", "a1"))
SHORT_SETUP = {"position": SHORT_POSITION, "to_move": 0}

Play = Callable[..., bytes]


def _header(variant: str, seed: int, setup: dict[str, Any]) -> Header:
    return new_header("tafl", variant, SEATS, chance="seeded", seed=seed, setup=setup,
                      app="fiefdom test", created=CREATED)


def play_into(
    path: Path,
    variant: str = "gild-9",
    seed: int = 1,
    *,
    moves: Sequence[Code] | None = None,
    setup: dict[str, Any] | None = None,
    max_steps: int | None = None,
    comments: dict[int, str] | None = None,
) -> bytes:
    """Play a Tafl game into a .fief file at ``path``; returns the file's bytes.

    Random players unless ``moves`` gives a script; ``max_steps`` stops early
    (the record is then unfinished); ``comments`` maps step -> text.
    """
    setup = dict(setup or {})
    game = TaflGame(variant, {}, setup.get("position"), setup.get("to_move", 0))
    journal = Journal.create(path, _header(variant, seed, setup), game=game)
    match = Match(game, [RandomController(seed), RandomController(seed + 1)], SeededChance(seed), [journal])
    comments = comments or {}
    if 0 in comments:
        journal.comment(comments[0])
    script = list(moves) if moves is not None else None
    while max_steps is None or match.steps < max_steps:
        if script is not None:
            if not script:
                break
            match.apply(script.pop(0))
        elif match.step() is None:
            break
        if match.steps in comments:
            journal.comment(comments[match.steps])
    point = game.point()
    if isinstance(point, Over):
        journal.finish(point.result, game)
    journal.close()
    return path.read_bytes()


@pytest.fixture
def play(tmp_path: Path) -> Play:
    """``play(variant, seed, path=None, **kw) -> bytes``: :func:`play_into` ``path``, or a fresh file."""
    names = (tmp_path / f"game{i}.fief" for i in range(10**6))
    return lambda *args, path=None, **kw: play_into(path or next(names), *args, **kw)


@pytest.fixture(scope="session")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A few records for the fuzzers: short, long, unfinished with comments."""
    d = tmp_path_factory.mktemp("samples")
    return {
        "short": play_into(d / "short.fief", moves=SHORT_MOVES, setup=SHORT_SETUP, comments={2: "the king runs"}),
        "gild-9": play_into(d / "gild9.fief", "gild-9", 2),
        "unfinished": play_into(d / "trad.fief", "traditional", 3, max_steps=40, comments={0: "hello", 17: "wait"}),
    }


@pytest.fixture
def short_record(samples: dict[str, bytes]) -> bytes:
    """A finished four-step record (about 300 bytes), small enough to damage byte by byte."""
    return samples["short"]


def _every_bit_flip_noticed(data: bytes, games: GameLookup = core_games.info) -> None:
    """Flip each bit of ``data`` in turn: the reader must refuse it or verify must fail."""
    for pos in range(len(data)):
        for bit in range(8):
            damaged = bytearray(data)
            damaged[pos] ^= 1 << bit
            try:
                recording = read_record_file(bytes(damaged), games=games)
            except RecordError:
                continue
            assert not verify(recording, games=games).ok, f"a flip of bit {bit} at byte {pos} went unnoticed"


@pytest.fixture
def every_bit_flip_noticed() -> Callable[..., None]:
    """``every_bit_flip_noticed(data, games=...)``: exhaustive single-bit damage."""
    return _every_bit_flip_noticed
