"""Taifa's reviewer (core/review.py): rollouts to the end of the game, the AI in every deciding seat,
the cards the decider could not see dealt afresh in each (the AI's own determinization)."""

from __future__ import annotations

from core.review import RolloutReviewer, Thresholds
from core.taifa import AI_VERSION
from core.taifa.ai import TaifaAI, deal_hidden

# Rollouts of one candidate a second buys at the reference speed: a playout from the middle of a
# six-kingdom game takes about 52 ms, three candidates a decision (docs/performance.md, "Reviewing a
# record": 6.4 rollouts a candidate per CPU s at load 4-5).
ROLLOUTS_PER_SECOND = 6
# Rollouts are noisy (a playout's end is won or lost): a mark needs more than a search's would.
THRESHOLDS = Thresholds(70, 140, 250)


def reviewer() -> RolloutReviewer:
    return RolloutReviewer(f"{AI_VERSION} rollouts 1", preferred=TaifaAI, quick=TaifaAI, redeal=deal_hidden,
                           per_second=ROLLOUTS_PER_SECOND, default_seconds=4.0, thresholds=THRESHOLDS)
