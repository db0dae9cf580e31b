"""Whether the kingdom-building draft can still end with every kingdom at exactly 12 points
(take-the-kingdom.txt, "Kingdom building phase": "you will add a further 9 points"; KD-4).

A kingdom still drafting is reckoned as ``(need, lands, slots)``: the points it has to go,
how many more Lands it may take (five at most), and its free Defence slots (two on the
Castle and on each Land), less one kept for Egbert's Village (KD-5). A Land is worth its
value and brings two slots; a Defence takes one. Where on the kingdom a card goes does not
matter here: any Defence fits any free slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from core.kingdom.state import MAX_DEFENCES

Kingdom = tuple[int, int, int]  # (points to go, Lands it may still take, free Defence slots)
Pool = tuple[tuple[bool, int, int], ...]  # (is a Land, value, how many): Defences first, the biggest first


def pool_of(counts: dict[tuple[bool, int], int]) -> Pool:
    """A pool, ``(is a Land, value) -> how many``, in the order the search takes it: the biggest
    Defences first, the way a kingdom usually fills up, so that a pool with room to spare is
    answered on the first path the search takes."""
    return tuple((land, value, n) for (land, value), n in sorted(counts.items(), key=lambda kv: (kv[0][0], -kv[0][1])))


def completable(kingdoms: tuple[Kingdom, ...], pool: Pool) -> bool:
    """Whether ``pool`` (as :func:`pool_of` orders it) holds, for every kingdom at once, cards that
    fit and make its points exactly (a kingdom with no points to go needs only its kept slot)."""
    if any(need <= 0 and slots < 0 for need, _, slots in kingdoms):
        return False
    return _completable(tuple(sorted((k for k in kingdoms if k[0] > 0), reverse=True)), pool)


@lru_cache(maxsize=1 << 14)
def _completable(kingdoms: tuple[Kingdom, ...], pool: Pool) -> bool:
    if not kingdoms:
        return True
    first, rest = kingdoms[0], kingdoms[1:]
    return any(_completable(rest, left) for left in _fillings(first, pool))


def _fillings(kingdom: Kingdom, pool: Pool) -> Iterator[Pool]:
    """The pools left by each way of making ``kingdom``'s points exactly from ``pool``."""
    need, lands, slots = kingdom

    def walk(i: int, need: int, lands: int, defences: int, taken: list[int]) -> Iterator[Pool]:
        if need == 0:
            if defences <= slots:
                yield tuple((land, v, n - t) for (land, v, n), t in zip(pool, taken + [0] * (len(pool) - i)))
            return
        if i == len(pool):
            return
        land, value, have = pool[i]
        most = min(have, need // value) if value > 0 else 0
        if land:
            most = min(most, lands)
        for t in range(most, -1, -1):
            yield from walk(i + 1, need - t * value, lands - t if land else lands,
                            defences - (t * MAX_DEFENCES if land else -t), taken + [t])

    yield from walk(0, need, lands, 0, [])
