"""The precomputed move generator against a plain scan of the board, move for move and in order."""

from __future__ import annotations

import pytest

import pickle

from core.engine import Decision, Over
from core.rng import SplitMix64
from core.tafl import TaflGame
from core.tafl.board import EMPTY, KING, SIDE_OF
from core.tafl.movegen import can_stop


def plain_scan(g: TaflGame, side: int) -> list[tuple[int, int]]:
    """The rules' definition: each piece of the side, each direction, outward until a piece."""
    moves = []
    for f, piece in enumerate(g.board):
        if piece == EMPTY or SIDE_OF[piece] != side:
            continue
        for ray in g.geo.rays[f]:
            for t in ray:
                if g.board[t] != EMPTY:
                    break
                if can_stop(g.geo, piece, f, t):
                    moves.append((f, t))
    return moves


@pytest.mark.parametrize("variant", ["traditional", "gild-9", "gild-11"])
def test_moves_and_legality_match_a_plain_scan(variant: str) -> None:
    n = len(TaflGame(variant).board)
    for seed in range(12):
        g, rng = TaflGame(variant), SplitMix64(seed)
        while not isinstance(g.point(), Over):
            legal = g.legal_moves()
            assert legal == plain_scan(g, g.to_move)
            assert g._moves_for(1 - g.to_move) == plain_scan(g, 1 - g.to_move)
            assert g._moves_for(g.to_move, first_only=True) == legal[:1]
            allowed = set(legal)
            for _ in range(40):  # legal moves and random pairs alike
                f, t = rng.below(n), rng.below(n)
                assert g.is_legal(f, t) == ((f, t) in allowed)
            assert all(g.is_legal(f, t) for f, t in legal)
            g.apply(g.point().options[rng.below(len(legal))])
        assert g.legal_moves() == [] and not any(g.is_legal(f, t) for f, t in plain_scan(g, g.to_move))


@pytest.mark.parametrize("variant", ["traditional", "gild-9", "brandubh"])
def test_a_point_allows_what_it_lists_and_stays_its_position(variant: str) -> None:
    """A position's Decision tells whether a code is an option without listing the moves (what
    verify asks at every step), agrees with the list when it is read, and stays that position's
    after the game moves on (a point held, or shared with a clone); it pickles as a plain Decision."""
    geo = TaflGame(variant).geo
    names = geo.names
    for seed in range(6):
        g, rng = TaflGame(variant), SplitMix64(seed)
        while not isinstance(g.point(), Over):
            point = g.point()
            moves = plain_scan(g, g.to_move)
            asked = [(names[rng.below(len(names))], names[rng.below(len(names))]) for _ in range(30)]
            asked += [(names[f], names[t]) for f, t in moves[:5]]
            allowed = [point.allows(code) for code in asked]
            assert point._options is None  # type: ignore[attr-defined]  # nothing listed to answer them
            assert not point.allows(list(asked[0])) and not point.allows(("z99", "a1")) and not point.allows(7)
            twin = g.clone()
            f, t = moves[rng.below(len(moves))]
            g.apply((names[f], names[t]))  # the point's options first read after the move
            expected = tuple((names[f], names[t]) for f, t in moves)
            assert point.options == expected and twin.point().options == expected
            assert allowed == [code in expected for code in asked]
            plain = Decision(point.seat, point.prompt, expected, point.kind)
            assert point == plain and plain == point and hash(point) == hash(plain)
            assert type(pickle.loads(pickle.dumps(point))) is Decision and pickle.loads(pickle.dumps(point)) == plain


@pytest.mark.parametrize("variant", ["traditional", "gild-9", "gild-11"])
def test_caches_follow_the_game(variant: str) -> None:
    """What TaflGame keeps beside the board (its bytes, the Decision of the position, the shared
    event of a capture-free move) stays what it would be worked out afresh, clones included."""
    for seed in range(6):
        g, rng = TaflGame(variant), SplitMix64(seed)
        while not isinstance(g.point(), Over):
            point = g.point()
            assert g.point() is point and bytes(g._bytes) == bytes(g.board)
            twin = g.clone()
            code = point.options[rng.below(len(point.options))]
            f, t = g.geo.square(code[0]), g.geo.square(code[1])
            piece, captures = g.board[f], g.captures_of(f, t)
            events = g.apply(code)
            king_sq = next((sq for sq in captures if twin.board[sq] == KING), -1)
            fresh = twin._move_event(f, t, piece, [(sq, "") for sq in captures], king_sq, twin.to_move)
            assert events[0] == fresh
            assert twin.point() is point  # the clone still stands where g stood
            assert twin.apply(code) == events and twin.canonical() == g.canonical()
