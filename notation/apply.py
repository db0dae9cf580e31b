"""Applying one decision or chance record to a game, the way replay and verify both do."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from core.engine import Chance, Code, Decision, Event, Game, Over, Point, RulesError
from core.visibility import Told, tell_chance, tell_decision
from notation.format import DecisionRecord, StepRecord, short
from notation.wording import visible


_UNWORDED = Told("")  # a step told when no words are asked for (Told is frozen: one serves all)


def _describe(game: Game, code: Code) -> str:
    """The code in the game's words, made visible: a refused code's words may echo its strings."""
    try:
        return visible(game.describe(code))
    except Exception:  # a code the game cannot even word
        return short(list(code))


def _refused(game: Game, code: Code, text: str) -> str:
    """A refused code, named by its description unless that reads as another code
    (``['D6', 'd7']`` worded ``d6-d7``, which may be legal): then as stored."""
    try:
        read = game.parse(text)
    except Exception:  # the description names no option the game would take: no confusion
        return text
    return text if read == code else f"{short(list(code))} (which reads as {text})"


def apply_step(game: Game, record: StepRecord, point: Point | None = None, *,
               worded: bool = True) -> tuple[Told, list[Event]]:
    """Apply one decision or chance record to ``game`` (in place); ``point``, if given, is
    ``game.point()`` already asked.

    Returns the step told on the position before it, for every point of view (core.visibility;
    an empty text unless ``worded``: verify and a replay's first pass need only the checks), and
    its events; raises RulesError, in one line, when the rules refuse the record, worded in any case.
    """
    if point is None:
        point = game.point()
    if isinstance(point, Over):
        raise RulesError("the game is already over")
    if isinstance(record, DecisionRecord):
        if not isinstance(point, Decision):
            raise RulesError(f"the record has a decision, but the rules ask chance for {point.kind}")
        if record.seat != point.seat:
            raise RulesError(f"{_refused(game, record.code, _describe(game, record.code))}: seat {record.seat} "
                             f"decided, but the decision is seat {point.seat}'s")
        if not point.allows(record.code):
            raise RulesError(f"{_refused(game, record.code, _describe(game, record.code))}: not a legal option here")
        if worded:
            told = tell_decision(game, point, record.code, _describe(game, record.code))
            told = replace(told, public=visible(told.public))
        else:
            told = _UNWORDED
        return told, _guarded(told.text, game.apply, record.code, game)
    if not isinstance(point, Chance):
        raise RulesError("the record has a chance outcome, but the rules ask a seat to decide")
    outcome = point.validate(record.outcome)  # what RecordedChance checks
    told = tell_chance(point, outcome) if worded else _UNWORDED
    return told, _guarded(told.text, game.resolve, outcome, chance=point)


def _guarded(text: str, action: Callable[[Any], list[Event]], value: Any, game: Game | None = None,
             chance: Chance | None = None) -> list[Event]:
    """``action(value)``, a crash turned into RulesError naming the step by ``text`` (when not worded
    before, worded now: a decision on ``game``, the position the failed move left; an outcome of ``chance``)."""
    try:
        return action(value)
    except RulesError:
        raise
    except Exception as err:  # a crash in the rules engine must not end a replay with a traceback
        if not text and game is not None:
            text = _describe(game, value)
        elif not text and chance is not None:
            text = tell_chance(chance, value).text
        why = " ".join(str(err).split())  # its words may quote the record: one line, made visible
        raise RulesError(visible(f"{text}: the rules engine failed ({type(err).__name__}: {why})")) from None
