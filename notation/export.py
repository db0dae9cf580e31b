"""Text and JSON export of a record: PGN-like text for people, JSON for programs.

Events are derived by replaying the record; a move's notation comes from the
``move`` event the step produced (Tafl: OpenTafl notation with captures),
else from ``game.describe``. The result exported is the game's own, from the
replay, never the one the record claims; a record that does not verify is
exported with what differs (text: ``Verify`` and ``Recorded result`` tags;
JSON: ``verify`` and ``recorded_result``).
"""

from __future__ import annotations

import json
from typing import Any, Union

from core import games as core_games
from core.engine import Event, Result
from notation.catalog import GameLookup
from notation.format import Header
from notation.reader import Recording
from notation.replay import Replay, StepInfo
from notation.games.taifa import report_lines
from notation.wording import braced, result_text

Source = Union[Recording, Replay]


class ExportError(Exception):
    """A record that cannot be written in the format asked for (one line).

    ``differs``: refused because the record does not replay as it says (what
    ``fiefdom replay verify`` reports as differing), not because of the format.
    """

    def __init__(self, message: str, *, differs: bool = False) -> None:
        super().__init__(message)
        self.differs = differs


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


def date_parts(header: Header) -> tuple[str, str]:
    """(``YYYY.MM.DD``, ``HH:MM``) of the record's creation time (UTC)."""
    day, _, clock = header.created.partition("T")
    return day.replace("-", "."), clock[:5]


def seat_labels(replay: Replay) -> list[str]:
    """``attackers: alice (human)`` for every seat."""
    out = []
    for name, seat in zip(replay.seat_names, replay.header.seats):
        who = seat.kind + (f", {seat.detail}" if seat.detail else "")
        out.append(f"{name}: {seat.name} ({who})")
    return out


def _pgn_value(text: str) -> str:
    return " ".join(text.replace("\\", "\\\\").replace('"', '\\"').split())


def _step_tokens(replay: Replay, info: StepInfo) -> list[str]:
    tokens = [move_text(info)]
    shown = _move_event(info)
    for event in info.events:
        if event is not shown:
            tokens.append(braced(f"{event.text} [{event.rule}]" if event.rule else event.text))
    tokens.extend(braced(c) for c in replay.comments_at(info.step))
    return tokens


def _alternating(replay: Replay) -> bool:
    """Two seats taking turns, no chance steps: the layout of numbered move pairs."""
    infos = [replay.step_record(n) for n in range(1, len(replay) + 1)]
    return len(replay.seat_names) == 2 and all(
        i.kind == "decision" and (k == 0 or i.seat != infos[k - 1].seat) for k, i in enumerate(infos)
    )


def _move_lines(replay: Replay) -> list[str]:
    infos = [replay.step_record(n) for n in range(1, len(replay) + 1)]
    if not _alternating(replay):
        return [f"{i.step}. {i.seat_name}: {' '.join(_step_tokens(replay, i))}" for i in infos]
    lines: list[str] = []
    pending: list[str] = []
    turn = 1
    for info in infos:
        if info.seat == 1 and not pending:
            pending = ["..."]  # the second seat moves first in this turn
        pending.extend(_step_tokens(replay, info))
        if info.seat == 1:
            lines.append(f"{turn}. " + " ".join(pending))
            pending, turn = [], turn + 1
    if pending:
        lines.append(f"{turn}. " + " ".join(pending))
    return lines


def export_text(source: Source, *, games: GameLookup = core_games.info) -> str:
    replay = replayed(source, games)
    recording = replay.recording
    h = recording.header
    day, clock = date_parts(h)
    result = replay.result
    ending = result_text(result, replay.seat_names) if result else "*"
    tags = [
        ("Game", h.game),
        ("Variant", h.variant),
        ("Rules revision", str(h.revision)),
        ("Seats", "; ".join(seat_labels(replay))),
        ("Chance", h.chance),
        ("Seed", "-" if h.seed is None else str(h.seed)),
        ("Date", day),
        ("Time", f"{clock} UTC"),
        ("App", h.app),
        ("Result", ending),
    ]
    claimed = recording.result
    if claimed is not None and claimed != result:
        tags.append(("Recorded result", result_text(claimed, replay.seat_names)))
    report = replay.verify()
    if not report.ok:
        tags.append(("Verify", report.verdict))
    if h.game == "taifa":
        tags.insert(2, ("Options", _options_text(h.options)))
    lines = [f'[{key} "{_pgn_value(value)}"]' for key, value in tags]
    lines.append("")
    if h.game == "taifa":  # turns and rounds, many seats and chance steps: a game report
        lines.extend(report_lines(replay))
    else:
        lines.extend(braced(c) for c in replay.comments_at(0))
        lines.extend(_move_lines(replay))
    if replay.failure is not None:
        lines.append(braced(f"the replay stops here: {replay.failure}"))
    lines.append(ending)
    return "\n".join(lines) + "\n"


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "-"


def _event_json(event: Event) -> dict[str, str]:
    return {"kind": event.kind, "text": event.text, "rule": event.rule}


def _result_json(result: Result | None) -> dict[str, Any] | None:
    return None if result is None else {
        "winners": list(result.winners), "reason": result.reason,
        "rule": result.rule, "scores": list(result.scores),
    }


def export_json(source: Source, *, games: GameLookup = core_games.info) -> str:
    replay = replayed(source, games)
    recording = replay.recording
    steps: list[dict[str, Any]] = []
    for n in range(1, len(replay) + 1):
        info = replay.step_record(n)
        steps.append({
            "step": info.step,
            "kind": info.kind,
            "seat": info.seat,
            "seat_name": info.seat_name,
            "code" if info.kind == "decision" else "outcome": info.value,
            "text": info.text,
            "notation": move_text(info),
            "events": [_event_json(e) for e in info.events],
            "comments": replay.comments_at(n),
        })
    report = replay.verify()
    doc = {
        "header": recording.header.wire(),
        "start_comments": replay.comments_at(0),
        "steps": steps,
        "result": _result_json(replay.result),  # the game's own, after the last step that replayed
        "recorded_result": _result_json(recording.result),  # what the record says
        "verify": {"ok": report.ok, "first_bad_step": report.first_bad_step, "message": report.message},
        "replay_failure": None if replay.failure is None else str(replay.failure),
    }
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
