"""What a Taifa player weighs at its choice (core/taifa/prospects.py): the dice each side of a
fight over an area would throw (5.2: the printed defence, a die a garrison spent, 5.1 step 4;
a bot's or an independent area's own garrison always, 9.4, TA-20), and why a kind of action is
missing from a round's options (5, 5.3, 5.6, TA-19), as ``actions`` leaves it out."""

from __future__ import annotations

from core.taifa.game import TaifaGame
from core.taifa.prospects import attack_dice, defence_dice, unavailable
from tests.taifa.support import area, begin, give, k, set_owner, table


def card(g: TaifaGame, name: str) -> str:
    """The first Christian card of that name."""
    return next(c.id for c in g.decks.christian if c.name == name)


def troop(g: TaifaGame, strength: int) -> str:
    """The first Christian Troop card of that strength."""
    return next(c.id for c in g.decks.christian if c.kind == "troop" and c.strength == strength)


def kinds(g: TaifaGame, seat: int) -> set[str]:
    return {code[0] for code in g.actions(seat)}


def test_a_players_area_defends_with_its_printed_defence_and_each_garrison_it_may_spend() -> None:
    g = table(players=["valencia", "castile"])
    denia = area(g, "Denia")  # defence 2, Valencia's (the rulebook's example, 5.2)
    assert g.m.areas[denia - 1].defence == 2 and g.s.owner[denia] == k(g, "valencia")
    set_owner(g, "valencia", "Denia", "Murcia", garrison=True)  # its own garrison and one next to it
    set_owner(g, "catalans", "Xàtiva", garrison=True)  # next to it, but another kingdom's
    assert defence_dice(g, denia) == (2, 4)  # the garrisons are the player's choice
    set_owner(g, "valencia", "Murcia", garrison=False)
    assert defence_dice(g, denia) == (2, 3)


def test_a_bots_or_an_independent_area_always_spends_its_own_garrison_alone() -> None:
    g = table(players=["castile"])  # Valencia a bot
    set_owner(g, "valencia", "Denia", "Murcia", garrison=True)
    denia = area(g, "Denia")
    assert defence_dice(g, denia) == (3, 3)  # 9.4: the attacked area's garrison, not Murcia's
    set_owner(g, None, "Denia")
    assert defence_dice(g, denia) == (3, 3)  # TA-20
    set_owner(g, None, "Denia", garrison=False)
    assert defence_dice(g, denia) == (2, 2)


def test_the_attacker_may_throw_its_troops_strength_and_the_dice_its_responses_add() -> None:
    g = table(players=["castile"])
    two, three = troop(g, 2), troop(g, 3)
    give(g, "castile", two, three, card(g, "Champion"), card(g, "Siege Engines"), card(g, "Militia"))
    # Champion adds 2 to its own attack; Siege Engines cut the other side's; Militia is the defender's.
    assert attack_dice(g, k(g, "castile")) == 2 + 3 + 2


def test_a_kingdom_without_cards_can_only_pass() -> None:
    g = table(players=["castile"])
    begin(g, current="castile")
    castile = k(g, "castile")
    assert g.actions(castile) == [("pass",)]
    assert unavailable(g, castile) == ["no cards in hand: you can only pass (5.6)"]


def test_without_troop_cards_there_is_no_incursion_and_no_attack_unless_a_response_carries_it() -> None:
    g = table(players=["castile"])
    give(g, "castile", card(g, "Militia"))
    begin(g, current="castile")
    castile = k(g, "castile")
    assert "attack" not in kinds(g, castile) and "incursion" not in kinds(g, castile)
    assert unavailable(g, castile) == ["no Troop cards, nor a Response that adds dice: no attack (TA-19)",
                                       "no Troop cards: no incursion (5.3)", "no Event cards: no event"]
    give(g, "castile", card(g, "Champion"))  # a Response that adds dice carries an attack (TA-19)
    assert "attack" in kinds(g, castile)
    assert unavailable(g, castile) == ["no Troop cards: no incursion (5.3)", "no Event cards: no event"]


def test_revision_1_needs_a_troop_card_for_an_attack() -> None:
    g = table(players=["castile"], attack_by_response=False)
    give(g, "castile", card(g, "Champion"))
    begin(g, current="castile")
    castile = k(g, "castile")
    assert "attack" not in kinds(g, castile)
    assert unavailable(g, castile)[0] == "no Troop cards: no attack"


def test_a_truce_on_every_border_is_why_there_is_no_attack_and_no_incursion() -> None:
    g = table(players=["castile"])
    castile, leon = k(g, "castile"), k(g, "leon")
    toledo = area(g, "Toledo")
    for a in g.s.areas_of(castile):
        g.s.owner[a] = leon
    g.s.owner[toledo] = castile
    for b in g.m.areas[toledo - 1].borders:
        g.s.owner[b] = leon  # Castile holds Toledo alone, among Leon's areas
    give(g, "castile", troop(g, 3))
    begin(g, current="castile")
    g.s.truces.append((leon, castile, ("attack", "incursion")))  # Leon is at peace with Castile (5.4)
    assert not kinds(g, castile) & {"attack", "incursion"}
    assert unavailable(g, castile)[:2] == ["a truce forbids attacking every area bordering yours: no attack",
                                           "a truce forbids raiding each of your neighbours: no incursion"]
