"""One walk over a record (notation/walk.py): building a replay verifies it on the same pass, so
opening a record applies each step once; the report is the one verify alone gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import notation.walk
from notation.reader import read_record_file
from notation.replay import Replay
from notation.verify import verify

REPLAYS = sorted((Path(__file__).resolve().parents[2] / "replays").glob("*.fief"))


@pytest.fixture
def applied(monkeypatch: Any) -> list[int]:
    """The steps the walk applies, counted (one entry each)."""
    count: list[int] = []
    real = notation.walk.apply_step

    def counted(*args: Any, **kwargs: Any) -> Any:
        count.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(notation.walk, "apply_step", counted)
    return count


@pytest.mark.parametrize("path", REPLAYS[::3], ids=lambda p: p.name)
def test_opening_a_record_applies_each_step_once_and_verifies_it(path: Path, applied: list[int]) -> None:
    recording = read_record_file(path)
    replay = Replay(recording)
    report = replay.verify()
    assert len(applied) == replay.steps == recording.steps
    assert report == verify(recording) and report.ok


def test_a_record_that_differs_is_replayed_whole_and_the_report_names_the_first_difference(tmp_path: Path) -> None:
    from dataclasses import replace

    path = next(p for p in REPLAYS if p.name.startswith("taifa-"))
    recording = read_record_file(path)
    forged = replace(recording, header=replace(recording.header, seed=(recording.header.seed or 0) + 1))
    replay = Replay(forged)
    report = replay.verify()
    assert not report.ok and "is not what seed" in report.message
    assert replay.steps == recording.steps and replay.failure is None  # the viewer still shows it all
    assert report == verify(forged)


def test_resuming_a_record_is_a_reader_of_the_same_walk(tmp_path: Path, applied: list[int]) -> None:
    from notation.runner import Runner

    golden = next(p for p in REPLAYS if p.name.startswith("taifa-"))
    recording = read_record_file(golden)
    cut = recording.offsets[max(i for i, _ in enumerate(recording.offsets) if i < len(recording.offsets) // 2)]
    path = tmp_path / "cut.fief"
    path.write_bytes(golden.read_bytes()[:cut])  # an unfinished game, cut at a record's start
    steps = read_record_file(path).steps
    runner = Runner.resume(path)
    try:
        assert len(applied) == len(runner.history) == steps > 0
        assert [s.index for s in runner.history] == list(range(1, steps + 1))
    finally:
        runner.close()
