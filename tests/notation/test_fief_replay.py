"""Replay and verify of Tafl records: seek, step records, events, and every kind of tampering."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from core.digest import digest
from core.engine import Result
from core.tafl import TaflGame
from notation.catalog import build_game
from notation.format import CHECKPOINT_EVERY, STEP_TYPES, CheckpointRecord, DecisionRecord, Record, ResultRecord
from notation.reader import Recording, read_record_file
from notation.replay import Replay
from notation.verify import verify
from notation.wording import result_text
from notation.writer import encode_game


def _codes(recording: Recording) -> list[DecisionRecord]:
    return [r for r in recording.records if isinstance(r, DecisionRecord)]


def _linear_digests(recording: Recording) -> list[bytes]:
    game = build_game(recording.header)
    out = [digest(game)]
    for record in _codes(recording):
        game.apply(record.code)
        out.append(digest(game))
    return out


def _edited(recording: Recording, index: int, record: Record, *, reseal: bool) -> Recording:
    records = list(recording.records)
    records[index] = record
    return read_record_file(encode_game(recording.header, records, reseal=reseal))


@pytest.mark.parametrize("keyframe_every", [16, 5, 1])
def test_seek_anywhere_equals_linear_replay(samples: dict[str, bytes], keyframe_every: int) -> None:
    rec = read_record_file(samples["gild-9"])
    linear = _linear_digests(rec)
    replay = Replay(rec, keyframe_every=keyframe_every)
    assert len(replay) == replay.steps == rec.steps == len(linear) - 1
    order = list(range(len(linear))) + list(range(len(linear) - 1, -1, -1))
    order += random.Random(7).sample(range(len(linear)), len(linear))
    for n in order:
        assert digest(replay.state_at(n)) == linear[n], n


def test_state_at_gives_a_copy(samples: dict[str, bytes]) -> None:
    replay = Replay(read_record_file(samples["gild-9"]))
    before = digest(replay.state_at(3))
    game = replay.state_at(3)
    game.apply(game.point().options[0])  # type: ignore[union-attr]
    assert digest(replay.state_at(3)) == before
    assert digest(replay.state_at(len(replay))) == digest(replay.state_at(len(replay)))


def test_step_records_and_events(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["short"])
    replay = Replay(rec)
    assert [replay.step_record(n).text for n in range(1, 5)] == ["d6-d7", "Kc3-c1", "d7-c7", "Kc1-a1"]
    first = replay.step_record(1)
    assert (first.kind, first.seat, first.seat_name, first.value) == ("decision", 0, "attackers", ("d6", "d7"))
    assert [e.kind for e in replay.events_at(1)] == ["move", "capture"]
    assert replay.events_at(1)[0].data[0] == "d6-d7xd8"
    assert replay.events_at(0) == []
    assert [e.text for e in replay.events_at(4)] == ["Defenders: Kc1-a1", "Defenders win: the king reached a corner"]
    assert replay.comments_at(2) == ["the king runs"] and replay.comments_at(3) == []
    assert replay.result == Result((1,), "the king reached a corner", "gild OBJECT")
    assert replay.next_event(0, "capture") == 1 and replay.next_event(1, "capture") is None
    assert replay.next_event(0, "result") == 4 and replay.prev_event(4, "capture") == 1
    assert replay.prev_event(1, "capture") is None


@pytest.mark.parametrize("bad", [-1, 5, 2.0, "1"])
def test_a_bad_step_is_one_clear_error(samples: dict[str, bytes], bad: object) -> None:
    replay = Replay(read_record_file(samples["short"]))
    with pytest.raises(IndexError, match=r"^there is no step .*: this record has steps 0\.\.4$"):
        replay.state_at(bad)  # type: ignore[arg-type]
    with pytest.raises(IndexError, match="steps 1..4"):
        replay.step_record(0)


def test_verify_good_records(samples: dict[str, bytes]) -> None:
    report = verify(read_record_file(samples["gild-9"]))
    assert report.ok and report.first_bad_step is None and report.result is not None
    assert report.records == len(read_record_file(samples["gild-9"]).records)
    unfinished = verify(read_record_file(samples["unfinished"]))
    assert unfinished.ok and unfinished.message == "unfinished" and unfinished.steps == 40
    short = Replay(read_record_file(samples["short"])).verify()
    assert short.message == "defenders won: the king reached a corner (gild OBJECT)"


def _another_legal_code(recording: Recording, step: int) -> tuple[int, DecisionRecord]:
    """The index of step ``step``'s record and a different legal decision for it."""
    index = [i for i, r in enumerate(recording.records) if isinstance(r, DecisionRecord)][step - 1]
    record = recording.records[index]
    game = Replay(recording).state_at(step - 1)
    options = [c for c in game.point().options if c != record.code]  # type: ignore[union-attr]
    return index, replace(record, code=options[0])  # type: ignore[type-var]


def test_verify_catches_a_changed_decision(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["gild-9"])
    index, changed = _another_legal_code(rec, 5)
    # Hashes left as they were: a later move turns illegal, or the next checkpoint differs.
    stale = verify(_edited(rec, index, changed, reseal=False))
    assert not stale.ok and 5 <= stale.first_bad_step <= CHECKPOINT_EVERY  # type: ignore[operator]
    # The last move before a checkpoint, hashes sealed again as a forger would: the saved position differs.
    index, changed = _another_legal_code(rec, CHECKPOINT_EVERY)
    forged = verify(_edited(rec, index, changed, reseal=True))
    assert not forged.ok and forged.first_bad_step == CHECKPOINT_EVERY
    assert f"after step {CHECKPOINT_EVERY} the position differs from the one the record saved" in forged.message


def test_an_illegal_decision_fails_at_its_step(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["gild-9"])
    index = [i for i, r in enumerate(rec.records) if isinstance(r, DecisionRecord)][6]
    bad = _edited(rec, index, DecisionRecord(rec.records[index].seat, ("a1", "i9")), reseal=True)  # type: ignore[union-attr]
    report = verify(bad)
    assert not report.ok and report.first_bad_step == 7 and report.steps == 6
    assert report.message == f"step 7 (record {index} at byte {rec.offsets[index]}): a1-i9: not a legal option here"
    replay = Replay(bad)
    assert len(replay) == 6 and replay.failure is not None and replay.failure.step == 7
    wrong_seat = _edited(rec, index, replace(rec.records[index], seat=1 - rec.records[index].seat), reseal=True)  # type: ignore[type-var, union-attr]
    assert "decided, but the decision is seat" in verify(wrong_seat).message


def test_verify_catches_a_changed_checkpoint(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["gild-9"])
    index = next(i for i, r in enumerate(rec.records) if isinstance(r, CheckpointRecord) and r.step == 32)
    cp = rec.records[index]
    assert isinstance(cp, CheckpointRecord)
    moved = verify(_edited(rec, index, replace(cp, digest=bytes(16)), reseal=False))
    assert not moved.ok and moved.first_bad_step == 32 and "position differs" in moved.message
    rehashed = verify(_edited(rec, index, replace(cp, chain=bytes(16)), reseal=False))
    assert not rehashed.ok and rehashed.first_bad_step == 32
    assert rehashed.message.endswith("the bytes before this record were changed (the running hash differs)")


def test_verify_catches_a_changed_result(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["gild-9"])
    last = rec.records[-1]
    assert isinstance(last, ResultRecord)
    for result in (replace(last.result, winners=(1 - last.result.winners[0],)),
                   replace(last.result, reason="resigned"), replace(last.result, winners=())):
        report = verify(_edited(rec, len(rec.records) - 1, replace(last, result=result), reseal=True))
        assert not report.ok and report.first_bad_step == rec.steps
        assert "but the rules say" in report.message


def test_verify_catches_a_result_in_a_game_not_over(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["unfinished"])
    game = Replay(rec).state_at(rec.steps)
    records = [*rec.records, CheckpointRecord(rec.steps, digest(game)),
               ResultRecord(Result((0,), "resigned", "none"), digest(game))]
    report = verify(read_record_file(encode_game(rec.header, records, reseal=True)))
    assert not report.ok and report.message.endswith("but after step 40 the game is not over")


def test_a_torn_record_does_not_verify(samples: dict[str, bytes]) -> None:
    data = samples["short"]
    rec = read_record_file(data[:-3])
    assert rec.torn
    report = verify(rec)
    assert not report.ok and report.first_bad_step == 5 and "is incomplete" in report.message
    one = verify(read_record_file(samples["unfinished"] + b"\x93"))
    assert one.message == (f"the last record, at byte {len(samples['unfinished'])}, is incomplete (1 byte): "
                           "the file was cut short or damaged there")


def test_a_custom_start_position_replays(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["short"])
    start = Replay(rec).state_at(0)
    assert isinstance(start, TaflGame) and start.position() == "/9/9/2K6/9/9/3t1T3/9/3T5/9/"


@pytest.mark.parametrize("sample", ["short", "gild-9"])
def test_a_finished_game_cut_before_its_result_does_not_verify(samples: dict[str, bytes], sample: str) -> None:
    """A shared record with its final checkpoint and result cut off must not pass as an autosave."""
    rec = read_record_file(samples[sample])
    assert rec.result is not None
    last = max(i for i, r in enumerate(rec.records) if isinstance(r, STEP_TYPES))
    ended = (f"step {rec.steps} (record {last} at byte {rec.offsets[last]}): the game ended here "
             f"({result_text(rec.result, ('attackers', 'defenders'))}), but the record has no result")
    for end in (rec.offsets[last + 1], rec.offsets[-1]):  # without the last checkpoint and result; without the result
        cut = read_record_file(rec.data[:end])
        assert cut.result is None and not cut.torn and cut.steps == rec.steps
        report = verify(cut)
        assert not report.ok and report.first_bad_step == report.steps == rec.steps
        assert report.result == rec.result and report.message == ended
    # One step earlier the game goes on: an autosave, which verifies.
    autosave = verify(read_record_file(rec.data[: rec.offsets[last]]))
    assert autosave.ok and autosave.message == "unfinished" and autosave.steps == rec.steps - 1


def test_a_refused_code_that_reads_as_another_is_shown_as_stored(samples: dict[str, bytes]) -> None:
    """['D6', 'd7'] is not the legal option ('d6', 'd7'); the message must not call it d6-d7 alone."""
    rec = read_record_file(samples["short"])
    index = [i for i, r in enumerate(rec.records) if isinstance(r, DecisionRecord)][0]
    report = verify(_edited(rec, index, DecisionRecord(0, ("D6", "d7")), reseal=True))
    assert not report.ok and report.first_bad_step == 1
    assert report.message.startswith(f"step 1 (record {index} at byte {rec.offsets[index]}): ['D6', 'd7']")
    assert report.message.endswith(": not a legal option here")
