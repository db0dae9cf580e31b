"""What the play screen words, free of widgets: dice typed from a table, and a step cut into the
units it played (a game's ``frames()``). The move list as each seat may read it is notation.seat_log's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.engine import Chance, Event, RulesError


def dice_prompt(chance: Chance) -> str:
    """What a person types for dice thrown on a real table: ``Castile attacks Toledo with 5 dice:
    type 5 numbers 1-6``."""
    label = chance.label or chance.kind
    if chance.kind != "dice":
        return f"{label}: type the outcome"
    n, sides = chance.spec
    return f"{label}: type {n} number{'s' if n != 1 else ''} 1-{sides}"


def dice_example(chance: Chance) -> str:
    """The move box's hint for typed dice: ``3 numbers 1-6, like 1 2 3``."""
    if chance.kind != "dice":
        return "type the outcome"
    n, sides = chance.spec
    return f"{n} number{'s' if n != 1 else ''} 1-{sides}, like {' '.join(str(i % sides + 1) for i in range(n))}"


def parse_outcome(chance: Chance, text: str) -> object:
    """Dice typed from the table (``3 5``, ``3,5``, ``35``): an int for a pick, a tuple otherwise;
    RulesError in one line saying what is wrong (not numbers, how many, out of range)."""
    words = text.replace(",", " ").split()
    if chance.kind == "dice" and len(words) == 1 and words[0].isdigit() and chance.spec[0] > 1 \
            and chance.spec[1] <= 9:
        words = list(words[0])  # "4315": one die a digit
    try:
        values = tuple(int(v) for v in words)
    except ValueError:
        raise RulesError(f"type the {chance.label or chance.kind} as whole numbers") from None
    if chance.kind == "dice":
        n, sides = chance.spec
        if len(values) != n:
            raise RulesError(f"type {n} number{'s' if n != 1 else ''}, one per die: {len(values)} typed")
        wrong = [v for v in values if not 1 <= v <= sides]
        if wrong:
            raise RulesError(f"a die shows 1 to {sides}, not {wrong[0]}")
    return values[0] if chance.kind == "pick" and len(values) == 1 else values


def units(frames: Sequence[tuple[int, Any]],
          events: Sequence[Event]) -> tuple[list[Event], list[tuple[Any, list[Event]]]]:
    """A step cut by the units begun in it (a game's ``frames()``): the events before the first
    unit began, then each unit's picture of the game with its share of the events. A unit begun
    as the step ended (no events yet) is left to the position after the step."""
    if not frames:
        return list(events), []
    starts = [min(max(i, 0), len(events)) for i, _ in frames]
    ends = starts[1:] + [len(events)]
    cut = [(game, list(events[a:b])) for (_, game), a, b in zip(frames, starts, ends)]
    while cut and not cut[-1][1]:
        cut.pop()
    return list(events[:starts[0]]), cut
