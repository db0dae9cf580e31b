"""Fast move generation for :class:`core.tafl.rules.TaflGame` from precomputed rays.

The board (a list of piece codes) is read as one big int with a byte per square
(``int.from_bytes(bytes(board), "little")``): the first piece on a ray is then the
lowest or highest set bit of that int masked by the ray, found in C. For each
piece kind, square, direction and number of empty squares before the blocker,
the moves are a prebuilt tuple, so a ray costs a few int operations and one
``extend``. The order is the plain scan's: squares ascending, then north, south,
east, west, each ray outward.
"""

from __future__ import annotations

from functools import cache

from core.tafl.board import ATTACKER, DEFENDER, KING, Geometry

# Per direction (north, south, east, west): whether squares grow outward along it.
_GROWS = (True, False, True, False)
# bytes.translate tables marking the squares of each side's pieces with 1.
_SIDE_TABLES = (bytes(1 if i == ATTACKER else 0 for i in range(256)),
                bytes(1 if i in (DEFENDER, KING) else 0 for i in range(256)))

Move = tuple[int, int]


def can_stop(geo: Geometry, piece: int, f: int, t: int) -> bool:
    """Whether ``piece`` moving from ``f`` may end on ``t`` (TF-2, TF-7, gild BASIC MOVES)."""
    if t == geo.centre or t in geo.corners:
        return piece == KING  # TF-2
    camp = geo.camp_of[t]
    if camp:
        return piece == ATTACKER and geo.camp_of[f] == camp  # only an attacker still inside that camp
    return True


class MoveTables:
    """Ray masks and the prebuilt move tuples of one board geometry."""

    def __init__(self, geo: Geometry) -> None:
        n = geo.size * geo.size
        # Per square, per direction: (byte mask of the ray, grows, step, ray length).
        self.rays = tuple(
            tuple((sum(0xFF << (8 * t) for t in ray), _GROWS[d], abs(ray[0] - f) if ray else 1, len(ray))
                  for d, ray in enumerate(geo.rays[f]))
            for f in range(n)
        )
        # moves[piece][f][d][k]: the moves of ``piece`` on ``f`` along d when k squares are free.
        self.moves: dict[int, tuple[tuple[tuple[tuple[Move, ...], ...], ...], ...]] = {
            piece: tuple(
                tuple(
                    tuple(tuple((f, t) for t in ray[:k] if can_stop(geo, piece, f, t)) for k in range(len(ray) + 1))
                    for ray in geo.rays[f]
                )
                for f in range(n)
            )
            for piece in (ATTACKER, DEFENDER, KING)
        }
        self.codes = {(f, t): (geo.names[f], geo.names[t]) for f in range(n) for t in range(n)
                      if f != t and (f // geo.size == t // geo.size or f % geo.size == t % geo.size)}


@cache
def tables(variant: str) -> MoveTables:
    from core.tafl.variants import variant as get_variant  # local: variants imports board only

    return MoveTables(get_variant(variant).geometry)


def moves_for(board: list[int], side: int, mt: MoveTables, first_only: bool = False) -> list[Move]:
    """Every legal move of ``side`` (0 attackers, 1 defenders) on ``board``, in scan order."""
    raw = bytes(board)
    occ = int.from_bytes(raw, "little")
    mine = raw.translate(_SIDE_TABLES[side])
    rays, by_piece = mt.rays, mt.moves
    out: list[Move] = []
    f = mine.find(1)
    while f >= 0:
        prebuilt = by_piece[raw[f]][f]
        for d, (mask, grows, step, length) in enumerate(rays[f]):
            x = occ & mask
            if not x:
                free = length
            elif grows:
                free = (((x & -x).bit_length() - 1 >> 3) - f) // step - 1
            else:
                free = (f - (x.bit_length() - 1 >> 3)) // step - 1
            if free:
                found = prebuilt[d][free]
                if found:
                    if first_only:
                        return [found[0]]
                    out.extend(found)
        f = mine.find(1, f + 1)
    return out
