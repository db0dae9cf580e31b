"""The rulings of issue 27 (docs/rulings/kingdom.md, rules revision 3): the rulebook's reading by
default, and each alternative, with its revision-2 value, as a rule option. A scenario for each
value of each option."""

from __future__ import annotations

from core.engine import Decision, Over
from tests.kingdom.support import decision, play, realm, start_turn, table

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
    from core.kingdom import REVISION_2

    gi = info("kingdom")
    assert gi.record_options(2, "multi-3", {}) == REVISION_2
    old = gi.make("multi-3", REVISION_2)
    assert not set(REVISION_2) & set(old.canonical()["options"])
    assert gi.make("multi-3", {}).canonical()["options"]["pass_round_ends"] is False
