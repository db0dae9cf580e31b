"""One letter-case rule for every choice on the command line (issue 26, tui/cli_choices.py): a
variant or scenario, a mode, a difficulty, seat kinds and AI levels, a side, an export format, a
seat's name, a data file's key, a rule option's name and a choice option's value are matched
whatever their case, and recorded and shown as the game spells them. It used to be mixed:
``-o survival=TRUE`` and ``--seats AI,ai,ai`` were taken, ``--mode SOLO`` and ``--difficulty
EXPERT`` refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.format import Header
from notation.reader import read_record_file
from notation.verify import verify
from tui.cli import app

ROOT = Path(__file__).resolve().parents[2]
TAFL = ROOT / "replays" / "tafl-traditional-5-0001.fief"
cli = CliRunner()


def run(*args: str | Path) -> str:
    result = cli.invoke(app, list(map(str, args)), input="")
    assert result.exit_code == 0, result.output
    return result.stdout


def header(path: Path) -> Header:
    recording = read_record_file(path)
    assert verify(recording).ok
    return recording.header


def kinds(h: Header) -> list[str]:
    return [seat.kind for seat in h.seats]


def test_tafl_commands(tmp_path: Path) -> None:
    lower = run("tafl", "analyse", "-v", "gild-9", "--to-move", "defenders", "-o", "repetition=loss", "--json")
    assert run("tafl", "analyse", "-v", "GILD-9", "--to-move", "DEFENDERS", "-o", "REPETITION=Loss",
               "--json") == lower
    assert run("tafl", "rules-string", "-v", "Brandubh", "-o", "Repetition=OFF") == \
        run("tafl", "rules-string", "-v", "brandubh", "-o", "repetition=off")
    assert run("tafl", "bench", "-v", "BRANDUBH", "--seconds", "0.01").startswith("tafl brandubh start:")
    out = tmp_path / "t.fief"
    run("play", "TAFL", "--prompt", "-v", "BRANDUBH", "--seat", "ATTACKERS=RANDOM", "--seat", "Defenders=Beginner",
        "-o", "REPETITION=DRAW",
        "-o", "Strong_King_At_Throne=TRUE", "--seed", "3", "--out", out)
    h = header(out)
    assert (h.variant, kinds(h), h.options["repetition"]) == ("brandubh", ["random", "ai"], "draw")
    assert h.options["strong_king_at_throne"] is True
    said = run("simulate", "Tafl", "-v", "BRANDUBH", "--seat", "1=Random", "--seat", "2=RANDOM", "-n", "1")
    assert "game of tafl brandubh, seed 1, seats random,random" in said


def test_taifa_commands(tmp_path: Path, own_map: Path) -> None:
    assert run("taifa", "map", "--scenario", "EL-CID") == run("taifa", "map", "--scenario", "el-cid")
    out = tmp_path / "t.fief"
    run("play", "taifa", "--prompt", "--variant", "El-Cid", "--seat", "ALMORAVIDS=RANDOM", "--seat", "el cid=BOT",
        "-o", "ALMORAVID_HAND=14",
        "--map", own_map, "--seed", "3", "--out", out)
    h = header_with_map(out, own_map)
    assert (h.variant, kinds(h), h.options["almoravid_hand"]) == ("el-cid", ["random", "bot", "bot", "bot"], 14)
    assert run("replay", "--data", f"MAP={own_map}", "verify", out).startswith("ok")  # a data file's key
    said = run("simulate", "taifa", "--variant", "EL-CID", "--seat", "CASTILE=Random", "-n", "1")
    assert "game of taifa el-cid, seed 1, seats bot,random,bot,bot" in said


def header_with_map(path: Path, own_map: Path) -> Header:
    from core import games as core_games
    from core.taifa.map import load_map

    games = core_games.lookup({"taifa": {"map": load_map(str(own_map))}})
    recording = read_record_file(path, games=games)
    assert verify(recording, games=games).ok
    return recording.header


def test_kingdom_commands(tmp_path: Path) -> None:
    out = tmp_path / "k.fief"
    run("play", "kingdom", "--prompt", "--variant", "MULTI-3", "--seat", "PLAYER 1=RANDOM", "--seat", "2=Greedy",
        "--seat", "3=random", "-o", "NOBLES=Choose",
        "-o", "Survival=TRUE", "--seed", "3", "--out", out)
    h = header(out)
    assert (h.variant, kinds(h)) == ("multi-3", ["random", "ai", "random"])
    assert (h.options["nobles"], h.options["survival"]) == ("choose", True)
    out = tmp_path / "s.fief"
    run("play", "kingdom", "--prompt", "--variant", "SOLO", "--seat", "YOU=RANDOM", "--seat", "enemy 1=BOT",
        "-o", "Difficulty=EXPERT", "-o", "PENALTY_TO_PLAYER=yes", "--seed", "3", "--out", out)
    h = header(out)
    assert (h.variant, kinds(h), h.options["difficulty"]) == ("solo", ["random", "bot", "bot"], "expert")
    said = run("simulate", "kingdom", "--variant", "Solo", "-o", "difficulty=Medium", "--seat", "you=RANDOM", "-n", "1")
    assert "game of kingdom solo, seed 1, seats random,bot,bot" in said


@pytest.mark.parametrize(("upper", "lower"), [
    (("export", TAFL, "--format", "JSON"), ("export", TAFL, "--format", "json")),
    (("export", TAFL, "--format", "Otg"), ("export", TAFL, "--format", "otg")),
    (("export", TAFL, "--seat", "SPECTATOR"), ("export", TAFL, "--seat", "spectator")),
    (("show", TAFL, "--seat", "ATTACKERS"), ("show", TAFL, "--seat", "attackers")),
])
def test_replay_commands(upper: tuple[str | Path, ...], lower: tuple[str | Path, ...]) -> None:
    assert run("replay", *upper) == run("replay", *lower)


@pytest.mark.parametrize("args", [
    ("tafl", "analyse", "-v", "GILD-99"),
    ("tafl", "analyse", "--to-move", "KING"),
    ("play", "kingdom", "--prompt", "--variant", "SOLITAIRE"),
    ("play", "kingdom", "--prompt", "--variant", "SOLO", "-o", "difficulty=HARDEST"),
    ("play", "kingdom", "--prompt", "-o", "NOBLES=pick"),
    ("play", "CHESS", "--prompt"),
    ("taifa", "map", "--scenario", "CID"),
    ("simulate", "taifa", "--seat", "1=BOTS"),
    ("simulate", "taifa", "--seat", "ARAGON=bot"),
])
def test_a_word_that_names_no_choice_is_still_one_line(args: tuple[str, ...]) -> None:
    result = cli.invoke(app, list(args), input="")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith("error: ")
