"""Headless games for ``fiefdom simulate``: play a batch through the runner, tally, time.

Nothing here knows a game: a batch is a :class:`GameSetup` (the game, its
variant, who plays each seat, options) played again and again, each game with
its own seed drawn from the run's. ``fiefdom simulate GAME`` (tui/cli.py) builds
the setup from the game's descriptor, and :func:`summary` words the results; a
game's CLI plugin may add its own words (``cli_support.SimulateWords``).
"""

from __future__ import annotations

import glob
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from core import games as core_games
from core.engine import Game, Result, RulesError
from notation.batch import Games, Played, chunks, flatten, game_seeds, play
from notation.catalog import GameLookup, utc_now
from notation.files import OutputRefused, check_output, create_whole
from notation.runner import GameSetup
from notation.tasks import chunk_size, run_in_order, uninterrupted
from notation.wording import count, visible

__all__ = ["Batch", "Tally", "game_seeds", "run", "run_stamp", "summary"]


def run_stamp() -> str:
    """The creation time every record of a run carries: the run's start, or ``SOURCE_DATE_EPOCH`` (the
    reproducible-builds convention, seconds since 1970) when set, so that two runs of one seed write the
    same bytes (the records are the same otherwise: the stamp is the one thing a run's clock puts in)."""
    given = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if given.isascii() and given.isdigit() and len(given) <= 11:
        return datetime.fromtimestamp(int(given), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return utc_now()


@dataclass
class Tally:
    """What a run of games gave: wins per seat name, shared wins, reasons, steps, time."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    shared: int = 0  # games won by more than one seat (each winner counted in ``wins``)
    draws: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    steps: int = 0
    seconds: float = 0.0

    def add(self, result: Result, seat_names: Sequence[str], reason: str, steps: int) -> str:
        """Count one game; returns who won, in words."""
        self.games += 1
        self.steps += steps
        self.reasons[reason] += 1
        if not result.winners:
            self.draws += 1
            return "draw"
        names = [seat_names[w] for w in result.winners]
        self.wins.update(names)
        if len(names) > 1:
            self.shared += 1
        return " and ".join(names)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def reasons_line(self) -> str:
        return "reasons: " + "; ".join(f"{r}: {n}" for r, n in self.reasons.most_common())

    def speed_lines(self, noun: str, out: Path | None) -> list[str]:
        lines = [
            f"{noun}: {self.steps} ({self.steps / self.games:.1f} per game)",
            f"time: {self.seconds:.2f}s, {self.games_per_second:.2f} games/s, "
            f"{self.steps / self.seconds if self.seconds else 0:.0f} {noun}/s",
        ]
        if out is not None:
            lines.append(f"records: {out}")
        return lines


@dataclass(frozen=True)
class Batch:
    """A run of headless games: the setup every game starts from (its seed is the run's), how many,
    where records go (``<game>-<variant>-<run seed>-<n>.fief``), and how progress is worded.

    Records of an earlier run with the same names are replaced only with ``force``, and never
    one of the run's own ``inputs`` (a user's data files)."""

    setup: GameSetup
    games: int
    out: Path | None = None
    progress: Callable[[str], None] = lambda line: None
    noun: str = "steps"  # what a step is called in the progress lines ("moves" for Tafl)
    reason: Callable[[Result], str] = lambda result: result.reason  # how reasons are tallied
    force: bool = False
    inputs: tuple[Path, ...] = ()
    # A game's own tally: what each game showed as it ended (observe, run where it was played) goes
    # to ``add``, in the games' order (cli_support.SimulateWords)
    observe: Callable[[Game, Result], Any] | None = None
    add: Callable[[Any], None] | None = None
    jobs: int = 1  # processes on this machine
    cluster: str | None = None  # a Dask scheduler's address: the games are played on its workers

    @property
    def kinds(self) -> str:
        return ",".join(plan.kind for plan in self.setup.seats)

    @property
    def prefix(self) -> str:
        return f"{self.setup.game}-{self.setup.variant}-{self.setup.seed}-"

    def record_path(self, number: int) -> Path | None:
        return None if self.out is None else self.out / f"{self.prefix}{number:04d}.fief"

    def earlier(self) -> list[Path]:
        """The records in ``out`` this run would replace (an earlier run's, same seed): a look at
        the folder, not one per game, so a billion games start at once."""
        if self.out is None or not self.out.is_dir():
            return []
        found = []
        for path in self.out.glob(glob.escape(self.prefix) + "*.fief"):
            number = path.name[len(self.prefix):-len(".fief")]
            if number.isascii() and number.isdigit() and len(number) <= 12 and 1 <= int(number) <= self.games \
                    and path == self.record_path(int(number)):
                found.append(path)
        return sorted(found)


def run(batch: Batch, games: GameLookup = core_games.info) -> Tally:
    """Play the batch's games, here, in ``batch.jobs`` processes or on a cluster, and take them in
    order: the records, the progress lines and the tally are the same however they were played.
    RulesError (one line) for a bad setup, OutputRefused (one line) before the first game when it
    would replace an earlier run's records; notation.tasks.ClusterError when the cluster cannot
    be used."""
    setup = batch.setup
    if "human" in batch.kinds.split(",") or setup.chance != "seeded":
        raise RulesError("a simulated game has no person in it: no human seats, no dice typed from a table")
    header, _ = setup.start(games(setup.game), games)  # checks the seats, options and setup once
    if batch.out is not None:
        earlier = batch.earlier()
        if earlier and not batch.force:
            raise OutputRefused(f"{earlier[0]} exists ({count(len(earlier), 'record')} of an earlier run with "
                                f"seed {setup.seed}); give --force to replace them, or another --out or --seed")
        batch.out.mkdir(parents=True, exist_ok=True)
        # Said now, not when the first game ends: a file made and gone at once (os.access would pass
        # anything for root, even a folder on a read-only file system). The error names the folder,
        # not the file's made-up name.
        try:
            with tempfile.TemporaryFile(dir=batch.out):
                pass
        except OSError as err:
            raise OSError(err.errno, err.strerror, str(batch.out)) from None
    tally = Tally()
    started = time.perf_counter()
    # Every record of the run carries the run's stamp: a game's bytes depend on its seed alone.
    shared = Games(replace(header, created=run_stamp()), games, keep=batch.out is not None, observe=batch.observe)
    tasks = chunks(shared, game_seeds(setup.seed), batch.games, chunk_size(batch.games, batch.jobs, batch.cluster))
    for played in flatten(run_in_order(play, tasks, jobs=batch.jobs, cluster=batch.cluster)):
        with uninterrupted():  # a game written is a game counted and said, Ctrl-C or not
            if played.record is not None:
                _write(batch, played)
            if batch.add is not None:
                batch.add(played.observed)
            winner = tally.add(played.result, played.seats, batch.reason(played.result), played.steps)
            # The names come from the game's data (a user's own map may hold anything): one visible line.
            batch.progress(visible(f"game {played.number}: {winner} ({played.result.reason}) after {played.steps} "
                                   f"{batch.noun}"))
    tally.seconds = time.perf_counter() - started
    return tally


def _write(batch: Batch, played: Played) -> None:
    """A game's record, whole, into the batch's folder (linked into place: a file is always a whole game)."""
    path = batch.record_path(played.number)
    assert path is not None and played.record is not None
    if batch.force or batch.inputs:  # what may be replaced is checked first (never an input)
        check_output(path, replace=batch.force, inputs=batch.inputs)
    try:  # without --force, the record is linked into place only where no file is (else FileExistsError)
        create_whole(path, played.record, replace=batch.force).close()
    except FileExistsError:  # a file took the record's name during the run: say what, in one line
        check_output(path, replace=batch.force, inputs=batch.inputs)
        raise


def summary(batch: Batch, tally: Tally, seats: str, seat_names: Sequence[str], extra: Sequence[str] = ()) -> str:
    """The lines ``fiefdom simulate`` ends with: what was played, the wins per seat, shared wins, a game's
    own lines (``extra``), the reasons, the steps and the time, the records' folder. Visible: seat names
    and reasons come from the game's data, which may be a user's own file."""
    setup = batch.setup
    wins = ", ".join(f"{name} {tally.wins[name]}" for name in dict.fromkeys(seat_names))
    lines = [
        f"{count(tally.games, 'game')} of {setup.game} {setup.variant}, seed {setup.seed}, seats {seats}",
        f"wins: {wins}" + (f"; no winner {tally.draws}" if tally.draws else ""),
        *([f"shared wins: {tally.shared} (each winner of a shared win is counted above)"] if tally.shared else []),
        *extra,
        tally.reasons_line(),
        *tally.speed_lines(batch.noun, batch.out),
    ]
    return "\n".join(visible(line) for line in lines)
