"""Properties of random Tafl games in every variant (hypothesis)."""

from __future__ import annotations

import hashlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.digest import digest
from core.engine import Decision, Over
from core.rng import SplitMix64
from core.tafl import TaflGame, variants
from core.tafl.board import ATTACKER, DEFENDER, EMPTY, KING
from core.tafl.rules import _entries_hash


def entry_hash(key: bytes, count: int) -> int:
    """A repetition history entry's share of the history hash, written plainly: blake2b-128 of the
    position key and its count (4 bytes, big-endian), as an integer."""
    return int.from_bytes(hashlib.blake2b(key + count.to_bytes(4, "big"), digest_size=16).digest(), "big")


def test_an_entry_hash_is_blake2b_of_the_key_and_count() -> None:
    key = bytes(range(121)) + b"\x01"
    for count in (0, 1, 2, 15, 16, 300, 2**32 - 1):
        assert _entries_hash([(key, count)]) == entry_hash(key, count)
    assert _entries_hash([(key, 1), (key[::-1], 2)]) == entry_hash(key, 1) + entry_hash(key[::-1], 2)


VARIANTS = st.sampled_from(list(variants()))  # every ruleset in the registry


def check_invariants(g: TaflGame, start_counts: tuple[int, int]) -> None:
    geo = g.geo
    assert g.board.count(KING) <= 1
    assert g.board.count(ATTACKER) <= start_counts[0]
    assert g.board.count(DEFENDER) <= start_counts[1]
    for sq in (geo.centre, *geo.corners):
        assert g.board[sq] in (EMPTY, KING)
    for sq, camp in enumerate(geo.camp_of):
        if camp:
            assert g.board[sq] in (EMPTY, ATTACKER)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=VARIANTS, seed=st.integers(0, 2**32))
def test_random_games_end_with_a_valid_result(variant: str, seed: int) -> None:
    g = TaflGame(variant)
    counts = (g.board.count(ATTACKER), g.board.count(DEFENDER))
    rng = SplitMix64(seed)
    while True:
        point = g.point()
        if isinstance(point, Over):
            break
        assert isinstance(point, Decision) and point.options
        assert point.seat == g.to_move
        g.apply(point.options[rng.below(len(point.options))])
        check_invariants(g, counts)
        assert g.history_hash == sum(entry_hash(k, c) for k, c in g.history.items()) % (1 << 128)
        assert g.ply < 20000
    r = point.result
    assert r.winners in ((), (0,), (1,))
    assert r.reason and r.rule
    if r.winners == (1,) and "corner" in r.reason:
        assert g.board.index(KING) in g.geo.corners
    if "king is captured" in r.reason:
        assert KING not in g.board


@settings(max_examples=20, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32), cut=st.integers(0, 60))
def test_clone_and_digest_are_stable(variant: str, seed: int, cut: int) -> None:
    g = TaflGame(variant)
    rng = SplitMix64(seed)
    for _ in range(cut):
        point = g.point()
        if not isinstance(point, Decision):
            break
        g.apply(point.options[rng.below(len(point.options))])
    c = g.clone()
    assert digest(c) == digest(g)
    # Replaying the same moves from scratch lands on the same digest.
    again = TaflGame(variant)
    rng2 = SplitMix64(seed)
    for _ in range(g.ply):
        point = again.point()
        assert isinstance(point, Decision)
        again.apply(point.options[rng2.below(len(point.options))])
    assert digest(again) == digest(g)
