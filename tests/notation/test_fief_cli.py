"""``fiefdom replay`` (tui/cli_replay.py): exit codes 0 / 1 / 2 and one-line errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.format import CHECKPOINT_EVERY, STEP_TYPES, CheckpointRecord, DecisionRecord
from notation.reader import read_record_file
from notation.writer import encode_game
from tui.cli_replay import replay_app

runner = CliRunner()


def _run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(replay_app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def files(tmp_path: Path, samples: dict[str, bytes]) -> dict[str, Path]:
    out = {}
    for name, data in samples.items():
        out[name] = tmp_path / f"{name}.fief"
        out[name].write_bytes(data)
    rec = read_record_file(samples["gild-9"])
    index = next(i for i, r in enumerate(rec.records) if isinstance(r, CheckpointRecord) and r.step == CHECKPOINT_EVERY)
    records = list(rec.records)
    records[index] = replace(records[index], digest=bytes(16))  # type: ignore[type-var]
    out["tampered"] = tmp_path / "tampered.fief"
    out["tampered"].write_bytes(encode_game(rec.header, records, reseal=True))
    short = read_record_file(samples["short"])
    records = list(short.records)
    step3 = [i for i, r in enumerate(records) if isinstance(r, DecisionRecord)][2]
    records[step3] = DecisionRecord(0, ("a1", "i9"))
    out["illegal"] = tmp_path / "illegal.fief"
    out["illegal"].write_bytes(encode_game(short.header, records, reseal=True))
    last = max(i for i, r in enumerate(short.records) if isinstance(r, STEP_TYPES))
    out["cut"] = tmp_path / "cut.fief"
    out["cut"].write_bytes(short.data[: short.offsets[last + 1]])
    out["garbage"] = tmp_path / "garbage.fief"
    out["garbage"].write_bytes(samples["short"][:40] + b"\xc1" * 20)
    return out


def test_verify(files: dict[str, Path]) -> None:
    code, out, _ = _run("verify", files["short"])
    records = len(read_record_file(files["short"]).records)
    assert code == 0 and out == f"ok: {records} records, result defenders won: the king reached a corner (gild OBJECT)\n"
    code, out, _ = _run("verify", files["unfinished"])
    assert code == 0 and out.startswith("ok: ") and out.endswith(" records, unfinished\n")


def test_verify_a_record_of_no_steps(tmp_path: Path, play) -> None:
    path = tmp_path / "empty.fief"
    play("gild-9", 1, max_steps=0, path=path)
    code, out, _ = _run("verify", path)
    assert code == 0 and out == "ok: 1 record, unfinished\n"


def test_verify_a_record_that_replays_differently(files: dict[str, Path]) -> None:
    code, out, _ = _run("verify", files["tampered"])
    assert code == 1
    assert out.startswith(f"differs at step {CHECKPOINT_EVERY}: record ") and "the position differs" in out
    assert out.count("\n") == 1


@pytest.mark.parametrize("name, expected", [
    ("garbage", "header at byte 5: not valid msgpack"),
    ("missing", "No such file or directory"),
])
def test_verify_an_unreadable_file(files: dict[str, Path], tmp_path: Path, name: str, expected: str) -> None:
    path = files.get(name, tmp_path / "missing.fief")
    code, out, err = _run("verify", path)
    assert code == 2 and out == "" and err.startswith(f"error: {path}: ") and expected in err
    assert err.count("\n") == 1


def test_show(files: dict[str, Path]) -> None:
    code, out, _ = _run("show", files["short"], "--step", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "step 1 of 4: attackers d6-d7"
    assert lines[1].split() == list("abcdefghi")
    assert lines[2].split() == ["9", "*", ".", ".", ",", ",", ",", ".", ".", "*", "9"]
    assert "position: /9/9/2K6/9/9/5T3/3t5/9/9/" in lines and "to move: defenders" in lines
    assert "  d8 captured (a defender)  [gild BASIC MOVES; TF-11]" in lines
    code, out, _ = _run("show", files["short"])
    assert code == 0 and out.startswith("step 4 of 4: defenders Kc1-a1") and "game over: the king reached a corner" in out
    code, out, _ = _run("show", files["short"], "-s", "0")
    assert code == 0 and out.startswith("step 0 of 4\n") and "to move: attackers" in out


def test_show_a_bad_step(files: dict[str, Path]) -> None:
    code, _, err = _run("show", files["short"], "--step", "9")
    assert code == 2 and err == "error: there is no step 9: this record has steps 0..4\n"


def test_export(files: dict[str, Path], tmp_path: Path) -> None:
    code, out, _ = _run("export", files["short"])
    assert code == 0 and out.startswith('[Game "tafl"]\n') and "1. d6-d7xd8" in out
    code, out, _ = _run("export", files["short"], "--format", "json")
    assert code == 0 and json.loads(out)["header"]["game"] == "tafl"
    target = tmp_path / "game.otg"
    code, out, _ = _run("export", files["short"], "-f", "otg", "--out", target)
    assert code == 0 and out == "" and target.read_text().startswith("[name:Astrid vs fief-random]\n")
    code, _, err = _run("export", files["short"], "-f", "otg", "--out", tmp_path / "no" / "dir.otg")
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    code, _, err = _run("export", files["garbage"])
    assert code == 2 and "header at byte 5" in err


def test_verify_a_finished_game_cut_before_its_result(files: dict[str, Path]) -> None:
    code, out, _ = _run("verify", files["cut"])
    assert code == 1 and out.startswith("differs at step 4: step 4 (record ")
    assert out.endswith("the game ended here (defenders won: the king reached a corner (gild OBJECT)), "
                        "but the record has no result\n")


@pytest.mark.parametrize("name", ["illegal", "cut"])
def test_export_of_a_record_that_replays_differently(files: dict[str, Path], tmp_path: Path, name: str) -> None:
    """Exit 1, as verify: text and json are written and say what differs; otg is refused."""
    path = files[name]
    _, verdict, _ = _run("verify", path)
    assert verdict.startswith("differs at step ")
    code, out, err = _run("export", path)
    assert code == 1 and out.startswith('[Game "tafl"]\n') and f'[Verify "{verdict.strip()}"]' in out
    assert err == f"note: {path}: {verdict.strip()} (the export says so)\n"
    code, out, err = _run("export", path, "-f", "json")
    assert code == 1 and json.loads(out)["verify"]["ok"] is False and err.startswith("note: ")
    target = tmp_path / "game.otg"
    code, out, err = _run("export", path, "-f", "otg", "--out", target)
    assert code == 1 and out == "" and not target.exists()
    assert err.startswith(f"error: {path}: the record does not replay as it says ({verdict.strip()}); ")
    assert err.count("\n") == 1


def test_export_help_gives_the_exit_codes() -> None:
    code, out, _ = _run("export", "--help")
    words = " ".join(out.split())
    assert code == 0 and "Exit 0 when FILE verifies; 1 when it replays differently" in words
    assert "otg is refused; 2 when FILE is unreadable" in words


@pytest.mark.parametrize("command", [[], ["verify"], ["show"], ["export"]])
def test_help(command: list[str]) -> None:
    code, out, _ = _run(*command, "--help")
    assert code == 0 and "Usage" in out
