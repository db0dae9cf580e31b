"""Text and JSON export of a record: PGN-like text for people, JSON for programs.

Both are visitors over the replay (notation/visitor.py). Events are derived
by replaying the record; a move's notation comes from the ``move`` event the
step produced (Tafl: OpenTafl notation with captures), else from
``game.describe``. The result exported is the game's own, from the replay,
never the one the record claims; a record that does not verify is exported
with what differs (text: ``Verify`` and ``Recorded result`` tags; JSON:
``verify`` and ``recorded_result``).

A game's notation plugin (notation/games) may give it a text visitor of its
own and formats beyond text and json; :func:`export` asks the registry.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Union

from core import games as core_games
from core.engine import Event, Result
from notation import games as notation_games
from notation.catalog import GameLookup
from notation.reader import Recording
from notation.replay import Replay, ReplayFailure, StepInfo
from notation.visitor import BaseVisitor, ending, walk
from notation.wording import braced

Source = Union[Recording, Replay]

# The formats every game has: name -> what it is, for help texts ("": the name says it).
GENERIC_FORMATS = {"text": "PGN-like", "json": ""}


class ExportError(Exception):
    """A record that cannot be written in the format asked for (one line).

    ``differs``: refused because the record does not replay as it says (what
    ``fiefdom replay verify`` reports as differing), not because of the format.
    """

    def __init__(self, message: str, *, differs: bool = False) -> None:
        super().__init__(message)
        self.differs = differs


def wrong_game(title: str, fmt: str, holders: Sequence[str], game: str) -> ExportError:
    """The refusal of a game's own format for a record of another game."""
    return ExportError(f"{title} records ({fmt}) hold {' or '.join(holders)} games; this record is {game}")


def replayed(source: Source, games: GameLookup = core_games.info) -> Replay:
    """The record replayed; a Replay passes through (and keeps its verify report)."""
    return source if isinstance(source, Replay) else Replay(source, games=games)


def move_text(info: StepInfo) -> str:
    """The step as notation: a ``move`` event's first datum if it has one, else its description."""
    move = _move_event(info)
    return move.data[0] if move is not None else info.text


def _move_event(info: StepInfo) -> Event | None:
    for event in info.events:
        if event.kind == "move" and event.data and isinstance(event.data[0], str):
            return event
    return None


def _pgn_value(text: str) -> str:
    return " ".join(text.replace("\\", "\\\\").replace('"', '\\"').split())


# -- text ------------------------------------------------------------------------------


class TextExporter(BaseVisitor[str]):
    """The generic text export: PGN-like tags, a blank line, the body, where the replay stops, the result.

    The body is the comments made before the first step, then the moves: each
    step's notation followed by its events and comments in braces, as numbered
    pairs when two seats take turns with no chance steps, else one numbered
    line a step with the seat's name. A game's own text visitor subclasses this
    and builds another body (:meth:`body`).
    """

    # Options are left out of the generic text: a Tafl record's text never had them,
    # and its exports do not change. A game's own text visitor may show them.
    hidden_tags: frozenset[str] = frozenset({"Options"})

    def begin_game(self, replay: Replay) -> None:
        self.replay = replay
        self.tags: list[str] = []
        self.opening: list[str] = []  # the comments before the first step
        self.moves: list[tuple[StepInfo, list[str]]] = []  # each step with its tokens
        self.shown: Event | None = None  # the step's move event, already given as its notation
        self.tail: list[str] = []  # where the replay stops, and the result

    def visit_header(self, name: str, value: str) -> None:
        if name not in self.hidden_tags:
            self.tags.append(f'[{name} "{_pgn_value(value)}"]')

    def visit_step(self, info: StepInfo) -> None:
        self.shown = _move_event(info)
        self.moves.append((info, [move_text(info)]))

    def visit_event(self, event: Event) -> None:
        if event is not self.shown:
            self.moves[-1][1].append(braced(f"{event.text} [{event.rule}]" if event.rule else event.text))

    def visit_comment(self, step: int, text: str) -> None:
        (self.moves[-1][1] if step else self.opening).append(braced(text))

    def visit_failure(self, failure: ReplayFailure) -> None:
        self.tail.append(braced(f"the replay stops here: {failure}"))

    def visit_result(self, result: Result | None) -> None:
        self.tail.append(ending(result, self.replay.seat_names))

    def body(self) -> list[str]:
        return self.opening + _move_lines(self.moves, len(self.replay.seat_names))

    def result(self) -> str:
        return "\n".join([*self.tags, "", *self.body(), *self.tail]) + "\n"


def _move_lines(moves: list[tuple[StepInfo, list[str]]], seats: int) -> list[str]:
    infos = [info for info, _ in moves]
    # Two seats taking turns, no chance steps: the layout of numbered move pairs.
    alternating = seats == 2 and all(
        i.kind == "decision" and (k == 0 or i.seat != infos[k - 1].seat) for k, i in enumerate(infos)
    )
    if not alternating:
        return [f"{i.step}. {i.seat_name}: {' '.join(tokens)}" for i, tokens in moves]
    lines: list[str] = []
    pending: list[str] = []
    turn = 1
    for info, tokens in moves:
        if info.seat == 1 and not pending:
            pending = ["..."]  # the second seat moves first in this turn
        pending.extend(tokens)
        if info.seat == 1:
            lines.append(f"{turn}. " + " ".join(pending))
            pending, turn = [], turn + 1
    if pending:
        lines.append(f"{turn}. " + " ".join(pending))
    return lines


def export_text(source: Source, *, games: GameLookup = core_games.info) -> str:
    """The record as text: its game's own text visitor, or the generic :class:`TextExporter`."""
    replay = replayed(source, games)
    visitor = notation_games.plugin(replay.header.game).text or TextExporter
    return walk(replay, visitor())


# -- JSON ------------------------------------------------------------------------------


def _event_json(event: Event) -> dict[str, str]:
    return {"kind": event.kind, "text": event.text, "rule": event.rule}


def _result_json(result: Result | None) -> dict[str, Any] | None:
    return None if result is None else {
        "winners": list(result.winners), "reason": result.reason,
        "rule": result.rule, "scores": list(result.scores),
    }


class JsonExporter(BaseVisitor[str]):
    """The record for programs: the header as recorded, every step with its events and comments,
    the game's own result and the record's, and the verify report."""

    def begin_game(self, replay: Replay) -> None:
        self.replay = replay
        self.start_comments: list[str] = []
        self.steps: list[dict[str, Any]] = []
        self.failure: str | None = None
        self.own: Result | None = None

    def visit_step(self, info: StepInfo) -> None:
        self.steps.append({
            "step": info.step,
            "kind": info.kind,
            "seat": info.seat,
            "seat_name": info.seat_name,
            "code" if info.kind == "decision" else "outcome": info.value,
            "text": info.text,
            "notation": move_text(info),
            "events": [],
            "comments": [],
        })

    def visit_event(self, event: Event) -> None:
        self.steps[-1]["events"].append(_event_json(event))

    def visit_comment(self, step: int, text: str) -> None:
        (self.steps[-1]["comments"] if step else self.start_comments).append(text)

    def visit_failure(self, failure: ReplayFailure) -> None:
        self.failure = str(failure)

    def visit_result(self, result: Result | None) -> None:
        self.own = result

    def result(self) -> str:
        report = self.replay.verify()
        doc = {
            "header": self.replay.header.wire(),
            "start_comments": self.start_comments,
            "steps": self.steps,
            "result": _result_json(self.own),  # the game's own, after the last step that replayed
            "recorded_result": _result_json(self.replay.recording.result),  # what the record says
            "verify": {"ok": report.ok, "first_bad_step": report.first_bad_step, "message": report.message},
            "replay_failure": self.failure,
        }
        return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def export_json(source: Source, *, games: GameLookup = core_games.info) -> str:
    return walk(replayed(source, games), JsonExporter())


# -- every format ----------------------------------------------------------------------


def export_formats() -> dict[str, str]:
    """Every format :func:`export` writes: name -> what it is; text and json first, then the games' own."""
    extra = {name: fmt.title for name, (fmt, _) in notation_games.extra_formats().items()}
    return {**GENERIC_FORMATS, **extra}


def export(source: Source, fmt: str, *, games: GameLookup = core_games.info) -> str:
    """The record in format ``fmt``: text, json, or a format of its game's notation plugin.
    ExportError (one line) for a format of another game or one nobody offers."""
    if fmt == "text":
        return export_text(source, games=games)
    if fmt == "json":
        return export_json(source, games=games)
    game = source.header.game
    own = {f.name: f for f in notation_games.plugin(game).formats}
    if fmt not in own:
        offered = notation_games.extra_formats().get(fmt)
        if offered is None:
            raise ExportError(f"unknown export format {fmt!r} (known: {', '.join(export_formats())})")
        raise wrong_game(offered[0].title, fmt, offered[1], game)
    return walk(replayed(source, games), own[fmt].visitor())
