"""The traditional 11x11 rules (tafl-traditional.txt), square names in OpenTafl notation."""

from __future__ import annotations

import pytest

from core.engine import Over, RulesError
from core.tafl import TaflGame
from core.tafl.board import ATTACKER, DEFENDER, KING

from collections.abc import Callable

Setup = Callable[..., TaflGame]


def play(game: TaflGame, text: str) -> list:
    return game.apply(game.parse(text))


def records(events: list) -> str:
    return next(e.data[0] for e in events if e.kind == "move")


def test_start_layout_counts() -> None:
    g = TaflGame("traditional")
    assert g.board.count(ATTACKER) == 24
    assert g.board.count(DEFENDER) == 12
    assert g.board[g.geo.centre] == KING  # the king on the throne (trad setup.4)
    assert g.to_move == 0  # attackers first (trad setup.5)
    assert g.position() == "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"


def test_six_on_each_edge() -> None:
    # TF-1: each edge carries 5 in a row plus 1 in front of the middle: 6 per side.
    g = TaflGame("traditional")
    names = {g.geo.names[i] for i, p in enumerate(g.board) if p == ATTACKER}
    assert {"d1", "e1", "f1", "g1", "h1", "f2"} <= names
    assert {"a4", "a5", "a6", "a7", "a8", "b6"} <= names


def test_custodial_capture(setup: Setup) -> None:
    g = setup("traditional", attackers="e3 g1", defenders="f3 a6", king="k6")
    events = play(g, "g1-g3")
    assert records(events) == "g1-g3xf3"
    assert g.board[g.geo.square("f3")] == 0


def test_moving_between_two_enemies_is_safe(setup: Setup) -> None:
    g = setup("traditional", attackers="d3 f3 a2", defenders="e7", king="k6", to_move="defenders")
    events = play(g, "e7-e3")
    assert records(events) == "e7-e3"
    assert g.board[g.geo.square("e3")] == DEFENDER


def test_capture_against_corner(setup: Setup) -> None:
    g = setup("traditional", attackers="c4", defenders="b1 f8", king="j9")
    assert records(play(g, "c4-c1")) == "c4-c1xb1"


def test_capture_against_empty_throne(setup: Setup) -> None:
    g = setup("traditional", attackers="c4", defenders="f5 b9", king="j9")
    assert records(play(g, "c4-f4")) == "c4-f4xf5"


def test_multiple_captures_in_one_move(setup: Setup) -> None:
    g = setup("traditional", attackers="c5 g5 e7 e1", defenders="d5 f5 e6", king="j9")
    rec = records(play(g, "e1-e5"))
    assert rec.startswith("e1-e5x")
    assert sorted(rec.split("x")[1].split("/")) == ["d5", "e6", "f5"]


def test_pieces_cross_but_never_stop_on_the_throne(setup: Setup) -> None:
    g = setup("traditional", attackers="a2 b2", defenders="f3", king="k6", to_move="defenders")
    dests = {t for f, t in g.legal_moves() if g.geo.names[f] == "f3"}
    names = {g.geo.names[t] for t in dests}
    assert {"f7", "f8", "f9", "f10", "f11"} <= names
    assert "f6" not in names
    with pytest.raises(RulesError, match="only the king may stop on the throne"):
        g.parse("f3-f6")


def test_king_captured_on_four_sides(setup: Setup) -> None:
    g = setup("traditional", attackers="d4 f4 e3 h5", defenders="a7", king="e4")
    events = play(g, "h5-e5")
    assert records(events) == "h5-e5xKe4"
    point = g.point()
    assert isinstance(point, Over)
    assert point.result.winners == (0,)


def test_king_not_captured_on_three_sides(setup: Setup) -> None:
    g = setup("traditional", attackers="d4 f4 h5", defenders="a7", king="e4")
    assert records(play(g, "h5-e5")) == "h5-e5"
    assert g.result is None


def test_king_between_two_is_safe(setup: Setup) -> None:
    g = setup("traditional", attackers="c4 h5", defenders="a7", king="d4")
    # e4 would close a custodial pair, but the traditional king needs four sides.
    assert records(play(g, "h5-h4")) == "h5-h4"
    g2 = setup("traditional", attackers="c4 e8", defenders="a7", king="d4")
    play(g2, "e8-e4")
    assert g2.board[g2.geo.square("d4")] == KING


def test_king_beside_throne_falls_to_three_plus_throne(setup: Setup) -> None:
    # TF-3 default: the empty throne counts as one side.
    g = setup("traditional", attackers="e7 g7 f9", defenders="a3", king="f7")
    play(g, "f9-f8")
    assert g.result is not None and g.result.winners == (0,)
    g2 = setup("traditional", attackers="e7 g7 f9", defenders="a3", king="f7", throne_counts_for_king=False)
    play(g2, "f9-f8")
    assert g2.result is None


def test_king_on_the_edge_cannot_be_captured(setup: Setup) -> None:
    # TF-10: the edge is not a side.
    g = setup("traditional", attackers="d1 f1 e3", defenders="a7", king="e1")
    play(g, "e3-e2")
    assert g.result is None


def test_armed_king_captures(setup: Setup) -> None:
    g = setup("traditional", attackers="e5 a2", defenders="e4", king="e9", to_move="defenders")
    assert records(play(g, "Ke9-e6")) == "Ke9-e6xe5"


def test_king_reaching_corner_wins(setup: Setup) -> None:
    g = setup("traditional", attackers="e5", defenders="a6", king="a3", to_move="defenders")
    play(g, "Ka3-a1")
    assert g.result is not None and g.result.winners == (1,)
    assert g.result.rule.startswith("trad win.3")


def test_stalemated_defenders_lose(setup: Setup) -> None:
    # The king on b2 walled in by attackers and his own defender on b1, who
    # cannot move either (a1 is for the king alone).
    g = setup("traditional", attackers="a2 b3 c2 c1 k10", defenders="b1", king="b2")
    play(g, "k10-k9")
    assert g.result is not None
    assert g.result.winners == (0,)
    assert "no legal move" in g.result.reason


def test_quiet_moves_draw(setup: Setup) -> None:
    g = setup("traditional", attackers="a3 k3", defenders="a9", king="k9", quiet_moves=4, repetition="off")
    for mv in ("a3-a4", "a9-a8", "k3-k4", "Kk9-k8"):
        assert g.result is None
        play(g, mv)
    assert g.result is not None and g.result.winners == ()
    assert "TF-5" in g.result.rule


def test_threefold_repetition_draws(setup: Setup) -> None:
    g = setup("traditional", attackers="a3", defenders="a9", king="k9")
    for mv in ("a3-a4", "a9-a8", "a4-a3", "a8-a9", "a3-a4", "a9-a8", "a4-a3", "a8-a9"):
        if g.result is not None:
            break
        play(g, mv)
    assert g.result is not None and g.result.winners == () and g.result.rule == "TF-6"


def test_illegal_moves_say_why(setup: Setup) -> None:
    g = TaflGame("traditional")
    cases = {
        "f5-f4": "it is the attackers' move",
        "c3-c4": "no piece on c3",
        "f2-f1": "f1 is occupied",
        "f1-f3": "f2 is in the way",
        "d1-e2": "straight line",
        "d1-d1": "at least one square",
        "a6-b6": "is occupied",
        "a5-a5x": "is not a move",
        "d1-d3xd4": "captures nothing",
        "Kd1-d3": "not the king",
        "z1-z2": "off the 11x11 board",
    }
    for text, needle in cases.items():
        with pytest.raises(RulesError, match=needle):
            g.parse(text)


def test_input_forms_agree() -> None:
    g = TaflGame("traditional")
    assert g.parse("d1-d3") == g.parse("d1d3") == g.parse("D1-D3") == ("d1", "d3")


def test_occupied_throne_acts_as_the_king(setup: Setup) -> None:
    # TF-4: beside the king on his throne a defender is safe, an attacker is not.
    g = setup("traditional", attackers="h5 c9", defenders="b2", king="f6")
    assert records(play(g, "h5-f5")) == "h5-f5"  # f5 beside the occupied throne: nothing
    g2 = setup("traditional", attackers="f5 a2", defenders="c4", king="f6", to_move="defenders")
    assert records(play(g2, "c4-f4")) == "c4-f4xf5"  # f5 between f4 and the armed king
    g3 = setup("traditional", attackers="c4 a2", defenders="f5", king="f6")
    assert records(play(g3, "c4-f4")) == "c4-f4"  # the occupied throne is no enemy of f5
