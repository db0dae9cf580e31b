"""Resigning and handing a seat to the AI mid-game: both are written in the record, which verifies."""

from __future__ import annotations

import pytest

from core.engine import Result, RulesError
from core.match import Limit
from notation.format import RESIGN_RULE, resigned_seat
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, read_unfinished
from notation.format import RecordError
from notation.runner import SeatPlan
from notation.replay import Replay
from notation.verify import verify

HUMAN, AI = SeatPlan("human"), SeatPlan("ai", Limit(seconds=0.05))


def test_a_resignation_is_the_records_result_and_verifies(tmp_path) -> None:
    path = tmp_path / "r.fief"
    runner = Runner.start(GameSetup("tafl", "gild-9", (HUMAN, HUMAN), 3), path)
    runner.decide(("d1", "d3"))
    result = runner.resign(1)
    assert result == Result((0,), "defenders resigned", RESIGN_RULE)
    assert runner.result == result and runner.waiting is None and runner.step() is None
    with pytest.raises(RulesError):
        runner.decide(("e7", "c7"))
    runner.close()
    rec = read_record_file(path)
    assert rec.result == result and rec.steps == 1
    report = verify(rec)
    assert report.ok and report.result == result, report.message
    assert Replay(rec).result == result  # what exports and the viewer give as the game's result
    with pytest.raises(RecordError, match="the game is over"):
        read_unfinished(path)


def test_a_result_that_is_no_resignation_of_one_seat_does_not_verify(tmp_path) -> None:
    seats = ("attackers", "defenders")
    assert resigned_seat(Result((0,), "defenders resigned", RESIGN_RULE), seats) == 1
    assert resigned_seat(Result((0,), "attackers resigned", RESIGN_RULE), seats) is None  # the wrong name
    assert resigned_seat(Result((), "defenders resigned", RESIGN_RULE), seats) is None  # nobody wins
    assert resigned_seat(Result((0,), "defenders resigned", "gild OBJECT"), seats) is None


def test_only_a_persons_seat_resigns() -> None:
    runner = Runner.start(GameSetup("tafl", "gild-9", (HUMAN, AI), 3))
    with pytest.raises(RulesError, match="only a person resigns"):
        runner.resign(1)


def test_a_seat_handed_to_the_ai_and_back_keeps_the_moves_and_verifies(tmp_path) -> None:
    path = tmp_path / "r.fief"
    runner = Runner.start(GameSetup("tafl", "gild-9", (HUMAN, HUMAN), 3), path)
    runner.decide(("d1", "d3"))
    runner = runner.reseat(1, AI)
    assert runner.seat_kind(1) == "ai" and runner.people == [0] and len(runner.history) == 1
    runner.step()  # the AI answers
    assert len(runner.history) == 2 and runner.waiting is not None
    runner = runner.reseat(1, HUMAN)
    assert runner.people == [0, 1]
    runner.close()
    rec = read_record_file(path)
    assert [s.kind for s in rec.header.seats] == ["human", "human"] and rec.steps == 2
    assert verify(rec).ok
