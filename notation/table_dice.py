"""Dice thrown on a real table and typed: what to ask for, an example, and the typed text read
(checked for how many and what range before the rules see it). The play screen and the prompt
both read typed dice here."""

from __future__ import annotations

from core.engine import Chance, Outcome, RulesError


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


def parse_outcome(chance: Chance, text: str) -> Outcome:
    """Dice typed from the table (``3 5``, ``3,5``, ``35``): an int for a pick, a tuple otherwise;
    RulesError in one line saying what is wrong (nothing typed, not numbers, how many, out of range).
    Only short runs of ASCII digits are numbers: no other script's digits, no thousands of digits."""
    words = text.replace(",", " ").split()
    if not words:
        raise RulesError(dice_prompt(chance))
    dice = chance.kind == "dice"
    n, sides = chance.spec if dice else (0, 0)
    if dice and len(words) == 1 and len(words[0]) == n > 1 and sides <= 9:
        words = list(words[0])  # "4315": one die a digit
    if not all(w.isascii() and w.isdigit() and len(w) <= 9 for w in words):
        if dice:
            raise RulesError(f"type {n} number{'s' if n != 1 else ''} from 1 to {sides}")
        raise RulesError(f"type the {chance.label or chance.kind} as whole numbers")
    values = tuple(int(v) for v in words)
    if dice:
        if len(values) != n:
            raise RulesError(f"type {n} number{'s' if n != 1 else ''}, one per die: {len(values)} typed")
        wrong = [v for v in values if not 1 <= v <= sides]
        if wrong:
            raise RulesError(f"a die shows 1 to {sides}, not {wrong[0]}")
    return values[0] if chance.kind == "pick" and len(values) == 1 else values
