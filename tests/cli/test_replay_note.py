"""``fiefdom replay note`` and ``fiefdom replay variations`` as a user types them (tui/cli_notes.py):
exit codes 0 and 2, one line for every failure, every note shown visibly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from notation.annex import ANNEX_PREAMBLE
from notation.play_from import from_here
from notation.reader import read_record_file
from notation.record_lock import open_locked
from notation.replay import Replay
from notation.runner import Runner
from replay_cli import run_replay

REPLAYS = Path(__file__).parents[2] / "replays"
_run = run_replay


def _one_error(code: int, out: str, err: str, words: str) -> None:
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ") and words in err, err


@pytest.fixture
def tafl(tmp_path: Path) -> Path:
    path = tmp_path / "tafl.fief"
    shutil.copyfile(REPLAYS / "tafl-gild-9-5-0001.fief", path)
    return path


def test_notes_are_added_listed_and_deleted(tafl: Path) -> None:
    before = tafl.read_bytes()
    assert _run("note", tafl) == (0, "no notes\n", "")
    code, out, _ = _run("note", tafl, "--step", "3", "the king\x1b[2J steps out")
    assert code == 0 and out == f"{tafl}: a note on step 3, 1 note in all\n"
    steps = read_record_file(before).steps
    assert _run("note", tafl, "well played")[1] == f"{tafl}: a note on step {steps}, 2 notes in all\n"
    assert _run("note", tafl, "-s", "0", "before it all")[0] == 0
    code, out, _ = _run("note", tafl)
    assert code == 0 and out.splitlines() == [
        "1. step 0: before it all", "2. step 3: the king\\x1b[2J steps out", f"3. step {steps}: well played"]
    assert _run("note", tafl, "--step", "3")[1] == "2. step 3: the king\\x1b[2J steps out\n"
    code, out, _ = _run("verify", tafl)
    assert code == 0 and out.startswith("ok: ") and out.endswith(", 3 notes\n")
    assert _run("note", tafl, "--delete", "2")[1] == f"{tafl}: note 2 deleted, 2 notes left\n"
    assert tafl.read_bytes().startswith(before)


def test_notes_show_in_show_and_the_full_tables_export_only(tmp_path: Path) -> None:
    path = tmp_path / "kingdom.fief"
    shutil.copyfile(REPLAYS / "kingdom-multi-3-1-0001.fief", path)
    assert _run("note", path, "--step", "2", "the card drawn is the dragon\u202e")[0] == 0
    code, out, _ = _run("show", path, "--step", "2")
    assert code == 0 and "  note: the card drawn is the dragon\\u202e" in out.splitlines()
    assert "note:" not in _run("show", path, "--step", "2", "--seat", "0")[1]
    assert "note: the card drawn is the dragon\\u202e" in _run("export", path)[1]
    assert "note:" not in _run("export", path, "--seat", "spectator")[1]
    assert "note: the card drawn is the dragon\\u202e" in _run("export", path, "-f", "json")[1]


def test_strip_writes_the_record_an_older_fiefdom_reads(tafl: Path, tmp_path: Path) -> None:
    record = tafl.read_bytes()
    _run("note", tafl, "a note")
    copy = tmp_path / "copy.fief"
    assert _run("note", tafl, "--strip", "--out", copy)[0] == 0
    assert copy.read_bytes() == record and tafl.read_bytes() != record
    _one_error(*_run("note", tafl, "--strip", "--out", copy), "exists; give --force")
    _one_error(*_run("note", tafl, "--strip", "--out", tafl, "--force"), "an output never replaces its own input")
    assert _run("note", tafl, "--strip")[1] == f"{tafl}: its notes and analysis removed\n"
    assert tafl.read_bytes() == record


@pytest.mark.parametrize(("args", "words"), [
    (("--step", "999", "x"), "the record has no step 999"),
    (("--step", "-1", "x"), "the record has no step -1"),
    (("--delete", "1"), "there is no note 1: the record has 0 notes"),
    (("x", "--delete", "1"), "give one of TEXT, --delete or --strip"),
    (("--out", "somewhere.fief"), "--out goes with --strip"),
    (("é" * 2049,), "the note is longer than 4096 bytes"),
])
def test_bad_arguments_are_one_line(tafl: Path, args: tuple[str, ...], words: str) -> None:
    before = tafl.read_bytes()
    _one_error(*_run("note", tafl, *args), words)
    assert tafl.read_bytes() == before


def test_unreadable_unfinished_and_held_records_are_one_line(tafl: Path, tmp_path: Path) -> None:
    _one_error(*_run("note", tmp_path / "missing.fief", "x"), "No such file or directory")
    recording = read_record_file(tafl.read_bytes())
    unfinished = tmp_path / "unfinished.fief"
    unfinished.write_bytes(recording.data[:recording.offsets[-1]])  # its result cut off
    _one_error(*_run("note", unfinished, "x"), "the game is not over")
    with open_locked(tafl):
        _one_error(*_run("note", tafl, "x"), "in play elsewhere")
    damaged = tmp_path / "damaged.fief"
    damaged.write_bytes(recording.data + b"\x90")
    _one_error(*_run("note", damaged), "nothing may follow the result record")


def test_a_damaged_annex_is_said_once_and_the_record_still_verifies(tafl: Path) -> None:
    _run("note", tafl, "a note")
    tafl.write_bytes(tafl.read_bytes()[:-2])  # the file cut inside its notes
    code, out, _ = _run("verify", tafl)
    assert code == 0 and out.startswith("ok: ") and "; the notes at byte" in out and "are cut short" in out
    code, out, err = _run("note", tafl)
    assert code == 0 and out == "no notes\n" and err.count("\n") == 1 and "they are ignored" in err
    kept = tafl.read_bytes()
    _one_error(*_run("note", tafl, "a new note"), "a change would lose them")  # the old bytes are not dropped unasked
    assert tafl.read_bytes() == kept
    assert _run("note", tafl, "--strip")[0] == 0
    assert _run("note", tafl, "a new note")[0] == 0  # written again, whole
    assert read_record_file(tafl.read_bytes()).annex is not None and tafl.read_bytes().count(ANNEX_PREAMBLE) == 1


def test_variations_are_listed(tafl: Path) -> None:
    assert _run("variations", tafl) == (0, "no variations beside it\n", "")
    replay = Replay(read_record_file(tafl.read_bytes()))
    header, steps = from_here(replay, 5)
    Runner.start_from(header, tafl.with_name("branch.fief"), replay.games, steps).close()
    assert _run("variations", tafl) == (0, "branch.fief: from step 5, 5 steps, unfinished\n", "")
    _one_error(*_run("variations", tafl.with_name("nothing.fief")), "No such file or directory")
