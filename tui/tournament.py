"""``fiefdom tournament GAME --seat-kinds ai,casual,greedy,random``: seat kinds played against each
other in every pairing and seat position, tallied, rated and charted (docs/tournament.md).

Nothing here names a game: the seats, their kinds and the AI levels come from the game's descriptor.
The schedule is fixed by the kinds, the seats and ``--games``; game ``i`` of it (from 0) is round
``i // A``, arrangement ``i % A`` (A arrangements) and is played with the ``i``-th seed drawn from the
tournament's seed, wherever it is played (notation/batch.py, notation/tasks.py). The games come back
in the schedule's order, so the records, the table, the ratings (which depend on the order) and the
JSON are the same for any ``--jobs`` or cluster.
"""

from __future__ import annotations

import glob
import math
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from itertools import permutations
from pathlib import Path
from typing import Any

from core import games as core_games
from core.engine import Result, RulesError
from notation.batch import Chunk, Games, Played, game_seeds, play
from notation.catalog import GameLookup
from notation.files import OutputRefused, check_output, create_whole
from notation.runner import GameSetup, SeatPlan
from notation.tasks import run_in_order, uninterrupted
from notation.wording import count, visible

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
PLAYER_KINDS = ("ai", "bot", "random")  # the seat kinds a tournament seats (never a person)
CHART_WIDTH = 80
MOST_LABEL = 14  # a kind's column in the tables and the chart


@dataclass(frozen=True)
class Kind:
    """A contender: ``label`` as the user wrote it (``ai:strong``), ``word`` as a seat takes it
    (``ai``, an AI level such as ``strong``, ``bot`` or ``random``)."""

    label: str
    word: str


def parse_kinds(text: str, gi: core_games.GameDescriptor, variant: str) -> tuple[tuple[Kind, ...], tuple[int, ...]]:
    """The kinds of ``--seat-kinds`` (comma-separated) and the seats they play (numbers from 0: every
    seat but those only the rulebook bot may play); RulesError in one line for a kind no seat allows,
    one that some seat refuses, a duplicate, fewer than two kinds, or fewer than two seats to play."""
    from tui.cli_choices import canonical

    levels = [key for key, _ in gi.ai_levels]
    specs = gi.seat_specs(variant)
    seats = tuple(n for n, s in enumerate(specs) if set(s.kinds) & {"ai", "random"})
    if len(seats) < 2:
        raise RulesError(f"{gi.name} {variant} has {count(len(seats), 'seat')} a player may take: a tournament "
                         "needs two (fiefdom simulate compares kinds on one seat)")
    kinds: list[Kind] = []
    for item in text.split(","):
        item = item.strip()
        head, colon, level = item.partition(":")
        if colon and head.strip().casefold() == "ai":
            word = canonical(level, levels).strip()
            if word not in levels:
                said = f"its AI levels are {', '.join(levels)}" if levels else "its AI has no levels"
                raise RulesError(f"{gi.title} has no AI level {level.strip()[:40]!r} ({said})")
            label = f"ai:{word}"
        else:
            word = canonical(item, [*PLAYER_KINDS, *levels, "human"]).strip()
            label = word
        if word == "human":
            raise RulesError("a tournament has no person in it: give ai, ai:LEVEL, bot or random")
        if word not in (*PLAYER_KINDS, *levels):
            known = ", ".join(["ai", *(f"ai:{lv}" for lv in levels), "bot", "random"])
            raise RulesError(f"unknown seat kind {item[:40]!r} (kinds: {known})" if item else
                             "--seat-kinds takes kinds separated by commas, with none empty")
        taken = "ai" if word in levels else word
        for n in seats:
            if taken not in specs[n].kinds:
                raise RulesError(f"{specs[n].name} may be {', '.join(k for k in specs[n].kinds if k != 'human')}, "
                                 f"not {label}: a tournament seats every kind in every seat")
        same = next((k for k in kinds if k.word == word), None)
        if same is not None:
            raise RulesError(f"{label} is given twice" + (f" ({same.label} is the same kind)" if same.label != label
                                                         else "") + ": each kind once")
        kinds.append(Kind(label, word))
    if len(kinds) < 2:
        raise RulesError("a tournament needs at least two seat kinds, as --seat-kinds A,B")
    return tuple(kinds), seats


def arrangements(kinds: int, seats: int) -> list[tuple[int, ...]]:
    """Who plays each tournament seat, one tuple of kind indices per arrangement, in the schedule's
    order. As many kinds as seats or more: every ordered choice of distinct kinds (every pairing in
    every seat position). Fewer: the kinds in a cycle round the seats, turned once for each kind, so
    each kind takes each seat once in every turn of the cycle."""
    if kinds >= seats:
        return list(permutations(range(kinds), seats))
    return [tuple((seat + turn) % kinds for seat in range(seats)) for turn in range(kinds)]


# -- the schedule, played -------------------------------------------------------------------


@dataclass(frozen=True)
class Tournament:
    """What a tournament plays: the setup every game starts from (its seats are the arrangement's),
    the kinds, the seats they play, the rounds (``--games``: games per arrangement), where records
    go, and how progress is said."""

    setup: GameSetup
    kinds: tuple[Kind, ...]
    seats: tuple[int, ...]  # the seats the kinds play; the others keep the rulebook bot
    rounds: int
    plans: Callable[[Sequence[str]], tuple[SeatPlan, ...]]  # a seat word for every seat -> the seats' plans
    out: Path | None = None
    force: bool = False
    inputs: tuple[Path, ...] = ()
    jobs: int = 1
    cluster: str | None = None
    stamp: str = ""  # every record's creation time (tui.simulate.run_stamp)

    @cached_property  # asked at every game: reckoned once
    def schedule(self) -> list[tuple[int, ...]]:
        return arrangements(len(self.kinds), len(self.seats))

    @property
    def games(self) -> int:
        return len(self.schedule) * self.rounds

    def words(self, arrangement: Sequence[int], seat_count: int) -> list[str]:
        """The seat word of every seat of the game in an arrangement (bot where no kind plays)."""
        words = ["bot"] * seat_count
        for seat, kind in zip(self.seats, arrangement):
            words[seat] = self.kinds[kind].word
        return words

    @property
    def prefix(self) -> str:
        return f"{self.setup.game}-{self.setup.variant}-{self.setup.seed}-"

    def record_path(self, arrangement: int, round_: int) -> Path | None:
        """Arrangement and round, from 1: ``kingdom-multi-2-1-003-0002.fief``."""
        return None if self.out is None else self.out / f"{self.prefix}{arrangement:03d}-{round_:04d}.fief"

    def earlier(self) -> list[Path]:
        """The records in ``out`` this tournament would replace (one of the same game, variant and
        seed): a look at the folder, not one per game."""
        if self.out is None or not self.out.is_dir():
            return []
        found = []
        for path in self.out.glob(glob.escape(self.prefix) + "*-*.fief"):
            arrangement, _, round_ = path.name[len(self.prefix):-len(".fief")].partition("-")
            if all(part.isascii() and part.isdigit() and len(part) <= 12 for part in (arrangement, round_)) \
                    and 1 <= int(arrangement) <= len(self.schedule) and 1 <= int(round_) <= self.rounds \
                    and path == self.record_path(int(arrangement), int(round_)):
                found.append(path)
        return sorted(found)


@dataclass(frozen=True)
class Scheduled:
    """One game of the schedule as it ended: its place (index from 0, round and arrangement from 1)
    and what the batch gave back."""

    index: int
    round: int
    arrangement: int
    played: Played


def play_schedule(tour: Tournament, games: GameLookup, keep: Callable[[Scheduled], None]) -> None:
    """Play the tournament's games and hand each to ``keep`` in the schedule's order (after its record
    is written). RulesError for a bad setup, OutputRefused before the first game when it would replace
    records, notation.tasks.ClusterError; KeyboardInterrupt after ``keep`` had every game of the
    schedule's start that had ended (whole games only)."""
    gi = games(tour.setup.game)
    shared: list[Games] = []
    seat_count = len(gi.seat_specs(tour.setup.variant))
    for arrangement in tour.schedule:
        setup = replace(tour.setup, seats=tour.plans(tour.words(arrangement, seat_count)))
        header, _ = setup.start(gi, games)  # checks the seats, options and setup once each
        shared.append(Games(replace(header, created=tour.stamp or header.created), games, keep=tour.out is not None))
    if tour.out is not None:
        _check_folder(tour)
    count_ = len(shared)
    # Each game is a task of its own: consecutive games of the schedule are of different arrangements
    # (headers), and a chunk of several would hold back the games after it in the schedule's order
    # (the progress, and what a Ctrl-C keeps). A tournament's games are rarely short enough for the
    # message to matter.
    tasks = (Chunk(shared[index % count_], index // count_ + 1, (seed,))
             for index, seed in zip(range(tour.games), game_seeds(tour.setup.seed)))
    results = run_in_order(play, tasks, jobs=tour.jobs, cluster=tour.cluster)
    for index, (played,) in enumerate(results):  # in the schedule's order: the ratings depend on it
        game = Scheduled(index, index // count_ + 1, index % count_ + 1, played)
        with uninterrupted():  # a game written is a game counted, Ctrl-C or not
            if played.record is not None:
                _write(tour, game)
            keep(game)


def _check_folder(tour: Tournament) -> None:
    assert tour.out is not None
    earlier = tour.earlier()
    if earlier and not tour.force:
        raise OutputRefused(f"{earlier[0]} exists ({count(len(earlier), 'record')} of an earlier tournament with "
                            f"seed {tour.setup.seed}); give --force to replace them, or another --out or --seed")
    tour.out.mkdir(parents=True, exist_ok=True)
    try:  # said now, not when the first game ends (as fiefdom simulate does)
        with tempfile.TemporaryFile(dir=tour.out):
            pass
    except OSError as err:
        raise OSError(err.errno, err.strerror, str(tour.out)) from None


def _write(tour: Tournament, game: Scheduled) -> None:
    """A game's record, whole, linked into place (a file is always a whole game)."""
    path = tour.record_path(game.arrangement, game.round)
    assert path is not None and game.played.record is not None
    if tour.force or tour.inputs:
        check_output(path, replace=tour.force, inputs=tour.inputs)
    try:
        create_whole(path, game.played.record, replace=tour.force).close()
    except FileExistsError:  # a file took the record's name during the run: said in one line
        check_output(path, replace=tour.force, inputs=tour.inputs)
        raise


# -- the tally -------------------------------------------------------------------------------


def shares(result: Result, seats: int) -> list[Fraction]:
    """Each seat's share of a game's one point: split among its winners, or among every seat when
    nobody won (a draw)."""
    if not result.winners:
        return [Fraction(1, seats)] * seats
    won = set(result.winners)
    return [Fraction(1, len(won)) if seat in won else Fraction(0) for seat in range(seats)]


@dataclass
class Record:
    """One kind's (or one kind on one seat's) games: each seat it played in a game counts once."""

    games: int = 0
    wins: int = 0  # the only winner
    shared: int = 0  # one of several winners
    draws: int = 0  # nobody won
    losses: int = 0
    points: Fraction = Fraction(0)

    def add(self, result: Result, seat: int, point: Fraction) -> None:
        self.games += 1
        self.points += point
        if not result.winners:
            self.draws += 1
        elif seat not in result.winners:
            self.losses += 1
        elif len(set(result.winners)) == 1:
            self.wins += 1
        else:
            self.shared += 1

    @property
    def mean(self) -> float:
        return float(self.points / self.games) if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.mean, self.games)


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a mean score ``p`` over ``n`` games (a draw's half point counted
    as half a win: a little wider than the draws alone would make it)."""
    if n == 0:
        return 0.0, 1.0
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n)))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Rating:
    mu: float
    sigma: float

    @property
    def interval(self) -> tuple[float, float]:
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma  # openskill's ordinal: a leaderboard's cautious figure


class Ratings:
    """openskill's Plackett-Luce ratings, updated game by game in the schedule's order; each seat a
    kind plays is a team of one, ranked by the result (winners first, the rest tied after; a draw
    ties all). A kind on two seats of one game takes both seats' updates. No drift between games
    (tau 0): a kind plays the same way all tournament long."""

    def __init__(self, kinds: int) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce(tau=0.0)
        start = self.model.rating()
        self.kinds = [Rating(start.mu, start.sigma) for _ in range(kinds)]

    def add(self, result: Result, seated: Sequence[tuple[int, int]]) -> None:
        """One game: ``seated`` pairs (seat number, kind index) of the seats the kinds played."""
        won = set(result.winners)
        ranks = [0.0 if (not won or seat in won) else 1.0 for seat, _ in seated]
        teams = [[self.model.rating(mu=self.kinds[kind].mu, sigma=self.kinds[kind].sigma)] for _, kind in seated]
        rated = self.model.rate(teams, ranks=ranks)
        before = {kind: Rating(self.kinds[kind].mu, self.kinds[kind].sigma) for _, kind in seated}
        for (_, kind), (after,) in zip(seated, rated):
            old, now = before[kind], self.kinds[kind]
            now.mu += after.mu - old.mu
            now.sigma *= after.sigma / old.sigma


@dataclass
class Standings:
    """Everything a tournament's games added up to, in the schedule's order."""

    tour: Tournament
    seat_names: tuple[str, ...]
    games: int = 0
    steps: int = 0
    seconds: float = 0.0
    complete: bool = False
    kinds: list[Record] = field(default_factory=list)
    by_seat: list[list[Record]] = field(default_factory=list)  # kind -> tournament seat -> record
    arrangements: list[list[Record]] = field(default_factory=list)  # arrangement -> tournament seat -> record
    reasons: Counter[str] = field(default_factory=Counter)
    ratings: Ratings | None = None

    def __post_init__(self) -> None:
        k, s = len(self.tour.kinds), len(self.tour.seats)
        self.kinds = [Record() for _ in range(k)]
        self.by_seat = [[Record() for _ in range(s)] for _ in range(k)]
        self.arrangements = [[Record() for _ in range(s)] for _ in self.tour.schedule]
        self.ratings = Ratings(k)

    def add(self, game: Scheduled, reason: str) -> None:
        result = game.played.result
        arrangement = self.tour.schedule[game.arrangement - 1]
        points = shares(result, len(game.played.seats))
        self.games += 1
        self.steps += game.played.steps
        self.reasons[reason] += 1
        for at, (seat, kind) in enumerate(zip(self.tour.seats, arrangement)):
            self.kinds[kind].add(result, seat, points[seat])
            self.by_seat[kind][at].add(result, seat, points[seat])
            self.arrangements[game.arrangement - 1][at].add(result, seat, points[seat])
        assert self.ratings is not None
        self.ratings.add(result, list(zip(self.tour.seats, arrangement)))

    def order(self) -> list[int]:
        """The kinds by rating, best first (as given when equal)."""
        assert self.ratings is not None
        ratings = self.ratings.kinds
        return sorted(range(len(ratings)), key=lambda k: (-ratings[k].mu, k))


def run(tour: Tournament, games: GameLookup, reason: Callable[[Result], str] = lambda r: r.reason,
        progress: Callable[[str], None] = lambda line: None, noun: str = "steps") -> Standings:
    """Play the tournament and add its games up; a Ctrl-C ends it with the games that ended kept
    (``complete`` False) and raises nothing: the caller prints what was played."""
    names = tuple(s.name for s in games(tour.setup.game).seat_specs(tour.setup.variant))
    standings = Standings(tour, names)
    labels = [k.label for k in tour.kinds]

    def keep(game: Scheduled) -> None:
        standings.add(game, reason(game.played.result))
        result = game.played.result
        who = " and ".join(f"{names[w]} ({_seat_label(tour, game.arrangement, w, labels)})" for w in result.winners)
        kinds = ", ".join(labels[k] for k in tour.schedule[game.arrangement - 1])
        progress(visible(f"game {game.index + 1}: {kinds}: {who + ' won' if who else 'draw'} ({result.reason}) "
                         f"after {game.played.steps} {noun}"))

    started = time.perf_counter()
    try:
        play_schedule(tour, games, keep)
        standings.complete = True
    except KeyboardInterrupt:
        pass
    standings.seconds = time.perf_counter() - started
    return standings


def _seat_label(tour: Tournament, arrangement: int, seat: int, labels: Sequence[str]) -> str:
    if seat in tour.seats:
        return labels[tour.schedule[arrangement - 1][tour.seats.index(seat)]]
    return "bot"


# -- what is printed ------------------------------------------------------------------------------


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "~"


def summary(standings: Standings, noun: str = "steps") -> str:
    """The table of results, the scores by seat, the ratings and their chart, the reasons and the time."""
    tour, setup = standings.tour, standings.tour.setup
    labels = [k.label for k in tour.kinds]
    width = min(MOST_LABEL, max(4, *map(len, labels)))
    order = standings.order()
    shared = any(r.shared for r in standings.kinds)
    lines = [
        f"tournament of {setup.game} {setup.variant}, seed {setup.seed}: {count(len(tour.schedule), 'arrangement')} "
        f"x {count(tour.rounds, 'round')} = {count(tour.games, 'game')}",
        *([] if standings.complete else
          [f"interrupted: {standings.games} of the {count(tour.games, 'game')} played (whole games only)"]),
    ]
    if not standings.games:
        return "\n".join(visible(line) for line in lines)
    lines += [
        f"score: a win 1, a loss 0, a shared win or a draw splits the point (even: {1 / len(standings.seat_names):.3f})",
        "",
        f"{'kind':<{width}} {'games':>6} {'wins':>6}" + (f" {'shared':>6}" if shared else "")
        + f" {'draws':>6} {'losses':>6} {'score':>7} {'mean':>6}  95% interval",
    ]
    for k in order:
        r = standings.kinds[k]
        lo, hi = r.interval
        lines.append(f"{_fit(labels[k], width):<{width}} {r.games:>6} {r.wins:>6}" + (f" {r.shared:>6}" if shared else "")
                     + f" {r.draws:>6} {r.losses:>6} {_points(r.points):>7} {r.mean:>6.3f}  {lo:.3f}-{hi:.3f}")
    seat_names = [f"{n + 1} {standings.seat_names[n]}" for n in tour.seats]
    lines += ["", *_wrap("mean score by seat: " + ", ".join(seat_names)),
              f"{'kind':<{width}}" + "".join(f" {n + 1:>6}" for n in tour.seats)]
    for k in order:
        lines.append(f"{_fit(labels[k], width):<{width}}" + "".join(
            f" {r.mean:>6.3f}" if r.games else f" {'-':>6}" for r in standings.by_seat[k]))
    assert standings.ratings is not None
    ratings = standings.ratings.kinds
    lines += ["", "ratings (openskill Plackett-Luce): mu, mu +- 1.96 sigma, ordinal mu - 3 sigma",
              f"{'kind':<{width}} {'mu':>6}  {'95% interval':>14} {'ordinal':>8}"]
    for k in order:
        lo, hi = ratings[k].interval
        lines.append(f"{_fit(labels[k], width):<{width}} {ratings[k].mu:>6.2f}  {lo:>6.1f} to {hi:>4.1f} "
                     f"{ratings[k].ordinal:>8.2f}")
    lines += ["", *chart([labels[k] for k in order], [ratings[k] for k in order])]
    if standings.reasons:
        lines += ["", *_wrap("reasons: " + "; ".join(f"{r}: {n}" for r, n in standings.reasons.most_common()))]
    if standings.games:
        lines.append(f"{noun}: {standings.steps} ({standings.steps / standings.games:.1f} per game)")
    lines.append(f"time: {standings.seconds:.2f}s, "
                 f"{standings.games / standings.seconds if standings.seconds else 0:.2f} games/s")
    if tour.out is not None:
        lines.append(f"records: {tour.out}")
    return "\n".join(visible(line) for line in lines)


def _wrap(text: str) -> list[str]:
    """A long line (seat names, reasons: the game's words) as lines of CHART_WIDTH columns at most."""
    import textwrap

    return textwrap.wrap(text, CHART_WIDTH, subsequent_indent="  ", break_on_hyphens=False) or [text]


def _points(points: Fraction) -> str:
    return f"{float(points):.1f}" if points.denominator <= 2 else f"{float(points):.2f}"


def chart(labels: Sequence[str], ratings: Sequence[Rating], width: int = CHART_WIDTH) -> list[str]:
    """The ratings drawn on one scale: a row a kind, its 95% interval a bar ``[===|===]`` with ``|``
    at mu, and under them the scale; ``width`` columns at most."""
    label = min(MOST_LABEL, max(4, *map(len, labels)))
    bar = width - label - 1 - 8  # "label bar  mu.dd"
    lo = min(r.interval[0] for r in ratings)
    hi = max(r.interval[1] for r in ratings)
    step = _nice_step((hi - lo) / 6 if hi > lo else 1.0)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if hi <= lo:
        hi = lo + step

    def at(x: float) -> int:
        return max(0, min(bar - 1, round((x - lo) / (hi - lo) * (bar - 1))))

    rows = []
    for name, r in zip(labels, ratings):
        cells = [" "] * bar
        left, right, mid = at(r.interval[0]), at(r.interval[1]), at(r.mu)
        for i in range(left, right + 1):
            cells[i] = "="
        cells[left], cells[right] = "[", "]"
        cells[mid] = "|"
        rows.append(f"{_fit(name, label):<{label}} {''.join(cells)}  {r.mu:6.2f}")
    axis = [" "] * bar
    marks = [" "] * (bar + 8)
    tick = lo
    while tick <= hi + step / 2:
        i = at(tick)
        axis[i] = "+"
        text = f"{tick:g}"
        start = max(0, min(len(marks) - len(text), i - len(text) // 2))
        if all(c == " " for c in marks[max(0, start - 1):start + len(text) + 1]):
            marks[start:start + len(text)] = list(text)
        tick += step
    rows.append(f"{'':<{label}} {''.join(axis).replace(' ', '-')}")
    rows.append(f"{'':<{label}} {''.join(marks).rstrip()}")
    return rows


def _nice_step(raw: float) -> float:
    """1, 2 or 5 times a power of ten, at least ``raw``."""
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def as_json(standings: Standings) -> dict[str, Any]:
    """Everything, for scripts: the schedule, each kind's results and rating, each arrangement's."""
    tour, setup = standings.tour, standings.tour.setup
    labels = [k.label for k in tour.kinds]
    assert standings.ratings is not None

    def record(r: Record) -> dict[str, Any]:
        lo, hi = r.interval
        return {"games": r.games, "wins": r.wins, "shared": r.shared, "draws": r.draws, "losses": r.losses,
                "score": _num(float(r.points)), "mean": _num(r.mean), "interval": [_num(lo), _num(hi)]}

    results = []
    for k in standings.order():
        rating = standings.ratings.kinds[k]
        lo, hi = rating.interval
        results.append({
            "kind": labels[k], **record(standings.kinds[k]),
            "by_seat": [{"seat": n + 1, **record(r)} for n, r in zip(tour.seats, standings.by_seat[k])],
            "rating": {"mu": _num(rating.mu), "sigma": _num(rating.sigma), "interval": [_num(lo), _num(hi)],
                       "ordinal": _num(rating.ordinal)},
        })
    return {
        "game": setup.game, "variant": setup.variant, "seed": setup.seed, "options": dict(setup.options),
        "kinds": labels,
        "seats": [{"seat": n + 1, "name": name, "played_by": "kinds" if n in tour.seats else "bot"}
                  for n, name in enumerate(standings.seat_names)],
        "rounds": tour.rounds,
        "arrangements": [{"arrangement": a + 1, "kinds": [labels[k] for k in kinds],
                          "seats": [{"seat": n + 1, "kind": labels[k], **record(r)}
                                    for n, k, r in zip(tour.seats, kinds, standings.arrangements[a])]}
                         for a, kinds in enumerate(tour.schedule)],
        "games": standings.games, "scheduled": tour.games, "complete": standings.complete,
        "results": results,
        "reasons": dict(standings.reasons.most_common()),
        "steps": standings.steps,
        "seconds": round(standings.seconds, 3),
    }


def _num(x: float) -> float:
    return round(x, 6)
