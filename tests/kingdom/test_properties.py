"""Take the Kingdom over thousands of seeded games of random play, multiplayer and solo: no
card is lost or duplicated, the limits of every Castle and Land hold, every game ends, and
a game played again from its seed, or cloned anywhere, gives the same digests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from core.chance import draw
from core.digest import digest
from core.engine import Chance, Over
from core.games import info
from core.kingdom.state import MAX_DEFENCES, MAX_LANDS
from core.rng import SplitMix64

SETUPS: list[tuple[str, dict[str, Any], int]] = [  # variant, options, games
    ("multi-2", {}, 300), ("multi-3", {"survival": True}, 300), ("multi-4", {"nobles": "choose"}, 300),
    ("multi-3", {"damage_adds_up": False}, 150), ("multi-4", {"survival": True, "damage_adds_up": False}, 150),
    ("solo", {"difficulty": "easy"}, 250), ("solo", {"difficulty": "medium", "penalty_to_player": True}, 250),
    ("solo", {"difficulty": "difficult"}, 250), ("solo", {"difficulty": "expert"}, 250),
    # every rule option at its other value (revisions 2 and 3's rules, issue 27)
    ("multi-4", {"nobles": "deal", "draft_may_fall_short": True, "damage_lowers_score": True, "pass_round_ends": True,
                 "famine_own_turn": True, "reversal_springs_no_trap": True, "gold_counterable": True,
                 "dawn_raid_unanswerable": True, "deny_blocks_spread": True, "always_ask": False}, 150),
    ("solo", {"difficulty": "expert", "damage_lowers_score": True, "reversal_springs_no_trap": True,
              "gold_counterable": True, "dawn_raid_unanswerable": True, "enemy_mercenaries_defend_only": True,
              "famine_until_next_play": True}, 150),
]
MOST_STEPS = 5000  # far beyond any game seen (about 200 steps); a game past it does not end


def steps(variant: str, options: dict[str, Any], seed: int) -> Iterator[Any]:
    """Play a game of random choices and seeded chance, yielding the game after each step."""
    g = info("kingdom").make(variant, options)
    rng = SplitMix64(seed)
    for _ in range(MOST_STEPS):
        p = g.point()
        if isinstance(p, Over):
            return
        g.resolve(draw(rng, p)) if isinstance(p, Chance) else g.apply(p.options[rng.below(len(p.options))])
        yield g
    raise AssertionError(f"{variant} {options} seed {seed} did not end in {MOST_STEPS} steps")


def check(g: Any) -> None:
    s = g.s
    if s.turn > 0:  # after the setup every card is in exactly one place
        cards = s.all_cards()
        assert len(cards) == len(set(cards)) == len(g.cards), sorted(set(c.id for c in g.cards) - set(cards))
    for r in s.realms:
        assert len(r.lands) <= MAX_LANDS
        for slot in r.slots:
            assert len(slot.defences) <= MAX_DEFENCES
            assert slot.trap is None or g.cards[slot.trap].type == "trap"
        assert not (r.out and r.slots)


@pytest.mark.parametrize("variant,options,games", SETUPS, ids=[f"{v}-{i}" for i, (v, _, _) in enumerate(SETUPS)])
def test_random_games_keep_every_card_respect_the_limits_and_end(variant: str, options: dict, games: int) -> None:
    for seed in range(games):
        g = None
        for g in steps(variant, options, seed):
            check(g)
        assert g is not None and g.result is not None and g.result.winners


@pytest.mark.parametrize("variant", ["multi-3", "solo"])
def test_a_game_replays_and_clones_to_the_same_digests(variant: str) -> None:
    for seed in range(20):
        first = [digest(g.canonical()) for g in steps(variant, {"survival": True} if variant != "solo" else {}, seed)]
        again = []
        for i, g in enumerate(steps(variant, {"survival": True} if variant != "solo" else {}, seed)):
            d = digest(g.canonical())
            again.append(d)
            if i % 7 == 0:
                twin = g.clone()
                assert digest(twin.canonical()) == d and twin.view(0) == g.view(0)
        assert first == again
