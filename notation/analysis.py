"""Analysing a record (``fiefdom replay analyse``, the viewer's ``a``): each decision of the seats
asked for, judged by the game's reviewer (core/review.py), in a process per core.

The work per decision is counted, not timed (a budget in seconds becomes the reviewer's nodes or
rollouts at its reference speed), and each decision's seed comes from the analysis seed and its
step: the figures are the same however many processes share the work and whatever the machine's
load. A stop (Ctrl-C, the viewer closing) keeps every decision judged so far; analysing again with
the same reviewer, work and seed judges only the ones missing.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from core import games as core_games
from core.engine import Code, Decision, RulesError
from core.review import Reviewer
from core.rng import SplitMix64
from notation.annex import Analysis, Judged, set_analysis
from notation.catalog import GameLookup
from notation.format import Header, RecordError
from notation.reader import Recording, read_record_file
from notation.replay import Replay
from notation.seat_log import parse_viewer
from notation.tasks import every_core, run_in_order

@dataclass(frozen=True)
class Task:
    step: int  # the decision's step
    seat: int
    played: Code


def people(header: Header) -> frozenset[int]:
    """The seats people played: what an analysis looks at unless told otherwise."""
    return frozenset(k for k, seat in enumerate(header.seats) if seat.kind == "human")


def default_seats(header: Header) -> frozenset[int]:
    """The seats an analysis looks at when nobody names them: the people's, else every seat."""
    return people(header) or frozenset(range(len(header.seats)))


def keep_analysis(path: str | os.PathLike[str], recording: Recording, analysis: Analysis, games: GameLookup) -> str | None:
    """Keep ``analysis`` in the finished record at ``path`` (its annex): None when kept, else why not."""
    if recording.result is None:
        return "the game is not finished"
    try:
        set_analysis(path, analysis, games=games)
    except (RecordError, OSError, ValueError) as err:
        return str(err)
    return None


def seats_named(header: Header, names: Sequence[str]) -> frozenset[int]:
    """Seats by name or number (1-based), as the command line gives them; RulesError in one line."""
    seat_names = [seat.name for seat in header.seats]
    out = set()
    for name in names:
        try:
            seat = parse_viewer(name, seat_names)  # a seat's name or number, as every --seat reads it
        except RulesError:
            seat = None
        if not isinstance(seat, int):  # not a seat (nor spectator nor table: an analysis is of seats)
            raise RulesError(f"no seat {name!r} in this record (seats: {', '.join(seat_names)})")
        out.add(seat)
    return frozenset(out)


def tasks_of(replay: Replay, seats: Iterable[int]) -> list[Task]:
    """The decisions of ``seats`` that had a choice (a forced move is not judged)."""
    wanted = frozenset(seats)
    out = []
    for info in replay.step_infos():
        if (info.kind == "decision" and info.seat in wanted and isinstance(info.before, Decision)
                and len(info.before.options) > 1):
            out.append(Task(info.step, info.seat, tuple(info.value)))  # type: ignore[arg-type]
    return out


def task_seed(seed: int, step: int) -> int:
    """A decision's own seed: from the analysis seed and its step, never from the order of the work."""
    return SplitMix64(seed ^ (step * 0x9E3779B97F4A7C15 & (2**64 - 1))).next() >> 1


def work_for(reviewer: Reviewer, seconds: float | None) -> int:
    """The nodes or rollouts ``seconds`` per decision buy at the reviewer's reference speed."""
    s = reviewer.default_seconds if seconds is None else seconds
    return max(reviewer.least, round(s * reviewer.per_second))


class Judge:
    """Judges tasks of one record; one in each process (and one in this process when it works alone)."""

    def __init__(self, replay: Replay, reviewer: Reviewer, work: int, seed: int,
                 stop: Callable[[], bool] = lambda: False) -> None:
        self.replay, self.reviewer, self.work, self.seed, self.stop = replay, reviewer, work, seed, stop

    def __call__(self, task: Task) -> Judged:
        game = self.replay.state_at(task.step - 1)
        point = game.point()
        if not isinstance(point, Decision):
            raise RulesError(f"step {task.step} is not a decision")
        j = self.reviewer.judge(game, point, task.played, self.work, task_seed(self.seed, task.step), self.stop)
        return Judged(step=task.step, seat=task.seat, played=task.played, best=tuple(j.best), chances=j.chances,
                      best_chance=j.best_chance, played_chance=j.played_chance,
                      mark=j.mark(self.reviewer.thresholds, task.played), line=tuple(tuple(c) for c in j.line),
                      score=j.score, gain=j.gain)


# -- the processes -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Work:
    """One decision to judge, with what a process needs to judge it: the record, the registry lookup
    (with the game's data files), the work and the seed. ``key`` names them, so a process judging one
    decision after another of the same record keeps its replay (built once) rather than reading the
    record again."""

    record: bytes
    games: GameLookup
    key: bytes
    work: int
    seed: int
    task: Task


_KEPT: tuple[bytes, Judge] | None = None  # each process's judge of the record it judges


def judge_work(work: Work) -> Judged:
    """The task: one decision judged, in whatever process or machine runs it."""
    global _KEPT
    if _KEPT is None or _KEPT[0] != work.key:
        replay = Replay(read_record_file(work.record, games=work.games), games=work.games)
        reviewer = work.games(replay.header.game).reviewer
        assert reviewer is not None
        _KEPT = (work.key, Judge(replay, reviewer(), work.work, work.seed))
    return _KEPT[1](work.task)


@dataclass
class Progress:
    done: int
    total: int


def analyse(recording: Recording, *, games: GameLookup = core_games.info, seconds: float | None = None,
            seats: Iterable[int] | None = None, seed: int = 0, processes: int | None = None,
            previous: Analysis | None = None, progress: Callable[[Progress], None] = lambda p: None,
            stop: Callable[[], bool] = lambda: False, cluster: str | None = None) -> tuple[Analysis, bool]:
    """The record's decisions judged: (the analysis, whether it is whole). ``previous`` (an earlier
    analysis by the same reviewer, work and seed) keeps what it judged. Stopped (``stop()``, or
    Ctrl-C: KeyboardInterrupt), it returns what was judged; RulesError when the game has no reviewer.
    The decisions are shared out among ``processes`` (default: every core) or the Dask cluster whose
    scheduler is at ``cluster`` (notation/tasks.py: ClusterError when it cannot be used)."""
    gi = games(recording.header.game)
    if gi.reviewer is None:
        raise RulesError(f"{gi.title} has no reviewer in this fiefdom")
    reviewer = gi.reviewer()
    work = work_for(reviewer, seconds)
    replay = Replay(recording, games=games)
    chosen = people(recording.header) if seats is None else frozenset(seats)
    kept: dict[int, Judged] = {}
    if previous is not None and (previous.by, previous.unit, previous.work, previous.seed) == (
            reviewer.by, reviewer.unit, work, seed):
        kept = {j.step: j for j in previous.decisions}
    todo = [t for t in tasks_of(replay, chosen) if t.step not in kept or kept[t.step].seat != t.seat]
    total = len(todo) + len([j for j in kept.values() if j.seat in chosen])
    results = dict(kept)
    done = Progress(total - len(todo), total)
    n = min(len(todo), every_core() if processes is None else max(1, processes))
    progress(done)
    # What travels to the processes: the data files by value (a lookup a caller made may not travel).
    lookup = core_games.lookup({gi.name: dict(gi.data)}) if gi.data else core_games.info
    key = hashlib.blake2b(recording.data + repr((work, seed, sorted(gi.data))).encode(), digest_size=16).digest()
    try:
        if n <= 1 and cluster is None:
            judged = run_in_order(Judge(replay, reviewer, work, seed, stop), todo, stop=stop)
        else:
            judged = run_in_order(judge_work, (Work(recording.data, lookup, key, work, seed, t) for t in todo),
                                  jobs=n, cluster=cluster, stop=stop)
        for one in judged:
            results[one.step] = one
            done.done += 1
            progress(done)
    except KeyboardInterrupt:
        pass
    whole = done.done == total
    decisions = tuple(results[k] for k in sorted(results))
    return Analysis(by=reviewer.by, unit=reviewer.unit, work=work, seed=seed, decisions=decisions), whole


