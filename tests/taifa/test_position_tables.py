"""What follows from the owners alone (Table._front, neighbours, leaders) is worked out once per
position and shared by every game on the map: an owner changed in place, in one game or
another, is read as it is now, never as a game before it left it."""

from __future__ import annotations

from core.taifa.state import INDEPENDENT, TaifaState
from core.taifa.table import Table

from tests.taifa.support import new_game


def fresh(t: Table, s: TaifaState) -> tuple[list[list[int]], list[list[int]], frozenset[int]]:
    """attackable, neighbours and the leaders as the rules say, worked out from nothing."""
    owner, borders = s.owner, t._borders
    n = len(s.kingdoms)
    attack, near = [], []
    for k in range(n):
        own = [a for a, o in enumerate(owner) if o == k and a]
        attack.append(sorted({b for a in own for b in borders[a] if owner[b] != k and owner[b] >= INDEPENDENT})
                      if own else [s.capitals[k]])
        near.append(sorted({owner[b] for a in own for b in borders[a] if owner[b] >= 0 and owner[b] != k}))
    castles = [owner.count(k) for k in range(n)]
    return attack, near, frozenset(k for k in range(n) if castles[k] == max(castles))


def told(t: Table) -> tuple[list[list[int]], list[list[int]], frozenset[int]]:
    n = len(t.s.kingdoms)
    return [t.attackable(k) for k in range(n)], [t.neighbours(k) for k in range(n)], t.leaders()


def test_owners_changed_in_place_are_read_as_they_are() -> None:
    a, b = new_game(), new_game()
    assert told(a) == fresh(a, a.s) == told(b)
    castile = a.s.areas_of(0)
    for area in castile[:-1]:  # Castile down to one area, then none: its capital alone
        a.s.owner[area] = 1
        assert told(a) == fresh(a, a.s)
        assert told(b) == fresh(b, b.s)  # the other game, on the same map, as it was
    a.s.owner[castile[-1]] = INDEPENDENT
    assert told(a) == fresh(a, a.s) and a.attackable(0) == [a.s.capitals[0]]
    for area in castile:  # back as it began: the first answers again
        a.s.owner[area] = 0
    assert told(a) == told(b) == fresh(b, b.s)


def test_el_cid_on_the_same_map() -> None:
    g, s = new_game("el-cid"), new_game()
    assert told(g) == fresh(g, g.s)
    assert told(s) == fresh(s, s.s)
