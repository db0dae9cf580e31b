"""Taifa options as text: every option code describes to text that parses back to it, and
bad input gives one clear line (DESIGN.md, the engine contract)."""

from __future__ import annotations

import pytest

from core.chance import SeededChance
from core.engine import Chance, Over, RulesError
from core.rng import SplitMix64
from core.taifa.moves import VERBS
from support import (
    STANDARD, area, assert_one_place, begin, decision, give, new_game, play, table,
)


def random_game(variant: str, players, seed: int):
    """Play a whole game with random choices; yield the game at every Decision."""
    g = new_game(variant, players)
    rng, chance = SplitMix64(seed), SeededChance(seed)
    while True:
        p = g.point()
        if isinstance(p, Over):
            return
        if isinstance(p, Chance):
            g.resolve(chance.outcome(p))
            continue
        yield g, p
        g.apply(p.options[rng.below(len(p.options))])


@pytest.mark.parametrize("variant, players, seed", [
    ("standard", STANDARD, 1),
    ("standard", STANDARD, 2),
    ("standard", ("castile", "seville"), 3),
    ("el-cid", ("el_cid",), 4),
    ("el-cid", ("almoravids", "castile", "catalans", "el_cid"), 5),
])
def test_every_option_describes_and_parses_back(variant: str, players, seed: int) -> None:
    verbs = set()
    for g, p in random_game(variant, players, seed):
        for code in p.options:
            text = g.describe(code)
            assert text and "\n" not in text
            assert g.parse(text) == code, (code, text)
            verbs.add(code[0])
    assert len(verbs) >= 8  # the games reached most kinds of decision


def test_the_games_reach_every_verb() -> None:
    seen = set()
    for variant, players, seed in [("standard", STANDARD, s) for s in range(1, 5)] + [("el-cid", ("el_cid",), 4)]:
        for _g, p in random_game(variant, players, seed):
            seen.update(c[0] for c in p.options)
    assert seen == set(VERBS), set(VERBS) - seen


def test_people_can_type_names() -> None:
    g = table(players=STANDARD)
    give(g, "castile", "C08", "C22", "C35")
    begin(g, current="castile")
    assert g.parse("attack toledo") == ("attack", 33)
    assert g.parse("attack  33 ") == ("attack", 33)
    assert g.parse("raid leon") == ("incursion", "leon")
    assert g.parse("incursion Taifa of Valencia") == ("incursion", "valencia")
    assert g.parse("incursion valencia") == ("incursion", "valencia")
    assert g.parse("play razzia") == ("event", "C35")
    assert g.parse("discard c08") == ("discard", "C08")
    assert g.parse("p") == ("pass",)
    play(g, ("attack", 33))
    assert g.parse("add champion") == ("add", "C22")  # the copy among the options
    assert g.parse("add Mesnada") == ("add", "C08")
    assert g.parse("respond defense C22") == ("respond", "defence", "C22")
    assert g.parse("garrison") == ("garrison",) and g.parse("garrison Burgos") == ("garrison", 10)
    assert g.parse("area Málaga") == ("area", 57) == g.parse("area malaga")


@pytest.mark.parametrize("text, message", [
    ("", "type an action"),
    ("   ", "type an action"),
    ("conquer Toledo", "is not an action"),
    ("attack", "attack needs an area"),
    ("attack Atlantis", "no area named"),
    ("attack 99", "no area 99"),
    ("attack 0", "no area 0"),
    ("incursion Portugal", "no kingdom"),
    ("event", "event needs a card"),
    ("play Z99", "no card"),
    ("pass now", "pass takes nothing"),
    ("done quickly", "done takes nothing"),
    ("respond sideways C21", "respond takes a side"),
    ("respond attack", "needs a card"),
    ("truce el_cid", "no kingdom"),  # not in the standard game
])
def test_bad_input_is_one_clear_line(text: str, message: str) -> None:
    g = table(players=STANDARD)
    begin(g, current="castile")
    with pytest.raises(RulesError, match=message) as err:
        g.parse(text)
    assert "\n" not in str(err.value)


def test_a_parsed_but_illegal_option_is_refused() -> None:
    g = table(players=STANDARD)
    give(g, "castile", "C08")
    begin(g, current="castile")
    for text in ("attack Denia", "event C08", "incursion seville", "discard C09", "bonus", "done"):
        code = g.parse(text)
        with pytest.raises(RulesError, match="not a legal option here") as err:
            g.apply(code)
        assert "\n" not in str(err.value)
    with pytest.raises(RulesError, match="no chance point"):
        g.resolve((1,))
    assert decision(g).seat == 0
    assert_one_place(g)


def test_a_bad_outcome_is_refused() -> None:
    g = table(players=STANDARD)
    give(g, "castile", "C08")
    begin(g, current="castile")
    play(g, ("attack", area(g, "Toledo")), ("add", "C08"))
    with pytest.raises(RulesError, match="no decision"):
        g.apply(("done",))
    for bad in ((1, 2), (0, 1, 1), (7, 1, 1), [1, "x", 1], 3):
        with pytest.raises(RulesError):
            g.resolve(bad)
    play(g, (1, 1, 1))  # still waiting for the same dice
