"""The move generator's caches stay bounded however many positions they meet (issue 32), and give
the same moves after they age as before."""

from __future__ import annotations

import random

import pytest

from core.tafl import movegen
from core.tafl.movegen import MoveTables, ranks_for
from core.tafl.variants import variant


def _boards(size: int, count: int, seed: int = 1) -> list[bytes]:
    rng = random.Random(seed)
    return [bytes(rng.choice((0, 0, 0, 1, 2)) for _ in range(size * size)) for _ in range(count)]


def test_caches_never_hold_more_than_twice_their_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(movegen, "CACHE_LIMIT", 300)
    monkeypatch.setattr(movegen, "SHARED_LIMIT", 200)
    monkeypatch.setattr(movegen, "ROW_TEXT_LIMIT", 50)
    geo = variant("traditional").geometry
    fresh = MoveTables(geo)
    for raw in _boards(geo.size, 400):
        for side in (0, 1):
            ranks_for(raw, side, fresh)
        fresh.position(raw)
        lines = sum(len(c) + len(c.old) for c in fresh.cache[0])
        assert lines <= 2 * 300  # a pattern a line (both sides hold the same ones)
        assert sum(len(c) for c in fresh.cache[0]) == sum(len(c) for c in fresh.cache[1])
        assert sum(len(s) + len(s.old) for s in fresh.shared) <= 2 * 200
        assert len(fresh.row_text) + len(fresh.row_text.old) <= 2 * 50


def test_aged_caches_give_the_moves_a_fresh_table_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    geo = variant("traditional").geometry
    boards = _boards(geo.size, 150, seed=2)
    expected = [[ranks_for(raw, side, MoveTables(geo)) for side in (0, 1)] for raw in boards[:20]]
    monkeypatch.setattr(movegen, "CACHE_LIMIT", 40)
    monkeypatch.setattr(movegen, "SHARED_LIMIT", 30)
    small = MoveTables(geo)
    for _ in range(2):  # the second pass meets patterns in the old generation, or aged out
        for raw in boards:
            for side in (0, 1):
                ranks_for(raw, side, small)
        assert [[ranks_for(raw, side, small) for side in (0, 1)] for raw in boards[:20]] == expected
