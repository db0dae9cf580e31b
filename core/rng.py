"""The one seeded generator: SplitMix64, written out so any language can match it.

Algorithm (all arithmetic modulo 2**64):

    next():  state += 0x9E3779B97F4A7C15
             z = state
             z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
             z = (z ^ (z >> 27)) * 0x94D049BB133111EB
             return z ^ (z >> 31)

    below(n):  unbiased integer in [0, n) by rejection sampling:
               limit = 2**64 - (2**64 % n); draw x = next() until x < limit;
               return x % n
    die(sides):  1 + below(sides)
    permutation(n):  p = [0, 1, ..., n-1]; for i from n-1 down to 1:
                     j = below(i + 1); swap p[i], p[j]   (Fisher-Yates)

Test vectors are in docs/replay-format.md and tests/unit/test_rng.py.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_LIMITS = {n: (1 << 64) - ((1 << 64) % n) for n in range(1, 257)}  # below(n)'s rejection bound, small n


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = _LIMITS.get(n)
        if limit is None:
            limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def die(self, sides: int) -> int:
        return 1 + self.below(sides)

    def permutation(self, n: int) -> tuple[int, ...]:
        p = list(range(n))
        below = self.below
        for i in range(n - 1, 0, -1):
            j = below(i + 1)
            p[i], p[j] = p[j], p[i]
        return tuple(p)

    def choice_index(self, n: int) -> int:
        return self.below(n)
