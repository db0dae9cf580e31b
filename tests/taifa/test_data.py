"""Playing on a user's own map or decks (--map / --cards): records name the data they need."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources

import pytest

from core.engine import RulesError
from core.games import info, new_game
from core.taifa.cards import parse_cards
from core.taifa.data import cards_fingerprint, map_fingerprint, packaged_cards, packaged_map, setup_fields
from core.taifa.map import parse_map


@pytest.fixture
def own_map() -> Iterator:
    text = resources.files("core.taifa").joinpath("data/map.toml").read_text("utf-8")
    # Cantabria (area 1) one defence stronger: a different, still valid map.
    text = text.replace('name = "Cantabria"\ndefence = 2', 'name = "Cantabria"\ndefence = 3', 1)
    m = parse_map(text, "own-map.toml")
    assert m.area(1).defence == 3
    yield m


def test_packaged_data_adds_nothing_to_a_record() -> None:
    assert setup_fields({}) == {}
    assert info("taifa").setup_for("standard", ["human"] + ["bot"] * 5) == {
        "bots": ["catalans", "valencia", "seville", "badajoz", "leon"]}
    assert new_game("taifa", "standard", {}, {"bots": ["castile"]}).seats[0] == "Castile"


def test_fingerprints_tell_data_apart(own_map) -> None:
    assert map_fingerprint(own_map) != map_fingerprint(packaged_map())
    assert map_fingerprint(packaged_map()) == map_fingerprint(packaged_map())
    assert len(cards_fingerprint(packaged_cards())) == 16


def test_a_record_on_an_own_map_needs_that_map(own_map) -> None:
    taifa = info("taifa").with_data({"map": own_map})
    fields = setup_fields({"map": own_map})
    assert fields == {"map": map_fingerprint(own_map)}
    assert taifa.setup_for("standard", ["human"] * 6) == {"bots": [], **fields}
    game = taifa.make("standard", {}, {"bots": [], **fields})
    assert game.m.area(1).defence == 3 and game.m is own_map
    # The data travels with the game, not the process: the registry's own entry is untouched.
    assert new_game("taifa", "standard", {}, {"bots": []}).m is packaged_map()
    # Replaying it without --map:
    with pytest.raises(RulesError, match="its own map .*--map"):
        new_game("taifa", "standard", {}, {"bots": [], **fields})


def test_a_packaged_record_refuses_an_own_map(own_map) -> None:
    with pytest.raises(RulesError, match="packaged map; leave out --map"):
        info("taifa").with_data({"map": own_map}).make("standard", {}, {"bots": []})


def test_own_cards_are_fingerprinted() -> None:
    text = resources.files("core.taifa").joinpath("data/cards.toml").read_text("utf-8")
    own = parse_cards(text.replace("Mailed knights on great horses", "Knights", 1), "own-cards.toml")
    # The text is not a rule: the same effects give the same fingerprint...
    assert cards_fingerprint(own) == cards_fingerprint(packaged_cards())
    stronger = parse_cards(text.replace("strength = 2", "strength = 3", 1), "own-cards.toml")
    assert cards_fingerprint(stronger) != cards_fingerprint(packaged_cards())  # ...a strength is
    assert setup_fields({"cards": stronger}) == {"cards": cards_fingerprint(stronger)}
