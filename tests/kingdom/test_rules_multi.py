"""Multiplayer Take the Kingdom, rule by rule, from set positions (take-the-kingdom.txt and
docs/rulings/kingdom.md)."""

from __future__ import annotations

import pytest

from core.engine import Decision, Over
from core.kingdom.lines import score

from .support import decision, play, realm, rules, start_turn, table, texts


def attack_targets(g, card: str) -> list[tuple]:
    """The Castles and Lands an attack with ``card`` may be made on (after choosing it, before going)."""
    play(g, ("attack", card))
    d = decision(g)
    if d.kind == "commit":
        play(g, ("go",))
        d = decision(g)
    return sorted(o[1:] for o in d.options)


# -- lines of defence --------------------------------------------------------------------


def test_every_land_may_be_attacked_the_castle_only_when_no_land_is_left() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["soldiers-1", "soldiers-2", "cannon-1"])
    realm(g, 1, "castle-2", ["walls-1"], lands=[("land-1", ["hills-1"], None), ("land-2", [], None)])
    start_turn(g, 0)
    # An undefended Land may be attacked while another Land still has a Defence ("Note").
    assert attack_targets(g, "soldiers-1") == [(1, "land-1"), (1, "land-2")]


def test_an_attack_hits_the_topmost_defence_first() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["cannon-1"])
    realm(g, 1, "castle-2", lands=[("land-1", ["hills-1", "moat-1"], None)])
    start_turn(g, 0)
    ev = play(g, ("attack", "cannon-1"), ("at", 1, "land-1"), ("pass",))
    assert "4 damage destroys Player 2 (Maria)'s Moat" in texts(ev)[1]
    assert g.s.realms[1].slots[1].defences == ["hills-1"]


def test_castle_defences_then_the_castle_fall_last_and_the_kingdom_is_out() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["cannon-1", "cannon-2", "soldiers-1"])
    realm(g, 1, "castle-2", ["walls-1"], lands=[("land-1", [], None)])
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"), ("go",), ("at", 1, "land-1"), ("pass",))  # the Land falls
    assert attack_targets(g, "cannon-1") == [(1, "castle-2")]
    ev = play(g, ("at", 1, "castle-2"), ("pass",))
    assert "destroys Player 2 (Maria)'s Walls" in texts(ev)[-1] and g.s.realms[1].slots[0].defences == []
    ev = play(g, ("attack", "cannon-2"), ("at", 1, "castle-2"), ("pass",))
    assert g.s.realms[1].out
    assert isinstance(g.point(), Over) and g.result.winners == (0,)
    assert g.result.reason == "the last kingdom standing"


def test_limits_two_defences_one_trap_five_lands() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", ["hills-1", "moat-1"], castle_trap="trap-2",
          lands=[(f"land-{i}", [], None) for i in range(1, 5)],
          hand=["walls-1", "trap-1", "land-5", "land-6"])
    realm(g, 1, "castle-2", lands=[("land-7", [], None)])
    start_turn(g, 0)
    opts = decision(g).options
    assert ("place", "walls-1", "castle-1") not in opts  # two Defences already
    assert ("place", "trap-1", "castle-1") not in opts  # one Trap already
    assert ("place", "land-5", "new") in opts  # the fifth Land
    play(g, ("place", "land-5", "new"))
    assert ("place", "land-6", "new") not in decision(g).options  # no sixth


# -- damage --------------------------------------------------------------------------------


def test_a_weaker_attack_is_tucked_under_its_target_and_damage_adds_up() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["pikemen-1", "soldiers-1"])
    realm(g, 1, "castle-2", lands=[("land-1", ["archers-1"], None)])
    start_turn(g, 0)
    ev = play(g, ("attack", "pikemen-1"), ("go",), ("at", 1, "land-1"), ("pass",))  # KD-30: a hand, so asked
    slot = g.s.realms[1].slots[1]
    assert slot.tucked == {"archers-1": ["pikemen-1"]} and slot.damage == {"archers-1": 1}
    assert "tucked" in texts(ev)[-1]
    assert score(g.cards, g.s.realms[1], True) == 3 + 1 + 3 - 1
    ev = play(g, ("attack", "soldiers-1"), ("at", 1, "land-1"), ("pass",))
    assert any("2 damage destroys" in t for t in texts(ev)) and slot.defences == []
    assert "pikemen-1" in g.s.discard and "archers-1" in g.s.discard  # tucked cards go with it


def test_with_damage_not_adding_up_each_attack_stands_alone() -> None:
    g = table("anne", "simon", damage_adds_up=False)
    realm(g, 0, "castle-1", hand=["pikemen-1", "soldiers-1"])
    realm(g, 1, "castle-2", lands=[("land-1", ["archers-1"], None)])
    start_turn(g, 0)
    play(g, ("attack", "pikemen-1"), ("go",), ("at", 1, "land-1"), ("pass",))
    play(g, ("attack", "soldiers-1"), ("at", 1, "land-1"), ("pass",))
    slot = g.s.realms[1].slots[1]
    assert slot.defences == ["archers-1"] and slot.tucked["archers-1"] == ["pikemen-1", "soldiers-1"]


def test_an_equal_or_stronger_attack_destroys_one_card_with_no_change() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["trebuchet-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None), ("land-2", [], None)])
    start_turn(g, 0)
    play(g, ("attack", "trebuchet-1"), ("at", 1, "land-1"), ("pass",))
    assert [sl.card for sl in g.s.realms[1].slots] == ["castle-2", "land-2"]  # 3 points, one Land of 1


def test_cannon_spread_morale_is_an_eight_point_attack_across_kingdoms() -> None:
    g = table("anne", "simon", "egbert")
    realm(g, 0, "castle-1", hand=["cannon-1", "spread-1", "morale-1"])
    realm(g, 1, "castle-2", lands=[("land-1", ["battlements-1"], None), ("land-2", [], None)])
    realm(g, 2, "castle-3", lands=[("land-3", [], None)])
    start_turn(g, 0)
    play(g, ("attack", "cannon-1"), ("morale", "morale-1"), ("spread", "spread-1"))
    d = decision(g)
    assert d.kind == "target" and max(o[3] for o in d.options) == 8
    assert g.s.plays == 3  # counted when the attack is made
    ev = play(g, ("at", 1, "land-1", 5), ("at", 1, "land-2", 1), ("at", 2, "land-3", 2), ("pass",), ("pass",))
    assert [sl.card for sl in g.s.realms[1].slots] == ["castle-2", "land-1"]
    assert g.s.realms[1].slots[1].defences == []
    assert [sl.card for sl in g.s.realms[2].slots] == ["castle-3"]
    assert "Turn 2: Player 2 (Simon)" in texts(ev)  # all three plays used: the turn is over
    assert {"cannon-1", "spread-1", "morale-1"} <= set(g.s.discard)


def test_trebuchet_and_spread_remove_three_undefended_lands() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["trebuchet-1", "spread-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None), ("land-2", [], None), ("land-3", [], None)])
    start_turn(g, 0)
    play(g, ("attack", "trebuchet-1"), ("spread", "spread-1"), ("at", 1, "land-1", 1), ("at", 1, "land-2", 1),
         ("at", 1, "land-3", 1), ("pass",))
    assert [sl.card for sl in g.s.realms[1].slots] == ["castle-2"]


# -- traps ---------------------------------------------------------------------------------


def test_a_real_trap_turns_the_attack_back_and_its_owner_chooses_where() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", lands=[("land-1", ["moat-1"], None), ("land-2", [], None)], hand=["siege-tower-1"])
    realm(g, 1, "castle-2", lands=[("land-3", [], "trap-1")])
    start_turn(g, 0)
    ev = play(g, ("attack", "siege-tower-1"), ("at", 1, "land-3"), ("pass",))
    assert "real Trap" in texts(ev)[-1]
    d = decision(g)
    assert d.seat == 1 and d.kind == "target" and sorted(d.options) == [("at", 0, "land-1"), ("at", 0, "land-2")]
    play(g, ("at", 0, "land-1"))
    assert g.s.realms[0].slots[1].defences == []  # 3 destroys the Moat
    assert [sl.card for sl in g.s.realms[1].slots] == ["castle-2", "land-3"] and g.s.realms[1].slots[1].trap is None
    assert "trap-1" in g.s.discard


def test_a_decoy_trap_is_sprung_and_the_attack_goes_on() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["siege-tower-1"])
    realm(g, 1, "castle-2", lands=[("land-3", [], "trap-2")])
    start_turn(g, 0)
    ev = play(g, ("attack", "siege-tower-1"), ("at", 1, "land-3"), ("pass",))
    assert any("decoy" in t for t in texts(ev)) and [sl.card for sl in g.s.realms[1].slots] == ["castle-2"]


def test_egberts_traps_are_always_real() -> None:
    g = table("anne", "egbert")
    realm(g, 0, "castle-1", lands=[("land-1", [], None)], hand=["siege-tower-1"])
    realm(g, 1, "castle-2", lands=[("land-3", [], "trap-2")])  # a decoy, but Egbert's
    start_turn(g, 0)
    ev = play(g, ("attack", "siege-tower-1"), ("at", 1, "land-3"), ("pass",))
    assert "always real" in " ".join(texts(ev))
    assert [sl.card for sl in g.s.realms[0].slots] == ["castle-1"]  # the reversed 3 took Anne's only Land


def test_sabotage_and_earthquake_remove_a_trap_without_springing_it() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["sabotage-1", "earthquake-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], "trap-1"), ("land-2", ["walls-1"], "trap-3")])
    start_turn(g, 0)
    ev = play(g, ("sabotage", "sabotage-1", 1, "land-1"), ("pass",))
    assert "without springing" in texts(ev)[-1] and g.s.realms[1].slots[1].trap is None
    play(g, ("earthquake", "earthquake-1", 1, "land-2"), ("pass",))
    slot = g.s.realms[1].slots[2]
    assert slot.trap is None and slot.defences == []  # the Walls fall too (KD-16)


# -- out of turn -----------------------------------------------------------------------------


def test_deny_blocks_and_cannot_be_denied() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["soldiers-1", "deny-1", "walls-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], hand=["deny-2"])
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"), ("go",), ("at", 1, "land-1"))
    d = decision(g)
    assert d.seat == 1 and d.kind == "respond" and ("deny", "deny-2") in d.options
    ev = play(g, ("deny", "deny-2"))
    assert "blocks" in texts(ev)[0]
    d = decision(g)  # Anne is not asked to deny the Deny: her turn goes on
    assert d.seat == 0 and d.kind == "action"
    assert len(g.s.realms[1].slots) == 2 and {"soldiers-1", "deny-2"} <= set(g.s.discard)


def test_the_target_is_asked_even_with_no_answer_in_hand() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["soldiers-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], hand=["walls-1"])
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"), ("at", 1, "land-1"))
    d = decision(g)
    assert d.seat == 1 and d.options == (("pass",),)  # KD-11: the prompts tell nothing of the hand


def test_a_kingdom_with_nothing_to_answer_with_is_not_asked() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["soldiers-1", "walls-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)])  # no hand, no Mercy: everyone can see it
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"), ("go",), ("at", 1, "land-1"))
    assert decision(g).seat == 0


def test_gold_buys_the_card_and_passes_to_the_attacker() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["cannon-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], hand=["gold-1"])
    start_turn(g, 0)
    ev = play(g, ("attack", "cannon-1"), ("at", 1, "land-1"), ("gold", "gold-1"))
    assert "cannon-1" in g.s.realms[1].hand and "gold-1" in g.s.realms[0].hand
    assert g.s.gold_uses == 1 and len(g.s.realms[1].slots) == 2
    assert any("Gold goes to" in t for t in texts(ev))


def test_gold_is_discarded_on_its_third_use() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["cannon-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], hand=["gold-1"])
    start_turn(g, 0)
    g.s.gold_uses = 2
    ev = play(g, ("attack", "cannon-1"), ("at", 1, "land-1"), ("gold", "gold-1"))
    assert g.s.gold_uses == 3 and "gold-1" in g.s.discard and "gold-1" not in g.s.realms[0].hand
    assert "cannon-1" in g.s.realms[1].hand
    assert "kingdom notes.gold" in rules(ev)


def test_a_gold_may_be_blocked_by_a_deny_of_the_player_it_buys_from() -> None:
    g = table("anne", "simon", gold_counterable=True)  # KD-13 as in revision 2
    realm(g, 0, "castle-1", hand=["cannon-1", "deny-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], hand=["gold-1"])
    start_turn(g, 0)
    play(g, ("attack", "cannon-1"), ("go",), ("at", 1, "land-1"), ("gold", "gold-1"))
    d = decision(g)
    assert d.seat == 0 and d.kind == "respond" and ("deny", "deny-1") in d.options
    ev = play(g, ("deny", "deny-1"))
    assert "KD-13" in rules(ev) and len(g.s.realms[1].slots) == 1  # the Cannon went on
    assert {"gold-1", "deny-1"} <= set(g.s.discard)


def test_sabotage_answers_only_a_mechanical_attack() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["soldiers-1", "trebuchet-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None), ("land-2", [], None)], hand=["sabotage-1"])
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"), ("go",), ("at", 1, "land-1"))
    assert decision(g).options == (("pass",),)
    play(g, ("pass",), ("attack", "trebuchet-1"), ("at", 1, "land-2"))
    assert ("sabotage", "sabotage-1") in decision(g).options
    play(g, ("sabotage", "sabotage-1"))
    assert [sl.card for sl in g.s.realms[1].slots] == ["castle-2", "land-2"]


def test_mercy_beside_the_castle_blocks_like_a_deny() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["cannon-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], mercy=["mercy-2"])
    start_turn(g, 0)
    play(g, ("attack", "cannon-1"), ("at", 1, "land-1"), ("mercy", "mercy-2"))
    assert g.s.realms[1].mercy == [] and len(g.s.realms[1].slots) == 2


# -- actions -----------------------------------------------------------------------------------


def test_mutiny_removes_knights_behind_the_lines() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["mutiny-1"])
    realm(g, 1, "castle-2", ["knights-1", "walls-1"], lands=[("land-1", ["archers-1", "hills-1"], None)])
    start_turn(g, 0)
    opts = {o for o in decision(g).options if o[0] == "mutiny"}
    assert opts == {("mutiny", "mutiny-1", 1, "knights-1"), ("mutiny", "mutiny-1", 1, "archers-1")}
    ev = play(g, ("mutiny", "mutiny-1", 1, "knights-1"), ("pass",))
    assert g.s.realms[1].slots[0].defences == ["walls-1"] and "kingdom notes.mutiny" in rules(ev)


def test_disrepair_takes_a_topmost_construction_only() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["disrepair-1"])
    realm(g, 1, "castle-2", lands=[("land-1", ["walls-1", "archers-1"], None), ("land-2", ["hills-1"], None)])
    start_turn(g, 0)
    assert {o for o in decision(g).options if o[0] == "disrepair"} == {("disrepair", "disrepair-1", 1, "land-2")}


def test_fortune_gives_another_turn() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["fortune-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)])
    start_turn(g, 0, deck=["walls-1", "hills-1"] * 1)
    ev = play(g, ("fortune", "fortune-1"), ("done",))
    assert "Fortune: another turn" in " ".join(texts(ev)) and g.s.current == 0 and g.s.plays == 3


def test_freeze_stops_the_next_turn_unless_mercy_removes_it() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["freeze-1", "freeze-2", "walls-2", "hills-2"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], hand=["walls-1"])
    start_turn(g, 0)
    play(g, ("freeze", "freeze-1", 1), ("pass",), ("done",))
    d = decision(g)  # KD-30: Simon has a hand, so he is asked whether he holds a Mercy or not
    assert d.seat == 1 and d.options == (("accept",),)
    ev = play(g, ("accept",))
    assert "Player 2 (Simon) is frozen and plays nothing this turn" in texts(ev)
    # Simon, frozen, has no Mercy: his turn passes with no play; the Freeze is discarded
    assert g.s.current == 0 and g.s.realms[1].frozen is None and "walls-1" in g.s.realms[1].hand
    play(g, ("freeze", "freeze-2", 1), ("pass",))
    g.s.realms[1].mercy = ["mercy-2"]
    play(g, ("done",))
    d = decision(g)
    assert d.seat == 1 and ("unfreeze", "mercy-2") in d.options
    play(g, ("unfreeze", "mercy-2"))
    assert g.s.plays == 2 and ("place", "walls-1", "land-1") in decision(g).options


def test_mercy_as_a_land_counts_one_point() -> None:
    g = table("anne", "simon")
    r = realm(g, 0, "castle-1", mercy=["mercy-2"])
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    play(g, ("mercy", "mercy-2", "land"))
    assert [sl.card for sl in r.slots] == ["castle-1", "mercy-2"] and score(g.cards, r, True) == 4


# -- mercenaries -----------------------------------------------------------------------------


def test_mercenaries_attack_from_their_place_while_undamaged_and_move_as_a_play() -> None:
    g = table("anne", "simon")
    r = realm(g, 0, "castle-1", lands=[("land-1", ["mercenaries-3"], None), ("land-2", ["mercenaries-2"], None)])
    realm(g, 1, "castle-2", lands=[("land-3", ["walls-1"], None)])
    r.slots[2].damage["mercenaries-2"] = 1
    r.slots[2].tucked["mercenaries-2"] = ["pikemen-1"]
    start_turn(g, 0)
    opts = decision(g).options
    assert ("attack", "mercenaries-3") in opts and ("attack", "mercenaries-2") not in opts  # damaged
    play(g, ("move", "mercenaries-2", "castle-1"))
    assert r.slots[0].defences == ["mercenaries-2"] and r.slots[0].damage == {"mercenaries-2": 1}
    assert g.s.plays == 2
    play(g, ("attack", "mercenaries-3"), ("at", 1, "land-3"), ("pass",))
    assert r.slots[1].defences == [] and g.s.realms[1].slots[1].damage == {"walls-1": 3}


# -- penalties ---------------------------------------------------------------------------------


def test_a_drawn_penalty_takes_a_play_and_deny_cancels_it_at_another() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["deny-1", "walls-1", "hills-1", "moat-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0, deck=["disease-1"])
    d = decision(g)
    assert d.kind == "choose" and ("cancel", "deny-1") in d.options and g.s.plays == 2
    play(g, ("cancel", "deny-1"))
    assert g.s.plays == 1 and g.s.banned == []


def test_famine_blocks_out_of_turn_cards_for_the_round() -> None:
    g = table("anne", "simon", famine_own_turn=True)  # KD-17 as in revision 2: from the moment it strikes
    realm(g, 0, "castle-1", hand=["walls-1", "hills-1", "moat-1", "mercy-2"])
    realm(g, 1, "castle-2", hand=["soldiers-1", "walls-1"])
    start_turn(g, 0, deck=["famine-1"])
    play(g, ("accept",))
    assert g.s.realms[0].famine and g.s.plays == 2
    assert not any(o[0] == "mercy" for o in decision(g).options)  # no Mercy on her turn either
    play(g, ("done",))
    play(g, ("attack", "soldiers-1"), ("go",), ("at", 0, "castle-1"))
    assert decision(g).seat == 1  # Anne, under Famine, is not asked to answer
    play(g, ("done",))
    assert not g.s.realms[0].famine  # her turn again: the Famine is over


def test_disease_forbids_attacks_and_plague_defend_cards() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["walls-1", "soldiers-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0, deck=["disease-1"])
    play(g, ("accept",))  # KD-30: asked to cancel it, with nothing to cancel it with
    assert ("attack", "soldiers-1") not in decision(g).options
    assert ("place", "walls-1", "castle-1") in decision(g).options
    g2 = table("anne", "simon")
    realm(g2, 0, "castle-1", hand=["walls-1", "soldiers-1"])
    realm(g2, 1, "castle-2")
    start_turn(g2, 0, deck=["plague-1"])
    play(g2, ("accept",))
    assert ("attack", "soldiers-1") in decision(g2).options
    assert ("place", "walls-1", "castle-1") not in decision(g2).options


# -- nobles --------------------------------------------------------------------------------------


def test_charles_cannon_counts_five_and_maria_pikemen_two() -> None:
    g = table("charles", "maria")
    assert g.attack_value(0, "cannon-1") == 5 and g.attack_value(1, "cannon-1") == 4
    assert g.attack_value(1, "pikemen-1") == 2 and g.attack_value(0, "pikemen-1") == 1


def test_simon_tops_up_to_six_while_he_holds_land() -> None:
    g = table("simon", "anne")
    realm(g, 0, "castle-1", lands=[("land-1", [], None)])
    realm(g, 1, "castle-2")
    start_turn(g, 0, deck=[f"walls-{i}" for i in range(1, 5)] + ["hills-2", "hills-3", "hills-4"])
    assert len(g.s.realms[0].hand) == 6
    g = table("simon", "anne")
    realm(g, 0, "castle-1")
    realm(g, 1, "castle-2")
    start_turn(g, 0, deck=[f"walls-{i}" for i in range(1, 5)] + ["hills-2", "hills-3", "hills-4"])
    assert len(g.s.realms[0].hand) == 5


def test_baligant_plays_a_penalty_that_strikes_the_next_turn() -> None:
    g = table("baligant", "anne")
    realm(g, 0, "castle-1", hand=["plague-1"])
    realm(g, 1, "castle-2", hand=["walls-1", "soldiers-1"])
    start_turn(g, 0)
    assert ("penalty", "plague-1", 1) in decision(g).options  # drawn or held, it did not strike him
    ev = play(g, ("penalty", "plague-1", 1), ("pass",))  # Baligant has nothing more: Anne's turn
    assert any("will strike Player 2 (Anne) on its next turn" in t for t in texts(ev))
    assert any("Plague strikes Player 2 (Anne) (played on it by Baligant)" in t for t in texts(ev))
    assert g.s.current == 1 and g.s.plays == 2
    assert decision(g).options == (("accept",),)  # KD-30: asked to cancel it, with a hand of no Deny or Mercy
    play(g, ("accept",))
    assert g.s.plays == 2 and "defend" in g.s.banned
    assert decision(g).options == (("attack", "soldiers-1"), ("done",))


def test_anne_starts_with_dawn_raid_charles_with_gold_egbert_with_a_village() -> None:
    from core.games import info

    g = info("kingdom").make("multi-3", {"nobles": "choose"})
    for noble in ("anne-1", "charles-1", "egbert-1"):
        play(g, ("noble", noble))
    while decision(g).prompt.startswith("build"):
        play(g, decision(g).options[0])
    d = decision(g)
    assert d.seat == 2 and d.prompt.startswith("Egbert's Village")
    play(g, d.options[0])
    assert "dawn-raid-1" in g.s.realms[0].hand and "gold-1" in g.s.realms[1].hand
    assert any("village" in c for sl in g.s.realms[2].slots for c in sl.defences) or \
        any(c.startswith("village") for c in g.s.realms[2].hand)


# -- setup and the end ---------------------------------------------------------------------------


def test_the_draft_builds_each_kingdom_to_twelve_and_the_highest_noble_plays_first() -> None:
    from core.games import info

    g = info("kingdom").make("multi-4", {"nobles": "choose"})
    for noble in ("simon-1", "maria-1", "charles-1", "baligant-1"):
        play(g, ("noble", noble))
    while isinstance(g.point(), Decision) and decision(g).prompt.startswith("build"):
        d = decision(g)
        assert all(g.cards[o[1]].key != "trap" and g.cards[o[1]].key != "village" for o in d.options)
        play(g, d.options[-1])
    while not isinstance(g.point(), Decision):
        p = g.point()
        g.resolve(tuple(range(p.spec[0])))
    for k in range(4):
        assert score(g.cards, g.s.realms[k], True) == 12
        assert len(g.s.realms[k].mercy) == 1
    assert decision(g).seat == 3  # Baligant, 5
    assert len(g.s.deck) + sum(len(r.hand) for r in g.s.realms) + len(g.s.discard) + len(g.s.in_play) \
        + sum(len([c for sl in r.slots for c in sl.cards()]) for r in g.s.realms) + len(g.s.box) + 8 == 108


def test_when_no_one_can_play_the_strongest_wins_and_a_tie_goes_to_the_higher_noble() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", lands=[("land-1", [], None)])
    realm(g, 1, "castle-2", lands=[("land-2", [], None)])
    start_turn(g, 0)
    assert isinstance(g.point(), Over)
    assert g.result.winners == (0,) and g.result.rule == "KD-12" and g.result.scores == (4, 4)


def test_survival_restarts_the_first_fallen_kingdom_with_a_village_land_and_two_mercenaries() -> None:
    g = table("anne", "maria", "simon", survival=True)
    g.s.survival = ["village-2", "land-10", "mercenaries-1", "mercenaries-2"]
    realm(g, 0, "castle-1", hand=["cannon-1", "cannon-2"])
    realm(g, 1, "castle-2")
    realm(g, 2, "castle-3", lands=[("land-1", [], None)])
    start_turn(g, 0, deck=["walls-1"] * 0)
    ev = play(g, ("attack", "cannon-1"), ("go",), ("at", 1, "castle-2"))
    r = g.s.realms[1]
    assert r.survived and not r.out and [sl.card for sl in r.slots] == ["village-2", "land-10"]
    assert sorted(r.hand) == ["mercenaries-1", "mercenaries-2"] and "kingdom survival" in rules(ev)
    from core.kingdom.game import SURVIVAL_HAND

    assert g.hand_size(1) == SURVIVAL_HAND == 4
    play(g, ("attack", "cannon-2"), ("at", 1, "land-10"), ("pass",))  # one set: a second fall is for good
    assert [sl.card for sl in r.slots] == ["village-2"]


@pytest.mark.parametrize("text", ["attack with cannon", "Cannon", "done"])
def test_options_are_typed_in_words(text: str) -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["cannon-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    code = g.parse(text)
    assert code in decision(g).options


def test_a_typed_option_that_is_not_there_says_so_in_one_line() -> None:
    from core.engine import RulesError

    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["cannon-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    with pytest.raises(RulesError) as err:
        g.parse("trebuchet")
    assert "\n" not in str(err.value)
