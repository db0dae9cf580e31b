"""Fetlar Hnefatafl 11x11 (aagenielsen.dk/fetlar_rules_en.php; rulings TF-20, TF-24, TF-25)."""

from __future__ import annotations

from collections.abc import Callable

from core.tafl import TaflGame
from core.tafl.board import ATTACKER, DEFENDER, KING

Setup = Callable[..., TaflGame]


def play(game: TaflGame, text: str) -> str:
    events = game.apply(game.parse(text))
    return next(e.data[0] for e in events if e.kind == "move")


def test_layout_and_defaults() -> None:
    g = TaflGame("fetlar")
    assert (g.board.count(ATTACKER), g.board.count(DEFENDER), g.board[g.geo.centre]) == (24, 12, KING)
    assert g.to_move == 0  # fetlar 6
    assert g.opts == {"quiet_moves": 0, "repetition": "draw"}  # fetlar 9: repetitions draw


def test_capture_cites_fetlar(setup: Setup) -> None:
    g = setup("fetlar", attackers="a8 f9", defenders="f7 b2", king="c3")
    events = g.apply(g.parse("a8-f8"))
    assert [(e.kind, e.rule) for e in events] == [("move", "fetlar 6"), ("capture", "fetlar 3; fetlar 4; fetlar 7")]


def test_king_on_four_sides_or_three_and_the_throne(setup: Setup) -> None:
    g = setup("fetlar", attackers="c4 e4 d3 d7", defenders="j9", king="d4")
    assert play(g, "d7-d5") == "d7-d5xKd4"
    assert g.result.winners == (0,) and g.result.rule == "fetlar 5"
    g2 = setup("fetlar", attackers="e5 g5 c4", defenders="j9", king="f5")
    events = g2.apply(g2.parse("c4-f4"))
    assert ("capture", "fetlar 7; TF-20") in [(e.kind, e.rule) for e in events]


def test_king_is_not_captured_on_the_edge(setup: Setup) -> None:
    g = setup("fetlar", attackers="a5 a7 c6", defenders="j9", king="a6")
    assert play(g, "c6-b6") == "c6-b6" and g.result is None


def test_a_lone_king_shut_in_on_the_edge_loses(setup: Setup) -> None:
    # fetlar 7: on the edge only when he is the last defender and surrounded: he cannot move (TF-25).
    g = setup("fetlar", attackers="a5 a7 c6", king="a6")
    play(g, "c6-b6")
    assert g.result.winners == (0,) and g.result.rule == "fetlar 8; TF-25"


def test_encircling_every_defender_wins(setup: Setup) -> None:
    ring = "d5 d6 d7 h5 h6 h7 e4 f4 g4 f8 g8 e10"
    g = setup("fetlar", attackers=ring, defenders="f7", king="f6")
    play(g, "e10-e8")
    assert g.result.winners == (0,) and g.result.rule == "fetlar 7b; TF-24"
    near = setup("fetlar", attackers=ring, defenders="f7", king="f6")
    play(near, "e10-e9")
    assert near.result is None


def test_no_shieldwall_and_no_exit_fort(setup: Setup) -> None:
    # Neither rule is in the Fetlar text: the Copenhagen positions do nothing here.
    g = setup("fetlar", attackers="d2 e2 f1 c5", defenders="d1 e1 h5", king="f6")
    assert play(g, "c5-c1") == "c5-c1"
    fort = setup("fetlar", attackers="e9 h3 j8", defenders="a4 b6 a7 d5", king="a6", to_move="defenders")
    play(fort, "d5-b5")
    assert fort.result is None


def test_repetition_is_a_draw(setup: Setup) -> None:
    g = setup("fetlar", attackers="b9", defenders="j3", king="f6")
    for move in ["b9-b8", "j3-j4", "b8-b9", "j4-j3"] * 2:
        play(g, move)
    assert g.result.winners == () and g.result.rule == "TF-6"


def test_attackers_without_a_move_lose(setup: Setup) -> None:
    g = setup("fetlar", attackers="a2", defenders="a3 b5", king="f6", to_move="defenders")
    play(g, "b5-b2")
    assert g.result.winners == (1,) and g.result.rule == "fetlar 8; TF-25"


def test_the_armed_king_captures_and_the_occupied_throne_shields_defenders(setup: Setup) -> None:
    # fetlar 7: the king may take part in captures; fetlar 3: the throne is hostile to the
    # defenders only when empty.
    g = setup("fetlar", attackers="d5 a2", defenders="c9", king="e4", to_move="defenders")
    assert play(g, "Ke4-e5") == "Ke4-e5"  # d5 between e5 (the king) and c5 (empty): nothing
    g2 = setup("fetlar", attackers="d5 a2", defenders="c5", king="e4", to_move="defenders")
    assert play(g2, "Ke4-e5") == "Ke4-e5xd5"
    g3 = setup("fetlar", attackers="a8", defenders="f7", king="f6")
    assert play(g3, "a8-f8") == "a8-f8"  # f7 between f8 and the king on his throne: safe
    g4 = setup("fetlar", attackers="a8", defenders="f7 b2", king="c3")
    assert play(g4, "a8-f8") == "a8-f8xf7"  # the empty throne is hostile to him
