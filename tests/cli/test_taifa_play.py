"""`fiefdom play taifa --prompt` (Taifa at the prompt) and --map/--cards on simulate, play and replay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.games import lookup
from core.taifa.map import load_map
from tui import cli_replay
from notation.reader import read_record_file
from notation.verify import verify
from tui.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def packaged_data() -> Iterator[None]:
    yield
    cli_replay._DATA.clear()  # one command's --map/--cards: CliRunner runs many in one process


def invoke(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, list(map(str, args)), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_a_person_plays_castile_by_number_and_by_words(tmp_path: Path) -> None:
    out = tmp_path / "game.fief"
    # Option 1 of the first question, a word the rules refuse, help, then quit.
    code, text, _ = invoke("play", "taifa", "--prompt", "--seed", "3", "--out", out,
                           stdin="1\nattack Nowhere\nhelp\nquit\n")
    assert code == 0, text
    assert "Castile (human)" in text and "Catalan Counties (bot)" in text
    assert "Castile: your action" in text and "no area named 'Nowhere'" in text
    assert text.rstrip().endswith(f"stopped; the record so far is {out}")
    recording = read_record_file(out)
    assert [s.kind for s in recording.header.seats] == ["human"] + ["bot"] * 5
    assert recording.header.setup["bots"] == ["catalans", "valencia", "seville", "badajoz", "leon"]
    assert verify(recording).first_bad_step is None  # unfinished, but every step replays


def test_input_ending_stops_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "g.fief"
    code, text, err = invoke("play", "taifa", "--prompt", "--variant", "el-cid", "--out", path)
    assert code == 2 and "El Cid (human)" in text
    assert err == f"error: no input to read, and El Cid is to decide; the record so far is {path}\n"
    assert verify(read_record_file(path)).ok


def test_a_whole_game_with_no_person_finishes_and_verifies(tmp_path: Path) -> None:
    out = tmp_path / "bots.fief"
    code, text, _ = invoke("play", "taifa", "--prompt", "--seat", "castile=bot", "--seed", "2", "--out", out)
    assert code == 0, text
    assert "win" in text.splitlines()[-3] and text.rstrip().endswith(f"record: {out}")
    assert verify(read_record_file(out)).ok


@pytest.mark.parametrize("args, message", [
    (("--seat", "7=bot"), "no seat '7' (seats: Castile, Catalan Counties, "),
    (("--seat", "leon=robot"), "Leon may be human, bot, ai, random, not 'robot'"),
    (("--variant", "moon"), "unknown taifa scenario 'moon'"),
    (("--option", "almoravid_hand=14"), "option 'almoravid_hand' does not apply to taifa standard"),
    (("--map", "/nonexistent/map.toml"), "cannot read map"),
])
def test_bad_arguments_are_one_line(args: tuple[str, ...], message: str, tmp_path: Path) -> None:
    code, _, err = invoke("play", "taifa", "--prompt", "--out", tmp_path / "x.fief", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_records_on_an_own_map_replay_only_with_it(tmp_path: Path, own_map: Path) -> None:
    code, text, _ = invoke("simulate", "taifa", "--games", "1", "--seed", "9", "--map", own_map, "--out", tmp_path)
    assert code == 0, text
    (record,) = tmp_path.glob("*.fief")
    with_map = lookup({"taifa": {"map": load_map(str(own_map))}})
    assert "map" in read_record_file(record, games=with_map).header.setup
    cli_replay._DATA.clear()
    code, _, err = invoke("replay", "verify", record)
    assert code == 2 and "its own map" in err and "--map" in err
    code, text, _ = invoke("replay", "--map", own_map, "verify", record)
    assert code == 0 and text.startswith("ok:")
