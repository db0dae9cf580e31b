"""Reviewing a decision after the game, as lichess reviews a chess move (issue 31).

A game's reviewer (``GameDescriptor.reviewer``) looks at one decision of a record: the position
before it, the option played, and a fixed amount of work. It answers with a :class:`Judgement`:
each seat's chance to win before the decision, the option it prefers, the decider's chance after
that option and after the one played, and how the preferred option goes on (Tafl's expected line)
or what it gains (the other games' expected score).

The work is counted, never timed (search nodes, rollouts): the same record, work and seed give
the same judgement on any machine, under any load and in any number of processes. A budget in
seconds is turned into work by the game's reference speed (:attr:`Reviewer.per_second`).

Two kinds of reviewer:

* a search (Tafl: core/tafl/review.py): the game's AI searches the position before the decision
  and the one after the option played;
* rollouts (:class:`RolloutReviewer`, Taifa and Take the Kingdom): each candidate option (the one
  played, the AI's choice, a few more) is played out to the end of the game by the game's quick AI
  in every seat a person or the AI plays (the rulebook's bots play themselves), the cards the
  decider could not see dealt afresh in each playout (a determinization: the judgement uses only
  what the decider knew), the same seeds for every candidate so that their difference is the
  options', not the luck's.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from core.chance import draw
from core.engine import Code, Decision, Game, Over, Result, leave_events_unmade
from core.match import Controller, handed
from core.rng import SplitMix64

PER_MILLE = 1000
# A search's score beyond FORCED is a forced result: a win (positive) or loss in WON - |score| plies.
WON = 1_000_000
FORCED = WON - 1_000
MARKS = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """How much of the decider's chance to win (per mille) a decision may lose before it is marked."""

    inaccuracy: int
    mistake: int
    blunder: int

    def mark(self, loss: int) -> str:
        """The mark a loss of ``loss`` per mille earns: "" when none."""
        for name, at in (("blunder", self.blunder), ("mistake", self.mistake), ("inaccuracy", self.inaccuracy)):
            if loss >= at:
                return name
        return ""


@dataclass(frozen=True)
class Judgement:
    """One decision, reviewed. Chances are per mille (0..1000)."""

    chances: tuple[int, ...]  # each seat's chance to win before the decision
    best: Code  # the option the reviewer prefers
    best_chance: int  # the decider's chance after the best option
    played_chance: int  # the decider's chance after the option played
    line: tuple[Code, ...] = ()  # the play expected after the best option (a search's)
    score: int | None = None  # a search's score before the decision, for the first seat (Tafl: the attackers; FORCED)
    gain: int | None = None  # rollouts: the best option's expected score less the played one's, in hundredths
    noise: int = 0  # rollouts: the standard error of the loss, per mille (a search's is 0)

    @property
    def loss(self) -> int:
        return max(0, self.best_chance - self.played_chance)

    def mark(self, thresholds: Thresholds, played: Code) -> str:
        """The decision's mark: none for the preferred option, nor for a loss within twice its noise
        (a few rollouts cannot tell a small loss from luck)."""
        if tuple(played) == tuple(self.best) or self.loss < 2 * self.noise:
            return ""
        return thresholds.mark(self.loss)


class Reviewer(Protocol):
    """A game's reviewer: what it counts, how much a second buys, and its marks."""

    by: str  # the reviewer and its version, for the record's annex ("tafl-ai 5")
    unit: str  # what the work counts: "nodes" or "rollouts"
    per_second: int  # the work one second buys at the reference speed (docs/review.md)
    least: int  # the least work a judgement takes (a budget that buys less gets this)
    default_seconds: float  # the budget per decision when nobody says
    thresholds: Thresholds

    def judge(self, game: Game, decision: Decision, played: Code, work: int, seed: int,
              stop: Callable[[], bool]) -> Judgement:
        """``decision`` at ``game`` (the position before it; not changed), ``played`` the option taken."""
        ...


def per_mille(p: float) -> int:
    return max(0, min(PER_MILLE, round(p * PER_MILLE)))


def logistic(x: float) -> float:
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


# -- rollouts --------------------------------------------------------------------------------

Redeal = Callable[[Game, int, SplitMix64], None]  # (a clone, the decider, a generator): deal its unseen cards afresh
Policy = Callable[[int], Controller]  # a seed -> the quick AI that plays every deciding seat in a playout
MAX_PLAYOUT_STEPS = 20_000  # a playout that has not ended by then counts as a draw among all seats


@dataclass(frozen=True)
class Playout:
    shares: tuple[float, ...]  # each seat's share of the win (1/n to each of n winners)
    scores: tuple[int, ...]  # the result's scores (empty when the game has none)


def play_out(game: Game, seat: int, code: Code, seed: int, policy: Policy, redeal: Redeal) -> Playout:
    """``code`` played at ``game`` (a clone is played, the original untouched), the unseen cards dealt
    afresh from ``seat``'s side, and the game played to its end by ``policy`` and the seeded generator."""
    rng = SplitMix64(seed)
    g = game.clone()
    leave_events_unmade(g)  # a playout reads the result, never what happened in words
    redeal(g, seat, rng)
    g.apply(code)
    players: dict[int, Controller] = {}
    result: Result | None = None
    for _ in range(MAX_PLAYOUT_STEPS):
        point = g.point()
        if isinstance(point, Over):
            result = point.result
            break
        if isinstance(point, Decision):
            player = players.get(point.seat)
            if player is None:
                player = players[point.seat] = policy(seed ^ (point.seat + 1) * 0x9E3779B97F4A7C15 & (2**64 - 1))
            g.apply(player.choose(handed(player, g), point))
        else:
            g.resolve(draw(rng, point))
    n = len(g.seats)
    if result is None or not result.winners:  # unfinished or a draw: shared by all
        return Playout(tuple(1.0 / n for _ in range(n)), tuple(result.scores) if result else ())
    share = 1.0 / len(result.winners)
    return Playout(tuple(share if k in result.winners else 0.0 for k in range(n)), tuple(result.scores))


@dataclass
class _Tally:
    code: Code
    seat: int
    shares: list[float]
    scores: list[float]
    scored: bool = False
    mine: list[float] = field(default_factory=list)  # the decider's share, playout by playout

    @property
    def count(self) -> int:
        return len(self.mine)

    def add(self, p: Playout) -> None:
        self.scored = self.scored or bool(p.scores)
        self.mine.append(p.shares[self.seat])
        for k, s in enumerate(p.shares):
            self.shares[k] += s
        for k, s in enumerate(p.scores[:len(self.scores)]):
            self.scores[k] += s

    def chance(self, k: int) -> float:
        return self.shares[k] / self.count if self.count else 0.0

    def score(self, k: int) -> float:
        return self.scores[k] / self.count if self.count else 0.0


class RolloutReviewer:
    """Judges a decision by playing out a few candidate options, each ``work`` times (see the module)."""

    unit = "rollouts"
    least = 2  # one playout has no spread: its loss could never be told from luck (Judgement.mark)

    def __init__(self, by: str, preferred: Policy, quick: Policy, redeal: Redeal, *, per_second: int,
                 default_seconds: float, thresholds: Thresholds, candidates: int = 3) -> None:
        """``preferred``: the AI whose choice is always a candidate; ``quick``: the AI of the playouts;
        ``candidates``: how many options are played out at most (the one played and the preferred
        among them; the rest drawn from the others by the seeded generator)."""
        self.by = by
        self.preferred = preferred
        self.quick = quick
        self.redeal = redeal
        self.per_second = per_second
        self.default_seconds = default_seconds
        self.thresholds = thresholds
        self.candidates = max(2, candidates)

    def choices(self, game: Game, decision: Decision, played: Code, seed: int) -> list[Code]:
        """The options played out: the AI's choice first, then the one played, then drawn others."""
        preferred = self.preferred(seed)
        choice = preferred.choose(handed(preferred, game), decision)
        codes = [choice] + ([played] if played != choice else [])
        rest = [o for o in decision.options if o not in codes]
        rng = SplitMix64(seed ^ 0xC0DE)
        while rest and len(codes) < self.candidates:
            codes.append(rest.pop(rng.below(len(rest))))
        return codes

    def judge(self, game: Game, decision: Decision, played: Code, work: int, seed: int,
              stop: Callable[[], bool]) -> Judgement:
        seat, n = decision.seat, len(game.seats)
        codes = self.choices(game, decision, played, seed)
        rng = SplitMix64(seed)
        seeds = [rng.next() for _ in range(max(1, work))]
        tallies = [_Tally(code, seat, [0.0] * n, [0.0] * n) for code in codes]
        for sd in seeds:  # seed by seed, every candidate: a stop leaves them all with the same count
            if stop() and tallies[0].count:
                break
            for tally in tallies:
                tally.add(play_out(game, seat, tally.code, sd, self.quick, self.redeal))
        # The best by the decider's chance, then (a lost or won position) by its expected score; of equal
        # ones the AI's choice (first), then the one played.
        best = max(tallies, key=lambda t: (round(t.chance(seat), 9), round(t.score(seat), 6), t is tallies[0]))
        mine = next(t for t in tallies if t.code == played)
        gain = round(100 * (best.score(seat) - mine.score(seat))) if best.scored else None
        return Judgement(
            chances=tuple(per_mille(best.chance(k)) for k in range(n)),
            best=best.code, best_chance=per_mille(best.chance(seat)),
            played_chance=per_mille(mine.chance(seat)), gain=gain, noise=per_mille(_paired_error(best, mine)))


def _paired_error(a: _Tally, b: _Tally) -> float:
    """The standard error of the mean difference of two candidates' shares, playout by playout (the
    same seeds for both: their luck cancels)."""
    diffs = [x - y for x, y in zip(a.mine, b.mine)]
    if len(diffs) < 2:
        return 1.0 if a is not b else 0.0
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return math.sqrt(var / len(diffs))
