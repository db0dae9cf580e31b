"""Why a kind of play, or a card held, is missing from a kingdom's options on its turn
(core/kingdom/prospects.py): no Attack or Defend card, Disease and Plague (KD-17), no room,
Deny, Gold, Morale and Spread only as answers or with an attack (KD-18), Famine (KD-17), an
Action with nothing to act on; in solo only the round's card (KD-20)."""

from __future__ import annotations

from core.kingdom.plays import play_options
from core.kingdom.prospects import unavailable
from tests.kingdom.support import realm, start_turn, table


def verbs(g, k: int = 0, solo_card: str | None = None) -> set[str]:
    return {code[0] for code in play_options(g, k, solo_card)}


def test_an_attack_without_defend_cards_and_the_cards_played_only_as_answers_or_with_an_attack() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["cannon-1", "deny-1", "morale-1", "gold-1"])
    realm(g, 1, "castle-2", lands=[("land-2", [], None)])
    start_turn(g, 0)
    assert verbs(g) == {"attack"}
    assert unavailable(g, 0) == ["no Defend cards: nothing to place",  # then the cards held, as the hand is sorted
                                 "Deny: played only out of turn, against a card played on you (KD-18)",
                                 "Gold: played only out of turn, against a card played on you (KD-18)",
                                 "Morale: played only with an attack (KD-18)"]


def test_no_attack_card_and_no_room_for_a_defence() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", castle_defences=["walls-1", "moat-1"], hand=["hills-1"])  # the Castle's two are there
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    assert not verbs(g) & {"attack", "place"}
    assert unavailable(g, 0) == ["no Attack cards: no attack",
                                 "no room in your kingdom for your Defend cards: nothing to place"]


def test_disease_forbids_attacks_and_plague_defences_this_turn() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["soldiers-1", "walls-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    assert unavailable(g, 0) == []
    g.s.banned = ["attack", "defend"]  # as Disease and Plague leave the turn (KD-17)
    assert not verbs(g) & {"attack", "place"}
    assert unavailable(g, 0) == ["Disease: no attack this turn (KD-17)",
                                 "Plague: no Defend card placed or moved this turn (KD-17)"]


def test_famine_and_an_action_with_nothing_to_act_on() -> None:
    g = table("anne", "maria", famine_own_turn=True)
    realm(g, 0, "castle-1", hand=["soldiers-1", "mercy-1", "mutiny-1", "deny-1", "deny-2"])
    realm(g, 1, "castle-2", castle_defences=["walls-1"])  # no Knights or Archers for Mutiny
    start_turn(g, 0)
    g.s.realms[0].famine = True  # Famine struck on its own turn (option famine_own_turn)
    assert "mercy" not in verbs(g) and "mutiny" not in verbs(g)
    assert unavailable(g, 0)[1:] == ["Deny: played only out of turn, against a card played on you (KD-18)",
                                     "Mercy: Famine forbids it until your next turn (KD-17)",
                                     "Mutiny: no Knights or Archers stand in another kingdom"]


def test_in_solo_only_the_rounds_card_is_explained() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", castle_defences=["walls-1", "moat-1"], hand=["hills-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    assert unavailable(g, 0, solo_card="hills-1") == [
        "no room in your kingdom for your Defend cards: nothing to place"]
