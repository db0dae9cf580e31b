"""``fiefdom replay analyse`` as a user types it (tui/cli_analyse.py): a report per decision, the same
figures whatever the number of processes, the analysis kept in a finished record that still
verifies, and one line for every failure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from notation.reader import read_record_file
from notation.replay import Replay
from notation.verify import verify
from replay_cli import run_replay

REPLAYS = Path(__file__).parents[2] / "replays"
QUICK = ("--seconds", "0.01")  # the least work: these tests look at what is reported and kept, not its figures
_run = run_replay


@pytest.fixture
def tafl(tmp_path: Path) -> Path:
    path = tmp_path / "tafl.fief"
    shutil.copyfile(REPLAYS / "tafl-gild-9-5-0001.fief", path)
    return path


def _choices(path: Path) -> list[int]:
    """The steps of the record's decisions that had a choice (a forced move is not judged)."""
    replay = Replay(read_record_file(path))
    return [i.step for i in replay.step_infos() if i.kind == "decision" and len(i.before.options) > 1]


def test_every_decision_is_judged_reported_and_kept(tafl: Path) -> None:
    before = tafl.read_bytes()
    code, out, err = _run("analyse", tafl, *QUICK, "--jobs", "1")
    assert code == 0, err
    lines = out.splitlines()
    steps = _choices(tafl)
    assert lines[0].startswith(f"tafl gild-9: {len(steps)} decisions judged by ")
    assert [int(line.split(".")[0]) for line in lines[1:1 + len(steps)]] == steps
    assert lines[-2].startswith("attackers: ") and lines[-1].startswith("defenders: ")
    assert err == f"analysis kept in {tafl}\n"
    recording = read_record_file(tafl)
    assert [j.step for j in recording.annex.analysis.decisions] == steps
    assert tafl.read_bytes().startswith(before) and verify(recording).ok  # the game itself untouched


def test_the_figures_do_not_depend_on_the_processes(tafl: Path, tmp_path: Path) -> None:
    one = _run("analyse", tafl, *QUICK, "--json", "--jobs", "1", "--no-keep")
    two = _run("analyse", tafl, *QUICK, "--json", "--jobs", "2", "--no-keep")
    assert one[0] == two[0] == 0
    assert json.loads(one[1]) == json.loads(two[1])
    report = json.loads(one[1])
    assert report["whole"] and report["unit"] == "nodes" and report["work"] == 512  # 0.01 s buys less than the least (docs/review.md)
    assert {d["mark"] for d in report["decisions"]} <= {None, "inaccuracy", "mistake", "blunder"}
    assert set(report["summary"]) == {"attackers", "defenders"}
    assert read_record_file(tafl).annex is None  # --no-keep: the file as it was


def test_a_second_run_keeps_what_was_judged(tafl: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.txt"
    assert _run("analyse", tafl, *QUICK, "--seat", "attackers")[0] == 0
    kept = read_record_file(tafl).annex.analysis
    assert {j.seat for j in kept.decisions} == {0}
    assert _run("analyse", tafl, *QUICK, "--seat", "defenders", "--out", out)[0] == 0
    both = read_record_file(tafl).annex.analysis
    assert {j.seat for j in both.decisions} == {0, 1}
    assert set(kept.decisions) <= set(both.decisions)  # the attackers' judgements kept as they were
    assert out.read_text().startswith("tafl gild-9: ")
    assert _run("analyse", tafl, *QUICK, "--out", out)[2].startswith("error: ")  # never replaced without --force


def test_an_unfinished_record_is_analysed_but_not_written(tafl: Path, tmp_path: Path) -> None:
    recording = read_record_file(tafl)
    cut = tmp_path / "unfinished.fief"
    cut.write_bytes(recording.data[:recording.offsets[20]])  # the first records: a game that goes on
    before = cut.read_bytes()
    code, out, err = _run("analyse", cut, *QUICK)
    assert code == 0 and out.startswith("tafl gild-9: ")
    assert err == "analysis not kept in the file: the game is not finished\n"
    assert cut.read_bytes() == before


@pytest.mark.parametrize("args,words", [
    (("--seat", "nobody"), "--seat: no seat 'nobody' in this record"),
])
def test_a_bad_argument_is_one_line(tafl: Path, args: tuple[str, ...], words: str) -> None:
    code, out, err = _run("analyse", tafl, *QUICK, *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ") and words in err, err


def test_a_damaged_record_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.fief"
    bad.write_bytes(b"FIEF\x01\xc1garbage")
    code, out, err = _run("analyse", bad, *QUICK)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith(f"error: {bad}: "), err
