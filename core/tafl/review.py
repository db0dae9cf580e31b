"""Tafl's reviewer (core/review.py): the AI searches the position before a decision and the one after
the move played, each with half the decision's nodes, and a score becomes a chance to win."""

from __future__ import annotations

import math
from collections.abc import Callable

from core.engine import Code, Decision, Game
from core.review import FORCED, WON, Judgement, Thresholds, logistic, per_mille
from core.tafl import AI_VERSION, NODES_PER_SECOND
from core.tafl.ai import CHECK_EVERY, MATE, MATE_BOUND, TaflAI
from core.tafl.rules import TaflGame

# A score (hundredths of an attacker, for the side to move) as a chance to win: +4 attackers' worth
# is about 73 %. A forced win is certain (docs/review.md).
SCORE_SCALE = 400.0
LINE_MOST = 32  # moves of an expected line kept
assert (MATE, MATE_BOUND) == (WON, FORCED), "the search's forced scores are the review's"


def chance(score: int) -> float:
    """The side to move's chance to win, from its score."""
    if score > MATE_BOUND:
        return 1.0
    if score < -MATE_BOUND:
        return 0.0
    return logistic(score / SCORE_SCALE)


class TaflReviewer:
    by = AI_VERSION
    unit = "nodes"
    per_second = NODES_PER_SECOND
    least = 2 * CHECK_EVERY  # each of the two searches polls its budget every CHECK_EVERY nodes
    default_seconds = 1.0
    thresholds = Thresholds(50, 100, 150)  # lichess's steps of the winning chance: 5, 10 and 15 points

    def judge(self, game: Game, decision: Decision, played: Code, work: int, seed: int,
              stop: Callable[[], bool]) -> Judgement:
        assert isinstance(game, TaflGame), "the tafl reviewer reviews tafl"
        nodes = max(CHECK_EVERY, work // 2)
        lines = self._ai(seed, stop, nodes).analyse(game, 1)
        if not lines:  # over: nothing to judge (a record never asks)
            return Judgement((500, 500), played, 500, 500)
        best, before = lines[0].moves[0], lines[0].score
        if tuple(played) == best:
            after = before
        else:
            g = game.clone()
            g.apply(played)
            if g.result is not None:
                after = MATE if decision.seat in g.result.winners else (-MATE if g.result.winners else 0)
            else:
                reply = self._ai(seed, stop, nodes).analyse(g, 1)
                after = -reply[0].score if reply else 0
        attackers = before if decision.seat == 0 else -before
        p = chance(attackers)
        return Judgement(
            chances=(per_mille(p), per_mille(1.0 - p)), best=best,
            best_chance=per_mille(chance(before)), played_chance=per_mille(chance(after)),
            line=tuple(lines[0].moves[:LINE_MOST]), score=attackers)

    @staticmethod
    def _ai(seed: int, stop: Callable[[], bool], nodes: int) -> TaflAI:
        return TaflAI(time_budget=math.inf, seed=seed, stop=stop, max_nodes=nodes)


def reviewer() -> TaflReviewer:
    return TaflReviewer()
