"""What a point of view may not see, found by content (tests of the information wall, issue 25).

Every string in the full table's view (``view(TABLE)``: every hand, every face-down card, every
deck's order) that a seat's own view has never held so far is hidden from it; so are the names
of those cards, where a game keeps named cards by id (a name no card the seat has seen shares).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from core.engine import TABLE, Game, Viewer
from notation.replay import Replay


def strings(value: Any) -> Iterator[str]:
    """Every string in a view (its values, not its keys)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from strings(v)


def card_name(game: Game, token: str) -> str | None:
    """The name of the card ``token`` names, where the game keeps named cards by id."""
    cards = getattr(game, "cards", None)
    try:
        card = cards[token] if cards is not None else None
    except Exception:  # not a card's id (a game's lookup says so in its own way)
        return None
    name = getattr(card, "name", None)
    return name if isinstance(name, str) else None


class Wall:
    """What each point of view has seen so far, and so what is hidden from it."""

    def __init__(self, seats: int) -> None:
        self.seen: dict[Viewer, set[str]] = {v: set() for v in [*range(seats), None]}
        self.hidden: dict[Viewer, set[str]] = {v: set() for v in self.seen}
        self.names_seen: dict[Viewer, set[str]] = {v: set() for v in self.seen}

    def look(self, game: Game) -> None:
        everything = set(strings(game.view(TABLE)))
        for viewer in self.seen:
            own = set(strings(game.view(viewer)))
            self.seen[viewer] |= own
            self.names_seen[viewer] |= {n for t in own if (n := card_name(game, t))}
            self.hidden[viewer] |= everything - own

    def secrets(self, game: Game, viewer: Viewer) -> set[str]:
        """What ``viewer`` has been hidden from and never shown: ids, and names no seen card shares."""
        ids = self.hidden[viewer] - self.seen[viewer]
        names = {n for t in ids if (n := card_name(game, t))} - self.names_seen[viewer]
        return {t for t in ids | names if len(t) >= 2}


def leaks(text: str, secrets: set[str]) -> list[str]:
    return sorted(s for s in secrets if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text))


def wall_of(replay: Replay) -> Wall:
    """What each point of view saw of a recorded game, position by position."""
    wall = Wall(len(replay.seat_names))
    for n in range(replay.steps + 1):
        wall.look(replay.state_at(n))
    return wall
