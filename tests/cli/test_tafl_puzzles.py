"""``fiefdom tafl puzzles --from DIR`` finds puzzles in records; ``fiefdom tafl puzzle FILE --prompt``
plays them: typed moves, a wrong move, hints, skip, the score; a bad file is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.tafl.ai import MATE
from notation.annex import Analysis, Judged, set_analysis
from notation.games.tafl import OtgGame, write_fief
from tui.cli import app

runner = CliRunner()
# Brandubh, defenders to move: b2-a2 opens two lines to corners (tests/tafl/test_puzzles.py).
WIN_IN_2 = "/4T2/1K2tt1/7/5t1/2t4/7/7/"
WIN_IN_1 = "/2t4/7/4t2/4t2/4T2/1t5/1K5/"  # attackers to move: c1-c7 takes the king


def record(path: Path, moves: list[tuple[str, str]], position: str = WIN_IN_2, to_move: int = 1) -> Path:
    """A record of a game from ``position``, written by the project's own writer."""
    game = OtgGame(tags={}, variant="brandubh", options={}, setup={"position": position, "to_move": to_move},
                   moves=moves)
    write_fief(game, path)
    return path


@pytest.fixture
def records(tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    record(folder / "a.fief", [("b2", "a2"), ("e2", "e3"), ("a2", "a7")])
    record(folder / "b.fief", [("b2", "a2"), ("e2", "e3"), ("a2", "a1")])  # the same start: counted once
    record(folder / "c.fief", [("c1", "c7")], WIN_IN_1, 0)
    (folder / "damaged.fief").write_bytes(b"not a record")
    (folder / "notes.txt").write_text("not looked at")
    return folder


def test_puzzles_are_found_in_a_folder_of_records(records: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.txt"
    r = runner.invoke(app, ["tafl", "puzzles", "--from", str(records), "--out", str(out)])
    assert r.exit_code == 0, r.output
    lines = out.read_text().splitlines()
    puzzles = [json.loads(line) for line in lines]
    first = puzzles[0]
    assert (first["position"], first["to_move"], first["goal"]) == (WIN_IN_2, "defenders",
                                                                     "defenders to move and win in 2")
    assert first["solution"][0] == "b2-a2" and (first["source"], first["step"]) == ("a.fief", 0)
    assert len({(p["position"], p["to_move"]) for p in puzzles}) == len(puzzles)  # no duplicates
    assert "skipped damaged.fief:" in r.stderr
    assert [p["goal"] for p in puzzles] == ["defenders to move and win in 2", "attackers to move and win in 1"]
    assert "2 puzzles (1 in 1, 1 in 2, 0 in 3)" in r.stderr and "from 3 records" in r.stderr
    again = runner.invoke(app, ["tafl", "puzzles", "--from", str(records), "--out", str(out)])
    assert again.exit_code == 2 and "exists" in again.stderr and "Traceback" not in again.output


def test_the_prompt_plays_a_puzzle_with_a_wrong_move_and_hints(records: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.txt"
    runner.invoke(app, ["tafl", "puzzles", "--from", str(records), "--out", str(out)])
    solution = json.loads(out.read_text().splitlines()[0])["solution"]
    typed = ["hint", "hint", "b2-b3", "b2-a2", solution[2], "quit"]
    r = runner.invoke(app, ["tafl", "puzzle", str(out), "--prompt"], input="\n".join(typed) + "\n")
    assert r.exit_code == 0, r.output
    text = r.stdout
    assert "defenders to move and win in 2" in text
    assert " 2  . K . . t t .  2" in text  # the board as the prompt draws Tafl
    assert "move the king on b2\n" in text and "move the king on b2 to a2" in text
    assert "b2-b3 does not win in 2: try again" in text
    assert f"Kb2-a2: right. attackers answer {solution[1]}" in text
    assert "solved!" in text and "solved, 1 wrong, 2 hints" in text
    assert "puzzle 2 of 2 (from c.fief, step 0): attackers to move and win in 1" in text
    assert "stopped: 1 solved, 0 skipped, of 2 puzzles" in text


def test_skip_shows_the_solution_and_the_input_ending_stops(records: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.txt"
    runner.invoke(app, ["tafl", "puzzles", "--from", str(records), "--out", str(out)])
    r = runner.invoke(app, ["tafl", "puzzle", str(out), "--prompt"], input="skip\n")
    assert r.exit_code == 0, r.output
    assert "skipped; the solution: b2-a2" in r.stdout
    assert "the input ended: 0 solved, 1 skipped, of 2 puzzles" in r.stdout


@pytest.mark.parametrize("content, says", [
    (b"garbage", "line 1: not JSON"),
    (b"", "no puzzles"),
    (b'{"format": "fiefdom-tafl-puzzle", "version": 9}', "version"),
])
def test_a_bad_puzzle_file_is_one_line(tmp_path: Path, content: bytes, says: str) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    r = runner.invoke(app, ["tafl", "puzzle", str(bad), "--prompt"])
    assert r.exit_code == 2 and says in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_missing_files_and_folders_are_one_line(tmp_path: Path) -> None:
    r = runner.invoke(app, ["tafl", "puzzle", str(tmp_path / "none.txt")])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    r = runner.invoke(app, ["tafl", "puzzle", str(tmp_path)])
    assert r.exit_code == 2 and "folder" in r.stderr
    r = runner.invoke(app, ["tafl", "puzzles", "--from", str(tmp_path / "none")])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    r = runner.invoke(app, ["tafl", "puzzles", "--from", str(tmp_path)])
    assert r.exit_code == 2 and "no .fief records" in r.stderr


SAVE_IN_1 = "/3K1t1/1t5/1t3t1/t1T1T1t/3T3/3t3/3t3/"  # attackers to move: only b2-b1 stops Kd1-a1


def test_saves_are_found_only_when_asked_and_play_at_the_prompt(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    record(folder / "s.fief", [("b2", "b1")], SAVE_IN_1, 0)
    out = tmp_path / "p.txt"
    plain = runner.invoke(app, ["tafl", "puzzles", "--from", str(folder)])
    assert plain.exit_code == 0 and plain.stdout == "" and "0 puzzles" in plain.stderr
    r = runner.invoke(app, ["tafl", "puzzles", "--from", str(folder), "--out", str(out), "--saves"])
    assert r.exit_code == 0, r.output
    assert "1 saves" in r.stderr
    line = json.loads(out.read_text())
    assert (line["kind"], line["solution"], line["goal"]) == (
        "save", ["b2-b1"], "attackers to move: only one move does not lose in 1")
    played = runner.invoke(app, ["tafl", "puzzle", str(out), "--prompt"], input="hint\nf1-e1\nb2-b1\n")
    assert "move the attacker on b2" in played.stdout
    assert "f1-e1 loses: the defenders win within 1. Try again" in played.stdout
    assert "b2-b1: solved! the only move that does not lose in 1" in played.stdout
    assert "done: 1 solved, 0 skipped, of 1 puzzle" in played.stdout


def test_an_analysed_record_is_looked_at_where_its_analysis_flags_a_forced_result(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    path = record(folder / "a.fief", [("b2", "a2"), ("e2", "e3"), ("a2", "a7")])
    forced = Judged(step=1, seat=1, played=("b2", "a2"), best=("b2", "a2"), chances=(0, 1000), best_chance=1000,
                    played_chance=1000, mark="", score=-(MATE - 3))  # the attackers' score: a loss in 3 plies
    quiet = Judged(step=2, seat=0, played=("e2", "e3"), best=("e2", "e3"), chances=(0, 1000), best_chance=0,
                   played_chance=0, mark="", score=-150)
    set_analysis(path, Analysis("tafl-ai 5", "nodes", 1000, 1, (forced, quiet)))
    r = runner.invoke(app, ["tafl", "puzzles", "--from", str(folder)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout.splitlines()[0])["position"] == WIN_IN_2
    assert "2 positions" in r.stderr  # steps 0 and 1, around the flagged decision; not the rest
