"""Brandubh 7x7: dragonheelslair.com's rules by default, setupgroup.com's strong king as an option (TF-27..TF-29)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.tafl import TaflGame
from core.tafl.board import ATTACKER, DEFENDER, KING

Setup = Callable[..., TaflGame]
STRONG = {"strong_king_at_throne": True}


def play(game: TaflGame, text: str) -> str:
    events = game.apply(game.parse(text))
    return next(e.data[0] for e in events if e.kind == "move")


def test_layout_and_defaults() -> None:
    g = TaflGame("brandubh")
    assert (g.board.count(ATTACKER), g.board.count(DEFENDER), g.board[g.geo.centre]) == (8, 4, KING)
    assert g.geo.size == 7 and g.to_move == 0
    assert g.opts == {"quiet_moves": 0, "repetition": "draw", "strong_king_at_throne": False}


def test_only_the_king_stops_on_the_throne_and_corners(setup: Setup) -> None:
    g = setup("brandubh", attackers="a2", defenders="d6", king="b4", to_move="defenders")
    names = {(g.geo.names[f], g.geo.names[t]) for f, t in g.legal_moves()}
    assert ("d6", "d4") not in names and ("d6", "d3") in names and ("b4", "d4") in names


def test_king_captured_by_two_anywhere(setup: Setup) -> None:
    # brandubh Capturing: on the throne too, and beside it.
    g = setup("brandubh", attackers="c4 e6", defenders="a2", king="d4")
    events = g.apply(g.parse("e6-e4"))
    assert [(e.kind, e.rule) for e in events][-2:] == [("capture", "brandubh Capturing; TF-28"),
                                                      ("result", "brandubh Aim")]
    g2 = setup("brandubh", attackers="c3 e6", defenders="a2", king="d3")
    assert play(g2, "e6-e3") == "e6-e3xKd3"


def test_king_captured_against_a_corner_and_on_the_edge(setup: Setup) -> None:
    g = setup("brandubh", attackers="c3", defenders="f6", king="b1")
    assert play(g, "c3-c1") == "c3-c1xKb1"
    g2 = setup("brandubh", attackers="c1 e3", defenders="f6", king="d1")
    assert play(g2, "e3-e1") == "e3-e1xKd1"


def test_the_throne_is_hostile_to_no_one_by_default(setup: Setup) -> None:
    # TF-28: the corners are hostile, the throne is not (dragonheelslair.com).
    g = setup("brandubh", attackers="a3", defenders="d3 f6", king="b6")
    assert play(g, "a3-a2") == "a3-a2"
    assert play(g, "f6-f5") == "f6-f5"
    assert play(g, "a2-d2") == "a2-d2"  # d3 sits between d2 and the empty throne: safe


def test_strong_king_needs_four_on_the_throne(setup: Setup) -> None:
    g = setup("brandubh", attackers="c4 e4 d3 f5", defenders="a2", king="d4", **STRONG)
    events = g.apply(g.parse("f5-d5"))
    assert ("capture", "setupgroup v2; TF-28") in [(e.kind, e.rule) for e in events]
    g2 = setup("brandubh", attackers="c4 e6", defenders="a2", king="d4", **STRONG)
    assert play(g2, "e6-e4") == "e6-e4" and g2.result is None


def test_strong_king_beside_the_throne_needs_three(setup: Setup) -> None:
    g = setup("brandubh", attackers="c3 e6 d1", defenders="a5", king="d3", **STRONG)
    assert play(g, "e6-e3") == "e6-e3"
    assert play(g, "a5-a6") == "a5-a6"
    assert play(g, "d1-d2") == "d1-d2xKd3"


def test_strong_king_elsewhere_by_two_and_the_empty_throne_hostile(setup: Setup) -> None:
    g = setup("brandubh", attackers="b2 f2", defenders="a5", king="c2", **STRONG)
    assert play(g, "f2-d2") == "f2-d2xKc2"
    g2 = setup("brandubh", attackers="a2", defenders="d3 f6", king="b6", **STRONG)
    play(g2, "a2-d2")
    assert g2.board[g2.geo.square("d3")] == 0  # setupgroup v2: taken against the empty throne


def test_no_legal_move_is_a_draw(setup: Setup) -> None:
    # TF-29 (brandubh Draw): a side that cannot move draws.
    g = setup("brandubh", attackers="a2", defenders="a3 b5", king="d4", to_move="defenders")
    play(g, "b5-b2")
    assert g.result.winners == () and g.result.rule == "brandubh Draw; TF-29"


@pytest.mark.parametrize("options", [{}, STRONG])
def test_repetition_is_a_draw(setup: Setup, options: dict[str, bool]) -> None:
    g = setup("brandubh", attackers="b6", defenders="f2", king="d4", **options)
    for move in ["b6-b5", "f2-f3", "b5-b6", "f3-f2"] * 2:
        play(g, move)
    assert g.result.winners == () and g.result.rule == "TF-6"



def test_the_armed_king_captures(setup: Setup) -> None:
    # brandubh Capturing: the king may take part in captures, like any warrior.
    g = setup("brandubh", attackers="c5 a2", defenders="b5", king="d6", to_move="defenders")
    assert play(g, "Kd6-d5") == "Kd6-d5xc5"
