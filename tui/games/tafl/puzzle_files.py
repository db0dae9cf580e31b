"""Tafl puzzles and files: finding them in a folder of records, reading and writing a puzzle file
(the format is core/tafl/puzzles.py's, described in docs/tafl-puzzles.md)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.engine import RulesError
from core.tafl import TaflGame
from core.tafl.ai import MATE_BOUND
from core.tafl.puzzles import MAX_FILE, NODE_CAP, Puzzle, PuzzleError, candidate, parse_puzzles, puzzle_of
from notation.files import read_regular
from notation.format import RecordError
from notation.reader import read_record_file
from notation.replay import Replay

MAX_RECORDS = 10_000  # records read from one folder


@dataclass
class Found:
    """What a search of a folder found, and what it passed over."""

    puzzles: list[Puzzle] = field(default_factory=list)
    records: int = 0
    positions: int = 0  # positions looked at (duplicates not counted)
    proved: int = 0  # positions the AI's filter sent to the proof
    unreadable: list[str] = field(default_factory=list)  # one line each


def read_puzzle_file(path: Path) -> list[Puzzle]:
    """The puzzles in the file at ``path``; PuzzleError (one line, no path) when it cannot be read."""
    try:
        data = read_regular(path, MAX_FILE)
    except RecordError as err:
        raise PuzzleError(str(err).replace("any record", "any puzzle file").replace("record", "puzzle")) from None
    except OSError as err:
        raise PuzzleError(err.strerror or str(err)) from None
    return parse_puzzles(data)


def _annex_steps(recording: Any) -> list[int] | None:
    """The steps an analysis annex flags as forced results (another part of the project may add
    ``Recording.annex``): None when the record has none."""
    analysis = getattr(getattr(recording, "annex", None), "analysis", None)
    decisions = getattr(analysis, "decisions", None)
    if decisions is None:
        return None
    steps: set[int] = set()
    for d in decisions:
        step, score = getattr(d, "step", None), getattr(d, "score", None)
        if isinstance(step, int) and isinstance(score, int) and abs(score) > MATE_BOUND:
            steps.update((step - 1, step))  # the position the decision was made in, whichever it names
    return sorted(steps)


def _positions(replay: Replay, steps: Iterable[int]) -> Iterator[tuple[int, TaflGame]]:
    for n in steps:
        if 0 <= n <= replay.steps:
            game = replay.state_at(n)
            if isinstance(game, TaflGame) and game.result is None:
                yield n, game


def records_in(folder: Path) -> list[Path]:
    """The folder's ``*.fief`` files, by name; OSError when it cannot be listed."""
    names = sorted(e.name for e in os.scandir(folder) if e.name.endswith(".fief"))
    return [folder / name for name in names[:MAX_RECORDS]]


def find_puzzles(files: list[Path], max_moves: int, node_cap: int = NODE_CAP,
                 progress: Callable[[str], None] | None = None, saves: bool = False) -> Found:
    """Every puzzle of every position of the records, both sides, each position once (with
    ``saves``, the save puzzles too); a record that cannot be read is noted and passed over."""
    found = Found()
    seen: set[tuple[Any, ...]] = set()
    for number, path in enumerate(files, start=1):
        try:
            recording = read_record_file(read_regular(path))
            if recording.header.game != "tafl":
                continue
            replay = Replay(recording)
        except (RecordError, RulesError) as err:
            found.unreadable.append(f"{path.name}: {err}")
            continue
        except OSError as err:
            found.unreadable.append(f"{path.name}: {err.strerror or err}")
            continue
        found.records += 1
        steps = _annex_steps(recording)
        for step, game in _positions(replay, steps if steps is not None else range(replay.steps + 1)):
            key = _key(game)
            if key in seen:
                continue
            seen.add(key)
            found.positions += 1
            if progress:
                progress(f"record {number}/{len(files)} {path.name}, step {step}: {len(found.puzzles)} puzzles so far")
            kind = candidate(game, max_moves, saves=saves)
            if kind is None:
                continue
            found.proved += 1
            puzzle = puzzle_of(game, max_moves, node_cap, source=path.name, step=step, saves=kind == "save")
            if puzzle is not None:
                found.puzzles.append(puzzle)
                seen.update(_line_keys(puzzle))  # its own line's later positions are the same puzzle
    return found


def _key(game: TaflGame) -> tuple[Any, ...]:
    return game.variant, tuple(sorted(game.opts.items())), game.position(), game.to_move


def _line_keys(puzzle: Puzzle) -> Iterator[tuple[Any, ...]]:
    """The positions along a puzzle's solution line, each after a defence's reply."""
    game = puzzle.game()
    for number, move in enumerate(puzzle.solution):
        game.apply(game.parse(move))
        if game.result is not None:
            return
        if number % 2:
            yield _key(game)
