"""The rulebook's worked examples (taifa 7, 11.1, 11.2) played through the engine, die by die."""

from __future__ import annotations

import pytest

from core.taifa.game import TaifaGame
from support import (
    area, begin, chance, decision, decline_all, dice_asked, give, k, of_kind, play, rules, set_owner, table,
    assert_clone_exact, assert_one_place,
)

# Cards used below (docs/taifa-cards.md): Christian troops of 2 and 3 without the Offensive
# symbol, a Christian 4; the Champion of each deck; Offensive cards for 11.2.
LEVY_2, MESNADA_3, MESNADA_3B = "C15", "C08", "C09"
CHAMPION_C, CHAMPION_M = "C21", "M24"
OFFENSIVE_TROOP = "C01"  # Heavy Cavalry, Offensive: a bot ignores its strength (9.3)
OFFENSIVE_EVENT = "C43"  # Cavalry Charge, Offensive


# --- 11.1: the combat at Denia ------------------------------------------------------

def denia_position() -> TaifaGame:
    """11.1's situation: the Catalans hold the city of Valencia next to Denia (Taifa of
    Valencia, defence 2); Valencia's Card Bonus is -1 and Murcia holds a garrison."""
    g = table(players=["catalans", "valencia"])
    set_owner(g, "catalans", "Valencia")
    set_owner(g, "valencia", "Denia", "Murcia")
    g.s.garrison[area(g, "Murcia")] = True
    g.s.bonus[k(g, "valencia")] = -1
    give(g, "catalans", LEVY_2, MESNADA_3)
    give(g, "valencia", CHAMPION_M)
    begin(g, current="catalans")
    return g


def attack_denia(g: TaifaGame) -> list:
    denia = area(g, "Denia")
    return play(
        g,
        ("attack", denia),  # 5.1 step 1, from Valencia
        ("add", LEVY_2), ("add", MESNADA_3),  # step 2: Troop cards of 2 and 3, face down
        ("respond", "defence", CHAMPION_M),  # step 3: Valencia places Champion face down
        ("garrison", area(g, "Murcia")),  # step 4: the garrison of Murcia, adjacent (no other left)
    )


def test_map_fits_the_denia_example() -> None:
    g = table()
    denia, valencia, murcia = (g.m.by_name(n) for n in ("Denia", "Valencia", "Murcia"))
    assert denia.defence == 2  # "2 for the intrinsic defence of the area"
    assert valencia.id in denia.borders and murcia.id in denia.borders


def test_11_1_catalans_take_denia() -> None:
    g = denia_position()
    denia, murcia = area(g, "Denia"), area(g, "Murcia")
    cat, val = k(g, "catalans"), k(g, "valencia")
    events = play(g, ("attack", denia), ("add", LEVY_2), ("add", MESNADA_3))
    # Valencia's response window: the Catalan cards lie face down (5.1 steps 2-3)
    assert ("respond", "defence", CHAMPION_M) in decision(g, "valencia").options
    assert [c for _, _, c in g.view(val)["fight"]["cards"]] == [None, None]
    assert [c for _, _, c in g.view(cat)["fight"]["cards"]] == [LEVY_2, MESNADA_3]
    events += play(g, ("respond", "defence", CHAMPION_M))
    assert decision(g, "valencia").options == (("garrison", murcia), ("done",))
    assert [c for _, _, c in g.view(cat)["fight"]["cards"]][-1] is None
    events += play(g, ("garrison", murcia))
    # revealed (step 5): every card face up before the dice
    assert [c for _, _, c in g.view(k(g, "seville"))["fight"]["cards"]] == [LEVY_2, MESNADA_3, CHAMPION_M]
    assert not g.s.garrison[murcia]  # spent garrisons are flipped at once (step 4)
    assert dice_asked(g) == 5  # 2 + 3 troops
    events += play(g, (1, 3, 4, 4, 6))
    assert dice_asked(g) == 5  # 2 defence + 1 garrison + 2 Champion
    events += play(g, (1, 1, 1, 4, 4))
    (combat,) = of_kind(events, "combat")
    assert combat.data[2:] == (3, 2, True)  # 3 hits to 2: the attacker wins (5.2)
    assert decision(g, "catalans").options == (("bonus",), ("garrison",))
    events += play(g, ("bonus",))
    assert g.s.owner[denia] == cat
    assert not g.s.garrison[denia] and not g.s.garrison[murcia]
    assert g.s.bonus[val] == -2 and g.s.bonus[cat] == 1
    for cid in (LEVY_2, MESNADA_3):  # 5.1 step 7: every card used is discarded
        assert cid in g.s.discard["christian"]
    assert CHAMPION_M in g.s.discard["muslim"]
    assert g.s.fight is None and not g.s.in_play
    assert {"taifa 5.1", "taifa 5.2", "taifa 7"} <= rules(events)
    assert_one_place(g)
    assert_clone_exact(g)


def test_11_1_alternative_garrison_in_denia() -> None:
    g = denia_position()
    attack_denia(g)
    play(g, (1, 3, 4, 4, 6), (1, 1, 1, 4, 4), ("garrison",))
    denia = area(g, "Denia")
    assert g.s.owner[denia] == k(g, "catalans") and g.s.garrison[denia]
    assert g.s.bonus[k(g, "catalans")] == 0  # the garrison instead of the bonus
    assert g.s.bonus[k(g, "valencia")] == -2


def test_11_1_clone_mid_fight_replays_exactly() -> None:
    g = denia_position()
    attack_denia(g)
    play(g, (1, 3, 4, 4, 6))
    assert_clone_exact(g)
    c = g.clone()
    play(c, (1, 1, 1, 4, 4), ("bonus",))
    play(g, (1, 1, 1, 4, 4), ("bonus",))
    assert c.canonical() == g.canonical()


# --- 11.2: the Catalan bot campaigns ---------------------------------------------------

def catalan_bot(top: list[str], army: list[str], ready: list[str], players: tuple[str, ...] = ()) -> TaifaGame:
    """A Catalan bot with ``army`` and ``ready`` deployed and ``top`` as its face-down pile."""
    g = table(players=players)
    give(g, "catalans", *army, pile="army")
    give(g, "catalans", *ready, pile="ready")
    give(g, "catalans", *top)
    return g


@pytest.mark.parametrize("offensive", [OFFENSIVE_TROOP, OFFENSIVE_EVENT])
@pytest.mark.parametrize("die, target", [(1, "Tudela"), (3, "Tudela"), (4, "Calatayud"), (6, "Calatayud")])
def test_11_2_offensive_card_attacks_with_the_army_of_3(offensive: str, die: int, target: str) -> None:
    g = catalan_bot([offensive], [MESNADA_3], [CHAMPION_C])
    assert g.card(offensive).offensive
    events = begin(g, current="catalans")
    # the card is discarded unread, the army of 3 attacks: Navarra and Tortosa (4) are too strong,
    # Tudela (14, independent) and Calatayud (23, Valencia) defend with 2: the 9.5 die picks
    assert offensive in g.s.discard["christian"]
    assert chance(g).spec == (1, 6)
    assert (area(g, "Tudela"), area(g, "Calatayud")) == (14, 23)
    events += play(g, (die,))
    (atk,) = of_kind(events, "attack")
    assert atk.data[1] == area(g, target)
    assert atk.data[2] == (-1 if target == "Tudela" else k(g, "valencia"))
    assert [c for _, _, c, _ in g.s.fight.cards] == [MESNADA_3, CHAMPION_C]  # Champion added (9.4)
    assert not g.s.army[k(g, "catalans")] and not g.s.ready[k(g, "catalans")]
    assert dice_asked(g) == 5  # 3 troops + 2 Champion
    events += play(g, (6, 6, 6, 1, 1))
    assert dice_asked(g) == 2  # defence 2, no garrison
    play(g, (1, 1))
    assert g.s.owner[area(g, target)] == k(g, "catalans")
    assert g.s.bonus[k(g, "catalans")] == 1  # a bot takes the bonus below +2 (9.4)
    assert {MESNADA_3, CHAMPION_C} <= set(g.s.discard["christian"])
    assert_one_place(g)


@pytest.mark.parametrize("die, victim", [(1, "castile"), (2, "castile"), (3, "castile"),
                                         (4, "valencia"), (5, "valencia"), (6, "valencia")])
def test_11_2_no_troops_the_offensive_card_becomes_an_incursion(die: int, victim: str) -> None:
    g = catalan_bot([OFFENSIVE_EVENT], [], [CHAMPION_C], players=("castile", "valencia"))
    give(g, "castile", "C03", "C04")
    give(g, "valencia", "M11", "M12")
    begin(g, current="catalans")
    # the Catalans border two kingdoms, Castile (Soria) and Valencia (Calatayud), both with cards
    assert chance(g).spec == (1, 6)
    events = play(g, (die,))
    events += decline_all(g)  # the players are asked, cards or not (TA-18)
    choice = of_kind(events, "choice")[0]
    assert choice.data[2] == k(g, victim)  # 1-3 counter-clockwise: Castile; 4-6 clockwise: Valencia
    (inc,) = of_kind(events, "incursion")
    assert inc.data[:2] == (k(g, "catalans"), k(g, victim))
    assert dice_asked(g) == 3  # one die, and two for Champion
    before = len(g.s.hands[k(g, victim)])
    events = play(g, (1, 2, 4))  # one hit is enough (TA-25)
    assert chance(g).kind == "pick" and chance(g).spec == (2,)  # a random card from the hand (5.3)
    events += play(g, 1)
    assert len(g.s.hands[k(g, victim)]) == before - 1
    assert ("C04" if victim == "castile" else "M12") in g.s.discard[g.s.decks[k(g, victim)]]
    (comb,) = of_kind(events, "combat")
    assert comb.data[-1] is True
    assert OFFENSIVE_EVENT in g.s.discard["christian"] and CHAMPION_C in g.s.discard["christian"]
    assert_one_place(g)


def test_11_2_incursion_fails_without_a_hit() -> None:
    g = catalan_bot([OFFENSIVE_EVENT], [], [CHAMPION_C], players=("castile", "valencia"))
    give(g, "castile", "C03")
    begin(g, current="catalans")  # only Castile has cards: no die for the kingdom
    events = decline_all(g) + play(g, (1, 2, 3))
    assert of_kind(events, "combat")[0].data[-1] is False
    assert g.s.hands[k(g, "castile")] == ["C03"]


@pytest.mark.parametrize("die, target", [(2, "Navarra"), (5, "Tortosa")])
def test_11_2_a_second_troop_card_makes_an_army_of_5(die: int, target: str) -> None:
    g = catalan_bot([LEVY_2], [MESNADA_3], [CHAMPION_C])
    events = begin(g, current="catalans")
    deploy = of_kind(events, "deploy")[0]
    assert deploy.data[-1] == 5  # army 3 + 2, more than 3: it attacks at once (9.2)
    # strength 4 = Navarra 3 + its garrison and Tortosa 4 (TA-2), below 5
    assert g.defence(area(g, "Navarra")) == 4 and g.defence(area(g, "Tortosa")) == 4
    events += play(g, (die,))
    (atk,) = of_kind(events, "attack")
    assert atk.data[1] == area(g, target)
    assert dice_asked(g) == 7  # 5 troops + 2 Champion
    play(g, (1,) * 7)
    assert dice_asked(g) == 4  # 3 + the area's own garrison (Navarra) or 4 (Tortosa)
    play(g, (1,) * 4)
    assert g.s.owner[area(g, target)] == -1  # no hits on either side: the defender holds (5.2)
    assert g.s.garrison[area(g, "Navarra")] == (target != "Navarra")  # spent only where attacked (9.4)
    assert_one_place(g)


def test_11_2_army_of_3_alone_does_not_attack() -> None:
    g = catalan_bot([MESNADA_3B], [], [CHAMPION_C])
    events = begin(g, current="catalans")
    assert g.s.army[k(g, "catalans")] == [MESNADA_3B]  # strength 3 does not exceed 3 (9.2)
    assert not of_kind(events, "attack") and not of_kind(events, "combat")
    assert g.s.ready[k(g, "catalans")] == [CHAMPION_C]


# --- 7: the Card Bonus example --------------------------------------------------------

def test_7_bonus_plus_one_two_kept_draws_seven_holds_nine() -> None:
    g = table(players=["castile"])
    cas = k(g, "castile")
    give(g, "castile", "C03", "C04")
    g.s.kept[cas] = 2
    g.s.bonus[cas] = 1
    events = begin(g, ("turn_start",))
    draws = [e for e in of_kind(events, "draw") if e.data[0] == cas]
    assert draws[0].data[1] == 7  # 8 + 1 bonus - 2 kept
    assert len(g.s.hands[cas]) == 9
    assert g.s.bonus[cas] == 0
