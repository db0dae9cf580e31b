"""What a point of view may not see, found by content (tests of the information wall, issue 25).

Every string in the full table's view (``view(TABLE)``: every hand, every face-down card, every
deck's order) that a seat's own view has never held so far is hidden from it; so are the names
of those cards, where a game keeps named cards by id (a name no card the seat has seen shares).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
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


def card_of(game: Game, token: str) -> Any:
    """The card ``token`` names, where the game keeps named cards by id (a ``cards`` lookup, or a
    ``card(id)`` method); None for anything else."""
    cards, card = getattr(game, "cards", None), getattr(game, "card", None)
    try:
        return cards[token] if cards is not None else card(token) if callable(card) else None
    except Exception:  # not a card's id (a game's lookup says so in its own way)
        return None


def card_name(game: Game, token: str) -> str | None:
    name = getattr(card_of(game, token), "name", None)
    return name if isinstance(name, str) else None


# Card names a game's own texts use as words of its rules, whatever card is where ("Gold used 1 of
# 3", "no Deny, Gold, Mercy or Sabotage"): a name check cannot tell them from a card named.
RULE_WORDS = {"kingdom": frozenset({"Gold", "Mercy", "Deny", "Sabotage", "Famine", "Freeze", "Trap", "Castle",
                                    "Land", "Penalty", "Fortune"})}


class Wall:
    """What each point of view has seen so far, and so what is hidden from it."""

    def __init__(self, seats: int) -> None:
        self.seen: dict[Viewer, set[str]] = {v: set() for v in [*range(seats), None]}
        self.hidden: dict[Viewer, set[str]] = {v: set() for v in self.seen}
        self.names_seen: dict[Viewer, set[str]] = {v: set() for v in self.seen}
        self.names: set[str] = set()  # every card name met so far
        self.texts_seen: dict[Viewer, set[str]] = {v: set() for v in self.seen}  # the texts of cards seen

    def told(self, game: Game, public: Iterable[str]) -> None:
        """Texts everyone read (a spectator's log of a step): a card they name is public knowledge
        by the game's own ruling (a Noble's starting card, a Gold changing hands), whatever it
        is now; and the game's rule words are never a card named."""
        text = "\n".join(public)
        known = {n for n in self.names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)}
        known |= RULE_WORDS.get(game.game, frozenset())
        for viewer in self.names_seen:
            self.names_seen[viewer] |= known

    def look(self, game: Game) -> None:
        everything = set(strings(game.view(TABLE)))
        self.names |= {n for t in everything if (n := card_name(game, t))}
        for viewer in self.seen:
            own = set(strings(game.view(viewer)))
            self.seen[viewer] |= own
            self.names_seen[viewer] |= {n for t in own if (n := card_name(game, t))}
            # A card's own text and effect (rules words: "Soldiers turn on their captains", "removes one
            # Knights or Archers") name no card held.
            self.texts_seen[viewer] |= {text for t in own for field in ("text", "effect")
                                        if isinstance(text := getattr(card_of(game, t), field, None), str)}
            self.hidden[viewer] |= everything - own

    def secrets(self, game: Game, viewer: Viewer) -> set[str]:
        """What ``viewer`` has been hidden from and never shown: ids, and names no seen card shares."""
        ids = self.hidden[viewer] - self.seen[viewer]
        seen = self.names_seen[viewer]
        names = {n for t in ids if (n := card_name(game, t))} - seen
        # A name inside a name seen ("Parias" in "Demand Parias") is no card named.
        # And a name in the text of a card seen is a rule's word there.
        words = [*(m for m in seen if m not in names), *self.texts_seen[viewer]]
        names = {n for n in names if not any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", m) for m in words)}
        return {t for t in ids | names if len(t) >= 2}


_TOKEN = re.compile(r"[\w-]+")


def leaks(text: str, secrets: set[str]) -> list[str]:
    """The secrets ``text`` names, each as a whole word (``C11``, not ``C110``; ``Court Intrigue``)."""
    if not secrets:
        return []
    words = set(_TOKEN.findall(text))
    return sorted(s for s in secrets if (s in words if _TOKEN.fullmatch(s) else
                                         re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)))


def wall_of(replay: Replay) -> Wall:
    """What each point of view saw of a recorded game, position by position."""
    wall = Wall(len(replay.seat_names))
    wall.look(replay.state_at(0))
    for n in range(1, replay.steps + 1):
        game = replay.state_at(n)
        wall.look(game)
        info = replay.step_record(n).seen_by(None)
        wall.told(game, [info.text, *(e.text for e in info.events)])
    return wall
