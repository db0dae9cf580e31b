"""Take the Kingdom's plain-text view (tui/games/kingdom/text.py): lines of defence with damage
and Traps as each seat may see them, the hand with card text, the solo round, 80 columns."""

from __future__ import annotations

from typing import Any

from core import games as core_games
from core.kingdom.state import Slot
from notation.runner import GameSetup, Runner, SeatPlan
from tui.games import position_text
from tui.games.kingdom import text


def played(variant: str, steps: int, seed: int = 3) -> Any:
    """A game of random seats after ``steps`` steps."""
    kinds = ["random", "bot", "bot"] if variant == "solo" else ["random"] * int(variant[-1])
    setup = GameSetup("kingdom", variant, tuple(SeatPlan(k) for k in kinds), seed)
    header, _ = setup.start(core_games.info("kingdom"), core_games.info)
    runner = Runner(header, core_games.info, None)
    for _ in range(steps):
        runner.step()
    return runner.game


def with_trap_and_damage() -> Any:
    """Two players in turn 1; Player 2's Castle gets Walls with 2 damage from Soldiers, and a real Trap."""
    game = played("multi-2", 40)
    s = game.s
    castle = s.realms[1].slots[0]
    s.realms[1].slots[0] = Slot(castle.card, ["walls-1"], "trap-1", {"walls-1": ["soldiers-1"]}, {"walls-1": 2})
    return game


def test_damage_is_tucked_under_its_card_and_a_trap_is_face_down_to_others() -> None:
    game = with_trap_and_damage()
    assert game.card("trap-1").real
    mine = position_text(game, 1)
    theirs = position_text(game, 0)
    for shown in (mine, theirs):  # the one Walls there needs no id
        assert "    Walls +4 (2 damage: Soldiers)\n" in shown and "walls-1" not in shown
    assert "    Trap (face down)\n" in theirs and "trap-1" not in theirs and "real" not in theirs
    assert "    Trap (face down; real)\n" in mine and "trap-1" not in mine
    assert "Player 2 (" in theirs and "Walls+4 (2 dmg); trap]" in text.status(game, 0)


def test_the_hand_with_its_text_and_the_other_hands_as_counts() -> None:
    game = played("multi-3", 60)
    shown = position_text(game, 0)
    hand = game.s.realms[0].hand
    assert f"Your hand: {len(hand)} cards" in shown
    for cid in hand:
        assert f"\n  {text.named(game, cid)}" in shown and game.card(cid).text.split()[0] in shown  # (Maria's Pikemen
        # say what they do for her on the same line)
    for k in (1, 2):
        assert f"{len(game.s.realms[k].hand)} cards in hand" in shown
        assert not any(c in shown for c in game.s.realms[k].hand)
        mine = {game.card(c).text for c in hand}
        assert not any(game.card(c).text in shown for c in game.s.realms[k].hand if game.card(c).text not in mine)
    assert "Gold used" in shown and f"deck {len(game.s.deck)}" in shown
    assert "Your hand" not in position_text(game, None)  # a spectator sees no hand
    assert all(len(line) <= 80 for line in text.status(game, 0).splitlines())


def test_a_solo_round_shows_the_revealed_cards_and_what_is_held() -> None:
    game = played("solo", 3)
    shown = position_text(game, 0)
    assert "solo, easy: round 1 of 18" in shown and "decks: Attack 17, Defend 17, Action 17" in shown
    first = game.s.revealed[0]
    assert "revealed: " + ", ".join(text.named(game, c) for c in game.s.revealed) in shown
    assert text.named(game, first) == game.card(first).name + " " + text.value_text(game.card(first))
    assert not any(c in shown for c in game.s.revealed)  # names, not ids
    assert "Egbert (you) · " in shown and "Noble: Graf Egbert of Brunswick (3)" in shown
    assert "    Village +2" in shown  # Egbert's Village on his Castle
    assert all(len(line) <= 80 for line in shown.splitlines())
