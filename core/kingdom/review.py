"""Take the Kingdom's reviewer (core/review.py): rollouts to the end of the game, the AI in every
deciding seat (the solo enemies follow their rules), the cards the decider could not see dealt
afresh in each: the deck with the other kingdoms' hands, each solo deck within itself. A face-down
Trap stays what it is (the AI already weighs a hidden Trap by the odds of the unseen ones)."""

from __future__ import annotations

from typing import Any

from core.engine import Game
from core.kingdom import AI_VERSION
from core.kingdom.ai import KingdomAI
from core.review import RolloutReviewer, Thresholds
from core.rng import SplitMix64

# A playout from the middle of a three-kingdom game: about 58 ms, three candidates a decision
# (docs/performance.md, "Reviewing a record": 6.0 rollouts a candidate per CPU s at load 4-5).
ROLLOUTS_PER_SECOND = 6
THRESHOLDS = Thresholds(70, 140, 250)


def redeal(game: Game, seat: int, rng: SplitMix64) -> None:
    """Deal what ``seat`` cannot see afresh, keeping every count (sorted first: the real order never matters)."""
    s: Any = getattr(game, "s")
    places = [s.deck] + ([] if game.variant == "solo" else [r.hand for k, r in enumerate(s.realms) if k != seat])
    _shuffle_into(places, rng)
    for deck in s.decks:
        _shuffle_into([deck], rng)


def _shuffle_into(places: list[list[str]], rng: SplitMix64) -> None:
    pool = sorted(c for p in places for c in p)
    pool = [pool[i] for i in rng.permutation(len(pool))]
    for p in places:
        n = len(p)
        p[:], pool = pool[:n], pool[n:]


def reviewer() -> RolloutReviewer:
    return RolloutReviewer(f"{AI_VERSION} rollouts 1", preferred=KingdomAI, quick=KingdomAI, redeal=redeal,
                           per_second=ROLLOUTS_PER_SECOND, default_seconds=4.0, thresholds=THRESHOLDS)
