"""The rulings of issue 27 (docs/rulings/kingdom.md, rules revision 3): the rulebook's reading by
default, and each alternative, with its revision-2 value, as a rule option. A scenario for each
value of each option."""

from __future__ import annotations

from core.engine import Decision, Over
import pytest

from tests.kingdom.support import decision, play, realm, round_with, solo, start_turn, table, texts

SOLDIERS = ["soldiers-1", "soldiers-2", "soldiers-3", "soldiers-4", "soldiers-5"]
PIKEMEN = ["pikemen-1", "pikemen-2", "pikemen-3", "pikemen-4", "pikemen-5"]


# -- KD-12: the end of the game ---------------------------------------------------------


def _passing_round(**options: object) -> object:
    g = table("anne", "maria", **options)
    realm(g, 0, "castle-1", lands=[("land-1", [], None)], hand=SOLDIERS)
    realm(g, 1, "castle-2", lands=[("land-2", [], None)], hand=PIKEMEN)
    start_turn(g, 0, deck=["land-3", "land-4"])
    play(g, ("done",), ("done",))
    return g


def test_kd12_a_round_of_passes_while_the_deck_has_cards_is_not_the_end() -> None:
    g = _passing_round()
    assert g.result is None and isinstance(g.point(), Decision) and decision(g).seat == 0


def test_kd12_option_pass_round_ends_a_round_of_passes_ends_the_game_revision_2() -> None:
    g = _passing_round(pass_round_ends=True)
    assert isinstance(g.point(), Over) and g.result.rule == "KD-12"
    assert "no kingdom can draw" in g.result.reason


def test_kd12_with_cards_in_the_deck_the_game_ends_when_no_card_can_be_played() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["deny-1", "deny-2", "deny-3", "morale-1", "spread-1"])
    realm(g, 1, "castle-2", hand=["deny-4", "morale-2", "spread-2", "gold-1", "sabotage-1"])
    start_turn(g, 0, deck=["land-3"])
    assert isinstance(g.point(), Over) and g.result.rule == "KD-12"
    assert "no kingdom can play a card" in g.result.reason


def test_a_revision_2_record_plays_the_revision_2_values_and_leaves_them_out_of_its_digests() -> None:
    from core.games import info
    from core.kingdom import REVISION_2, REVISION_3

    gi = info("kingdom")
    for variant in ("multi-3", "solo"):
        names = {spec.name for spec in gi.option_specs(variant)}
        old = {n: v for n, v in {**REVISION_2, **REVISION_3}.items() if n in names}
        nobles = {"nobles": "deal"} if variant != "solo" else {}  # revision 3's default, for a header without it
        assert old and gi.record_options(2, variant, {}) == {**nobles, **old}
    old = gi.record_options(2, "multi-3", {})
    canonical = gi.make("multi-3", old).canonical()["options"]
    assert not (set(old) - {"nobles"}) & set(canonical) and canonical["nobles"] == "deal"  # as it always was
    assert gi.make("multi-3", {}).canonical()["options"]["pass_round_ends"] is False


# -- KD-17, KD-23: Famine ---------------------------------------------------------------


@pytest.mark.parametrize("first", ["famine-1", "disease-1"])
def test_kd17_famine_on_your_own_turn_does_not_stop_deny_cancelling_the_next_penalty(first: str) -> None:
    g = table("anne", "maria")
    pens = ["famine-1", "disease-1"] if first == "famine-1" else ["disease-1", "famine-1"]
    realm(g, 0, "castle-1", hand=[*pens, "deny-1", "soldiers-1", "soldiers-2"])
    realm(g, 1, "castle-2", lands=[("land-2", [], None)])
    start_turn(g, 0, deck=["land-3"])
    play(g, ("accept",))  # the first Penalty taken
    d = decision(g)
    assert ("cancel", "deny-1") in d.options, d.prompt  # whichever was drawn first


def test_kd17_option_famine_own_turn_famine_forbids_the_cancel_on_its_own_turn_revision_2() -> None:
    g = table("anne", "maria", famine_own_turn=True)
    realm(g, 0, "castle-1", hand=["famine-1", "disease-1", "deny-1", "soldiers-1", "soldiers-2"])
    realm(g, 1, "castle-2", lands=[("land-2", [], None)])
    start_turn(g, 0, deck=["land-3"])
    play(g, ("accept",))
    assert all(o[0] != "cancel" for o in decision(g).options)


def test_kd17_famine_still_forbids_answers_on_another_players_turn() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", lands=[("land-1", [], None)], hand=["famine-1", "deny-1"])
    realm(g, 1, "castle-2", lands=[("land-2", [], None)], hand=["soldiers-1"])
    start_turn(g, 0, deck=[])
    play(g, ("accept",), ("attack", "soldiers-1"), ("at", 0, "land-1"))
    assert "land-1" not in [sl.card for sl in g.s.realms[0].slots]  # no Deny was asked for


def _maria_starved_last_round(**options: object) -> object:
    g = solo("easy", **options)
    round_with(g, "soldiers-1", "walls-1", "famine-1")
    play(g, ("take", "walls-1"), ("give", "soldiers-1", 1), ("place", "walls-1", "castle-1"))
    assert g.s.realms[2].famine is (options.get("famine_until_next_play") is True)
    for d in g.s.decks:
        if "deny-2" in d:
            d.remove("deny-2")
    g.s.realms[2].hand.append("deny-2")
    round_with(g, "cannon-1", "hills-3", "mutiny-1")
    return texts(play(g, ("take", "cannon-1"), ("give", "hills-3", 1), ("attack", "cannon-1"), ("at", 2, "land-8")))


def test_kd23_solo_an_enemys_famine_ends_with_its_round() -> None:
    ev = _maria_starved_last_round()
    assert any("Maria" in t and "Deny" in t and "blocks" in t for t in ev), ev


def test_kd23_option_famine_until_next_play_an_enemys_famine_lasts_into_the_next_round_revision_2() -> None:
    ev = _maria_starved_last_round(famine_until_next_play=True)
    assert not any("Deny" in t for t in ev), ev


# -- KD-25: a solo enemy's Mercenaries ---------------------------------------------------


def _mercenaries_to_a_full_kingdom(**options: object) -> list[str]:
    from core.kingdom.state import Slot

    g = solo("easy", **options)
    g.s.realms[1].slots = [Slot("castle-2", ["walls-3", "walls-4"]), Slot("land-6", ["moat-3", "hills-3"]),
                           Slot("land-7", ["knights-3", "knights-4"])]
    round_with(g, "soldiers-1", "mercenaries-2", "deny-1")
    return texts(play(g, ("take", "soldiers-1"), ("give", "mercenaries-2", 1), ("discard", "soldiers-1")))


def test_kd25_an_enemy_with_no_room_attacks_you_with_its_mercenaries() -> None:
    ev = _mercenaries_to_a_full_kingdom()
    assert any("Enemy 1" in t and "Mercenaries" in t and "attack" in t for t in ev), ev
    assert not any("can do nothing" in t for t in ev)


def test_kd25_option_enemy_mercenaries_defend_only_an_enemy_with_no_room_discards_them_revision_2() -> None:
    ev = _mercenaries_to_a_full_kingdom(enemy_mercenaries_defend_only=True)
    assert any("can do nothing with Mercenaries" in t for t in ev), ev


# -- KD-8: a reversed attack and the attacker's Trap --------------------------------------


def _trap_against_trap(**options: object) -> object:
    g = table("anne", "maria", **options)
    realm(g, 0, "castle-1", lands=[("land-1", ["hills-1"], "trap-3")], hand=["soldiers-1"])
    realm(g, 1, "castle-2", lands=[("land-2", ["moat-1"], "trap-1")])
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"), ("at", 1, "land-2"))
    return g


def test_kd8_a_reversed_attack_springs_the_attackers_trap_as_if_attacked() -> None:
    g = _trap_against_trap()
    assert g.s.realms[0].slots[1].trap is None and g.s.realms[1].slots[1].trap is None
    assert g.s.realms[0].slots[1].defences == ["hills-1"]  # Player 1's real Trap threw it back again
    assert g.s.realms[1].slots[1].damage == {"moat-1": 2}
    assert {"trap-1", "trap-3"} <= set(g.s.discard)


def test_kd8_option_reversal_springs_no_trap_the_attackers_trap_stays_revision_2() -> None:
    g = _trap_against_trap(reversal_springs_no_trap=True)
    assert g.s.realms[0].slots[1].trap == "trap-3" and g.s.realms[0].slots[1].defences == []


# -- KD-13: Gold -------------------------------------------------------------------------


def test_kd13_a_gold_like_a_deny_cannot_be_answered() -> None:
    g = table("anne", "simon")
    realm(g, 0, "castle-1", hand=["cannon-1", "deny-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], hand=["gold-1"])
    start_turn(g, 0)
    play(g, ("attack", "cannon-1"), ("go",), ("at", 1, "land-1"), ("gold", "gold-1"))
    d = decision(g)
    assert d.kind == "action" and d.seat == 1 and "deny-1" in g.s.realms[0].hand  # never asked
    assert "cannon-1" in g.s.realms[1].hand and "gold-1" in g.s.realms[0].hand
    assert [sl.card for sl in g.s.realms[1].slots] == ["castle-2", "land-1"]


# The option's revision-2 value: test_rules_multi.py::test_a_gold_may_be_blocked_by_a_deny_of_the_player_it_buys_from


# -- KD-14: Dawn Raid --------------------------------------------------------------------


@pytest.mark.parametrize("unanswerable", [False, True])
def test_kd14_dawn_raid_is_answered_like_any_attack_and_with_the_option_is_not(unanswerable: bool) -> None:
    g = table("anne", "maria", dawn_raid_unanswerable=unanswerable)
    realm(g, 0, "castle-1", hand=["dawn-raid-1"])
    realm(g, 1, "castle-2", lands=[("land-2", [], None)], hand=["deny-1"])
    start_turn(g, 0)
    ev = play(g, ("attack", "dawn-raid-1"), ("at", 1, "land-2"))
    if unanswerable:  # revision 2
        assert "KD-14" in [e.rule for e in ev] and len(g.s.realms[1].slots) == 1
    else:
        d = decision(g)
        assert d.seat == 1 and d.kind == "respond" and ("deny", "deny-1") in d.options


# -- KD-11: Deny against Spread ----------------------------------------------------------


@pytest.mark.parametrize("whole", [False, True])
def test_kd11_a_deny_blocks_the_spread_on_its_own_kingdom_and_with_the_option_all_of_it(whole: bool) -> None:
    g = table("anne", "maria", "simon", deny_blocks_spread=whole)
    realm(g, 0, "castle-1", hand=["soldiers-1", "spread-1"])
    realm(g, 1, "castle-2", lands=[("land-2", [], None)], hand=["deny-1"])
    realm(g, 2, "castle-3", lands=[("land-3", [], None)])
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"), ("spread", "spread-1"), ("at", 1, "land-2", 1), ("at", 2, "land-3", 1),
         ("deny", "deny-1"))
    assert [sl.card for sl in g.s.realms[1].slots] == ["castle-2", "land-2"]
    assert [sl.card for sl in g.s.realms[2].slots] == (["castle-3", "land-3"] if whole else ["castle-3"])


# -- KD-20: solo asks no forced "pass" ------------------------------------------------------


def test_kd20_solo_you_are_not_asked_to_answer_when_you_hold_nothing_that_fits() -> None:
    g = solo("easy")
    g.s.realms[0].hand = ["mutiny-2"]  # held, but no answer to an attack
    round_with(g, "soldiers-1", "walls-1", "deny-1")
    play(g, ("take", "walls-1"), ("give", "soldiers-1", 1), ("place", "walls-1", "castle-1"))
    assert g.point() is None or not (isinstance(g.point(), Decision) and g.point().kind == "respond")


# -- Revision 4: the Nobles, the draft, damage at the end -----------------------------------


def _setup_until_turns(g: object, seed: int) -> list[int]:
    """Play a game's setup with random seats (seeded); each kingdom's points when the first turn begins."""
    from core.chance import SeededChance
    from core.kingdom.lines import score
    from core.match import Match, RandomController

    n = len(g.s.realms)  # type: ignore[attr-defined]
    m = Match(g, [RandomController(seed * 10 + i) for i in range(n)], SeededChance(seed))  # type: ignore[arg-type]
    while g._unit[0] == "setup":  # type: ignore[attr-defined]
        assert m.step() is not None
    return [score(g.cards, r, True) for r in g.s.realms]  # type: ignore[attr-defined]


def test_kd2_each_player_chooses_a_noble_in_seat_order_by_default() -> None:
    from core.games import info

    g = info("kingdom").make("multi-3", {})
    d = decision(g)
    assert (d.seat, d.prompt) == (0, "choose your Noble") and len(d.options) == 6
    play(g, ("noble", "maria-1"))
    assert decision(g).seat == 1 and ("noble", "maria-1") not in decision(g).options


def test_kd2_option_nobles_deal_deals_them_at_random() -> None:
    from core.engine import Chance
    from core.games import info

    assert isinstance(info("kingdom").make("multi-3", {"nobles": "deal"}).point(), Chance)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kd4_kd5_every_draft_ends_with_each_kingdom_at_twelve_and_egberts_village_placed(players: int) -> None:
    from core.games import info

    for seed in range(25):
        g = info("kingdom").make(f"multi-{players}", {"nobles": "deal"})
        points = _setup_until_turns(g, seed)
        for k, r in enumerate(g.s.realms):
            village = [c for sl in r.slots for c in sl.defences if g.cards[c].key == "village"]
            if g.noble_key(k) == "egbert":
                assert len(village) == 1 and points[k] == 12 + g.cards[village[0]].value, (seed, k)
            else:
                assert points[k] == 12, (seed, k, points)


def test_kd4_option_draft_may_fall_short_lets_a_kingdom_end_the_draft_at_eleven_revision_3() -> None:
    from core.games import info

    gi = info("kingdom")
    assert 11 in _setup_until_turns(gi.make("multi-4", {"draft_may_fall_short": True}), 5)
    assert 11 not in _setup_until_turns(gi.make("multi-4", {}), 5)  # the same seats, the same seed


def test_kd4_a_pick_that_would_leave_a_kingdom_short_is_not_completable() -> None:
    from core.kingdom.draft import completable

    lands, hills = (True, 1, 1), (False, 2, 3)
    assert completable(((1, 5, 2),), (lands,))
    assert not completable(((1, 5, 2), (1, 5, 2)), (lands, hills))  # two kingdoms, one Land: one stays at 11
    assert not completable(((1, 0, 2),), (lands,))  # five Lands already: no room for a sixth
    assert completable(((4, 0, 2),), (hills,)) and not completable(((4, 0, 1),), (hills,))  # two slots for 2 + 2
    assert not completable(((0, 5, -1),), ())  # Egbert's kept slot taken


def _damaged_walls_against_a_moat(**options: object) -> object:
    g = table("anne", "maria", **options)
    r = realm(g, 0, "castle-1", lands=[("land-1", ["walls-1"], None)])
    r.slots[1].damage["walls-1"] = 3
    r.slots[1].tucked["walls-1"] = ["soldiers-1"]
    realm(g, 1, "castle-2", lands=[("land-2", ["moat-1"], None)])
    start_turn(g, 0)  # no cards anywhere: the game ends at once (KD-12)
    assert isinstance(g.point(), Over)
    return g


def test_kd6_tucked_damage_does_not_lower_the_defence_points_that_win() -> None:
    g = _damaged_walls_against_a_moat()
    assert g.result.scores == (8, 7) and g.result.winners == (0,)  # type: ignore[attr-defined]


def test_kd6_option_damage_lowers_score_counts_it_revision_3() -> None:
    g = _damaged_walls_against_a_moat(damage_lowers_score=True)
    assert g.result.scores == (5, 7) and g.result.winners == (1,)  # type: ignore[attr-defined]
    g = _damaged_walls_against_a_moat(damage_lowers_score=True, damage_adds_up=False)
    assert g.result.scores == (8, 7)  # type: ignore[attr-defined]  # damage that does not add up lowers nothing


def test_kd6_solo_has_the_option_too() -> None:
    from core.games import info

    assert "damage_lowers_score" in {s.name for s in info("kingdom").option_specs("solo")}


def test_a_revision_3_record_without_nobles_is_dealt_them_and_may_name_either() -> None:
    from core.games import info

    gi = info("kingdom")
    assert gi.record_options(3, "multi-3", {})["nobles"] == "deal"
    assert gi.record_options(3, "multi-3", {"nobles": "choose"})["nobles"] == "choose"
    assert gi.record_options(4, "multi-3", {}) == {}  # the current revision: the game's own defaults
    with pytest.raises(Exception, match="did not exist in kingdom rules revision 3"):
        gi.record_options(3, "multi-3", {"draft_may_fall_short": False})


@pytest.mark.parametrize("survival", [False, True])
def test_kd4_the_packaged_cards_can_always_bring_four_kingdoms_to_twelve(survival: bool) -> None:
    from collections import Counter

    from core.kingdom.cards import packaged_cards
    from core.kingdom.draft import completable, pool_of
    from core.kingdom.lines import DRAFT_KEYS

    counts = Counter((c.key == "land", c.value) for c in packaged_cards() if c.key in DRAFT_KEYS)
    if survival:  # a Land is set aside for the survival set
        counts[True, 1] -= 1
    pool = pool_of(counts)
    assert completable(((9, 5, 2), (9, 5, 2), (9, 5, 2), (9, 5, 1)), pool)  # Egbert's keeps a slot
