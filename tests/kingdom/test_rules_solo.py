"""Solo Take the Kingdom: the difficulty table, the allocation, the enemy rules and the end
(take-the-kingdom.txt, "Solo rules", "Enemy rules"; docs/rulings/kingdom.md KD-19..KD-25)."""

from __future__ import annotations

from collections import Counter

import pytest

from core.engine import Over
from core.kingdom import solo as solo_rules

from .support import decision, play, round_with, rules, solo, texts

TABLE = {  # the rulebook's table: Noble, then each Land's Defences, and Egbert's Village
    "easy": [("egbert", [["moat"], ["hills"]], True), ("baligant", [["moat"], []], False), ("maria", [[], []], False)],
    "medium": [("simon", [["moat"], ["hills"], []], False), ("baligant", [["moat"], ["hills"]], False),
               ("maria", [["moat"], ["hills"]], False)],
    "difficult": [("maria", [["moat"], ["hills"]], False), ("egbert", [["moat"], ["hills"]], True),
                  ("simon", [["moat"], []], False)],
    "expert": [("simon", [["moat"], []], False), ("egbert", [["moat"], ["hills"]], True),
               ("charles", [["moat"], ["hills"]], False)],
}


@pytest.mark.parametrize("level", list(TABLE))
def test_each_difficulty_sets_up_the_table(level: str) -> None:
    g = solo(level)
    for k, (noble, lands, village) in enumerate(TABLE[level]):
        r = g.s.realms[k]
        assert g.cards[r.noble].key == noble
        assert g.cards[r.slots[0].card].key == "castle"
        assert [g.cards[c].key for c in r.slots[0].defences] == (["village"] if village else [])
        assert [[g.cards[c].key for c in sl.defences] for sl in r.lands] == lands
        assert all(g.cards[sl.card].key == "land" for sl in r.lands)
        assert not any(g.cards[c].solo for c in r.cards())  # built from the non-solo cards
    decks = [d + [c for c in g.s.revealed if g.cards[c].type in types]
             for d, types in zip(g.s.decks, (("attack",), ("defend", "trap", "mercenaries"),
                                             ("action", "mercy", "penalty")))]
    assert [len(d) for d in decks] == [18, 18, 18] and g.s.turn == 1 and len(g.s.revealed) == 3
    keys = [Counter(g.cards[c].key for c in d) for d in decks]

    assert keys[1]["mercenaries"] == 3 and sum(keys[2][p] for p in ("famine", "disease", "plague")) == 3
    if level == "expert":  # Charles: Gold into the Action deck for a Deny
        assert keys[2]["gold"] == 1 and keys[2]["deny"] == 2
    else:
        assert keys[2]["gold"] == 0 and keys[2]["deny"] == 3
    assert keys[0]["dawn-raid"] == 0 and keys[0]["soldiers"] == 5
    assert sorted(g.s.all_cards()) == sorted(c.id for c in g.cards.cards)


def test_anne_brings_dawn_raid_into_the_attack_deck_for_a_soldiers(monkeypatch: pytest.MonkeyPatch) -> None:
    levels = dict(solo_rules.LEVELS)
    levels["easy"] = (("anne", (("moat",), ("hills",)), False), *solo_rules.LEVELS["easy"][1:])
    monkeypatch.setattr(solo_rules, "LEVELS", levels)
    g = solo("easy")
    attack = g.s.decks[0] + [c for c in g.s.revealed if g.cards[c].type == "attack"]
    keys = Counter(g.cards[c].key for c in attack)
    assert keys["dawn-raid"] == 1 and keys["soldiers"] == 4 and len(attack) == 18


def test_you_allocate_one_card_to_each_kingdom() -> None:
    g = solo("easy")
    round_with(g, "soldiers-1", "walls-1", "deny-1")
    d = decision(g)
    assert d.seat == 0 and sorted(d.options) == [("take", "deny-1"), ("take", "soldiers-1"), ("take", "walls-1")]
    play(g, ("take", "walls-1"))
    assert sorted(decision(g).options) == [("give", "deny-1", 1), ("give", "soldiers-1", 1)]
    ev = play(g, ("give", "deny-1", 1))
    assert "Soldiers goes to Enemy 2 (Maria)" in texts(ev)
    assert decision(g).prompt == "play Walls"


def test_gold_goes_to_charles() -> None:
    g = solo("expert")
    round_with(g, "soldiers-1", "walls-1", "gold-1")
    ev = play(g, ("take", "walls-1"))  # then Soldiers can only go to Enemy 1: Gold is Charles's
    assert "Gold goes to Enemy 2 (Charles)" in texts(ev) and decision(g).prompt == "play Walls"


def test_a_penalty_may_go_to_an_enemy_or_with_the_option_must_be_yours() -> None:
    g = solo("easy")
    round_with(g, "soldiers-1", "walls-1", "plague-1")
    assert ("take", "walls-1") in decision(g).options
    g = solo("easy", penalty_to_player=True)
    round_with(g, "soldiers-1", "walls-1", "plague-1")
    assert sorted(decision(g).options) == [("give", "soldiers-1", 1), ("give", "walls-1", 1)]
    ev = play(g, ("give", "walls-1", 1))
    assert "Plague goes to Egbert (you)" in texts(ev)


def test_an_enemy_adds_defend_cards_from_the_front() -> None:
    g = solo("easy")
    round_with(g, "soldiers-1", "walls-1", "deny-1")
    play(g, ("take", "deny-1"), ("give", "walls-1", 1), ("hold", "deny-1"))
    r = g.s.realms[1]
    assert r.lands[0].defences == ["moat-3", "walls-1"] and r.lands[1].defences == []  # first Land with room


def test_an_enemy_attack_removes_your_land_when_it_can() -> None:
    g = solo("easy")
    round_with(g, "cannon-1", "walls-1", "deny-1")
    ev = play(g, ("take", "walls-1"), ("give", "cannon-1", 1), ("place", "walls-1", "castle-1"))
    # Enemy 1's Cannon (4): your Lands are Land+Moat and Land+Hills; none is open, so it takes the Moat (3)
    assert any("4 damage destroys your Moat" in t for t in texts(ev))
    g = solo("easy")
    g.s.realms[0].slots[2].defences = []  # your second Land stands undefended
    round_with(g, "cannon-1", "walls-1", "deny-1")
    ev = play(g, ("take", "walls-1"), ("give", "cannon-1", 1), ("place", "walls-1", "castle-1"))
    assert any("destroys your Land" in t for t in texts(ev))


def test_an_enemy_holds_deny_and_uses_it_at_the_first_chance() -> None:
    g = solo("easy")
    round_with(g, "pikemen-1", "walls-1", "deny-1")
    ev = play(g, ("take", "walls-1"), ("give", "deny-1", 1), ("place", "walls-1", "castle-1"))
    assert "Enemy 1 (Baligant) holds Deny to use at the first chance" in texts(ev)
    round_with(g, "soldiers-1", "hills-3", "mutiny-1")
    ev = play(g, ("take", "soldiers-1"), ("give", "hills-3", 1), ("attack", "soldiers-1"), ("at", 1, "land-7"))
    assert any("Enemy 1 (Baligant) plays Deny out of turn and blocks" in t for t in texts(ev))


def test_enemy_baligant_plays_a_penalty_at_you_for_your_next_round() -> None:
    g = solo("easy")
    round_with(g, "soldiers-1", "walls-1", "disease-1")
    ev = play(g, ("take", "walls-1"), ("give", "disease-1", 1), ("place", "walls-1", "castle-1"))
    assert any("Disease will strike Egbert (you)" in t for t in texts(ev))
    round_with(g, "soldiers-2", "hills-2", "mutiny-1")
    ev = play(g, ("take", "soldiers-2"), ("give", "hills-2", 1))
    assert any("Disease strikes Egbert (you): no attack this round" in t for t in texts(ev))
    assert ("attack", "soldiers-2") not in decision(g).options


def test_you_answer_an_enemy_attack_with_a_held_deny() -> None:
    g = solo("easy")
    round_with(g, "soldiers-1", "walls-1", "deny-1")
    play(g, ("take", "deny-1"), ("give", "walls-1", 1), ("hold", "deny-1"))  # Maria attacks with Soldiers
    d = decision(g)
    assert d.kind == "respond" and ("deny", "deny-1") in d.options
    play(g, ("deny", "deny-1"))
    assert "soldiers-1" in g.s.discard


def test_gold_bought_card_is_played_at_once_by_its_buyer() -> None:
    g = solo("expert")  # Enemy 2 is Charles, who is given Gold
    round_with(g, "soldiers-1", "walls-1", "gold-1")
    play(g, ("take", "walls-1"), ("place", "walls-1", "castle-1"))
    assert "gold-1" in g.s.realms[2].hand
    round_with(g, "cannon-1", "hills-2", "freeze-1")
    ev = play(g, ("take", "cannon-1"), ("give", "hills-2", 1), ("attack", "cannon-1"), ("at", 2, "land-8"))
    assert any("buys Cannon and plays it at once" in t for t in texts(ev)) and "KD-19" in rules(ev)
    assert "gold-1" in g.s.realms[0].hand  # Gold passed to you, held


def test_after_an_enemy_falls_one_card_a_round_is_discarded() -> None:
    g = solo("easy")
    g.s.realms[2].slots = g.s.realms[2].slots[:1]  # Maria's Castle alone
    round_with(g, "cannon-1", "walls-1", "deny-1")
    play(g, ("take", "cannon-1"), ("give", "walls-1", 1), ("attack", "cannon-1"), ("at", 2, "castle-3"))
    assert g.s.realms[2].out
    round_with(g, "soldiers-1", "hills-2", "mutiny-1")
    play(g, ("take", "hills-2"))
    ev = play(g, ("give", "mutiny-1", 1))
    assert "Soldiers is discarded (an enemy has fallen)" in texts(ev)


def test_your_castle_falling_ends_the_game_and_both_enemies_falling_wins_it() -> None:
    g = solo("easy")
    g.s.realms[0].slots = g.s.realms[0].slots[:1]
    g.s.realms[0].slots[0].defences = []
    round_with(g, "cannon-1", "walls-1", "mutiny-1")
    play(g, ("take", "walls-1"), ("give", "cannon-1", 1), ("discard", "walls-1"))
    assert isinstance(g.point(), Over) and g.result.reason == "your Castle has fallen" and 0 not in g.result.winners


def test_after_eighteen_rounds_the_strongest_standing_kingdom_wins() -> None:
    g = solo("easy")
    g.s.turn = 18  # round_with deals round 18 again
    round_with(g, "soldiers-1", "walls-1", "mutiny-1")
    play(g, ("take", "walls-1"), ("give", "soldiers-1", 1), ("place", "walls-1", "castle-1"), ("pass",))
    assert isinstance(g.point(), Over)
    scores = g.result.scores
    best = max(scores[k] for k in range(3) if not g.s.realms[k].out)
    assert scores[g.result.winners[0]] == best and g.result.reason.startswith("after 18 rounds")
