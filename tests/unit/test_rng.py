"""SplitMix64 test vectors: the algorithm is part of the record format."""

from core.rng import SplitMix64


def test_reference_vectors() -> None:
    # Vigna's reference splitmix64.c seeded with 1234567.
    r = SplitMix64(1234567)
    assert [r.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_zero_seed() -> None:
    r = SplitMix64(0)
    assert [r.next() for _ in range(3)] == [16294208416658607535, 7960286522194355700, 487617019471545679]


def test_derived_draws_are_fixed() -> None:
    # Dice, Fisher-Yates and rejection ranges as docs/replay-format.md specifies.
    r = SplitMix64(42)
    assert [r.die(6) for _ in range(10)] == [2, 2, 1, 1, 5, 1, 2, 3, 2, 3]
    assert r.permutation(10) == (5, 3, 8, 1, 0, 2, 4, 6, 9, 7)
    assert r.below(1000) == 8


def test_seed_is_taken_modulo_2_64() -> None:
    a, b = SplitMix64(-1), SplitMix64(2**64 - 1)
    assert a.next() == b.next()


def test_below_stays_in_range_and_covers_it() -> None:
    r = SplitMix64(7)
    seen = {r.below(5) for _ in range(200)}
    assert seen == {0, 1, 2, 3, 4}
