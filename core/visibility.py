"""How a step is told to each point of view (DESIGN.md, "The information wall").

The engine decides what is hidden: a Chance says who sees its outcome (a shuffle's order is
seen by nobody), an Event says who reads its text (and what the others read instead), and a
game's optional ``public_words(code)`` says what the other seats read of a hidden choice.
:func:`tell` words one step on the position before it, for every point of view at once; every
layer above (the play screen, the prompt, the viewer, exports) asks the :class:`Told` it gives,
never the game's words directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from core.engine import TABLE, Chance, Decision, Event, Game, Outcome, Point, Seen, Viewer, sees


UNSEEN = "card?"  # a card a seat may not see, in a game rebuilt from its view: no card has this id


@dataclass(frozen=True, slots=True)
class Told:
    """One step's words: ``text`` for those who may see it (``seen``), ``public`` for the others."""

    text: str
    seen: Seen = None
    public: str = ""

    def to(self, viewer: Viewer) -> str:
        return self.text if sees(viewer, self.seen) else self.public


def outcome_text(outcome: Outcome) -> str:
    """A chance outcome as numbers: ``3 5`` for dice or a shuffle, ``2`` for a pick."""
    return str(outcome) if isinstance(outcome, int) else " ".join(map(str, outcome))


def chance_words(chance: Chance, outcome: Outcome | None = None) -> str:
    """A chance step as everyone may read it when its outcome is hidden from them:
    ``shuffle the deck (60 cards)``, ``a random card from León's hand (1 of 4)``, and with
    ``outcome`` (or for an outcome nobody hides) as the full table reads it."""
    label = chance.label or chance.kind
    n = chance.spec[0] if chance.spec else 0
    if outcome is None:
        if chance.kind == "shuffle":
            return f"{label} ({n} cards)"
        if chance.kind == "pick":
            return f"{label} (one of {n})"
        return f"{label} ({n} {'die' if n == 1 else 'dice'})"
    if chance.kind == "pick" and isinstance(outcome, int):
        return f"{label}: {outcome + 1} of {n}"
    return f"{label}: {outcome_text(outcome)}"


def tell_chance(chance: Chance, outcome: Outcome) -> Told:
    seen = chance.outcome_seen
    full = chance_words(chance, outcome)
    return Told(full) if seen is None else Told(full, seen, chance_words(chance))


def tell_decision(game: Game, decision: Decision, code: Any, text: str | None = None) -> Told:
    """A decision worded on the position before it (``text``: its words, when already made):
    public unless the game gives public words, which every seat but the decider's reads."""
    if text is None:
        text = game.describe(code)
    hide = getattr(game, "public_words", None)
    public = hide(code) if callable(hide) else None
    return Told(text) if public is None else Told(text, frozenset((decision.seat,)), public)


def tell(game: Game, point: Point, value: Any) -> Told:
    """The step that answers ``point`` with ``value``, told on ``game`` before it is applied."""
    if isinstance(point, Chance):
        return tell_chance(point, value)
    if isinstance(point, Decision):
        return tell_decision(game, point, value)
    return Told("the game is over")


def events_seen(events: Iterable[Event], viewer: Viewer) -> list[Event]:
    """The events as ``viewer`` may read them: hidden ones in their public words, or left out."""
    if viewer == TABLE:
        return list(events)
    out = []
    for e in events:
        seen = e.as_seen(viewer)
        if seen is not None:
            out.append(seen)
    return out


def warning(game: Game, code: Any) -> str | None:
    """The question to ask once before ``code`` (the game's optional ``warning``), or None."""
    ask = getattr(game, "warning", None)
    return ask(code) if callable(ask) else None
