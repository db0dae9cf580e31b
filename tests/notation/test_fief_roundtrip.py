"""Writing and reading .fief records: byte-identical rewrite, layout, torn tails, resuming."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from core.chance import SeededChance
from core.engine import Over, Result
from core.match import Match, Step
from core.tafl import TaflGame
from notation.catalog import new_header
from notation.format import (
    CHECKPOINT_EVERY, PREAMBLE, STEP_TYPES, ChanceRecord, CheckpointRecord, CommentRecord, DecisionRecord,
    Limits, RecordError, ResultRecord, Seat,
)
from notation.reader import read_record_file
from notation.replay import Replay
from notation.schema import record_from_wire
from notation.writer import Journal, encode_game, encode_header, encode_record


@pytest.mark.parametrize("sample", ["short", "gild-9", "unfinished"])
def test_rewrite_is_byte_identical(samples: dict[str, bytes], sample: str) -> None:
    data = samples[sample]
    rec = read_record_file(data)
    assert not rec.torn and rec.data == data
    assert encode_game(rec.header, rec.records) == data
    assert encode_game(rec.header, rec.records, reseal=True) == data


def test_random_games_round_trip(play) -> None:
    for variant, seed in [("traditional", 4), ("gild-11", 5), ("gild-9", 6)]:
        data = play(variant, seed)
        rec = read_record_file(data)
        assert encode_game(rec.header, rec.records) == data
        assert Replay(rec).verify().ok


def test_reading_a_path_equals_reading_bytes(tmp_path: Path, samples: dict[str, bytes]) -> None:
    path = tmp_path / "g.fief"
    path.write_bytes(samples["gild-9"])
    assert read_record_file(path) == read_record_file(samples["gild-9"])
    assert read_record_file(str(path)) == read_record_file(path)


def test_layout(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["gild-9"])
    assert samples["gild-9"].startswith(PREAMBLE)
    h = rec.header
    assert (h.game, h.variant, h.revision, h.chance, h.seed, h.format) == ("tafl", "gild-9", 1, "seeded", 2, 1)
    assert h.seats == (Seat("Astrid", "human"), Seat("fief-random", "random", "seed 2"))
    assert h.created == "2025-01-31T12:34:56Z" and h.app == "fiefdom test"
    # A checkpoint at step 0, every CHECKPOINT_EVERY steps, and right before the result.
    checkpoints = [r.step for r in rec.records if isinstance(r, CheckpointRecord)]
    expected = list(range(0, rec.steps + 1, CHECKPOINT_EVERY))
    if expected[-1] != rec.steps:
        expected.append(rec.steps)
    assert checkpoints == expected
    assert isinstance(rec.records[0], CheckpointRecord)
    assert isinstance(rec.records[-1], ResultRecord) and isinstance(rec.records[-2], CheckpointRecord)
    assert all(isinstance(r, DecisionRecord) for r in rec.records if isinstance(r, STEP_TYPES))
    assert rec.offsets[0] == len(samples["gild-9"]) - len(b"".join(encode_record(r) for r in rec.records))


def test_comments_are_kept(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["unfinished"])
    assert [r.text for r in rec.records if isinstance(r, CommentRecord)] == ["hello", "wait"]
    assert rec.result is None and rec.steps == 40


@pytest.mark.parametrize("sample", ["short", "unfinished"])
def test_a_torn_tail_is_dropped_and_nothing_else(samples: dict[str, bytes], sample: str) -> None:
    data = samples[sample]
    full = read_record_file(data)
    ends = [*full.offsets[1:], len(data)]
    for cut in range(full.offsets[0], len(data)):
        rec = read_record_file(data[:cut])
        whole = sum(1 for end in ends if end <= cut)
        assert rec.records == full.records[:whole], cut
        assert rec.torn == (cut not in (full.offsets[0], *ends)), cut
        assert rec.end + rec.torn_bytes == cut


def _resume(path: Path, full: bytes) -> bytes:
    """Replay the codes of ``full`` into an appended record at ``path``: what the TUI does on resume."""
    codes = [r.code for r in read_record_file(full).records if isinstance(r, DecisionRecord)]
    journal = Journal.open_append(path)
    assert journal.recording is not None
    replay = Replay(journal.recording)
    game = replay.state_at(len(replay))
    match = Match(game, {}, SeededChance(0), [journal])
    for code in codes[journal.steps:]:
        match.apply(code)
    point = game.point()
    assert isinstance(point, Over)
    journal.finish(point.result, game)
    journal.close()
    return path.read_bytes()


def test_open_append_continues_a_record(play, tmp_path: Path) -> None:
    full = play("gild-9", 2)
    for stop in (0, 16, 37):
        part = tmp_path / f"part{stop}.fief"
        play("gild-9", 2, max_steps=stop, path=part)
        assert _resume(part, full) == full


def test_open_append_cuts_a_torn_tail(tmp_path: Path, samples: dict[str, bytes]) -> None:
    full = samples["gild-9"]
    rec = read_record_file(full)
    # Keep the records of the first 20 steps, then 3 bytes of the 21st step's record.
    step_offsets = [off for r, off in zip(rec.records, rec.offsets) if isinstance(r, STEP_TYPES)]
    path = tmp_path / "torn.fief"
    path.write_bytes(full[:step_offsets[20] + 3])
    assert read_record_file(path).torn
    assert _resume(path, full) == full


def test_open_append_refuses_a_finished_record(tmp_path: Path, samples: dict[str, bytes]) -> None:
    path = tmp_path / "done.fief"
    path.write_bytes(samples["short"])
    with pytest.raises(RecordError, match=r"^record \d+ at byte \d+: the game is over"):
        Journal.open_append(path)


def test_finish_right_after_a_checkpoint_writes_no_second_one(tmp_path: Path) -> None:
    setup = {"position": "/9/9/2K6/9/9/3t1T3/9/3T5/9/", "to_move": 0}
    header = new_header("tafl", "gild-9", [Seat("a", "human"), Seat("b", "human")], seed=1, setup=setup)
    game = TaflGame("gild-9", {}, setup["position"], 0)
    with Journal.create(tmp_path / "g.fief", header, game=game, checkpoint_every=4) as journal:
        match = Match(game, {}, SeededChance(1), [journal])
        for code in [("d6", "d7"), ("c3", "c1"), ("d7", "c7"), ("c1", "a1")]:
            match.apply(code)
        point = game.point()
        assert isinstance(point, Over)
        journal.finish(point.result, game)
        with pytest.raises(ValueError, match="finished"):
            journal.comment("too late")
    rec = read_record_file(tmp_path / "g.fief")
    assert [type(r).__name__ for r in rec.records[-3:]] == ["DecisionRecord", "CheckpointRecord", "ResultRecord"]
    assert Replay(rec).verify().ok


def test_the_writer_refuses_what_the_reader_would(tmp_path: Path) -> None:
    seats = [Seat("a", "human"), Seat("b", "human")]
    with pytest.raises(ValueError, match="chance must be one of"):
        Journal.create(tmp_path / "a.fief", new_header("tafl", "gild-9", seats, chance="dice", seed=1))
    with pytest.raises(ValueError, match="rules revision 9"):
        Journal.create(tmp_path / "b.fief", replace(new_header("tafl", "gild-9", seats, seed=1), revision=9))
    with pytest.raises(ValueError, match="does not match the header"):
        Journal.create(tmp_path / "c.fief", new_header("tafl", "gild-9", seats, seed=1), game=TaflGame("traditional"))
    with Journal.create(tmp_path / "d.fief", new_header("tafl", "gild-9", seats, seed=1)) as journal:
        with pytest.raises(ValueError, match="longer than 4096 bytes"):
            journal.comment("x" * 5000)
        with pytest.raises(ValueError, match="not played yet"):
            journal.comment("later", step=3)


def test_every_record_the_schema_allows_fits_the_record_window() -> None:
    """The reader decodes a record from at most RECORD_BYTES: the largest of each type must fit."""
    seats, digest16 = Limits.SEATS, b"\xff" * 16
    text = "\u20ac" * (Limits.TEXT_BYTES // 3)  # 3 bytes a character
    largest = [
        DecisionRecord(seats - 1, tuple("x" * Limits.SHORT_STR_BYTES for _ in range(Limits.CODE_LEN))),
        DecisionRecord(seats - 1, tuple(-Limits.INT32 for _ in range(Limits.CODE_LEN))),
        ChanceRecord(tuple(Limits.UINT32 - 1 for _ in range(Limits.ARRAY_LEN))),
        CheckpointRecord(Limits.RECORDS, digest16, digest16),
        CommentRecord("\u20ac" * (Limits.STR_BYTES // 3), Limits.RECORDS),
        ResultRecord(Result(tuple(range(seats)), text, text, tuple(-Limits.INT32 for _ in range(seats))),
                     digest16, digest16),
    ]
    for record in largest:
        assert record_from_wire(record.wire(), seats) == record
        assert len(encode_record(record)) <= Limits.RECORD_BYTES, record


def test_the_writer_refuses_a_header_or_record_beyond_the_readers_windows(tmp_path: Path, monkeypatch) -> None:
    header = new_header("tafl", "gild-9", [Seat("a", "human"), Seat("b", "human")], seed=1)
    size = len(encode_header(header)) - len(PREAMBLE)
    monkeypatch.setattr(Limits, "HEADER_BYTES", size - 1)
    with pytest.raises(ValueError, match=f"^header: it takes more than {size - 1} bytes$"):
        Journal.create(tmp_path / "a.fief", header)
    assert not (tmp_path / "a.fief").exists()
    monkeypatch.setattr(Limits, "HEADER_BYTES", size)
    with Journal.create(tmp_path / "b.fief", header) as journal:
        monkeypatch.setattr(Limits, "RECORD_BYTES", 100)
        with pytest.raises(ValueError, match="^cannot record CommentRecord: a record may take at most 100 bytes, not 104$"):
            journal.comment("x" * 100)
        journal.comment("x" * 96)  # exactly 100 bytes
    rec = read_record_file(tmp_path / "b.fief")
    assert [r.text for r in rec.records if isinstance(r, CommentRecord)] == ["x" * 96]


def test_a_code_checked_before_is_written_as_the_full_check_writes_it(tmp_path: Path) -> None:
    """The journal checks a decision's code once per code object; later records of the same object
    have the same bytes, and anything else (a value-equal code of other types, a seat out of
    range) is checked again and refused as before."""
    header = new_header("tafl", "gild-9", [Seat("a", "human"), Seat("b", "human")], seed=1)
    codes = [("d1", "d4"), (1, "x"), (-5,), ("a",) * 16]
    expected = [encode_record(DecisionRecord(seat, code)) for code in codes for seat in (0, 1)]
    with Journal.create(tmp_path / "a.fief", header, checkpoint_every=1000) as journal:
        for _ in range(3):  # the first time through checks, the others find the codes checked
            for code in codes:
                for seat in (0, 1):
                    journal(Step(1, "decision", seat, code, ()), None)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="an option code item must be an integer"):
            journal(Step(1, "decision", 0, (True, "x"), ()), None)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="the seat must be an integer in 0..1"):
            journal(Step(1, "decision", 2, codes[0], ()), None)  # type: ignore[arg-type]
        for code in codes:  # a list: not kept, written as the tuple's bytes by the full check
            journal(Step(1, "decision", 1, list(code), ()), None)  # type: ignore[arg-type]
    data = (tmp_path / "a.fief").read_bytes()
    body = b"".join(expected)
    assert data.endswith(body * 3 + b"".join(expected[1::2]))


def test_nothing_is_written_after_the_result(tmp_path: Path) -> None:
    """A finished journal refuses another step, checkpoint or result, and the file stays as it was."""
    header = new_header("tafl", "traditional", [Seat("a", "random"), Seat("b", "random")], seed=1)
    game, path = TaflGame("traditional"), tmp_path / "done.fief"
    with Journal.create(path, header) as journal:
        journal.finish(Result((1,), "attackers resigned", "resign"), game)
        written = path.read_bytes()
        code = game.point().options[0]  # type: ignore[union-attr]
        for late in (lambda: journal(Step(1, "decision", 0, code, ()), game), lambda: journal.finish(
                Result((1,), "attackers resigned", "resign"), game), lambda: journal.comment("late")):
            with pytest.raises(ValueError, match="nothing may follow the result"):
                late()
    assert path.read_bytes() == written
