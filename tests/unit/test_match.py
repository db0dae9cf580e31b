"""The match driver, controllers and chance sources."""

from __future__ import annotations

import pytest

from core.chance import ManualChance, RecordedChance, SeededChance, draw
from core.engine import Chance, RulesError
from core.match import HumanController, Match, RandomController, Step
from core.rng import SplitMix64
from core.tafl import TaflGame


def test_random_match_reaches_a_result_and_feeds_sinks() -> None:
    seen: list[Step] = []
    m = Match(TaflGame("gild-9"), [RandomController(1), RandomController(2)], SeededChance(0),
              sinks=[lambda step, game: seen.append(step)])
    result = m.run()
    assert result is not None
    assert [s.index for s in seen] == list(range(1, len(seen) + 1))
    assert all(s.kind == "decision" for s in seen)


def test_same_seeds_same_game() -> None:
    def moves(seed: int) -> list:
        out: list = []
        Match(TaflGame("traditional"), [RandomController(seed), RandomController(seed + 1)], SeededChance(0),
              sinks=[lambda s, g: out.append(s.value)]).run()
        return out

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


def test_human_controller_reasks_after_a_bad_line() -> None:
    typed = iter(["zz", "f6-f7", "d1-d3"])
    told: list[str] = []
    human = HumanController(lambda game, d: next(typed), told.append)
    m = Match(TaflGame("traditional"), [human, RandomController(0)], SeededChance(0))
    step = m.step()
    assert step is not None and step.value == ("d1", "d3")
    assert len(told) == 2 and "not a move" in told[0] and "king" in told[1]


def test_match_apply_refuses_illegal_codes() -> None:
    m = Match(TaflGame("traditional"), [RandomController(0)] * 2, SeededChance(0))
    with pytest.raises(RulesError):
        m.apply(("f6", "f7"))


def test_seeded_chance_matches_the_generator() -> None:
    rng = SplitMix64(9)
    src = SeededChance(9)
    specs = [Chance("dice", (3, 6)), Chance("shuffle", (5,)), Chance("pick", (4,))]
    assert [src.outcome(c) for c in specs] == [draw(rng, c) for c in specs]


def test_recorded_and_manual_chance_validate() -> None:
    dice = Chance("dice", (2, 6))
    assert RecordedChance([[3, 4]]).outcome(dice) == (3, 4)
    with pytest.raises(RulesError):
        RecordedChance([[7, 1]]).outcome(dice)
    with pytest.raises(RulesError):
        RecordedChance([]).outcome(dice)
    assert ManualChance(lambda c: [6, 6]).outcome(dice) == (6, 6)
    with pytest.raises(RulesError):
        ManualChance(lambda c: 3).outcome(dice)
    with pytest.raises(RulesError):
        Chance("shuffle", (3,)).validate([0, 0, 1])
    assert Chance("pick", (3,)).validate(2) == 2
