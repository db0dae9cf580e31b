"""A replay walked for a visitor: the one traversal every export is written on.

In the way of python-chess's ``pgn.BaseVisitor``: :func:`walk` calls a
visitor's methods in the order a text export reads, and returns what the
visitor's :meth:`BaseVisitor.result` makes of it:

    begin_game(replay)
    visit_header(name, value)          every tag of :func:`header_tags`, in order
    visit_comment(0, text)             the comments made before the first step
    for each step that replayed:
        visit_step(info)               who decided what, or what chance gave
        visit_event(event)             each event the step produced
        visit_comment(step, text)      each comment on the step
    visit_failure(failure)             only when the rules refused a step
    visit_result(result)               the game's own result (None: not over)
    end_game()

A visitor overrides only what it needs. The generic text and JSON exports are
visitors (notation/export.py); a game's notation plugin may supply its own
text visitor and visitors for formats of its own (notation/games).

:func:`walk_stream` is the same walk as a stream of text: after each call it
yields what a :class:`StreamingVisitor` has made ready (:meth:`~StreamingVisitor.emit`),
so an export of any length is written as it is made; any other visitor's
``result()`` comes at the end, in one piece.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any, Generic, TypeVar

from core.engine import TABLE, Event, Result, Viewer
from notation.format import Header
from notation.replay import Replay, ReplayFailure, StepInfo
from notation.wording import result_text

ResultT = TypeVar("ResultT")


class BaseVisitor(ABC, Generic[ResultT]):
    """Base class of the visitors :func:`walk` drives; every visit does nothing unless overridden.
    ``viewer`` is the point of view the walk tells the game to (set before ``begin_game``)."""

    viewer: Viewer = TABLE

    def begin_game(self, replay: Replay) -> None:
        """Called first, with the replay (header, seat names, verify report) for what a visit needs."""

    def visit_header(self, name: str, value: str) -> None:
        """Called for each tag of the record (:func:`header_tags`)."""

    def visit_step(self, info: StepInfo) -> None:
        """Called for each step that replayed, before its events and comments."""

    def visit_event(self, event: Event) -> None:
        """Called for each event of the step visited last, in the order the rules gave them."""

    def visit_comment(self, step: int, text: str) -> None:
        """Called for each comment: ``step`` 0 before the first step, else just after that step's events."""

    def visit_failure(self, failure: ReplayFailure) -> None:
        """Called after the last step that replayed, when the rules refused the next one."""

    def visit_result(self, result: Result | None) -> None:
        """Called with the game's own result after the last step that replayed (None: not over)."""

    def end_game(self) -> None:
        """Called last."""

    @abstractmethod
    def result(self) -> ResultT:
        """What the visitor made of the replay: the value :func:`walk` returns."""


class StreamingVisitor(BaseVisitor[str]):
    """A visitor that makes its text as it goes: :meth:`emit` queues a piece, :func:`walk_stream`
    takes what is queued after each call (:meth:`drain`); ``result()`` is whatever was not taken."""

    def __init__(self) -> None:
        self._ready: list[str] = []

    def emit(self, text: str) -> None:
        self._ready.append(text)

    def drain(self) -> list[str]:
        ready, self._ready = self._ready, []
        return ready

    def result(self) -> str:
        return "".join(self.drain())


def _calls(replay: Replay, visitor: BaseVisitor[Any], viewer: Viewer) -> Iterator[None]:
    """The walk: the visitor's calls in order, pausing after each one; every step as ``viewer`` saw it."""
    visitor.viewer = viewer
    visitor.begin_game(replay)
    yield
    for name, value in header_tags(replay, viewer):
        visitor.visit_header(name, value)
        yield
    for text in replay.comments_at(0):
        visitor.visit_comment(0, text)
        yield
    for info in replay.step_infos():
        info = info.seen_by(viewer)
        visitor.visit_step(info)
        for event in info.events:
            visitor.visit_event(event)
        for text in replay.comments_at(info.step):
            visitor.visit_comment(info.step, text)
        yield
    if replay.failure is not None:
        visitor.visit_failure(replay.failure)
    visitor.visit_result(replay.result)
    visitor.end_game()
    yield


def walk(replay: Replay, visitor: BaseVisitor[ResultT], viewer: Viewer = TABLE) -> ResultT:
    """Visit ``replay`` in order (the module's docstring lists the calls), every step as ``viewer``
    saw it (the full table by default: every step whole); ``visitor.result()``."""
    for _ in _calls(replay, visitor, viewer):
        pass
    return visitor.result()


def walk_stream(replay: Replay, visitor: BaseVisitor[str], viewer: Viewer = TABLE) -> Iterator[str]:
    """The walk of :func:`walk` as text pieces: a streaming visitor's as they are made (after
    each step at the latest), any other visitor's ``result()`` at the end. Joined, the pieces
    are what :func:`walk` returns."""
    if not isinstance(visitor, StreamingVisitor):
        yield walk(replay, visitor, viewer)
        return
    for _ in _calls(replay, visitor, viewer):
        yield from visitor.drain()


# -- the tags of a record --------------------------------------------------------------


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


def ending(result: Result | None, seat_names: Sequence[str]) -> str:
    """The result as the ``Result`` tag and the last line of a text export give it: ``*`` while not over."""
    return result_text(result, seat_names) if result else "*"


def options_text(options: dict[str, Any]) -> str:
    """``almoravid_hand=14``: the record's options, sorted by name; ``-`` for none."""
    return ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "-"


def viewer_name(viewer: Viewer, seat_names: Sequence[str]) -> str:
    """A point of view in words: a seat's name, ``spectator`` or ``full table``."""
    if viewer == TABLE:
        return "full table"
    if viewer is None or not 0 <= viewer < len(seat_names):
        return "spectator"
    return seat_names[viewer]


def seed_hidden(replay: Replay, viewer: Viewer) -> bool:
    """Whether ``viewer``'s export keeps the record's seed out: a seat's or a spectator's of a game with
    hidden information (the seed deals every card again)."""
    return viewer != TABLE and not replay.games(replay.header.game).perfect_information


def header_tags(replay: Replay, viewer: Viewer = TABLE) -> list[tuple[str, str]]:
    """The record's tags, (name, value): the header (with a ``Chance note`` when outcomes were taken
    as given, not derived from the seed: notation.verify.chance_note), the game's own result, and
    (only when the record does not verify) the result it claims and what differs. For a seat's or a spectator's
    view of a game with hidden information, a ``View`` tag, and no seed (it would deal every card
    again)."""
    h = replay.header
    seed = "-" if h.seed is None else "hidden" if seed_hidden(replay, viewer) else str(h.seed)
    day, clock = date_parts(h)
    tags = [
        ("Game", h.game),
        ("Variant", h.variant),
        ("Options", options_text(h.options)),
        ("Rules revision", str(h.revision)),
        ("Seats", "; ".join(seat_labels(replay))),
        ("Chance", h.chance),
        *([("Chance note", replay.chance_note)] if replay.chance_note else []),
        ("Seed", seed),
        ("Date", day),
        ("Time", f"{clock} UTC"),
        ("App", h.app),
        ("Result", ending(replay.result, replay.seat_names)),
    ]
    if viewer != TABLE:
        tags.append(("View", viewer_name(viewer, replay.seat_names)))
    claimed = replay.recording.result
    if claimed is not None and claimed != replay.result:
        tags.append(("Recorded result", result_text(claimed, replay.seat_names)))
    report = replay.verify()
    if not report.ok:
        tags.append(("Verify", report.verdict))
    return tags
