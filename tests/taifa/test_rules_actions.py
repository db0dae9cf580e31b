"""Taifa 5.1-5.4: the attack step by step, combat, independent areas, incursions and events."""

from __future__ import annotations

import pytest

from core.engine import Chance
from core.taifa.cards import parse_cards
from core.taifa.state import INDEPENDENT
from support import (
    CARDS_TEXT, area, assert_clone_exact, assert_one_place, begin, chance, decision, decline_all, dice_asked, give, k,
    of_kind, play, set_owner, table,
)

CALATAYUD = 23


def castile_attacks(players=("castile", "valencia", "seville", "badajoz", "leon"), **options):
    """Castile (a player) is to attack Calatayud (Valencia) from Soria; the Catalans are a bot."""
    g = table(players=players, **options)
    give(g, "castile", "C15", "C08")  # troops of 2 and 3
    return g


# --- 2.2: castles and garrisons ---------------------------------------------------------

def test_2_2_one_garrison_per_area() -> None:
    g = table(players=["castile"])
    for name in ("Burgos", "Soria", "Segovia"):
        g.s.garrison[area(g, name)] = True
    give(g, "castile", "C50")  # Repopulation: two garrisons in own areas without one
    begin(g, current="castile")
    play(g, ("event", "C50"))
    opts = [c[1] for c in decision(g, "castile").options]
    assert opts == sorted(set(g.s.areas_of(0)) - {area(g, n) for n in ("Burgos", "Soria", "Segovia")})
    play(g, ("garrison", opts[0]))
    assert ("garrison", opts[0]) not in decision(g).options


# --- 5.1 step 1: the target ------------------------------------------------------------

def test_5_1_step_1_only_border_areas_of_others_can_be_attacked() -> None:
    g = castile_attacks()
    begin(g, current="castile")
    targets = [c[1] for c in decision(g).options if c[0] == "attack"]
    # Castile's 8 areas border exactly these areas of other kingdoms or independent ones
    assert targets == [2, 6, 7, 14, 18, 19, 23, 25, 33]
    own = set(g.s.areas_of(k(g, "castile")))
    assert not own & set(targets)
    assert all(any(t in g.m.area(a).borders for a in own) for t in targets)


def test_5_1_step_1_a_kingdom_without_areas_attacks_only_its_capital() -> None:
    g = table(players=["catalans"])
    set_owner(g, "castile", *(g.m.area(a).name for a in g.s.areas_of(k(g, "catalans"))))
    give(g, "catalans", "C15")
    begin(g, current="catalans")
    opts = decision(g).options
    assert [c for c in opts if c[0] == "attack"] == [("attack", area(g, "Barcelona"))]
    assert not [c for c in opts if c[0] == "incursion"]  # no border, no incursion (5.3)


def test_5_1_step_1_a_bot_without_areas_attacks_its_capital() -> None:
    g = table()
    set_owner(g, "castile", *(g.m.area(a).name for a in g.s.areas_of(k(g, "catalans"))))
    give(g, "catalans", "C01", "C02", pile="army")  # an army of 8 waiting
    give(g, "catalans", "C15")
    begin(g, current="catalans")
    assert g.s.fight is not None and g.s.fight.area == area(g, "Barcelona")


# --- 5.1 step 2: committing cards --------------------------------------------------------

def test_5_1_step_2_troops_and_attack_responses_go_face_down() -> None:
    g = castile_attacks()
    give(g, "castile", "C21", "C23", "C28", "C41")  # Champion, Militia, Siege Engines, Royal Summons
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD))
    opts = decision(g, "castile").options
    assert set(opts) == {("add", "C08"), ("add", "C15"), ("add", "C21"), ("add", "C28")}  # no done yet (TA-19)
    play(g, ("add", "C28"))
    assert ("done",) not in decision(g).options  # Siege Engines add no dice: no attack (TA-19)
    play(g, ("add", "C21"))
    assert ("done",) in decision(g).options  # Champion's dice can carry it (TA-19)
    play(g, ("add", "C08"))
    assert ("done",) in decision(g).options and ("add", "C23") not in decision(g).options
    assert [c for _, _, c, up in g.s.fight.cards] == ["C28", "C21", "C08"]
    assert not any(up for *_, up in g.s.fight.cards)  # face down until the reveal (step 5)
    play(g, ("done",))
    assert set(g.s.hands[k(g, "castile")]) == {"C15", "C23", "C41"}


# --- 5.1 step 3: response windows --------------------------------------------------------

def test_5_1_step_3_revision_1_windows_once_in_play_order_only_to_holders_of_a_usable_card() -> None:
    g = castile_attacks(response_rounds=False, bots_join_fights=False)  # revision 1's windows (TA-18)
    give(g, "catalans", "C22", pile="ready")  # a bot: no part in others' fights (TA-30)
    give(g, "valencia", "M26", "M11")  # Militia (defender only)
    give(g, "seville", "M25", "M27")  # Champion (anyone), Militia (defender only: not Seville's)
    give(g, "badajoz", "M12")  # nothing it could place: not asked (TA-18)
    give(g, "leon", "C31")  # Vassal Host (anyone)
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), ("add", "C08"), ("done",))
    asked = []
    p = decision(g)
    asked.append((p.seat, set(p.options)))
    play(g, ("respond", "defence", "M26"))
    p = decision(g)
    asked.append((p.seat, set(p.options)))
    play(g, ("respond", "attack", "M25"))
    p = decision(g)
    asked.append((p.seat, set(p.options)))
    play(g, ("done",))
    assert asked == [
        (k(g, "valencia"), {("respond", "defence", "M26"), ("done",)}),
        (k(g, "seville"), {("respond", "attack", "M25"), ("respond", "defence", "M25"), ("done",)}),
        (k(g, "leon"), {("respond", "attack", "C31"), ("respond", "defence", "C31"), ("done",)}),
    ]
    assert g.s.ready[k(g, "catalans")] == ["C22"]
    # revealed: Seville's Champion joins the attack (3 + 2), Militia the defence (2 + 2)
    assert dice_asked(g) == 5
    play(g, (1,) * 5)
    assert dice_asked(g) == 4


# --- 5.1 step 4: garrisons ---------------------------------------------------------------

def test_5_1_step_4_the_defender_spends_garrisons_in_and_next_to_the_area() -> None:
    g = castile_attacks()
    for name in ("Calatayud", "Teruel", "Cuenca", "Valencia", "Soria"):
        g.s.garrison[area(g, name)] = True  # Valencia is not adjacent; Soria is Castile's
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), ("add", "C08"), ("done",))
    opts = decision(g, "valencia").options
    assert opts == (("garrison", 23), ("garrison", 29), ("garrison", 32), ("done",))
    events = play(g, ("garrison", 23), ("garrison", 29), ("done",))
    assert [e.data[0] for e in of_kind(events, "garrison")] == [23, 29]
    assert not g.s.garrison[23] and not g.s.garrison[29]  # flipped when used
    assert g.s.garrison[32] and g.s.garrison[35] and g.s.garrison[area(g, "Soria")]
    assert dice_asked(g) == 3
    play(g, (1, 1, 1))
    assert dice_asked(g) == 4  # defence 2 + 2 garrisons


# --- 5.2 combat --------------------------------------------------------------------------

@pytest.mark.parametrize("attack, defence, falls", [
    ((4, 5, 6, 1, 1), (4, 5), True),  # 3 hits to 2
    ((4, 5, 1, 1, 1), (6, 6), False),  # 2 to 2: the defender wins ties
    ((3, 3, 3, 3, 3), (1, 1), False),  # no hits either side: 1-3 never hit (2.3)
    ((4, 1, 1, 1, 1), (3, 2), True),  # 1 to 0
])
def test_5_2_hits_are_4_5_6_and_the_attacker_needs_more(attack, defence, falls) -> None:
    g = castile_attacks()
    begin(g, current="castile")
    events = play(g, ("attack", CALATAYUD), ("add", "C15"), ("add", "C08"), attack, defence)
    assert of_kind(events, "combat")[0].data[-1] is falls
    assert (g.s.owner[CALATAYUD] == k(g, "castile")) is falls
    if falls:
        assert decision(g, "castile").options == (("bonus",), ("garrison",))
    assert {"C15", "C08"} <= set(g.s.discard["christian"])  # 5.1 step 7 either way


def test_5_2_the_attack_rolls_before_the_defence() -> None:
    g = castile_attacks()
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), ("add", "C15"), ("done",))
    assert chance(g).label == "Castile rolls 2 dice to attack Calatayud" and dice_asked(g) == 2
    play(g, (1, 1))
    assert chance(g).label == "Taifa of Valencia rolls 2 dice to defend Calatayud"


# --- 5.1 step 6: capture -----------------------------------------------------------------

def test_5_1_step_6_capture_replaces_castle_and_garrison_and_costs_the_loser_one() -> None:
    g = castile_attacks()
    g.s.garrison[CALATAYUD] = True
    g.s.bonus[k(g, "valencia")] = 1
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), ("add", "C15"), ("add", "C08"))
    assert decision(g, "valencia").options == (("garrison", CALATAYUD), ("done",))
    play(g, ("done",))  # Valencia keeps its garrison back...
    events = play(g, (6, 6, 6, 6, 6), (1, 1), ("bonus",))
    assert g.s.owner[CALATAYUD] == k(g, "castile")
    assert not g.s.garrison[CALATAYUD]  # ...and loses it with the castle (5.1 step 6, Spanish text)
    assert g.s.bonus[k(g, "castile")] == 1 and g.s.bonus[k(g, "valencia")] == 0
    cap = of_kind(events, "capture")[0]
    assert cap.data == (k(g, "castile"), CALATAYUD, k(g, "valencia"))


def test_5_1_step_6_taking_an_independent_area_costs_nobody() -> None:
    g = castile_attacks()
    begin(g, current="castile")
    tudela = area(g, "Tudela")
    play(g, ("attack", tudela), ("add", "C08"), ("done",), (6, 6, 6), (1, 1), ("garrison",))
    assert g.s.owner[tudela] == k(g, "castile") and g.s.garrison[tudela]
    assert g.s.bonus == [0] * 6


# --- 5.2: independent areas --------------------------------------------------------------

def test_5_2_an_independent_area_defends_with_its_own_garrison_not_its_neighbours() -> None:
    g = castile_attacks()
    begin(g, current="castile")
    # Tudela borders Navarra, independent and garrisoned: that garrison does not help (TA-20)
    assert g.s.garrison[area(g, "Navarra")] and area(g, "Navarra") in g.m.by_name("Tudela").borders
    play(g, ("attack", area(g, "Tudela")), ("add", "C08"), ("done",), (1, 1, 1))
    assert dice_asked(g) == 2 and g.s.garrison[area(g, "Navarra")]


def test_5_2_an_independent_garrison_is_spent_even_when_it_holds() -> None:
    g = castile_attacks()
    begin(g, current="castile")
    navarra = area(g, "Navarra")
    events = play(g, ("attack", navarra), ("add", "C08"), ("done",), (1, 1, 1))
    assert dice_asked(g) == 4  # 3 + its garrison
    events += play(g, (1, 1, 1, 1))
    assert g.s.owner[navarra] == INDEPENDENT and not g.s.garrison[navarra]
    assert "TA-20" in {e.rule for e in events}


# --- Responses change the fight (5.2, last line) ----------------------------------------

def test_5_2_surprise_sortie_removes_the_strongest_attacking_troop() -> None:
    g = castile_attacks()
    give(g, "valencia", "M29")
    begin(g, current="castile")
    events = play(g, ("attack", CALATAYUD), ("add", "C15"), ("add", "C08"),
                  ("respond", "defence", "M29"))
    assert dice_asked(g) == 2  # the Mesnada (3) leaves; the Levy (2) attacks
    assert of_kind(events, "sortie")[0].data == ("C08",)
    play(g, (1, 1), (1, 1))
    assert {"C15", "C08", "M29"} <= set(g.s.discard["christian"] + g.s.discard["muslim"])


def test_5_2_parias_calls_the_attack_off() -> None:
    g = castile_attacks()
    give(g, "valencia", "M32")
    begin(g, current="castile")
    events = play(g, ("attack", CALATAYUD), ("add", "C08"), ("done",), ("respond", "defence", "M32"))
    events += decline_all(g)  # Castile may answer the Parias (TA-18)
    assert of_kind(events, "cancel") and not of_kind(events, "combat")
    assert g.s.owner[CALATAYUD] == k(g, "valencia")
    assert g.s.bonus[k(g, "valencia")] == -1 and g.s.bonus[k(g, "castile")] == 1
    assert "C08" in g.s.discard["christian"] and "M32" in g.s.discard["muslim"]
    assert_one_place(g)


def test_5_2_siege_engines_cut_the_defence() -> None:
    g = castile_attacks()
    give(g, "castile", "C28")
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), ("add", "C08"), ("add", "C28"), ("done",), (1, 1, 1))
    assert dice_asked(g) == 1  # 2 - 1


# --- 5.3 incursion -----------------------------------------------------------------------

def test_5_3_incursion_only_against_a_bordering_kingdom() -> None:
    g = castile_attacks()
    begin(g, current="castile")
    raids = [c[1] for c in decision(g).options if c[0] == "incursion"]
    assert raids == ["catalans", "valencia", "leon"]  # Zaragoza, Calatayud, the Leonese border


@pytest.mark.parametrize("die, lands", [(1, False), (3, False), (4, True), (6, True)])
def test_5_3_incursion_discards_a_troop_and_a_4_to_6_takes_a_random_card(die: int, lands: bool) -> None:
    g = castile_attacks()
    give(g, "castile", "C41")
    give(g, "leon", "C16", "C17", "C18")
    begin(g, current="castile")
    events = play(g, ("incursion", "leon"))
    assert decision(g, "castile").options == (("troop", "C08"), ("troop", "C15"))  # Troop cards only
    events += play(g, ("troop", "C15"))
    events += decline_all(g)
    assert "C15" in g.s.discard["christian"]  # face up, whatever the die
    assert dice_asked(g) == 1
    events += play(g, (die,))
    if lands:
        assert chance(g).kind == "pick" and chance(g).spec == (3,)
        events += play(g, 2)  # the third card of the hand, in id order
        assert g.s.hands[k(g, "leon")] == ["C16", "C17"] and "C18" in g.s.discard["christian"]
    else:
        assert g.s.hands[k(g, "leon")] == ["C16", "C17", "C18"]
    assert {"taifa 5.3"} <= {e.rule for e in events}


def test_5_3_spies_call_off_an_incursion_and_champion_adds_dice() -> None:
    g = table(players=["catalans", "valencia"])
    give(g, "catalans", "C15", "C21")
    give(g, "valencia", "M35", "M11")
    begin(g, current="catalans")
    play(g, ("incursion", "valencia"), ("troop", "C15"), ("add", "C21"))
    events = play(g, ("respond", "defence", "M35")) + decline_all(g)  # the round goes on (TA-18)
    assert of_kind(events, "cancel") and not isinstance(g.point(), Chance)
    assert g.s.hands[k(g, "valencia")] == ["M11"]
    g2 = table(players=["catalans", "valencia"])
    give(g2, "catalans", "C15", "C21")
    give(g2, "valencia", "M11")
    begin(g2, current="catalans")
    play(g2, ("incursion", "valencia"), ("troop", "C15"), ("add", "C21"), ("done",))  # Valencia declines
    assert dice_asked(g2) == 3  # 1 + Champion 2 (11.2, TA-12)


# --- 5.4 events --------------------------------------------------------------------------

def test_5_4_an_event_without_markers_is_discarded_after_its_effect() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C59")  # Spoils of War: +1 bonus
    begin(g, current="castile")
    events = play(g, ("event", "C59"))
    assert g.s.bonus[0] == 1 and g.s.discard["christian"] == ["C59"]
    assert of_kind(events, "event")[0].rule == "taifa 5.4"


def test_5_4_a_p_event_stays_face_up_until_the_turn_ends() -> None:
    g = table(players=["castile", "catalans"])
    give(g, "castile", "C34")  # Truce (P)
    give(g, "catalans", "C08")
    begin(g, current="castile")
    play(g, ("event", "C34"), ("target", "catalans"))
    assert g.s.permanent[0] == ["C34"]
    # the Catalans may not attack Castile this turn: Soria is no target for them
    opts = decision(g, "catalans").options
    assert ("attack", area(g, "Soria")) not in opts and ("attack", area(g, "Tudela")) in opts
    assert ("incursion", "castile") in opts  # the Truce card forbids attacks only (TA-15)
    play(g, ("pass",))
    play(g, ("pass",))  # Castile: every kingdom has passed in a row now
    assert not g.s.permanent[0] and not g.s.truces
    assert isinstance(g.point(), Chance) and g.point().spec == (59,)  # the Truce too; the Catalans kept C08


def test_5_4_a_d_event_leaves_the_game() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C55")  # Excommunication (D)
    begin(g, current="castile")
    play(g, ("event", "C55"), ("target", "leon"))
    assert g.s.bonus[k(g, "leon")] == -2
    assert g.s.removed == ["C55"] and "C55" not in g.s.discard["christian"]


def test_5_4_a_p_and_d_event_stays_for_the_turn_then_leaves_the_game() -> None:
    text = CARDS_TEXT.replace('name = "Truce"\nkind = "event"\ntarget = "kingdom"\nmarkers = ["P"]',
                              'name = "Truce"\nkind = "event"\ntarget = "kingdom"\nmarkers = ["P", "D"]')
    assert text != CARDS_TEXT
    g = table(players=["castile"], decks=parse_cards(text))
    give(g, "castile", "C34")
    begin(g, current="castile")
    play(g, ("event", "C34"), ("target", "leon"))
    assert g.s.permanent[0] == ["C34"] and not g.s.removed  # face up for the turn (TA-26)
    events = play(g, ("pass",))
    assert g.s.removed == ["C34"] and not g.s.permanent[0]
    assert isinstance(g.point(), Chance) and g.point().spec == (59,)
    assert "TA-26" in {e.rule for e in events}


def test_5_4_an_event_attack_may_go_without_troops() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C45")  # Cavalry Charge: attack with 1 more die
    begin(g, current="castile")
    assert ("event", "C45") in decision(g).options
    assert not [c for c in decision(g).options if c[0] == "attack"]  # the Attack action needs a troop
    play(g, ("event", "C45"), ("attack", CALATAYUD))
    assert dice_asked(g) == 1  # nothing to add, and no troop needed (TA-19)  # only the event's die
    play(g, (6,), (1, 1))
    assert decision(g, "castile").options == (("bonus",), ("garrison",))
    play(g, ("bonus",))
    assert g.s.owner[CALATAYUD] == 0 and "C45" in g.s.discard["christian"]


def test_5_4_an_event_incursion_without_a_troop_card() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C48")  # Cabalgada: 2 dice, no Troop card
    give(g, "leon", "C16")
    begin(g, current="castile")
    play(g, ("event", "C48"))
    assert decision(g).options == (("target", "catalans"), ("target", "valencia"), ("target", "leon"))
    play(g, ("target", "leon"))
    assert dice_asked(g) == 2
    play(g, (1, 5))
    assert g.s.hands[k(g, "leon")] == [] and g.s.discard["christian"] == ["C16", "C48"]


def test_5_4_an_event_with_no_possible_target_cannot_be_played() -> None:
    g = table(players=["catalans"])
    set_owner(g, None, "Santiago", "Lisboa", "Algeciras")  # no invasion-route area of another kingdom
    give(g, "catalans", "C39")
    begin(g, current="catalans")
    assert ("event", "C39") not in decision(g).options  # TA-31
    assert ("discard", "C39") in decision(g).options


def test_5_4_independent_campaign_makes_the_area_independent() -> None:
    g = table(players=["catalans", "leon"])
    give(g, "catalans", "C39")
    give(g, "leon", "C23")  # Militia defends against a campaign
    g.s.bonus[k(g, "leon")] = 1
    begin(g, current="catalans")
    play(g, ("event", "C39"))
    assert decision(g).options == (("area", 3), ("area", 42), ("area", 58))  # 9.6's six routes, not own/indep
    play(g, ("area", 3), ("respond", "defence", "C23"))
    assert dice_asked(g) == 4
    play(g, (6, 6, 6, 6))
    assert dice_asked(g) == 5  # Santiago 3 + Militia 2
    play(g, (1,) * 5)
    assert g.s.owner[3] == INDEPENDENT and g.s.bonus[k(g, "leon")] == 0 and g.s.bonus[k(g, "catalans")] == 0
    assert_clone_exact(g)
