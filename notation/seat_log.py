"""A seat's log: the move list and the events of a game as one point of view saw them.

Every step is a :class:`~notation.replay.StepInfo` told for every point of view at once (its
``told`` and its events' visibility, core.visibility), and :meth:`StepInfo.seen_by` is the one
function that words it for a seat, a spectator or the full table. A record's steps come from a
:class:`~notation.replay.Replay`; a game being played words each step as it is played
(:func:`played_step`), and a resumed game its history (:func:`history_log`). The play screen,
the prompt, the game-over dialog, the viewer and the exports all read steps through here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from core.engine import TABLE, Point, RulesError, Viewer
from core.match import Step
from core.visibility import Told, tell
from notation.catalog import GameLookup, build_game
from notation.format import Header
from notation.replay import Replay, StepInfo
from notation.wording import visible

SPECTATOR_WORDS = ("spectator", "public")
TABLE_WORDS = ("table", "full", "all")


def seat_log(replay: Replay, viewer: Viewer, first: int = 1, last: int | None = None) -> Iterator[StepInfo]:
    """Steps ``first``..``last`` of a record as ``viewer`` saw them."""
    for info in replay.step_infos(first, last):
        yield info.seen_by(viewer)


def played_step(told: Told, point: Point, step: Step, seat_names: Sequence[str]) -> StepInfo:
    """A step just played: ``told`` is :func:`core.visibility.tell` of it on the game as it was
    before the step, ``point`` the point then. Its words are made visible (a record's or a user's
    data's text)."""
    told = replace(told, text=visible(told.text), public=visible(told.public))
    seat_name = seat_names[step.seat] if step.seat is not None and 0 <= step.seat < len(seat_names) else "chance"
    return StepInfo(step.index, -1, step.kind, step.seat, seat_name, step.value, told.text, step.events,
                    point, told)


def history_log(header: Header, games: GameLookup, history: Sequence[Step]) -> list[StepInfo]:
    """A resumed game's steps, each told on a replay from the start."""
    game = build_game(header, games)
    out = []
    for step in history:
        point = game.point()
        out.append(played_step(tell(game, point, step.value), point, step, game.seats))
        if step.kind == "decision":
            game.apply(step.value)  # type: ignore[arg-type]  # a decision step's value is a Code
        else:
            game.resolve(step.value)  # type: ignore[arg-type]  # a chance step's an Outcome
    return out


def parse_viewer(text: str, seat_names: Sequence[str]) -> Viewer:
    """A point of view as a person names it: a seat's name or number (from 1), ``spectator``, or
    ``table`` (the full table); RulesError in one line otherwise."""
    word = " ".join(text.split()).casefold()
    if word in SPECTATOR_WORDS:
        return None
    if word in TABLE_WORDS:
        return TABLE
    for i, name in enumerate(seat_names):
        if word == " ".join(name.split()).casefold():
            return i
    if word.isascii() and word.isdigit() and 1 <= int(word[:4]) <= len(seat_names):
        return int(word) - 1
    names = ", ".join(repr(visible(n)) for n in seat_names)
    raise RulesError(f"no seat {visible(text)[:40]!r}: name one of {names}, spectator or table")

