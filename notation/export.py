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

:func:`export_stream` gives any format as pieces of text, made as the replay is
walked, so a record of any length is written without holding its export:
``export`` is those pieces joined. Every string from a record (tags, seat names,
comments, reasons) goes through :func:`notation.wording.visible` in text; JSON
keeps them as data, with every character ``visible`` would write out escaped
(``\\u202e``) rather than raw (:func:`json_text`).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Union

from core import games as core_games
from core.engine import TABLE, Chance, Event, Result, Viewer
from core.visibility import chance_words
from notation import games as notation_games
from notation.annex import Note
from notation.catalog import GameLookup
from notation.deal import Deal
from notation.reader import Recording
from notation.replay import Replay, ReplayFailure, StepInfo
from notation.visitor import BaseVisitor, StreamingVisitor, ending, seed_hidden, viewer_name, walk_stream
from notation.wording import HIDDEN_CATEGORIES, braced, count, visible

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


class TextExporter(StreamingVisitor):
    """The generic text export: PGN-like tags, a blank line, the body, where the replay stops, the result.

    The body is the comments made before the first step, then the moves: each
    step's notation followed by its events and comments in braces, as numbered
    pairs when two seats take turns with no chance steps, else one numbered
    line a step with the seat's name. A game's own text visitor subclasses this
    and builds another body, line by line with :meth:`line`.

    Lines are emitted as they are complete: a step's line when the next step
    begins, since its events and comments come after it.
    """

    # Options are left out of the generic text: a Tafl record's text never had them,
    # and its exports do not change. A game's own text visitor may show them.
    hidden_tags: frozenset[str] = frozenset({"Options"})

    def begin_game(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self._in_tags = True
        self._early: list[str] = []  # body lines made before the tags were all out
        self.shown: Event | None = None  # the step's move event, already given as its notation
        self.step: StepInfo | None = None  # the step whose tokens are being gathered
        self.tokens: list[str] = []
        self.pending: list[str] = []  # the move pair being written, in the layout of pairs
        self.turn = 1
        self._alternating: bool | None = None

    @property
    def alternating(self) -> bool:
        """Two seats taking turns, no chance steps: the layout of numbered move pairs."""
        if self._alternating is None:
            self._alternating = len(self.replay.seat_names) == 2 and _alternate(self.replay)
        return self._alternating

    def line(self, text: str) -> None:
        """One line of the body (a game's own visitor writes its body with this)."""
        if self._in_tags:
            self._early.append(text)
        else:
            self.emit(text + "\n")

    def _body(self) -> None:
        if self._in_tags:
            self._in_tags = False
            self.emit("\n")
            for text in self._early:
                self.emit(text + "\n")

    def visit_header(self, name: str, value: str) -> None:
        if name not in self.hidden_tags:
            self.emit(f'[{name} "{_pgn_value(visible(value))}"]\n')
        if name == "Seed" and self.replay.header.deal is not None:  # a networked game's: the seed's proof
            self.emit(f'[Deal "{deal_words(self.replay.header.deal)}"]\n')

    def visit_step(self, info: StepInfo) -> None:
        self._body()
        self._close_step()
        self.shown = _move_event(info)
        self.step, self.tokens = info, [visible(move_text(info))]

    def visit_event(self, event: Event) -> None:
        if event is not self.shown:
            self.tokens.append(braced(visible(f"{event.text} [{event.rule}]" if event.rule else event.text)))

    def visit_comment(self, step: int, text: str) -> None:
        self._body()
        if step:
            self.tokens.append(braced(visible(text)))
        else:
            self.line(braced(visible(text)))

    def visit_failure(self, failure: ReplayFailure) -> None:
        self._close_moves()
        self.line(braced(visible(f"the replay stops here: {failure}")))

    def visit_result(self, result: Result | None) -> None:
        self._close_moves()
        self.line(visible(ending(result, self.replay.seat_names)))

    def end_game(self) -> None:
        self._close_moves()

    def _close_step(self) -> None:
        """The step gathered so far is complete: its line, or its half of a move pair."""
        info, self.step = self.step, None
        if info is None:
            return
        if not self.alternating:
            self.line(f"{info.step}. {visible(info.seat_name)}: {' '.join(self.tokens)}")
            return
        if info.seat == 1 and not self.pending:
            self.pending = ["..."]  # the second seat moves first in this turn
        self.pending.extend(self.tokens)
        if info.seat == 1:
            self.line(f"{self.turn}. " + " ".join(self.pending))
            self.pending, self.turn = [], self.turn + 1

    def _close_moves(self) -> None:
        self._body()
        self._close_step()
        if self.pending:
            self.line(f"{self.turn}. " + " ".join(self.pending))
            self.pending = []


class ReportExporter(TextExporter):
    """The generic text's tags (with the options) and ending around a game's report: a body of
    headings (a turn, a round), each step on a line of its own as it comes, and the events and
    comments under it, indented. A game's report says where headings go and how a step reads."""

    hidden_tags: frozenset[str] = frozenset()
    INDENT_STEP = "  "
    INDENT_EVENT = "      "

    def begin_game(self, replay: Replay) -> None:
        super().begin_game(replay)
        self.lines = 0  # body lines written

    def line(self, text: str) -> None:
        super().line(text)
        self.lines += 1

    def heading(self, text: str) -> None:
        """A heading, after a blank line unless it is the body's first line."""
        if self.lines:
            self.line("")
        self.line(text)

    def step_line(self, step: int, text: str) -> None:
        self._body()
        self.line(f"{self.INDENT_STEP}{step}. {visible(text)}")

    def event_line(self, e: Event) -> None:
        self.line(visible(f"{self.INDENT_EVENT}{e.text}  [{e.rule}]" if e.rule else f"{self.INDENT_EVENT}{e.text}"))

    def visit_comment(self, step: int, text: str) -> None:
        self._body()
        # Comments before the first step stand under the first heading, at the margin.
        self.line((self.INDENT_EVENT if step else "") + braced(visible(text)))

    def _close_step(self) -> None:
        """Each step's line is written as it comes: nothing is gathered."""


def deal_words(deal: Deal) -> str:
    """A header's deal in one short line, for the text export's ``Deal`` tag."""
    return f"{count(len(deal.parties), 'party', 'parties')}, checked by verify"


def step_text(info: StepInfo, seat_name: str | None = None) -> str:
    """A step as a report gives it: who decided what (``seat_name``: the seat as the report
    names it; the record's name by default), or what the dice or the pick gave; a shuffle by its
    size alone, even in the full table's report (its order is in the record for whoever needs it)."""
    if info.kind == "decision":
        return f"{seat_name or info.seat_name}: {info.text}"
    chance = info.before
    if isinstance(chance, Chance) and chance.kind == "shuffle":
        return chance_words(chance)
    return info.text


def _alternate(replay: Replay) -> bool:
    """Every step a decision, by the other seat than the step before (read from the records)."""
    last: int | None = None
    for kind, seat in replay.movers():
        if kind != "decision" or seat == last:
            return False
        last = seat
    return True


def export_text(source: Source, *, games: GameLookup = core_games.info) -> str:
    """The record as text: its game's own text visitor, or the generic :class:`TextExporter`."""
    return "".join(_stream(replayed(source, games), _text_visitor))


def _text_visitor(replay: Replay) -> BaseVisitor[str]:
    return (notation_games.plugin(replay.header.game).text or TextExporter)()


# -- JSON ------------------------------------------------------------------------------


def _event_json(event: Event) -> dict[str, str]:
    return {"kind": event.kind, "text": event.text, "rule": event.rule}


def _result_json(result: Result | None) -> dict[str, Any] | None:
    return None if result is None else {
        "winners": list(result.winners), "reason": result.reason,
        "rule": result.rule, "scores": list(result.scores),
    }


def hex_bytes(value: Any) -> Any:
    """``value`` with every bytes in it (a deal's commitments and secrets) written as lowercase hex."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {k: hex_bytes(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [hex_bytes(v) for v in value]
    return value


def json_text(value: Any, indent: int = 0) -> str:
    """``value`` as ``json.dumps(value, ensure_ascii=False, indent=2)`` writes it, nested ``indent``
    levels deep, with every character :func:`visible` writes out escaped as ``\\uXXXX`` (C0
    controls json escapes already; this adds DEL, C1, bidi and other format characters, line
    separators, unassigned code points): the document is the same data, and no such character
    reaches the output raw."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    if indent:
        text = text.replace("\n", "\n" + "  " * indent)
    if text.isascii():
        return text.replace("\x7f", "\\u007f")
    return "".join(_json_escape(ch) if ch >= "\x7f" else ch for ch in text)


def _json_escape(ch: str) -> str:
    if ch != "\x7f" and unicodedata.category(ch) not in HIDDEN_CATEGORIES:
        return ch
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a surrogate pair, as JSON writes a character beyond the BMP
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


class JsonExporter(StreamingVisitor):
    """The record for programs: the header as recorded, every step with its events and comments,
    the game's own result and the record's, and the verify report.

    Written as ``json.dumps(document, ensure_ascii=False, indent=2)`` would write it (see
    :func:`json_text`), one step object at a time."""

    def begin_game(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.start_comments: list[str] | None = []  # None once written
        self.step: dict[str, Any] | None = None  # the step being gathered
        self.steps = 0  # steps written
        self.failure: str | None = None
        self.own: Result | None = None
        header = replay.header.wire()
        if replay.given:  # outcomes not derived from the seed: said, and counted, after the mode
            items = list(header.items())
            at = list(header).index("chance") + 1
            header = dict(items[:at] + [("chance_note", replay.chance_note), ("taken_as_given", replay.given)]
                          + items[at:])
        if seed_hidden(replay, self.viewer):
            header = {**header, "seed": None}  # a seat's export: the seed would deal every card again
            if header.get("deal") is not None:  # and so would the deal's secrets: its commitments are kept
                header["deal"] = {"host": {**header["deal"]["host"], "secret": None},
                                  "seats": [{**s, "secret": None} for s in header["deal"]["seats"]]}
            header["view"] = viewer_name(self.viewer, replay.seat_names)
        self.emit("{\n  \"header\": " + json_text(hex_bytes(header), 1))

    def _start_steps(self) -> None:
        if self.start_comments is not None:
            self.emit(",\n  \"start_comments\": " + json_text(self.start_comments, 1) + ",\n  \"steps\": [")
            self.start_comments = None

    def _close_step(self) -> None:
        if self.step is not None:
            self.emit(("," if self.steps else "") + "\n    " + json_text(self.step, 2))
            self.steps += 1
            self.step = None

    def visit_step(self, info: StepInfo) -> None:
        self._start_steps()
        self._close_step()
        self.step = {
            "step": info.step,
            "kind": info.kind,
            "seat": info.seat,
            "seat_name": info.seat_name,
            "code" if info.kind == "decision" else "outcome": info.value,
            "text": info.text,
            "notation": move_text(info),
            "events": [],
            "comments": [],
        }

    def visit_event(self, event: Event) -> None:
        assert self.step is not None
        self.step["events"].append(_event_json(event))

    def visit_comment(self, step: int, text: str) -> None:
        if step:
            assert self.step is not None
            self.step["comments"].append(text)
        else:
            assert self.start_comments is not None
            self.start_comments.append(text)

    def visit_failure(self, failure: ReplayFailure) -> None:
        self.failure = str(failure)

    def visit_result(self, result: Result | None) -> None:
        self.own = result

    def end_game(self) -> None:
        self._start_steps()
        self._close_step()
        self.emit("\n  ]" if self.steps else "]")
        report = self.replay.verify()
        tail = {
            "result": _result_json(self.own),  # the game's own, after the last step that replayed
            "recorded_result": _result_json(self.replay.recording.result),  # what the record says
            "verify": {"ok": report.ok, "first_bad_step": report.first_bad_step, "message": report.message},
            "replay_failure": self.failure,
        }
        for key, value in tail.items():
            self.emit(f",\n  {json.dumps(key)}: " + json_text(value, 1))
        self.emit("\n}\n")


def export_json(source: Source, *, games: GameLookup = core_games.info) -> str:
    return "".join(_stream(replayed(source, games), lambda _: JsonExporter()))


# -- every format ----------------------------------------------------------------------


def export_formats() -> dict[str, str]:
    """Every format :func:`export` writes: name -> what it is; text and json first, then the games' own."""
    extra = {name: fmt.title for name, (fmt, _) in notation_games.extra_formats().items()}
    return {**GENERIC_FORMATS, **extra}


def export(source: Source, fmt: str, *, games: GameLookup = core_games.info, viewer: Viewer = TABLE) -> str:
    """The record in format ``fmt``: text, json, or a format of its game's notation plugin.
    ExportError (one line) for a format of another game or one nobody offers."""
    return "".join(export_stream(source, fmt, games=games, viewer=viewer))


def export_stream(source: Source, fmt: str, *, games: GameLookup = core_games.info,
                  viewer: Viewer = TABLE) -> Iterator[str]:
    """The record in format ``fmt`` as pieces of text to write one after another, made as the
    replay is walked (a line or a step at a time), so memory does not grow with the record.
    ``viewer``: the game as that seat (or a spectator) saw it; the full table by default.

    Raises ExportError (one line) before the first piece for a format of another game, one
    nobody offers, or a record the format refuses (otg of a record that does not verify)."""
    make: Callable[[Replay], BaseVisitor[Any]]
    if fmt == "text":
        make = _text_visitor
    elif fmt == "json":
        make = lambda _: JsonExporter()  # noqa: E731
    else:
        game = source.header.game
        own = {f.name: f for f in notation_games.plugin(game).formats}
        if fmt not in own:
            offered = notation_games.extra_formats().get(fmt)
            if offered is None:
                raise ExportError(f"unknown export format {fmt!r} (known: {', '.join(export_formats())})")
            raise wrong_game(offered[0].title, fmt, offered[1], game)
        make = lambda _: own[fmt].visitor()  # noqa: E731
    stream = _stream(replayed(source, games), make, viewer, notes=fmt in GENERIC_FORMATS)
    first = next(stream, "")  # begin_game runs here: a refusal is raised before anything is written
    return _chain(first, stream)


def _stream(replay: Replay, make: Any, viewer: Viewer = TABLE, *, notes: bool = True) -> Iterator[str]:
    visitor = make(replay)
    annex = replay.recording.annex
    if notes and viewer == TABLE and annex is not None and annex.notes and isinstance(visitor, StreamingVisitor):
        visitor = _WithNotes(visitor, annex.notes)
    return walk_stream(replay, visitor, viewer)


class _WithNotes(StreamingVisitor):
    """A visitor given the record's notes (notation/annex.py) as comments, ``note: text``, each after
    the comments of the step it is on: in the full table's text and JSON only, since a note is written
    by someone who saw the whole table and may name what a seat's or a spectator's export hides."""

    def __init__(self, inner: StreamingVisitor, notes: Sequence[Note]) -> None:
        super().__init__()
        self.inner, self.notes, self.done, self.last = inner, notes, 0, 0

    def _notes_before(self, step: int) -> None:
        while self.done < len(self.notes) and self.notes[self.done].step < step:
            note = self.notes[self.done]
            self.done += 1
            self.inner.visit_comment(note.step, f"note: {note.text}")

    def begin_game(self, replay: Replay) -> None:
        self.inner.viewer = self.viewer
        self.inner.begin_game(replay)

    def visit_header(self, name: str, value: str) -> None:
        self.inner.visit_header(name, value)

    def visit_step(self, info: StepInfo) -> None:
        self._notes_before(info.step)
        self.last = info.step
        self.inner.visit_step(info)

    def visit_event(self, event: Event) -> None:
        self.inner.visit_event(event)

    def visit_comment(self, step: int, text: str) -> None:
        self.inner.visit_comment(step, text)

    def visit_failure(self, failure: ReplayFailure) -> None:
        self._notes_before(self.last + 1)
        self.inner.visit_failure(failure)

    def visit_result(self, result: Result | None) -> None:
        self._notes_before(self.last + 1)
        self.inner.visit_result(result)

    def end_game(self) -> None:
        self.inner.end_game()

    def drain(self) -> list[str]:
        return self.inner.drain()


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    if first:
        yield first
    yield from rest
