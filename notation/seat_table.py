"""A seat's table as the host sends it: its view, its question, its log, the result.

Everything here is asked of the information wall, never decided: the view is ``game.view(seat)``,
each step of the log is :meth:`~notation.replay.StepInfo.seen_by` the seat (its value only where
the seat saw it), and a question goes only to the seat it is asked of, its options worded by the
rules. A spectator is the viewer None. docs/protocol.md, "table", lists the fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.engine import Decision, Event, Game, Result, Viewer
from core.visibility import warning
from notation.driver import Note, PlayDriver
from notation.replay import StepInfo


def log_entry(info: StepInfo, values: bool) -> list[Any]:
    """One step as a seat saw it: [step, kind, seat, words, events, value]. The value (a code, an
    outcome) only with ``values``: a game of perfect information, which a client plays along;
    elsewhere a client draws from its view and needs none (and a code may name a card by its id)."""
    return [info.step, info.kind, info.seat, info.text,
            [[e.kind, e.text, e.rule] for e in info.events], list_of(info.value) if values else []]


def list_of(value: Any) -> Any:
    """A code or an outcome as msgpack writes it (tuples become arrays)."""
    return [list_of(v) for v in value] if isinstance(value, (tuple, list)) else value


def events_of(entry: Sequence[Any]) -> list[Event]:
    """A log entry's events as Event objects, worded for the seat that received them."""
    return [Event(kind, text, rule) for kind, text, rule in entry[4]]


def result_words(result: Result | None) -> list[Any] | None:
    return None if result is None else [list(result.winners), result.reason, result.rule, list(result.scores)]


def ask_of(driver: PlayDriver, seat: Viewer) -> dict[str, Any] | None:
    """The question ``seat`` must answer now, with each option's words; None when it has none."""
    key = driver.question()
    waiting = driver.runner.waiting
    if key is None or not isinstance(waiting, Decision) or waiting.seat != seat:
        return None
    game = driver.runner.game
    return {"n": list(key), "kind": waiting.kind, "prompt": waiting.prompt,
            "options": [[list_of(code), game.describe(code), warning(game, code) or ""] for code in waiting.options]}


def turn_of(driver: PlayDriver) -> list[Any] | None:
    """Who is to play now, as every seat may know it: [seat, kind] of a decision, or None (chance, the end)."""
    point = driver.runner.point
    return [point.seat, point.kind] if isinstance(point, Decision) and driver.runner.result is None else None


def shown_game(driver: PlayDriver) -> Game:
    """The table as it is shown now: a unit of a step being played out, else the game."""
    return driver.frame if driver.frame is not None else driver.runner.game


def notes_words(notes: Sequence[Note]) -> list[Any]:
    return [[n.after, n.text, n.style] for n in notes]
