"""Copenhagen Hnefatafl 11x11 (aagenielsen.dk/copenhagen_rules.php; rulings TF-20..TF-24, TF-26)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.engine import Over
from core.tafl import TaflGame
from core.tafl.board import ATTACKER, DEFENDER, KING

Setup = Callable[..., TaflGame]


def play(game: TaflGame, text: str) -> str:
    events = game.apply(game.parse(text))
    return next(e.data[0] for e in events if e.kind == "move")


def rules_of(game: TaflGame, text: str) -> list[tuple[str, str]]:
    """(kind, rule) of each event the move makes."""
    return [(e.kind, e.rule) for e in game.apply(game.parse(text))]


def test_layout_and_attackers_first() -> None:
    g = TaflGame("copenhagen")
    assert (g.board.count(ATTACKER), g.board.count(DEFENDER), g.board[g.geo.centre]) == (24, 12, KING)
    assert g.to_move == 0  # cph 4
    assert g.opts == {"quiet_moves": 0, "repetition": "defenders-lose"}


def test_move_events_cite_copenhagen() -> None:
    g = TaflGame("copenhagen")
    assert rules_of(g, "d1-d3") == [("move", "cph 4")]


def test_only_the_king_stops_on_the_throne(setup: Setup) -> None:
    # cph 3: a defender crosses the empty throne but cannot stop there; the king may return.
    g = setup("copenhagen", attackers="a2", defenders="f8", king="c6", to_move="defenders")
    names = {(g.geo.names[f], g.geo.names[t]) for f, t in g.legal_moves()}
    assert ("f8", "f6") not in names and ("f8", "f5") in names
    assert ("c6", "f6") in names


def test_throne_hostile_to_defenders_only_when_empty(setup: Setup) -> None:
    # cph 3: the throne is always hostile to the attackers, to the defenders only when empty.
    g = setup("copenhagen", attackers="a8", defenders="f7", king="f6")
    assert play(g, "a8-f8") == "a8-f8"  # the king on the throne protects f7
    g2 = setup("copenhagen", attackers="a8", defenders="f7 b2", king="c3")
    assert rules_of(g2, "a8-f8") == [("move", "cph 4"), ("capture", "cph 3; cph 5a")]
    g3 = setup("copenhagen", attackers="f7 a2", defenders="a8", king="f6", to_move="defenders")
    assert play(g3, "a8-f8") == "a8-f8xf7"  # the king on the throne takes part (armed)


def test_capture_against_a_corner(setup: Setup) -> None:
    # cph 3: the corners are hostile to all pieces.
    g = setup("copenhagen", attackers="b1 e5", defenders="d6", king="f6", to_move="defenders")
    assert play(g, "d6-c6") == "d6-c6"
    assert play(g, "e5-e4") == "e5-e4"
    assert play(g, "c6-c1") == "c6-c1xb1"
    g2 = setup("copenhagen", attackers="c5", defenders="b1", king="f6")
    assert rules_of(g2, "c5-c1") == [("move", "cph 4"), ("capture", "cph 3; cph 5a")]


# -- the shieldwall (cph 5b, TF-21) ---------------------------------------------------


def test_shieldwall_takes_a_row_on_the_edge(setup: Setup) -> None:
    g = setup("copenhagen", attackers="d2 e2 f1 c5", defenders="d1 e1 h5", king="f6")
    events = g.apply(g.parse("c5-c1"))
    assert [e.rule for e in events if e.kind == "capture"] == ["cph 5b; TF-21", "cph 5b; TF-21"]
    assert g.board[g.geo.square("d1")] == 0 and g.board[g.geo.square("e1")] == 0


def test_a_corner_brackets_a_shieldwall(setup: Setup) -> None:
    g = setup("copenhagen", attackers="b2 c2 d5", defenders="b1 c1 h5", king="f6")
    assert play(g, "d5-d1") == "d5-d1xc1/b1"


def test_the_king_in_a_shieldwall_is_not_taken(setup: Setup) -> None:
    g = setup("copenhagen", attackers="d2 e2 f1 c5", defenders="d1 h5", king="e1")
    assert play(g, "c5-c1") == "c5-c1xd1"
    assert g.result is None and g.board[g.geo.square("e1")] == KING


def test_no_shieldwall_without_an_enemy_in_front_of_every_piece(setup: Setup) -> None:
    g = setup("copenhagen", attackers="d2 f1 c5", defenders="d1 e1 h5", king="f6")
    assert play(g, "c5-c1") == "c5-c1"


def test_only_a_bracketing_move_takes_a_shieldwall(setup: Setup) -> None:
    # TF-21: closing the front (e2) with the brackets already there captures nothing (swf:y).
    g = setup("copenhagen", attackers="c1 d2 f1 e5", defenders="d1 e1 h5", king="f6")
    assert play(g, "e5-e2") == "e5-e2"


def test_a_single_piece_is_no_shieldwall(setup: Setup) -> None:
    g = setup("copenhagen", attackers="d2 c5", defenders="d1 h5", king="f6")
    assert play(g, "c5-c1") == "c5-c1"


def test_defenders_shieldwall_with_the_king_as_bracket(setup: Setup) -> None:
    g = setup("copenhagen", attackers="d1 e1 a9", defenders="d2 e2 f1", king="c5", to_move="defenders")
    assert play(g, "Kc5-c1") == "Kc5-c1xd1/e1"


# -- the king (cph king, TF-20) -----------------------------------------------------


def test_king_captured_on_four_sides(setup: Setup) -> None:
    g = setup("copenhagen", attackers="c4 e4 d3 d7", defenders="j9", king="d4")
    assert rules_of(g, "d7-d5")[-2:] == [("capture", "cph king; TF-20"), ("result", "cph king")]
    assert isinstance(g.point(), Over) and g.result.winners == (0,)


def test_king_beside_the_throne_captured_by_three(setup: Setup) -> None:
    g = setup("copenhagen", attackers="e5 g5 c4", defenders="j9", king="f5")
    assert play(g, "c4-f4") == "c4-f4xKf5"


def test_king_on_the_throne_needs_four(setup: Setup) -> None:
    g = setup("copenhagen", attackers="e6 g6 f5 a7", defenders="j9", king="f6")
    assert play(g, "a7-f7") == "a7-f7xKf6"
    g2 = setup("copenhagen", attackers="e6 g6 a7", defenders="j9", king="f6")
    assert play(g2, "a7-f7") == "a7-f7" and g2.result is None


def test_king_not_captured_on_the_edge(setup: Setup) -> None:
    g = setup("copenhagen", attackers="a5 a7 c6", defenders="j9", king="a6")
    assert play(g, "c6-b6") == "c6-b6"
    assert g.result is None


# -- the exit fort (cph exit fort, TF-22) ----------------------------------------------


FORT = dict(attackers="e9 h3 j8", king="a6")


def test_exit_fort_wins(setup: Setup) -> None:
    # King a6 with room on a5, walled by a4 b5 b6 a7: no wall piece can ever be taken.
    g = setup("copenhagen", defenders="a4 b6 a7 d5", to_move="defenders", **FORT)
    events = g.apply(g.parse("d5-b5"))
    assert events[-1].rule == "cph exit fort; TF-22"
    assert g.result.winners == (1,) and "exit fort" in g.result.reason


def test_a_fort_with_a_breakable_wall_does_not_win(setup: Setup) -> None:
    # The inside is a6 a5 b5; c5 walls b5 but c4 and c6 are open: attackers can take it.
    g = setup("copenhagen", defenders="a4 b4 b6 a7 d5", to_move="defenders", **FORT)
    assert play(g, "d5-c5") == "d5-c5" and g.result is None
    # A second defender on c6 (itself safe) makes c5 safe: now it is a fort.
    g2 = setup("copenhagen", defenders="a4 b4 b6 c6 a7 d5", to_move="defenders", **FORT)
    play(g2, "d5-c5")
    assert g2.result is not None and g2.result.winners == (1,)


def test_a_fort_with_an_attacker_inside_or_a_king_who_cannot_move_does_not_win(setup: Setup) -> None:
    g = setup("copenhagen", attackers="a5 e9", defenders="a4 b6 a7 d5", king="a6", to_move="defenders")
    assert play(g, "d5-b5") == "d5-b5" and g.result is None
    g2 = setup("copenhagen", defenders="b6 a5 d7", to_move="defenders", **FORT)
    assert play(g2, "d7-a7") == "d7-a7" and g2.result is None


# -- encirclement (cph encirclement, TF-24) ----------------------------------------------


RING = "d5 d6 d7 h5 h6 h7 e4 f4 g4 f8 g8"


def test_encircling_every_defender_wins(setup: Setup) -> None:
    g = setup("copenhagen", attackers=RING + " e10", defenders="f7", king="f6")
    events = g.apply(g.parse("e10-e8"))
    assert events[-1].rule == "cph encirclement; TF-24"
    assert g.result.winners == (0,)


def test_a_ring_with_a_gap_does_not_win(setup: Setup) -> None:
    g = setup("copenhagen", attackers=RING + " e10", defenders="f7", king="f6")
    assert play(g, "e10-e9") == "e10-e9" and g.result is None


def test_a_defender_outside_the_ring_saves_them(setup: Setup) -> None:
    g = setup("copenhagen", attackers=RING + " e10", defenders="f7 j2", king="f6")
    play(g, "e10-e8")
    assert g.result is None


# -- repetition and no moves (cph repetition, cph no move; TF-23) -------------------------


@pytest.mark.parametrize("first", ["attackers", "defenders"])
def test_perpetual_repetition_loses_for_the_defenders(setup: Setup, first: str) -> None:
    g = setup("copenhagen", attackers="b9", defenders="j3", king="f6", to_move=first)
    cycle = ["b9-b8", "j3-j4", "b8-b9", "j4-j3"]
    if first == "defenders":
        cycle = ["j3-j4", "b9-b8", "j4-j3", "b8-b9"]  # now an attackers' move makes the third
    for move in cycle * 2:
        play(g, move)
    assert g.result is not None
    assert g.result.winners == (0,) and g.result.rule == "cph repetition; TF-23"


def test_defenders_without_a_move_lose(setup: Setup) -> None:
    g = setup("copenhagen", attackers="e1 g1 f5", king="f1")
    events = g.apply(g.parse("f5-f2"))
    assert g.result.winners == (0,) and events[-1].rule == "cph no move"


def test_attackers_without_a_move_lose(setup: Setup) -> None:
    g = setup("copenhagen", attackers="a2", defenders="a3 b5", king="f6", to_move="defenders")
    play(g, "b5-b2")
    assert g.result.winners == (1,) and g.result.rule == "cph no move"
