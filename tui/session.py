"""A game being played in the app: the rules object, who controls each seat,
and the autosave journal. No drawing here, so it is tested without a screen."""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from core.engine import Code, Decision, Event, Game, Over, RulesError
from core.games import new_game
from core.chance import RecordedChance
from core.match import Match, Step
from notation.catalog import new_header
from notation.format import Header, RecordError, Seat
from notation.reader import read_record_file
from notation.replay import Replay
from notation.writer import Journal

APP_NAME = "fiefdom"
AI_DETAIL = re.compile(r"(?P<time>[0-9.]+)s per move")


def ai_detail(ai_time: float, ai_depth: int | None = None) -> str:
    """An AI seat's detail in a record header; AI_DETAIL reads the time back on resume."""
    from core.tafl.ai import AI_VERSION

    depth = f", depth <= {ai_depth}" if ai_depth else ""
    return f"{AI_VERSION}, {ai_time:g}s per move{depth}"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where autosaves, saved records and the keymap live (platformdirs, or --data-dir)."""
    base = Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME))
    base.mkdir(parents=True, exist_ok=True)
    return base


def autosave_dir(base: Path) -> Path:
    path = base / "autosave"
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass(frozen=True)
class SeatConfig:
    kind: str  # "human" or "ai"
    ai_time: float = 1.0

    def seat(self, name: str) -> Seat:
        if self.kind == "human":
            return Seat(name, "human", "")
        return Seat(name, "ai", ai_detail(self.ai_time))

    @classmethod
    def from_seat(cls, seat: Seat) -> "SeatConfig":
        if seat.kind == "ai":
            m = AI_DETAIL.search(seat.detail)
            return cls("ai", float(m["time"]) if m else 1.0)
        return cls("human")


@dataclass
class GameSetup:
    game: str = "tafl"
    variant: str = "traditional"
    seats: tuple[SeatConfig, ...] = (SeatConfig("human"), SeatConfig("ai"))
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)  # a custom start position


@dataclass(frozen=True)
class MoveEntry:
    step: Step
    record: str  # the move in notation with its captures


class Session:
    """One game: its state, its history of steps, and its journal on disk."""

    def __init__(self, setup: GameSetup, path: Path, *, resume: bool = False) -> None:
        self.setup = setup
        self.path = path
        self.game = new_game(setup.game, setup.variant, setup.options, setup.setup)
        self.match = _driver(self.game)
        self.history: list[MoveEntry] = []
        if resume:
            self.journal = Journal.open_append(path)
            for record in self.journal.recording.records:
                code = getattr(record, "code", None)
                if code is not None:
                    self.play(tuple(code), record=False)
        else:
            self.journal = Journal.create(path, self.header(), game=self.game)

    # -- building ------------------------------------------------------------

    @classmethod
    def new(cls, setup: GameSetup, base: Path) -> "Session":
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        path = autosave_dir(base) / f"{setup.game}-{setup.variant}-{stamp}.fief"
        n = 1
        while path.exists():
            n += 1
            path = path.with_name(f"{setup.game}-{setup.variant}-{stamp}-{n}.fief")
        return cls(setup, path)

    @classmethod
    def resume(cls, path: Path) -> "Session":
        rec = read_record_file(path)
        h = rec.header
        setup = GameSetup(h.game, h.variant, tuple(SeatConfig.from_seat(s) for s in h.seats),
                          h.seed or 0, dict(h.options), dict(h.setup))
        return cls(setup, path, resume=True)

    def header(self) -> Header:
        seats = [cfg.seat(name) for cfg, name in zip(self.setup.seats, self.game.seats)]
        return new_header(self.setup.game, self.setup.variant, seats, chance="none", seed=self.setup.seed,
                          options=dict(self.game.opts), setup=self.setup.setup)

    # -- playing -------------------------------------------------------------

    @property
    def decision(self) -> Decision | None:
        point = self.game.point()
        return point if isinstance(point, Decision) else None

    @property
    def over(self) -> Over | None:
        point = self.game.point()
        return point if isinstance(point, Over) else None

    @property
    def ai_only(self) -> bool:
        """AIs on every seat: a game to watch, at the chosen speed, with no takeback."""
        return all(c.kind == "ai" for c in self.setup.seats)

    def seat_kind(self, seat: int) -> str:
        return self.setup.seats[seat].kind

    def play(self, code: Code, *, record: bool = True) -> list[Event]:
        """Apply a decision for the seat to move and journal it (RulesError if illegal).

        ``record=False`` replays a move that the journal already holds (resume)."""
        if self.over is not None:
            raise RulesError("the game is over")
        text = self.game.describe(code)
        step = self.match.apply(code)  # checks legality, numbers the step
        self.history.append(MoveEntry(step, _record_of(step.events, text)))
        if record:
            self.journal(step, self.game)
            if self.over is not None:
                self.journal.finish(self.over.result, self.game)
        return list(step.events)

    def takeback(self) -> int:
        """Undo back to the last position where a human was to move; returns moves undone.

        The journal is append-only, so the record is written again without the
        undone moves (to a temporary file, then moved over the autosave).
        """
        if not self.history:
            return 0
        keep = len(self.history) - 1
        while keep > 0 and self.seat_kind(self.history[keep].step.seat or 0) != "human":
            keep -= 1
        if self.seat_kind(self.history[keep].step.seat or 0) != "human":
            return 0
        codes = [entry.step.value for entry in self.history[:keep]]
        self.journal.close()
        tmp = self.path.with_suffix(".tmp")
        self.game = new_game(self.setup.game, self.setup.variant, self.setup.options, self.setup.setup)
        self.match = _driver(self.game)
        undone = len(self.history) - keep
        self.history = []
        self.journal = Journal.create(tmp, self.header(), game=self.game)
        for code in codes:
            self.play(code)  # type: ignore[arg-type]
        self.journal.close()
        os.replace(tmp, self.path)
        self.journal = Journal.open_append(self.path)
        return undone

    def close(self) -> None:
        self.journal.close()

    def save_as(self, target: Path) -> Path:
        """Copy the record (finished or not) to ``target``, adding .fief if missing."""
        if target.suffix != ".fief":
            target = target.with_name(target.name + ".fief")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(self.path.read_bytes())
        return target


def _driver(game: Game) -> Match:
    """The match driver for an interactive game: the screen answers decisions and
    hands them to ``Match.apply``; Tafl has no chance points to draw."""
    return Match(game, {}, RecordedChance(()))


def _record_of(events: tuple[Event, ...], fallback: str) -> str:
    return next((e.data[0] for e in events if e.kind == "move" and e.data), fallback)


@dataclass(frozen=True)
class Unfinished:
    path: Path
    title: str
    moves: int


def unfinished_games(base: Path) -> list[Unfinished]:
    """Autosaved games without a result, newest first; unreadable files are skipped."""
    out = []
    for path in sorted(autosave_dir(base).glob("*.fief"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            rec = read_record_file(path)
        except (RecordError, OSError):
            continue
        if rec.result is None:
            h = rec.header
            seats = " vs ".join(f"{s.name} ({s.kind})" for s in h.seats)
            out.append(Unfinished(path, f"{h.game} {h.variant}: {seats}, started {h.created}", rec.steps))
    return out


def open_replay(path: Path) -> Replay:
    """A Replay for a record file; RecordError/OSError for files that cannot be read."""
    return Replay(read_record_file(path))
