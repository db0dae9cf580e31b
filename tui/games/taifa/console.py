"""Taifa's touches at the prompt (tui/console.py): the seat's status and the fight above its
options, what each area option means (defence, holder, the dice each side would throw), why a
kind of action is missing, the map, hand and all commands, and where rounds and turns begin
(the prompt pauses there after a person's action)."""

from __future__ import annotations

from typing import Any

from core.engine import Decision, Event, Result
from tui.console import Command, ConsoleExtras
from tui.games.taifa import text


def _header(game: Any, seat: int) -> str:
    return "\n".join(line for line in (text.status(game, seat), text.fight(game, seat)) if line)


def _begins(item: Event | Decision) -> str | None:
    """A turn begins with its ``turn`` event (section 4); a round with its ``round`` event (the
    prompt pauses once: the decision that offers pass, 5.6, finds the pause taken)."""
    if isinstance(item, Decision):
        return "round" if ("pass",) in item.options else None
    if item.kind == "turn" and item.rule == "taifa 4":
        return "turn"
    return "round" if item.kind == "round" else None


def _result(game: Any, result: Result) -> str:
    from core.taifa.table import agree

    names = ", ".join(game.seats[w] for w in result.winners)
    verb = agree(names, "wins") if len(result.winners) == 1 else "win"
    scores = ", ".join(f"{n} {s}" for n, s in zip(game.seats, result.scores))
    return f"{names} {verb}: {result.reason} [{result.rule}]\ncastles: {scores}"


CONSOLE = ConsoleExtras(
    header=_header,
    about=text.about,
    unavailable=text.unavailable,
    commands=(Command("map", "your areas and the areas you can attack", text.areas),
              Command("hand", "your cards with their text", text.hand),
              Command("all", "every kingdom's castles, bonus and cards", lambda game, seat: text.kingdoms_text(game))),
    typing="attack Toledo, play Razzia, add Champion, done, pass",
    quiet=frozenset({"shuffle"}),
    begins=_begins,
    result=_result,
)
