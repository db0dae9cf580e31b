"""What the play screen words, free of widgets: the move list as each seat may read it, dice typed
from a table, and a step cut into the units it played (a game's ``frames()``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.engine import Chance, Event, Game, RulesError
from core.match import Step
from notation.catalog import build_game
from notation.runner import Runner
from notation.wording import visible
from tui.widgets.side_panes import RECORD_WIDTH, record_text, shorten, step_words


@dataclass(frozen=True)
class Entry:
    """A step in the move list: as its own seat words it, and as every other seat may read it."""

    seat: int | None  # the deciding seat; None for chance, which everyone sees
    own: str
    public: str

    def text(self, viewer: int | None) -> str:
        return self.own if self.seat is None or self.seat == viewer else self.public


def entry(game: Game, step: Step, words: str) -> Entry:
    """A step worded for the move list. A decision's option (``add Champion``) may name a card laid
    face down, so the other seats read it as its first event tells it (``León places a card face
    down``): events are what every seat sees. A game's own ``move`` record is public (a Tafl move)."""
    own = visible(record_text(words, step.events))
    if step.kind != "decision" or any(e.kind == "move" and e.data for e in step.events):
        return Entry(None, own, own)
    seat = step.seat if step.seat is not None else -1
    if step.events:
        public = shorten(visible(step.events[0].text), RECORD_WIDTH)
    else:
        public = visible(f"{game.seats[seat]} chose") if 0 <= seat < len(game.seats) else "a choice"
    return Entry(step.seat, own, public)


def history_entries(runner: Runner) -> list[Entry]:
    """The move list of a resumed game: its steps worded again on a replay from the start."""
    game = build_game(runner.header, runner.games)
    out = []
    for step in runner.history:
        out.append(entry(game, step, step_words(game, game.point(), step)))
        if step.kind == "decision":
            game.apply(step.value)  # type: ignore[arg-type]
        else:
            game.resolve(step.value)
    return out


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
