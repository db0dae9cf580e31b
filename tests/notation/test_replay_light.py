"""A replay derives each step on demand (issue 9): in any order, a step's wording, events and
position are what replaying the record from the start gives; events are found across
keyframes; exports stream; a recording decodes its records when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.digest import digest
from core.rng import SplitMix64
from notation.apply import apply_step
from notation.catalog import build_game
from notation.export import export, export_stream
from notation.format import STEP_TYPES
from notation.reader import read_record_file
from notation.replay import Replay

REPLAYS = Path(__file__).parents[2] / "replays"
GOLDENS = sorted(REPLAYS.glob("*.fief"))


def straight(path: Path) -> list[tuple[str, list, bytes]]:
    """(wording, events, state digest) of every step, replaying the record once from the start."""
    recording = read_record_file(path)
    game = build_game(recording.header)
    out = []
    for record in recording.records:
        if isinstance(record, STEP_TYPES):
            told, events = apply_step(game, record)
            out.append((told.text, events, digest(game)))
    return out


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.name)
def test_steps_in_any_order_are_the_steps_replayed_in_order(path: Path) -> None:
    expected = straight(path)
    replay = Replay(read_record_file(path), keyframe_every=5)
    assert len(replay) == len(expected)
    rng = SplitMix64(len(expected))
    order = [rng.below(len(expected)) + 1 for _ in range(60)] + list(range(len(expected), 0, -1))
    for n in order:
        text, events, state = expected[n - 1]
        info = replay.step_record(n)
        assert (info.step, info.text, list(info.events)) == (n, text, events)
        assert replay.events_at(n) == events
        assert digest(replay.state_at(n)) == state
        assert digest(replay.state_at(n - 1)) == (expected[n - 2][2] if n > 1 else digest(replay.state_at(0)))


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.name)
def test_next_and_previous_event_of_a_kind(path: Path) -> None:
    expected = straight(path)
    replay = Replay(read_record_file(path), keyframe_every=7)
    kinds = sorted({e.kind for _, events, _ in expected for e in events}) + ["no such kind"]
    with_kind = {k: [n for n, (_, events, _) in enumerate(expected, 1) if any(e.kind == k for e in events)]
                 for k in kinds}
    for kind in kinds:
        for start in range(0, len(expected) + 2, 3):
            after = [n for n in with_kind[kind] if n > start]
            before = [n for n in with_kind[kind] if n < start]
            assert replay.next_event(start, kind) == (after[0] if after else None), (kind, start)
            assert replay.prev_event(start, kind) == (before[-1] if before else None), (kind, start)


@pytest.mark.parametrize("fmt", ["text", "json", "otg"])
def test_an_export_streams_in_pieces_that_join_to_it(fmt: str) -> None:
    recording = read_record_file(REPLAYS / "tafl-gild-11-5-0001.fief")
    pieces = list(export_stream(recording, fmt))
    assert len(pieces) > len(Replay(recording)) // 2  # at least a piece a turn
    assert "".join(pieces) == export(recording, fmt)


def test_a_recording_decodes_its_records_when_asked() -> None:
    recording = read_record_file(GOLDENS[0])
    records = list(recording.records)
    assert len(records) == len(recording.records) == len(recording.offsets)
    assert recording.records[-1] == records[-1] and recording.records[3:6] == records[3:6]
    assert recording.records == tuple(records) and recording.steps == sum(isinstance(r, STEP_TYPES) for r in records)
    with pytest.raises(IndexError):
        recording.records[len(records)]
