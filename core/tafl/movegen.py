"""Fast move generation for :class:`core.tafl.rules.TaflGame`, one line of the board at a time.

A rook move stays on its row or column, and the moves along a line depend only
on what stands on that line. So the board's rows and columns are read as byte
strings (slices of ``bytes(board)``, made in C) and each line's moves are looked
up by its contents in a cache filled as patterns first occur. The moves are then
put in the plain scan's order (squares ascending, then north, south, east, west,
each ray outward) by a precomputed rank: the order callers and records rely on.
"""

from __future__ import annotations

from functools import cache

from core.tafl.board import ATTACKER, DEFENDER, KING, Geometry


Move = tuple[int, int]


def can_stop(geo: Geometry, piece: int, f: int, t: int) -> bool:
    """Whether ``piece`` moving from ``f`` may end on ``t`` (TF-2, TF-7, gild BASIC MOVES)."""
    if t == geo.centre or t in geo.corners:
        return piece == KING  # TF-2
    camp = geo.camp_of[t]
    if camp:
        return piece == ATTACKER and geo.camp_of[f] == camp  # only an attacker still inside that camp
    return True


CACHE_LIMIT = 400_000  # line patterns kept per side before the cache starts again


class MoveTables:
    """The lines of one board geometry, each move's rank in scan order, and the line cache."""

    def __init__(self, geo: Geometry) -> None:
        size, n = geo.size, geo.size * geo.size
        self.geo = geo
        # (start, stop, step) of each row, then each column, as slices of the board.
        self.slices = tuple((r * size, (r + 1) * size, 1) for r in range(size)) + \
            tuple((c, n, size) for c in range(size))
        self.lines = tuple(tuple(range(a, b, step)) for a, b, step in self.slices)
        # Scan order: by square, then direction (geo.rays order), then distance.
        self.rank = {(f, t): (f * 4 + d) * size + k
                     for f in range(n) for d, ray in enumerate(geo.rays[f]) for k, t in enumerate(ray)}
        self.codes = {(f, t): (geo.names[f], geo.names[t]) for f, t in self.rank}
        self.index = {name: sq for sq, name in enumerate(geo.names)}
        # stops[piece][f][t]: whether that piece, leaving f, may end on t.
        self.stops = {piece: tuple(tuple(can_stop(geo, piece, f, t) for t in range(n)) for f in range(n))
                      for piece in (ATTACKER, DEFENDER, KING)}
        self.cache: tuple[dict[tuple[int, bytes], tuple[Move, ...]], ...] = ({}, {})

    def line_moves(self, line: int, pattern: bytes, side: int) -> tuple[Move, ...]:
        """The moves of ``side`` along one line whose squares hold ``pattern``."""
        squares, stops, out = self.lines[line], self.stops, []
        last = len(pattern)
        for j, piece in enumerate(pattern):
            if not piece or (piece == ATTACKER) != (side == 0):
                continue
            f = squares[j]
            ok = stops[piece][f]
            k = j + 1
            while k < last and not pattern[k]:
                if ok[squares[k]]:
                    out.append((f, squares[k]))
                k += 1
            k = j - 1
            while k >= 0 and not pattern[k]:
                if ok[squares[k]]:
                    out.append((f, squares[k]))
                k -= 1
        return tuple(out)


@cache
def tables(variant: str) -> MoveTables:
    from core.tafl.variants import variant as get_variant  # local: variants imports board only

    return MoveTables(get_variant(variant).geometry)


def moves_for(board: list[int], side: int, mt: MoveTables, first_only: bool = False) -> list[Move]:
    """Every legal move of ``side`` (0 attackers, 1 defenders) on ``board``, in scan order."""
    raw = bytes(board)
    cache = mt.cache[side]
    out: list[Move] = []
    for i, (a, b, step) in enumerate(mt.slices):
        key = (i, raw[a:b:step])
        found = cache.get(key)
        if found is None:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            found = cache[key] = mt.line_moves(i, key[1], side)
        out.extend(found)
    out.sort(key=mt.rank.__getitem__)
    return out[:1] if first_only else out
