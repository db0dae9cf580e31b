"""view(seat): what a kingdom may see (DESIGN.md, hidden information)."""

from __future__ import annotations

from core.chance import SeededChance
from core.engine import Chance
from core.taifa.game import TaifaGame


def dealt(bots: list[str]) -> TaifaGame:
    g = TaifaGame("standard", bots=bots)
    chance = SeededChance(5)
    while isinstance(p := g.point(), Chance):
        g.resolve(p.validate(chance.outcome(p)))
    return g


def test_a_player_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    g = dealt(["valencia", "seville", "badajoz", "leon"])
    for seat in (0, 1):
        v = g.view(seat)
        for k, row in enumerate(v["kingdoms"]):
            assert row["hand_count"] == len(g.s.hands[k]) == 8
            assert row["hand"] == (tuple(sorted(g.s.hands[k])) if k == seat else None)
    spectator = g.view(None)
    assert all(row["hand"] is None for row in spectator["kingdoms"])


def test_nobody_sees_a_bots_pile_or_the_draw_order() -> None:
    g = dealt(["valencia", "seville", "badajoz", "leon"])
    text = repr(g.view(0))
    for bot in (2, 3, 4, 5):
        assert all(cid not in text for cid in g.s.hands[bot])  # a bot's pile is face down (9.1)
    assert g.view(0)["draw"] == {d: len(p) for d, p in g.s.draw.items()}
    assert all(cid not in text for p in g.s.draw.values() for cid in p)


def test_a_bots_deployed_cards_are_public() -> None:
    g = dealt([])
    g.s.army[1] = [g.s.draw["christian"].pop()]
    g.s.bots = (False, True, False, False, False, False)
    assert g.view(0)["kingdoms"][1]["army"] == tuple(g.s.army[1])
