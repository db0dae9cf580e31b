"""Notes and analysis after a finished record (notation/annex.py, docs/replay-format.md section 13),
and variations found beside a record (notation/variations.py)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.annex import (
    ANNEX_PREAMBLE, Analysis, Annex, AnnexLimits, Judged, Note, add_note, annex_bytes, record_hash, remove_note,
    set_analysis, write_annex,
)
from notation.export import export
from notation.files import create_whole
from notation.format import CheckpointRecord, Header, Parent, RecordError, ResultRecord, encode_header
from notation.play_from import from_here
from notation.reader import read_record_file
from notation.record_lock import RecordInPlay, open_locked
from notation.replay import Replay
from notation.runner import Runner
from notation.schema import header_from_wire
from notation.variations import step_hash, variations_of
from notation.verify import verify

JUDGED = Judged(1, 0, ("d6", "d7"), ("d6", "d8"), (520, 480), 610, 400, "mistake", (("c3", "c1"), ("d8", "d9")), 12)
ANALYSIS = Analysis("tafl-ai 5", "nodes", 20_000, 7, (JUDGED, dataclasses.replace(JUDGED, step=3, gain=-15)))


@pytest.fixture
def finished(tmp_path: Path, short_record: bytes) -> Path:
    path = tmp_path / "short.fief"
    path.write_bytes(short_record)
    return path


def _annex_of(record: bytes, wire: object) -> bytes:
    return record + ANNEX_PREAMBLE + bytes(msgpack.packb(wire, use_bin_type=True))


def test_notes_and_analysis_round_trip_and_leave_the_record_as_it_was(finished: Path, short_record: bytes) -> None:
    add_note(finished, 2, "the king runs\x1b[2J")
    add_note(finished, 0, "a quiet start")
    add_note(finished, 2, "and runs again")
    set_analysis(finished, ANALYSIS)
    data = finished.read_bytes()
    assert data.startswith(short_record) and data[len(short_record):].startswith(ANNEX_PREAMBLE)
    recording = read_record_file(data)
    assert recording.data == short_record and not recording.torn and recording.annex_warning == ""
    assert recording.annex == Annex((Note(0, "a quiet start"), Note(2, "the king runs\x1b[2J"),
                                     Note(2, "and runs again")), ANALYSIS)
    assert recording.records == read_record_file(short_record).records
    report = verify(recording)
    assert report.ok and report == verify(read_record_file(short_record))
    remove_note(finished, 1)
    assert read_record_file(finished.read_bytes()).annex == Annex((Note(0, "a quiet start"), Note(2, "and runs again")),
                                                                  ANALYSIS)
    write_annex(finished, Annex())
    assert finished.read_bytes() == short_record  # no notes, no analysis: no annex at all


def test_the_wire_form_is_canonical_and_bound_to_the_record(short_record: bytes) -> None:
    annex = Annex((Note(1, "x"),), ANALYSIS)
    data = annex_bytes(short_record, annex)
    wire = msgpack.unpackb(data[len(short_record) + len(ANNEX_PREAMBLE):], raw=False)
    assert list(wire) == ["of", "notes", "analysis"] and wire["of"] == record_hash(short_record)
    assert wire["analysis"]["decisions"][0] == [1, 0, ["d6", "d7"], ["d6", "d8"], [520, 480], 610, 400, "mistake",
                                                [["c3", "c1"], ["d8", "d9"]], 12, None]
    assert Annex.from_wire(wire, seats=2, steps=4) == (annex, record_hash(short_record))


def test_a_changed_record_has_its_annex_ignored_with_a_warning(samples: dict[str, bytes], short_record: bytes) -> None:
    other = samples["gild-9"]  # another finished record
    assert read_record_file(other).result is not None
    noted = annex_bytes(short_record, Annex((Note(1, "x"),)))
    moved = other + noted[len(short_record):]
    recording = read_record_file(moved)
    assert recording.annex is None and "before it changed" in recording.annex_warning
    assert recording.data == other and verify(recording).ok


def test_an_annex_after_an_unfinished_record_is_an_error(tmp_path: Path, samples: dict[str, bytes]) -> None:
    unfinished = samples["unfinished"]
    with pytest.raises(RecordError, match="an annex \\(notes\\) may only follow a result record"):
        read_record_file(_annex_of(unfinished, {"of": record_hash(unfinished), "notes": [[0, "x"]]}))
    path = tmp_path / "unfinished.fief"
    path.write_bytes(unfinished)
    with pytest.raises(RecordError, match="the game is not over"):
        add_note(path, 1, "x")
    assert path.read_bytes() == unfinished


def test_a_record_in_play_elsewhere_is_not_rewritten(finished: Path, short_record: bytes) -> None:
    with open_locked(finished):  # its writer's lock, as another process would hold it
        with pytest.raises(RecordInPlay):
            add_note(finished, 1, "x")
    assert finished.read_bytes() == short_record


def test_bad_notes_are_refused_in_one_line(finished: Path, short_record: bytes) -> None:
    with pytest.raises(ValueError, match="no step 5"):
        add_note(finished, 5, "x")
    with pytest.raises(ValueError, match="longer than 4096 bytes"):
        add_note(finished, 1, "é" * 2049)
    with pytest.raises(ValueError, match="no note 1"):
        remove_note(finished, 0)
    with pytest.raises(ValueError, match="the analysis: a judged decision's seat"):
        set_analysis(finished, dataclasses.replace(ANALYSIS, decisions=(dataclasses.replace(JUDGED, seat=2),)))
    assert finished.read_bytes() == short_record


@pytest.mark.parametrize(("tail", "why"), [
    (b"FIEFN", "cut short"),
    (ANNEX_PREAMBLE[:-1] + b"\x02" + b"\x80", "annex version 2"),
    (ANNEX_PREAMBLE + b"\xc1", "not valid msgpack"),
    (ANNEX_PREAMBLE + b"\x81\xa5notes\xdd\xff\xff\xff\xff", "more than 10000"),  # 4 billion notes announced
    (ANNEX_PREAMBLE + b"\x81\xa5notes\xdd\x00\x00\x00\x02" + b"\x92\x00\xa1x" * 2, "lacks the field 'of'"),
])
def test_torn_damaged_and_foreign_annexes_are_ignored(short_record: bytes, tail: bytes, why: str) -> None:
    recording = read_record_file(short_record + tail)
    assert recording.annex is None and why in recording.annex_warning and "\n" not in recording.annex_warning
    assert recording.data == short_record and not recording.torn and verify(recording).ok


_ANALYSIS_WIRE: dict[str, Any] = ANALYSIS.wire()
_BROKEN: list[dict[str, Any]] = [
    {"of": b"\0" * 16, "notes": []},  # empty: no notes field
    {"of": b"\0" * 16, "notes": [[2, "b"], [1, "a"]]},  # not in step order
    {"of": b"\0" * 16, "notes": [[5, "x"]]},  # past the last step
    {"notes": [[1, "x"]], "of": b"\0" * 16},  # keys out of order: not canonical
    {"of": b"\0" * 16, "analysis": {**_ANALYSIS_WIRE, "unit": "seconds"}},
    {"of": b"\0" * 16, "analysis": {**_ANALYSIS_WIRE, "decisions": [JUDGED.wire(), JUDGED.wire()]}},  # step twice
    {"of": b"\0" * 16, "analysis": {**_ANALYSIS_WIRE, "decisions": [[*JUDGED.wire()[:4], [500], *JUDGED.wire()[5:]]]}},
    {"of": b"\0" * 16, "analysis": {**_ANALYSIS_WIRE, "decisions": [[*JUDGED.wire()[:7], "oops", *JUDGED.wire()[8:]]]}},
    {"of": b"\0" * 16, "analysis": {**_ANALYSIS_WIRE, "decisions": [[*JUDGED.wire()[:8], [["a"]] * 33, None, None]]}},
    {"of": b"\0" * 16, "extra": 1},
]


@pytest.mark.parametrize("wire", _BROKEN)
def test_an_annex_that_breaks_a_rule_is_ignored(short_record: bytes, wire: dict[str, object]) -> None:
    wire = {**wire, "of": record_hash(short_record)} if list(wire)[0] == "of" else wire
    recording = read_record_file(_annex_of(short_record, wire))
    assert recording.annex is None and "they are ignored" in recording.annex_warning


def test_hostile_sizes_stay_bounded(short_record: bytes) -> None:
    nested = b"\x91" * 70_000 + b"\x90"  # one value deeper and longer than any the annex holds
    for body in (b"\x81\xa5notes" + nested, b"\x81\xa2of" + b"\xc5\xff\xff" + b"\0" * 65535,
                 b"\x81\xa5notes\xdc\x27\x10" + b"\x92\x00\xda\x10\x00" + b"x" * 4096):
        recording = read_record_file(short_record + ANNEX_PREAMBLE + body)
        assert recording.annex is None and recording.annex_warning
    big = short_record + ANNEX_PREAMBLE + b"\0" * (AnnexLimits.BYTES + 1)
    assert "more than 4 MiB" in read_record_file(big).annex_warning
    with pytest.raises(ValueError, match="more than 4 MiB"):
        annex_bytes(short_record, Annex(tuple(Note(1, "x" * 4096) for _ in range(1100))))


_FUZZ = settings(max_examples=80, deadline=timedelta(milliseconds=1000), derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@_FUZZ
@given(st.data())
def test_a_damaged_annex_never_fails_the_record(short_record: bytes, data: st.DataObject) -> None:
    noted = annex_bytes(short_record, Annex((Note(0, "start"), Note(3, "ü\u202e")), ANALYSIS))
    tail = bytearray(noted[len(short_record):])
    for _ in range(data.draw(st.integers(1, 6))):
        kind = data.draw(st.sampled_from(("set", "insert", "delete", "cut")))
        at = data.draw(st.integers(0, max(len(tail) - 1, 0)))
        if kind == "set" and tail:
            tail[at] = data.draw(st.integers(0, 255))
        elif kind == "insert":
            tail[at:at] = bytes([data.draw(st.integers(0, 255))])
        elif kind == "delete" and tail:
            del tail[at]
        elif kind == "cut":
            del tail[at:]
    try:
        recording = read_record_file(short_record + bytes(tail))
    except RecordError as err:  # the marker itself damaged: bytes after the result, as ever
        assert "nothing may follow the result record" in str(err)
        return
    assert recording.data == short_record and verify(recording).ok and "\n" not in recording.annex_warning
    assert (recording.annex is None) == bool(recording.annex_warning) or not tail
    export(recording, "text")


def test_older_records_read_exactly_as_before(samples: dict[str, bytes]) -> None:
    for data in samples.values():
        recording = read_record_file(data)
        assert recording.annex is None and recording.annex_warning == "" and recording.header.parent is None
        assert encode_header(recording.header) == data[:len(encode_header(recording.header))]
    with pytest.raises(RecordError, match="nothing may follow the result record"):
        read_record_file(samples["short"] + b"\x90")


def test_notes_are_in_the_full_tables_exports_only(short_record: bytes) -> None:
    recording = read_record_file(annex_bytes(short_record, Annex((Note(0, "at the {start}"), Note(4, "over\n")))))
    text = export(recording, "text")
    assert "{note: at the (start)}" in text and "{note: over\\n}" in text
    assert '"note: over\\n"' in export(recording, "json")
    for viewer in (0, None):
        assert "note:" not in export(recording, "text", viewer=viewer)


def test_the_parent_header_field_is_optional_bounded_and_read(samples: dict[str, bytes]) -> None:
    header = read_record_file(samples["short"]).header
    child = dataclasses.replace(header, parent=Parent(b"\1" * 16, 3))
    assert list(child.wire())[-1] == "parent" and header_from_wire(child.wire()) == child
    for bad in ({"hash": b"\1" * 15, "step": 3}, {"hash": b"\1" * 16, "step": -1}, {"hash": b"\1" * 16}):
        with pytest.raises(ValueError, match="parent"):
            header_from_wire({**header.wire(), "parent": bad})


def _variation(parent: Path, step: int, name: str) -> Path:
    replay = Replay(read_record_file(parent.read_bytes()))
    header, steps = from_here(replay, step)
    path = parent.with_name(name)
    Runner.start_from(header, path, replay.games, steps).close()
    return path


def test_variations_are_found_beside_their_record(finished: Path, tmp_path: Path, samples: dict[str, bytes]) -> None:
    first = _variation(finished, 2, "b-from-2.fief")
    second = _variation(finished, 0, "a-from-0.fief")
    header: Header = read_record_file(first.read_bytes()).header
    assert header.parent == Parent(step_hash(read_record_file(finished.read_bytes()), 2), 2)
    (tmp_path / "junk.fief").write_bytes(b"FIEF\x01\xff")
    (tmp_path / "other.fief").write_bytes(samples["unfinished"])
    add_note(finished, 1, "the parent gets a note after its variations: they are still its own")
    found = variations_of(finished)
    assert [(v.path.name, v.step, v.steps, v.result) for v in found] == [
        ("a-from-0.fief", 0, 0, None), ("b-from-2.fief", 2, 2, None)]
    assert found[1].label == "b-from-2.fief: from step 2, 2 steps, unfinished"
    assert variations_of(second) == [] and variations_of(first) == []


def test_a_rewritten_annex_is_written_whole_beside_and_renamed(finished: Path, short_record: bytes) -> None:
    add_note(finished, 1, "x")
    assert sorted(p.name for p in finished.parent.iterdir()) == ["short.fief"]  # nothing left beside it
    create_whole(finished, short_record + b"\x90", replace=True).close()  # damaged after its result
    with pytest.raises(RecordError, match="nothing may follow"):
        add_note(finished, 1, "y")


def test_checkpoints_and_result_of_a_noted_record_are_the_records_own(finished: Path, short_record: bytes) -> None:
    add_note(finished, 4, "end")
    recording = read_record_file(finished.read_bytes())
    chained = [r for r in recording.records if isinstance(r, (CheckpointRecord, ResultRecord))]
    assert chained == [r for r in read_record_file(short_record).records if isinstance(r, (CheckpointRecord, ResultRecord))]
