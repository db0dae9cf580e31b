"""Chance sources: where the outcome of a Chance point comes from.

* :class:`SeededChance` derives outcomes from the seeded generator (play, simulate,
  and verify's re-derivation);
* :class:`RecordedChance` hands back outcomes read from a record (replay);
* :class:`ManualChance` asks a person for the dice thrown on a real table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from core.engine import Chance, Outcome, RulesError
from core.rng import SplitMix64


class ChanceSource(Protocol):
    def outcome(self, chance: Chance) -> Outcome:
        """An outcome valid for ``chance`` (``chance.validate`` holds of it: checked, or drawn so)."""
        ...


def typed(source: ChanceSource, chance: Chance) -> bool:
    """Whether a person types this outcome (dice from a real table) instead of the source giving it."""
    return chance.kind in getattr(source, "TYPED", ())


def draw(rng: SplitMix64, chance: Chance) -> Outcome:
    """The outcome the generator gives for ``chance`` (the order of draws is part of the format)."""
    if chance.kind == "dice":
        n, sides = chance.spec
        return tuple(rng.die(sides) for _ in range(n))
    if chance.kind == "shuffle":
        (n,) = chance.spec
        return rng.permutation(n)
    if chance.kind == "pick":
        (n,) = chance.spec
        return rng.below(n)
    raise RulesError(f"unknown chance kind {chance.kind!r}")


class SeededChance:
    TYPED: tuple[str, ...] = ()  # chance kinds a person types instead (none: see TableDice)

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = SplitMix64(seed)

    def outcome(self, chance: Chance) -> Outcome:
        return draw(self.rng, chance)


class TableDice(SeededChance):
    """Dice thrown on a real table and typed by a person; shuffles and random picks stay
    seeded (nobody types a deck order). The seeded generator draws only for those, so
    verify derives them again the same way (docs/replay-format.md, chance ``manual``)."""

    TYPED = ("dice",)

    def outcome(self, chance: Chance) -> Outcome:
        if chance.kind in self.TYPED:
            raise RulesError(f"{chance.label or chance.kind}: these dice are typed from the table")
        return super().outcome(chance)


class RecordedChance:
    def __init__(self, outcomes: Iterable[Any]) -> None:
        self._it: Iterator[Any] = iter(outcomes)

    def outcome(self, chance: Chance) -> Outcome:
        try:
            raw = next(self._it)
        except StopIteration:
            raise RulesError("the record has no outcome left for this chance point") from None
        return chance.validate(raw)


class ManualChance:
    """Outcomes typed by a person; ``ask`` is supplied by the UI layer."""

    def __init__(self, ask: Callable[[Chance], Any]) -> None:
        self.ask = ask

    def outcome(self, chance: Chance) -> Outcome:
        return chance.validate(self.ask(chance))
