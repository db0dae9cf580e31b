"""A clock per decision (docs/replay-format.md, section 4): ``[0, seat, code, clock]``, the deciding
seat's milliseconds left after it, written only when given, read strictly, kept through resume
and shown by the replay; a record without clocks is byte for byte what it always was."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import msgpack
import pytest

from core.match import Match
from core.tafl import TaflGame
from notation.catalog import new_header
from notation.format import PREAMBLE, DecisionRecord, RecordError, Seat
from notation.reader import read_record_file
from notation.replay import Replay
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from notation.writer import Journal, encode_game

# A 9x9 Tafl-Gild position that ends in four moves (tests/notation/conftest.py's short game).
SHORT_SETUP = {"position": "/9/9/2K6/9/9/3t1T3/9/3T5/9/", "to_move": 0}
SHORT_MOVES = (("d6", "d7"), ("c3", "c1"), ("d7", "c7"), ("c1", "a1"))
CLOCKS = (59_000, 58_250, None, 0)  # the third move is played without a clock
SETUP = GameSetup("tafl", "gild-9", (SeatPlan("human"), SeatPlan("human")), seed=1, setup=SHORT_SETUP)


def played(path: Path, clocks: tuple[int | None, ...] = CLOCKS, moves: int = 4) -> bytes:
    runner = Runner.start(SETUP, path)
    for code, clock in list(zip(SHORT_MOVES, clocks))[:moves]:
        runner.decide(code, clock=clock)
    runner.close()
    return path.read_bytes()


def decisions(data: bytes) -> list[DecisionRecord]:
    return [r for r in read_record_file(data).records if isinstance(r, DecisionRecord)]


def test_clocks_are_written_read_and_verified(tmp_path: Path) -> None:
    data = played(tmp_path / "clocked.fief")
    rec = read_record_file(data)
    assert [d.clock for d in decisions(data)] == list(CLOCKS)
    assert rec.result is not None and verify(rec).ok
    assert encode_game(rec.header, rec.records) == data  # the round trip, byte for byte
    assert [r.wire() for r in decisions(data)][:3] == [
        [0, 0, ["d6", "d7"], 59_000], [0, 1, ["c3", "c1"], 58_250], [0, 0, ["d7", "c7"]]]


def test_a_record_without_clocks_is_unchanged(tmp_path: Path) -> None:
    """The clocks taken out, the record is the one played without them: a decision with no
    clock is ``[0, seat, code]``, as before clocks were."""
    clocked = read_record_file(played(tmp_path / "clocked.fief"))
    plain = played(tmp_path / "plain.fief", clocks=(None,) * 4)
    stripped = [dataclasses.replace(r, clock=None) if isinstance(r, DecisionRecord) else r for r in clocked.records]
    assert encode_game(read_record_file(plain).header, stripped, reseal=True) == plain  # created may differ
    assert all(len(r.wire()) == 3 for r in decisions(plain))
    assert b"\x93\x00\x00\x92\xa2d6\xa2d7" in plain  # [0, 0, ["d6", "d7"]], the doc's example bytes


def test_the_replay_shows_each_decisions_clock(tmp_path: Path) -> None:
    replay = Replay(read_record_file(played(tmp_path / "clocked.fief")))
    infos = list(replay.step_infos())
    assert [i.clock for i in infos] == list(CLOCKS)
    assert [i.seen_by(1).clock for i in infos] == list(CLOCKS)  # a seat's view: the clock is public


def test_resume_keeps_the_clocks_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "resumed.fief"
    played(path, moves=2)
    runner = Runner.resume(path)
    for code, clock in list(zip(SHORT_MOVES, CLOCKS))[2:]:
        runner.decide(code, clock=clock)
    runner.close()
    resumed, whole = read_record_file(path), read_record_file(played(tmp_path / "whole.fief"))
    assert decisions(resumed.data) == decisions(whole.data) and verify(resumed).ok
    # the same bytes but the header's creation time
    assert encode_game(whole.header, resumed.records, reseal=True) == whole.data


def test_a_journal_created_whole_writes_the_same_clocks(tmp_path: Path) -> None:
    files = []
    for whole in (False, True):
        path = tmp_path / f"whole-{whole}.fief"
        game = TaflGame("gild-9", {}, SHORT_SETUP["position"], 0)
        header = new_header("tafl", "gild-9", (Seat("A", "human"), Seat("B", "human")), seed=1, setup=SHORT_SETUP,
                            created="2025-01-31T12:34:56Z")
        journal = Journal.create(path, header, game=game, whole=whole)
        match = Match(game, {}, None, [journal])  # type: ignore[arg-type]  # Tafl asks no chance
        for code, clock in zip(SHORT_MOVES, CLOCKS):
            journal.clock_next(clock)
            match.apply(code)
        journal.finish(match.point.result, game)  # type: ignore[union-attr]  # the game is over
        journal.close()
        files.append(path.read_bytes())
    assert files[0] == files[1] and [d.clock for d in decisions(files[1])] == list(CLOCKS)


@pytest.mark.parametrize("clock", [-1, 2**32, True, 1.5, "60s"])
def test_a_clock_the_record_cannot_hold_is_refused_before_the_move(tmp_path: Path, clock: Any) -> None:
    path = tmp_path / "refused.fief"
    runner = Runner.start(SETUP, path)
    before = path.read_bytes()
    with pytest.raises(ValueError, match="^cannot record the clock: the clock must be an integer in 0..4294967295"):
        runner.decide(SHORT_MOVES[0], clock=clock)
    assert runner.history == [] and path.read_bytes() == before
    runner.decide(SHORT_MOVES[0])  # nothing of the refused clock is left over
    runner.close()
    assert decisions(path.read_bytes())[0].clock is None


def _error(samples: dict[str, bytes], record: Any) -> str:
    header = read_record_file(samples["short"]).header.wire()
    head = PREAMBLE + msgpack.packb(header, use_bin_type=True)
    with pytest.raises(RecordError) as info:
        read_record_file(head + (record if type(record) is bytes else msgpack.packb(record, use_bin_type=True)))
    message = str(info.value)
    prefix = f"record 0 at byte {len(head)}: "
    assert "\n" not in message and message.startswith(prefix), message
    return message[len(prefix):]


@pytest.mark.parametrize("record, expected", [
    ([0, 0, ["d6", "d7"], -1], "the clock must be an integer in 0..4294967295, not -1"),
    ([0, 0, ["d6", "d7"], 2**32], "the clock must be an integer in 0..4294967295, not 4294967296"),
    ([0, 0, ["d6", "d7"], "1:00"], "the clock must be an integer in 0..4294967295, not '1:00'"),
    ([0, 0, ["d6", "d7"], None], "the clock must be an integer"),
    ([0, 0, ["d6", "d7"], True], "the clock must be an integer"),
    ([0, 0, ["d6", "d7"], [1]], "the clock must be an integer"),
    ([0, 0, ["d6", "d7"], 1, 2], "a decision needs a seat and an option code, and at most a clock"),
    (b"\x94\x00\x00\x92\xa2d6\xa2d7\xce\x00\x00\x00\x05", "the record is not in canonical form"),  # 5 as uint32
])
def test_a_hostile_clock_is_one_clear_error(samples: dict[str, bytes], record: Any, expected: str) -> None:
    assert _error(samples, record).startswith(expected)
