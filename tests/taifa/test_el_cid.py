"""Taifa 10: the El Cid solitaire scenario: deployment, hands, the held Truce, winning."""

from __future__ import annotations

import pytest

from core.engine import Chance, RulesError
from core.taifa.game import TaifaGame
from core.taifa.state import OUT_OF_PLAY
from support import (
    EL_CID, area, assert_clone_exact, assert_one_place, begin, chance, decision, give, k, new_game, of_kind, over,
    play, set_owner, table,
)


def first_truce(g: TaifaGame) -> None:
    """Resolve the first turn's shuffles: El Cid (a player) is then asked for his Truce."""
    while isinstance(g.point(), Chance):
        g.resolve(tuple(range(g.point().spec[0])))


# --- 10.1 deployment and hands --------------------------------------------------------

def test_10_1_kingdoms_order_and_the_area_east_of_the_line() -> None:
    g = new_game("el-cid", players=["el_cid"])
    assert g.s.kingdoms == EL_CID
    assert g.s.bots == (True, True, True, False)
    east = g.m.east_ids()
    assert all((g.s.owner[a] == OUT_OF_PLAY) == (a not in east) for a in range(1, 59))
    assert g.s.capitals[k(g, "almoravids")] == area(g, "Málaga")  # 10.2
    for key in EL_CID:
        assert sorted(g.s.areas_of(k(g, key))) == sorted(g.m.el_cid.areas_of(key))


def test_10_1_hands_of_12_5_5_and_7() -> None:
    g = new_game("el-cid", players=["el_cid"])
    first_truce(g)
    assert [len(h) for h in g.s.hands] == [12, 5, 5, 7]
    assert decision(g, "el_cid").prompt.startswith("Truce")


def test_10_1_hand_sizes_hold_on_later_turns_with_the_bonus() -> None:
    g = table("el-cid", players=["el_cid"])
    g.s.bonus[k(g, "castile")] = 1
    g.s.bonus[k(g, "el_cid")] = -2
    events = begin(g, ("turn_start",))
    due = {e.data[0]: e.data[1] for e in of_kind(events, "draw") if " due " in e.text}
    assert due == {0: 12, 1: 6, 2: 5, 3: 5}


@pytest.mark.parametrize("n", [12, 14, 16])
def test_10_3_tip_the_almoravid_hand_can_be_raised(n: int) -> None:
    g = new_game("el-cid", players=["el_cid"], almoravid_hand=n)
    first_truce(g)
    assert len(g.s.hands[k(g, "almoravids")]) == n
    assert g.canonical()["options"]["almoravid_hand"] == n


@pytest.mark.parametrize("variant, value, message", [
    ("el-cid", 11, "almoravid_hand takes a whole number 12..16, not 11"),
    ("el-cid", "many", "whole number"),
    ("standard", 14, "El Cid option"),
])
def test_10_3_tip_bad_almoravid_hands_are_refused(variant: str, value, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        TaifaGame(variant, {"almoravid_hand": value})


# --- 10.2 the Truce --------------------------------------------------------------------

def test_10_2_el_cid_holds_the_truce_outside_his_hand_and_the_deck() -> None:
    g = new_game("el-cid", players=["el_cid"])
    truce = g.decks.christian.by_name("Truce")[0].id
    first_truce(g)
    assert g.s.held == [truce]
    assert truce not in g.s.hands[k(g, "el_cid")] and truce not in g.s.draw["christian"]
    assert len(g.s.hands[k(g, "el_cid")]) == 7  # it does not count as a card in his hand
    assert_one_place(g)


def test_10_2_the_truce_is_chosen_each_turn_and_binds_attacks_and_incursions() -> None:
    g = new_game("el-cid", players=["el_cid"])
    first_truce(g)
    assert decision(g, "el_cid").options == (("truce", "castile"), ("truce", "catalans"))
    events = play(g, ("truce", "castile"))
    cid, cas = k(g, "el_cid"), k(g, "castile")
    assert g.s.truces == [(cid, cas, ("attack", "incursion"))]
    assert of_kind(events, "truce")[0].rule == "taifa 10.2"
    # next turn it is chosen again
    g2 = table("el-cid", players=["el_cid"])
    g2.s.truces = []
    begin(g2, ("turn_start",))
    assert decision(g2, "el_cid").options == (("truce", "castile"), ("truce", "catalans"))
    play(g2, ("truce", "catalans"))
    assert g2.s.truces == [(cid, k(g2, "catalans"), ("attack", "incursion"))]


def truce_on_castile(players=("el_cid", "castile"), **options) -> TaifaGame:
    g = table("el-cid", players=players, **options)
    g.s.truces = [(k(g, "el_cid"), k(g, "castile"), ("attack", "incursion"))]
    return g


def test_10_2_the_chosen_kingdom_may_not_attack_or_raid_el_cid_but_may_play_events() -> None:
    g = truce_on_castile()
    give(g, "castile", "C08", "C35", "C48")  # a Mesnada, Razzia, Cabalgada (an incursion event)
    begin(g, current="castile")
    opts = decision(g, "castile").options
    el_cid_areas = set(g.s.areas_of(k(g, "el_cid")))
    assert el_cid_areas & {a for b in g.s.areas_of(k(g, "castile")) for a in g.m.area(b).borders}
    assert not [c for c in opts if c[0] == "attack" and c[1] in el_cid_areas]
    assert ("incursion", "el_cid") not in opts
    play(g, ("event", "C35"))  # Razzia: still allowed against him (10.2)
    assert decision(g).options == (("target", "el_cid"), ("target", "almoravids"))  # clockwise from Castile
    g2 = truce_on_castile(truce_bars_incursion_events=True)  # revision 1 (TA-15)
    give(g2, "castile", "C48")
    begin(g2, current="castile")
    events = play(g2, ("event", "C48"))  # Cabalgada is an incursion: only the Almoravids are left
    assert of_kind(events, "incursion")[0].data == (k(g2, "castile"), k(g2, "almoravids"))


def test_10_2_the_other_christian_kingdom_may_still_attack_el_cid() -> None:
    g = truce_on_castile(players=("el_cid", "catalans"))
    give(g, "catalans", "C08")
    begin(g, current="catalans")
    opts = decision(g, "catalans").options
    assert ("incursion", "el_cid") in opts
    assert [c for c in opts if c[0] == "attack" and g.s.owner[c[1]] == k(g, "el_cid")]


def test_10_2_a_castilian_bot_under_truce_raids_elsewhere() -> None:
    g = truce_on_castile(players=("el_cid",))
    give(g, "castile", "C43")  # Offensive, no army: an incursion
    give(g, "el_cid", "C16")
    give(g, "almoravids", "M11")
    events = begin(g, current="castile")
    assert of_kind(events, "incursion")[0].data == (k(g, "castile"), k(g, "almoravids"))  # no die: one left


@pytest.mark.parametrize("die, chosen", [(2, "catalans"), (5, "castile")])
def test_10_2_a_bot_el_cid_chooses_his_truce_by_the_kingdom_die(die: int, chosen: str) -> None:
    g = new_game("el-cid")  # 0 players
    g.resolve(tuple(range(59)))  # the Christian deck without the Truce
    g.resolve(tuple(range(60)))
    assert chance(g).spec == (1, 6) and "TA-29" in chance(g).label
    events = play(g, (die,))
    assert g.s.truces[0][1] == k(g, chosen)  # from El Cid: Castile clockwise, Catalans counter-clockwise
    assert of_kind(events, "choice")[0].rule == "taifa 9.5"


# --- 10.3 how to win ---------------------------------------------------------------------

def end_of_turn_3(g: TaifaGame):
    g.s.turn = 3
    begin(g, current="almoravids")
    return over(g).result


def test_10_3_el_cid_wins_with_more_areas_than_the_almoravids_and_them_below_10() -> None:
    g = table("el-cid")
    set_owner(g, "el_cid", "Xàtiva", "Denia", "Mallorca", "Zaragoza", "Lleida")  # 9 to the Almoravids' 6
    result = end_of_turn_3(g)
    assert result.winners == (k(g, "el_cid"),) and result.rule == "taifa 10.3"


def test_10_3_el_cid_wins_even_if_castile_holds_more() -> None:
    g = table("el-cid")
    set_owner(g, "el_cid", "Xàtiva", "Denia", "Mallorca")  # 7 to 6
    set_owner(g, "castile", "Navarra", "Tudela")  # 10
    result = end_of_turn_3(g)
    assert result.winners == (k(g, "el_cid"),)
    assert result.scores[k(g, "castile")] > result.scores[k(g, "el_cid")]


def test_10_3_otherwise_the_almoravids_win() -> None:
    g = table("el-cid")  # 4 to 8
    result = end_of_turn_3(g)
    assert result.winners == (k(g, "almoravids"),) and result.rule == "TA-28"


def test_10_3_ten_almoravid_areas_beat_el_cid_even_with_more() -> None:
    g = table("el-cid")
    set_owner(g, "almoravids", "Cuenca", "Toledo")  # 10
    set_owner(g, "el_cid", "Navarra", "Jaca", "Tudela", "Huesca", "Zaragoza", "Lleida", "Mallorca")  # 11
    cid, alm = k(g, "el_cid"), k(g, "almoravids")
    assert g.s.castles(alm) == 10 and g.s.castles(cid) == 11
    result = end_of_turn_3(g)
    assert result.winners == (alm,) and result.rule == "TA-28"


def test_10_3_equal_areas_is_not_enough() -> None:
    g = table("el-cid")
    set_owner(g, "el_cid", "Xàtiva", "Denia")  # 6 to 6
    result = end_of_turn_3(g)
    assert result.winners == (k(g, "almoravids"),)


def test_10_3_sudden_victory_at_13_castles() -> None:
    g = table("el-cid", players=["el_cid"])
    names = ["Mallorca", "Zaragoza", "Lleida", "Huesca", "Tudela", "Jaca", "Navarra", "Tarragona"]
    set_owner(g, "el_cid", *names)  # 4 + 8 = 12
    give(g, "el_cid", "C03", "C04")
    begin(g, current="el_cid")
    assert g.s.castles(k(g, "el_cid")) == 12
    play(g, ("attack", area(g, "Xàtiva")), ("add", "C03"), ("add", "C04"), (6,) * 8, (1,) * 3)
    result = over(g).result
    assert result.winners == (k(g, "el_cid"),) and result.rule == "taifa 10.3"
    assert_clone_exact(g)
