"""The fast paths the rules read cards and lines through (issue 32) say what the slow ones said:
an unknown card is still a RulesError, a key's first card is the deck's, and the slots open to
attack are a list of the caller's own."""

from __future__ import annotations

import pytest

from core.engine import RulesError
from core.kingdom.cards import KEYS, packaged_cards
from core.kingdom.lines import attackable
from core.kingdom.state import Realm, Slot


def test_an_unknown_card_is_a_rules_error_however_it_is_looked_up() -> None:
    cards = packaged_cards()
    with pytest.raises(RulesError, match="no card 'no-such-1'"):
        cards["no-such-1"]
    with pytest.raises(RulesError, match="no card 'no-such-1'"):
        cards.by_id["no-such-1"]
    assert cards.by_id.get("no-such-1") is None
    assert cards["land-1"] is cards.by_id["land-1"]


def test_a_keys_first_card_is_the_first_in_file_order() -> None:
    cards = packaged_cards()
    assert set(cards.first) == set(KEYS)
    for key in KEYS:
        assert cards.first[key] is cards.of_key(key)[0]


def test_attackable_lands_then_the_seat_and_a_fresh_list() -> None:
    realm = Realm("anne-1", [Slot("castle-1"), Slot("land-1"), Slot("land-2")])
    open_ = attackable(realm)
    assert [s.card for s in open_] == ["land-1", "land-2"]
    open_.clear()  # the caller's own list: the kingdom keeps its slots
    assert len(realm.slots) == 3
    realm.slots = realm.slots[:1]
    assert [s.card for s in attackable(realm)] == ["castle-1"]
    realm.out = True
    assert attackable(realm) == []
    assert attackable(Realm(None)) == []
