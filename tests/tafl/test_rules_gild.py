"""The Tafl-Gild tournament rules (tafl-gild.txt) on 9x9 and 11x11."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.engine import Over, RulesError
from core.tafl import TaflGame
from core.tafl.board import ATTACKER, DEFENDER, KING

Setup = Callable[..., TaflGame]


def play(game: TaflGame, text: str) -> str:
    events = game.apply(game.parse(text))
    return next(e.data[0] for e in events if e.kind == "move")


@pytest.mark.parametrize(("name", "attackers", "defenders"), [("gild-9", 16, 8), ("gild-11", 24, 12)])
def test_layouts(name: str, attackers: int, defenders: int) -> None:
    g = TaflGame(name)
    assert g.board.count(ATTACKER) == attackers
    assert g.board.count(DEFENDER) == defenders
    assert g.board[g.geo.centre] == KING
    # The base camps are exactly the attackers' starting T-shapes.
    camp_squares = {i for i, c in enumerate(g.geo.camp_of) if c}
    assert camp_squares == {i for i, p in enumerate(g.board) if p == ATTACKER}


def test_gild_9_defenders_two_squares_in_line_from_the_hof() -> None:
    g = TaflGame("gild-9")
    names = {g.geo.names[i] for i, p in enumerate(g.board) if p == DEFENDER}
    assert names == {"e3", "e4", "e6", "e7", "c5", "d5", "f5", "g5"}


def test_king_off_the_hof_captured_between_two(setup: Setup) -> None:
    g = setup("gild-9", attackers="b3 d7", defenders="h8", king="c3")
    assert play(g, "d7-d3") == "d7-d3xKc3"
    assert isinstance(g.point(), Over) and g.result.winners == (0,)


def test_king_on_the_hof_needs_four(setup: Setup) -> None:
    g = setup("gild-9", attackers="d5 f5 e4 h6", defenders="b8", king="e5")
    assert play(g, "h6-e6") == "h6-e6xKe5"
    g2 = setup("gild-9", attackers="d5 f5 h6", defenders="b8", king="e5")
    assert play(g2, "h6-e6") == "h6-e6"
    assert g2.result is None


def test_hof_and_corners_are_not_hostile_to_the_king(setup: Setup) -> None:
    # TF-13: the hof and corners stand in for an enemy "except for the king".
    g = setup("gild-9", attackers="h3", defenders="b8", king="e4")
    assert play(g, "h3-e3") == "h3-e3"  # e3 and the empty hof on e5: he is safe
    assert g.result is None
    g2 = setup("gild-9", attackers="c6", defenders="h8", king="b1")
    assert play(g2, "c6-c1") == "c6-c1"  # c1 and the corner a1: safe
    assert g2.result is None


def test_king_off_the_hof_is_taken_against_an_empty_camp(setup: Setup) -> None:
    # TF-13: camps are hostile "to attackers and defenders alike", the king included.
    g = setup("gild-9", attackers="h4", defenders="b8", king="e3")
    assert play(g, "h4-e4") == "h4-e4xKe3"  # e4 and the empty camp square e2
    assert g.result is not None and g.result.winners == (0,)


def test_empty_camp_square_is_hostile(setup: Setup) -> None:
    g = setup("gild-9", attackers="d8", defenders="c5", king="h7")
    assert play(g, "d8-d5") == "d8-d5xc5"


def test_camp_hostile_to_attackers_too(setup: Setup) -> None:
    g = setup("gild-9", attackers="c5 i8", defenders="d8", king="h7", to_move="defenders")
    assert play(g, "d8-d5") == "d8-d5xc5"


def test_camp_moves(setup: Setup) -> None:
    g = setup("gild-9", attackers="d1 e3", defenders="b8", king="h7")
    names = g.geo.names
    from_d1 = {names[t] for f, t in g.legal_moves() if names[f] == "d1"}
    assert {"e1", "f1"} <= from_d1  # within its camp
    assert play(g, "d1-d2") == "d1-d2"  # leaves the camp
    play(g, "b8-b7")
    with pytest.raises(RulesError, match="never return"):
        g.parse("d2-d1")
    with pytest.raises(RulesError, match="never return"):
        g.parse("e3-e2")


def test_no_other_piece_stops_in_a_camp_but_may_cross(setup: Setup) -> None:
    g = setup("gild-9", attackers="h8", defenders="c6", king="c3", to_move="defenders")
    names = g.geo.names
    dests = {names[t] for f, t in g.legal_moves() if names[f] == "c6"}
    assert "b6" in dests and "a6" not in dests
    with pytest.raises(RulesError, match="only attackers may stop in a base camp"):
        g.parse("c6-a6")
    # A defender on b2 passes over the camp square e2 to reach h2.
    g2 = setup("gild-9", attackers="h8", defenders="b2", king="c4", to_move="defenders")
    assert play(g2, "b2-h2") == "b2-h2"


def test_hof_and_corners_are_for_the_king(setup: Setup) -> None:
    g = setup("gild-9", attackers="e2 a2", defenders="b9", king="g7")
    with pytest.raises(RulesError, match="only the king may stop on the hof"):
        g.parse("e2-e5")
    assert play(g, "e2-e7") == "e2-e7"  # passing over the empty hof
    with pytest.raises(RulesError, match="only the king may stop on a corner"):
        g.parse("b9-a9")


def test_king_escapes_to_a_corner(setup: Setup) -> None:
    g = setup("gild-11", attackers="f3", defenders="b9", king="k3", to_move="defenders")
    play(g, "Kk3-k1")
    assert g.result is not None and g.result.winners == (1,)


def test_attacker_inside_its_camp_is_taken_against_an_empty_camp_square(setup: Setup) -> None:
    # TF-11: the camp is hostile to attackers alike, even one still inside it.
    g = setup("gild-9", attackers="d1 i8", defenders="c4", king="h7", to_move="defenders")
    assert play(g, "c4-c1") == "c4-c1xd1"


def test_occupied_camp_square_acts_as_its_attacker(setup: Setup) -> None:
    # TF-11: f2 stands between a defender arriving on g2 and the attacker on e2
    # (a camp square, but occupied by a friend): f2 is safe.
    g = setup("gild-9", attackers="e2 f2 i8", defenders="g4", king="h7", to_move="defenders")
    assert play(g, "g4-g2") == "g4-g2"


def test_an_attacker_in_its_camp_cannot_enter_another(setup: Setup) -> None:
    g = setup("gild-9", attackers="d1", defenders="b8", king="e5")
    with pytest.raises(RulesError, match="within that camp, never into another"):
        g.parse("d1-d9")
