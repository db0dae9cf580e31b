"""Taifa 9.1-9.6: the rulebook bots, which the engine runs itself (their dice are Chance points)."""

from __future__ import annotations

import pytest

from core.engine import Chance, Decision
from support import (
    area, assert_clone_exact, assert_one_place, begin, chance, dice_asked, give, k, of_kind, play,
    set_owner, table, until_decision,
)

CALATAYUD = 23


# --- 9.1: how bots use cards ------------------------------------------------------------

def test_9_1_a_bot_plays_its_top_card_each_round_and_passes_only_when_empty() -> None:
    g = table()  # six bots; only Valencia holds cards
    give(g, "valencia", "M11", "M12", "M13")  # Andalusi Levies (1): an army of 3 does not attack
    events = begin(g, current="castile")
    val = k(g, "valencia")
    reveals = [e.data[1] for e in of_kind(events, "reveal") if e.data[0] == val]
    assert reveals == ["M11", "M12", "M13"]  # one per round, top first
    passes = [e.data[0] for e in of_kind(events, "pass")]
    # Valencia's rounds come between five passes of the others; it passes only with an empty pile
    assert passes.count(val) == 1
    assert [e.data[0] for e in of_kind(events, "reveal")] == [val] * 3
    turn_end = of_kind(events, "turn")[-1]
    assert turn_end.rule == "taifa 6"
    assert g.s.army[val] == ["M11", "M12", "M13"]  # one army (9.1), strength 3: no attack (9.2)
    assert isinstance(g.point(), Chance)  # the end-of-turn reshuffle


def test_9_1_troops_form_one_army_and_responses_line_up_in_order() -> None:
    g = table(players=["castile"])
    give(g, "valencia", "M26", "M11", "M24", "M12")
    begin(g, current="valencia")
    while isinstance(g.point(), Decision):
        play(g, ("pass",))  # Castile; the bots with no cards pass; Valencia plays a card a round
    val = k(g, "valencia")
    assert g.s.army[val] == ["M11", "M12"]
    assert g.s.ready[val] == ["M26", "M24"]  # in the order drawn
    assert g.view(k(g, "castile"))["kingdoms"][val]["ready"] == ("M26", "M24")  # face up


def test_9_1_deployed_cards_carry_over_and_do_not_reduce_the_draw() -> None:
    g = table(players=["castile"])
    give(g, "valencia", "M11", "M12", "M24")
    give(g, "castile", "C15", "C16")  # a player keeps 2: it draws 2 fewer (7)
    begin(g, current="valencia")
    while isinstance(g.point(), Decision):
        play(g, ("pass",))
    events = until_decision(g)
    val, cas = k(g, "valencia"), k(g, "castile")
    assert g.s.army[val] == ["M11", "M12"] and g.s.ready[val] == ["M24"]  # carried over (9.1)
    due = {e.data[0]: e for e in of_kind(events, "draw") if "is due" in e.text}
    assert due[val].data[1] == 8 and due[val].rule == "taifa 9.1"  # KEY RULE: no reduction
    assert due[cas].data[1] == 6 and due[cas].rule == "taifa 7"
    assert g.s.kept[val] == 3 and g.s.kept[cas] == 2
    assert_one_place(g)


def test_9_1_events_are_played_at_once_with_the_bot_clause() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C16", "C17", "C18")
    give(g, "catalans", "C58")  # Envoy to Court: a player looks and picks; a bot takes a random card
    begin(g, current="catalans")
    # any other kingdom: the 9.5 die, 1-3 the first counter-clockwise (Castile)
    assert chance(g).spec == (1, 6)
    play(g, (2,))
    assert chance(g).kind == "pick"  # random, not chosen: the bot clause (9.1)
    play(g, 1)
    assert g.s.hands[0] == ["C16", "C18"] and g.s.discard["christian"][-2:] == ["C17", "C58"]


def test_9_1_a_random_discard_from_a_bot_is_its_top_card() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C35")  # Razzia: 2 random cards from a neighbour
    give(g, "catalans", "C09", "C10", "C11")
    begin(g, current="castile")
    play(g, ("event", "C35"), ("target", "catalans"))
    # its face-down pile was in random order already: the top two go (TA-24)
    assert g.s.discard["christian"][:2] == ["C09", "C10"]
    assert g.s.army[k(g, "catalans")] == ["C11"]  # then it plays the one left


def test_9_1_extra_draws_go_on_top_of_the_pile() -> None:
    g = table(players=["castile"])
    give(g, "catalans", "C41", "C15")  # Royal Summons: draw 2
    top = g.s.draw["christian"][-2:]  # the next two cards drawn: the last of the list first
    begin(g, current="catalans")
    cat = k(g, "catalans")
    assert g.s.hands[cat][:2] == [top[0], top[1]] and g.s.hands[cat][2] == "C15"
    # drawn one by one onto the pile: the second card drawn lies on top


def test_9_1_a_card_the_bot_cannot_play_is_discarded() -> None:
    g = table(players=["castile"])
    give(g, "catalans", "C45")  # Cavalry Charge without an army: no attack possible
    events = begin(g, current="catalans")
    assert "C45" in g.s.discard["christian"]
    assert of_kind(events, "discard")[0].rule == "taifa 9.1"
    assert not of_kind(events, "attack")


# --- 9.2: attacks by bots ---------------------------------------------------------------

@pytest.mark.parametrize("die, target", [(3, "Soria"), (4, "Mallorca")])
def test_9_2_an_army_over_3_attacks_the_strongest_area_below_it(die: int, target: str) -> None:
    g = table()
    give(g, "catalans", "C03")  # Heavy Cavalry 4, no Offensive symbol
    begin(g, current="catalans")
    # below 4: Soria (3, Castile) and Mallorca (3, independent) beat Tudela and Calatayud (2)
    assert chance(g).spec == (1, 6)
    events = play(g, (die,))
    assert of_kind(events, "attack")[0].data[1] == area(g, target)
    assert dice_asked(g) == 4


def test_9_2_the_garrison_counts_in_the_bots_reckoning() -> None:
    g = table()
    g.s.garrison[area(g, "Mallorca")] = True  # 3 + 1 is not below 4
    give(g, "catalans", "C03")
    events = begin(g, current="catalans")
    assert of_kind(events, "attack")[0].data[1] == area(g, "Soria")  # the only one: no die
    g = table()
    for name in ("Mallorca", "Soria"):
        g.s.garrison[area(g, name)] = True
    give(g, "catalans", "C03")
    begin(g, current="catalans")
    play(g, (6,))
    assert g.s.fight.area == CALATAYUD  # defence 2: Tudela 14 or Calatayud 23, the highest id


def test_9_2_with_no_area_weak_enough_the_army_waits() -> None:
    g = table()
    set_owner(g, "castile", *(g.m.area(a).name for a in g.s.areas_of(k(g, "catalans"))))
    g.s.garrison[area(g, "Barcelona")] = True  # its only target (5.1 step 1): defence 4 + 1
    give(g, "catalans", "C03", "C01", "C11")  # C01 is Offensive: no attack, no border: discarded
    events = begin(g, current="catalans")
    cat = k(g, "catalans")
    kinds = [e.kind for e in events if e.kind in ("wait", "offensive", "attack")]
    assert kinds == ["wait", "offensive", "wait", "attack"]  # 4 waits, 4 waits, then 7 goes
    assert "C01" in g.s.discard["christian"]
    assert g.s.fight.area == area(g, "Barcelona") and dice_asked(g) == 7
    play(g, (1,) * 7, (1,) * 5)
    assert g.s.army[cat] == []


def test_9_2_a_waiting_army_checks_again_only_when_it_deploys_troops() -> None:
    g = table(players=["castile"])
    set_owner(g, "castile", *(g.m.area(a).name for a in g.s.areas_of(k(g, "catalans"))))
    g.s.garrison[area(g, "Barcelona")] = True
    give(g, "catalans", "C15", pile="army")
    give(g, "catalans", "C09", "C21", "C16")
    events = begin(g, current="catalans")
    assert of_kind(events, "wait")  # an army of 5 against Barcelona's 4 + 1
    g.s.garrison[area(g, "Barcelona")] = False  # Barcelona is 4 now, below 5...
    begin(g, current="castile")
    events = play(g, ("pass",))  # ...but deploying Champion is no check: no attack (TA-33)
    assert not of_kind(events, "attack") and g.s.ready[k(g, "catalans")] == ["C21"]
    events = play(g, ("pass",))  # a Levy: 7, the check is made, Barcelona is attacked
    assert of_kind(events, "attack")[0].data[1] == area(g, "Barcelona")
    assert dice_asked(g) == 9  # 7 + Champion


def test_9_2_the_attack_uses_the_whole_army_and_discards_it() -> None:
    g = table()
    give(g, "catalans", "C15", pile="army")
    give(g, "catalans", "C16")
    begin(g, current="catalans")
    play(g, (1,))  # 4: Soria or Mallorca
    assert [c for _, _, c, _ in g.s.fight.cards] == ["C15", "C16"]
    play(g, (1,) * 4, (1,) * 3)
    assert not g.s.army[k(g, "catalans")] and {"C15", "C16"} <= set(g.s.discard["christian"])


# --- 9.3: offensive cards ---------------------------------------------------------------

def test_9_3_an_offensive_troop_card_is_discarded_not_added() -> None:
    g = table()
    give(g, "catalans", "C15", pile="army")  # strength 2: nothing below 2 to attack
    give(g, "catalans", "C05")  # Mesnada 3, Offensive: its strength is ignored (TA-23)
    events = begin(g, current="catalans")
    cat = k(g, "catalans")
    assert g.s.army[cat] == ["C15"] and "C05" in g.s.discard["christian"]
    assert of_kind(events, "offensive")[0].rule == "taifa 9.3"
    # no attack: an incursion, but no bordering kingdom holds a card: nothing more
    assert not of_kind(events, "incursion")


def test_9_3_the_incursion_spends_the_offensive_card_not_the_army() -> None:
    g = table(players=["valencia"])
    give(g, "catalans", "C15", pile="army")
    give(g, "catalans", "C43")
    give(g, "valencia", "M11")  # Castile has no cards: only Valencia qualifies, no die
    events = begin(g, current="catalans")
    inc = of_kind(events, "incursion")[0]
    assert inc.data == (k(g, "catalans"), k(g, "valencia"))
    assert dice_asked(g) == 1
    play(g, (4,), 0)
    assert g.s.army[k(g, "catalans")] == ["C15"]  # no Troop card discarded (TA-23)
    assert g.s.discard["christian"] == ["C43"] and g.s.discard["muslim"] == ["M11"]


def test_9_3_an_offensive_event_ignores_its_text() -> None:
    g = table()
    give(g, "catalans", "C47")  # Cabalgada (Offensive): not its 2-die incursion
    give(g, "castile", "C16")
    events = begin(g, current="catalans")
    assert dice_asked(g) == 1  # a plain incursion (5.3), one die
    assert of_kind(events, "offensive")


def test_9_3_no_incursion_against_a_kingdom_under_truce() -> None:
    g = table()
    give(g, "catalans", "C43")
    give(g, "castile", "C16")
    give(g, "valencia", "M11")
    g.s.truces.append((k(g, "valencia"), k(g, "catalans"), ("attack", "incursion")))
    begin(g, current="catalans")
    assert g.s.fight.defender == k(g, "castile")  # Valencia is protected: Castile alone, no die


# --- 9.4: bots' defence -----------------------------------------------------------------

def castile_attacks_valencia_bot(troops: list[str], ready: list[str]) -> object:
    g = table(players=["castile"])
    give(g, "castile", *troops)
    give(g, "valencia", *ready, pile="ready")
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), *[("add", c) for c in troops])
    return g


def test_9_4_one_response_at_a_time_in_order_against_3_or_more() -> None:
    g = castile_attacks_valencia_bot(["C08"], ["M37", "M24"])  # Archers (+1), Champion (+2)
    val = k(g, "valencia")
    assert g.s.ready[val] == ["M24"]
    assert [c for side, _, c, _ in g.s.fight.cards if side == "defence"] == ["M37"]
    play(g, (1, 1, 1))
    assert dice_asked(g) == 3  # 2 + Archers


def test_9_4_no_response_against_troops_below_3() -> None:
    g = castile_attacks_valencia_bot(["C15"], ["M37", "M24"])
    assert g.s.ready[k(g, "valencia")] == ["M37", "M24"]
    play(g, (1, 1))
    assert dice_asked(g) == 2


def test_9_4_the_first_usable_response_skips_those_that_do_not_fit() -> None:
    g = castile_attacks_valencia_bot(["C15", "C16"], ["M35", "M26"])  # Spies fit only an incursion
    assert g.s.ready[k(g, "valencia")] == ["M35"]
    play(g, (1,) * 4)
    assert dice_asked(g) == 4  # 2 + Militia 2


def test_9_4_with_the_option_a_bot_uses_the_first_usable_response_against_an_incursion() -> None:
    g = table(players=["castile"], bots_respond_to_incursions=True)  # revision 1 (TA-22)
    give(g, "castile", "C15")
    give(g, "valencia", "M24", "M35", pile="ready")  # Champion does not defend an incursion; Spies do
    give(g, "valencia", "M11")
    begin(g, current="castile")
    events = play(g, ("incursion", "valencia"), ("troop", "C15"))
    assert of_kind(events, "cancel") and g.s.ready[k(g, "valencia")] == ["M24"]  # TA-22
    assert "M11" not in g.s.discard["muslim"]


def test_9_4_always_the_areas_own_garrison_never_an_adjacent_one() -> None:
    g = table(players=["castile"])
    for name in ("Calatayud", "Teruel", "Cuenca"):
        g.s.garrison[area(g, name)] = True
    give(g, "castile", "C08")
    begin(g, current="castile")
    events = play(g, ("attack", CALATAYUD), ("add", "C08"))
    assert [e.data for e in of_kind(events, "garrison")] == [(CALATAYUD,)]
    assert g.s.garrison[area(g, "Teruel")] and g.s.garrison[area(g, "Cuenca")]
    play(g, (1, 1, 1))
    assert dice_asked(g) == 3


@pytest.mark.parametrize("bonus, garrisons", [(1, False), (2, True), (-2, False)])
def test_9_4_a_bot_takes_a_garrison_instead_of_the_bonus_only_at_plus_2(bonus: int, garrisons: bool) -> None:
    g = table()
    g.s.bonus[k(g, "catalans")] = bonus
    give(g, "catalans", "C03")
    g.s.garrison[area(g, "Mallorca")] = True
    begin(g, current="catalans")  # Soria, the only target
    play(g, (6,) * 4, (1,) * 3)
    soria = area(g, "Soria")
    assert g.s.owner[soria] == k(g, "catalans")
    assert g.s.garrison[soria] is garrisons
    assert g.s.bonus[k(g, "catalans")] == (2 if garrisons else bonus + 1)


def test_9_4_a_bot_adds_its_first_usable_response_to_its_attack() -> None:
    g = table()
    give(g, "catalans", "C23", "C21", "C31", pile="ready")  # Militia defends only; Champion; Vassal Host
    give(g, "catalans", "C03")
    g.s.garrison[area(g, "Mallorca")] = True
    begin(g, current="catalans")
    assert [c for _, _, c, _ in g.s.fight.cards] == ["C03", "C21"]
    assert g.s.ready[k(g, "catalans")] == ["C23", "C31"]
    assert dice_asked(g) == 6


def test_9_4_without_the_option_bots_take_no_part_in_other_kingdoms_fights() -> None:
    g = table(players=["castile"], bots_join_fights=False)  # revision 1 (TA-30)
    set_owner(g, "castile", "Navarra")  # Castile leads: by default the bots would back Tudela
    give(g, "castile", "C08")
    give(g, "catalans", "C21", pile="ready")  # a bot's Champion could join either side: it does not
    give(g, "seville", "M24", pile="ready")
    begin(g, current="castile")
    play(g, ("attack", area(g, "Tudela")), ("add", "C08"))
    assert [c for _, _, c, _ in g.s.fight.cards] == ["C08"]


# --- 9.5: choosing targets --------------------------------------------------------------

@pytest.mark.parametrize("dice, placed", [((1, 2), [8, 12]), ((6, 4), [24, 21]), ((3, 5), [8, 24])])
def test_9_5_areas_by_lowest_or_highest_id(dice, placed) -> None:
    g = table()
    give(g, "catalans", "C50")  # Repopulation: two garrisons
    begin(g, current="catalans")
    events = play(g, (dice[0],), (dice[1],))
    assert [e.data[1] for e in of_kind(events, "garrison")] == placed
    assert all(e.rule == "taifa 9.5" for e in of_kind(events, "choice"))


@pytest.mark.parametrize("die, target", [(1, "badajoz"), (3, "badajoz"), (4, "castile"), (6, "castile")])
def test_9_5_kingdoms_counter_clockwise_or_clockwise(die: int, target: str) -> None:
    g = table()
    give(g, "leon", "C55")  # Excommunication: any other kingdom
    begin(g, current="leon")
    play(g, (die,))
    assert g.s.bonus[k(g, target)] == -2  # from Leon: Badajoz before it, Castile after it


# --- 9.6: Independent Campaign --------------------------------------------------------

@pytest.mark.parametrize("die, target", [(2, 3), (5, 58)])
def test_9_6_the_bot_targets_invasion_route_areas_of_other_kingdoms(die: int, target: int) -> None:
    g = table()
    give(g, "catalans", "C39")
    begin(g, current="catalans")
    # routes: Santiago 3 (Leon), Navarra (independent), Girona (own), Lisboa 42 (Badajoz), Almería
    # (independent), Algeciras 58 (Seville)
    events = play(g, (die,))
    camp = of_kind(events, "campaign")[0]
    assert camp.data[1] == target
    assert dice_asked(g) == 4


def test_9_6_no_target_the_card_is_discarded() -> None:
    g = table()
    set_owner(g, None, "Santiago", "Lisboa", "Algeciras")
    give(g, "catalans", "C39")
    events = begin(g, current="catalans")
    assert not of_kind(events, "campaign") and "C39" in g.s.discard["christian"]


def test_9_6_a_bot_owner_defends_a_campaign_with_its_garrison_and_militia() -> None:
    g = table()
    set_owner(g, None, "Santiago", "Lisboa")
    g.s.garrison[58] = True
    give(g, "seville", "M26", pile="ready")
    give(g, "catalans", "C39")
    begin(g, current="catalans")
    assert g.s.fight.area == 58 and dice_asked(g) == 4
    play(g, (1, 1, 1, 1))
    assert dice_asked(g) == 2 + 1 + 2
    play(g, (1,) * 5)
    assert g.s.owner[58] == k(g, "seville") and not g.s.garrison[58]
    assert_clone_exact(g)
