"""Take the Kingdom's touches at the prompt (tui/console.py): the table in short above a
person's options, a target's line of defence and what its topmost card needs, why a play is
missing, the full table, the hand and the
Nobles as commands, and where turns (multiplayer) and rounds (solo) begin: the prompt pauses
there once after a person has acted, so the outcome is read before the next seats play."""

from __future__ import annotations

from typing import Any

from core.engine import Decision, Event, Result
from tui.console import Command, ConsoleExtras
from tui.games.kingdom import text


def _begins(item: Event | Decision) -> str | None:
    """A kingdom's turn begins with its ``turn`` event, a solo round with its ``round`` event.
    Each is a "round" to the prompt: it pauses there only after a person's action, never
    before every turn (the seats that play by themselves then play on to the person's next question)."""
    if isinstance(item, Event) and item.kind in ("turn", "round"):
        return "round"
    return None


def _result(game: Any, result: Result) -> str:
    names = " and ".join(game.name(w) for w in result.winners) or "nobody"
    verb = "wins" if len(result.winners) == 1 else "win"
    scores = ", ".join(f"{game.name(k)} {s}" for k, s in enumerate(result.scores))
    return f"{names} {verb}: {result.reason} [{result.rule}]\ndefence points: {scores}"


CONSOLE = ConsoleExtras(
    header=text.status,
    about=text.about,
    unavailable=text.unavailable,
    commands=(Command("table", "every kingdom's lines of defence, card by card, and the piles", text.position_text),
              Command("cards", "what each card you may choose now does (its exact effect)", text.option_cards),
              Command("defences", "what each kind of card standing in the kingdoms does", text.standing_cards),
              Command("hand", "your cards with their effects and text", text.hand),
              Command("nobles", "each kingdom's Noble and what it does", text.nobles)),
    typing="attack with Soldiers, Walls on Castle, keep Cannon, done, pass",
    begins=_begins,
    result=_result,
)
