"""`fiefdom play GAME` and `fiefdom simulate GAME` (issue 28): one command for every registered game,
built from its descriptor alone. The toy game Hoard (tests/plugin_game.py) plays at the prompt and in
simulate as soon as a test registers it, or as soon as a package declares it by entry point; the three
games fiefdom ships simulate to the bytes the per-game commands wrote (the golden records of
`make goldens-*`); every bad argument is one line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from core import games as core_games
from notation.format import CHECKPOINT_EVERY, CheckpointRecord, DecisionRecord
from notation.reader import read_record_file
from notation.verify import verify
from notation.writer import encode_game
from tui.cli import app

cli = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
    result = cli.invoke(app, list(map(str, args)), input=stdin)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


# -- the toy game, registered by the test -------------------------------------------------------


def test_the_toy_game_plays_at_the_prompt(hoard: object, tmp_path: Path) -> None:
    out = tmp_path / "hoard.fief"
    code, text, err = invoke("play", "hoard", "--prompt", "--seat", "silver=random", "-o", "turns=3",
                             "--seed", "5", "--out", out, stdin="take\nroll\n1\n\n\n\n")
    assert code == 0, err
    assert "Gold (human), Silver (random), Dragon (bot)" in text and "scores: Gold " in text
    recording = read_record_file(out)
    h = recording.header
    assert (h.game, h.variant, h.options, h.seed) == ("hoard", "short", {"turns": 3}, 5)
    assert [(s.name, s.kind) for s in h.seats] == [("Gold", "human"), ("Silver", "random"), ("Dragon", "bot")]
    gold = [r.code for r in recording.records if isinstance(r, DecisionRecord) and r.seat == 0]
    assert gold[:2] == [("take",), ("roll",)] and len(gold) == 3
    assert verify(recording).ok and recording.result is not None


def test_the_toy_game_simulates(hoard: object, tmp_path: Path) -> None:
    code, text, err = invoke("simulate", "hoard", "--games", "3", "--out", tmp_path)
    assert code == 0, err
    lines = text.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["game 1", "game 2", "game 3"]
    assert lines[3] == "3 games of hoard short, seed 1, seats ai,ai,bot"  # a person's seat goes to the AI
    assert lines[4].startswith("wins: Gold ") and ", Silver " in lines[4] and ", Dragon " in lines[4]
    assert lines[-1] == f"records: {tmp_path}"
    paths = sorted(tmp_path.glob("*.fief"))
    assert [p.name for p in paths] == [f"hoard-short-1-000{n}.fief" for n in (1, 2, 3)]
    for path in paths:
        assert verify(read_record_file(path)).ok


def test_games_says_what_play_and_simulate_take(hoard: object) -> None:
    code, text, _ = invoke("games")
    assert code == 0 and [line.split()[0] for line in text.splitlines()] == ["tafl", "taifa", "kingdom", "hoard"]
    assert "hoard      Hoard (a test game): variants short" in text
    code, text, _ = invoke("games", "HOARD")
    assert code == 0 and text.splitlines() == [
        "hoard: Hoard (a test game) (rules revision 1)",
        "--variant short: Short",
        "  seats (--seat NAME=KIND or NUMBER=KIND, * the default): 1 Gold: human*/ai/random; "
        "2 Silver: human/ai*/random; 3 Dragon: bot*",
        "  -o turns=whole number 1..20 (default 6; hoard 4): turns each player plays",
    ]
    code, text, _ = invoke("games", "tafl")
    assert code == 0 and "AI levels (a seat kind where ai is): beginner, casual, strong, full" in text
    assert "  -o repetition=draw|loss|defenders-lose|off (default draw; TF-6): " in text


def test_without_its_registration_the_toy_game_is_one_line() -> None:
    for command in (("play", "hoard", "--prompt"), ("simulate", "hoard")):
        code, _, err = invoke(*command)
        assert code == 2 and err.startswith("error: unknown game 'hoard' (known: tafl, taifa, kingdom")


# -- a game found by entry point ----------------------------------------------------------------


def test_a_game_declared_by_entry_point_plays_everywhere(tmp_path: Path) -> None:
    """A package of its own: its metadata declares ``hoard = plugin_game`` in ``fiefdom.games``, and
    fiefdom finds it as it finds its own three (which are declared the same way)."""
    info = tmp_path / "hoard_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hoard-game\nVersion: 1.0\n", "utf-8")
    (info / "entry_points.txt").write_text("[fiefdom.games]\nhoard = plugin_game\n\n"
                                           "[fiefdom.tui]\nhoard = hoard_tui\n", "utf-8")
    # Its app plugin, declared the same way: the position as its own text (replay show reads it).
    (tmp_path / "hoard_tui.py").write_text(
        "from tui.games import TuiGame\n\n"
        "def text(game, seat):\n    return f'hoards {game.hoard[0]} to {game.hoard[1]}, told by hoard_tui'\n\n"
        "PLUGIN = TuiGame('hoard', text='hoard_tui:text')\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "tests"), str(ROOT)])}
    run = [sys.executable, "-c", "from tui.cli import main; main()"]
    listed = subprocess.run([sys.executable, "-c", "from core import games; print(games.names())"], env=env,
                            capture_output=True, text=True, cwd=tmp_path, check=True)
    assert listed.stdout.strip() == "['tafl', 'taifa', 'kingdom', 'hoard']"
    done = subprocess.run([*run, "simulate", "hoard", "-n", "2", "--seat", "gold=random"], env=env,
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and "2 games of hoard short, seed 1, seats random,ai,bot" in done.stdout, done.stderr
    record = tmp_path / "h.fief"
    done = subprocess.run([*run, "play", "hoard", "--prompt", "--out", str(record), "-o", "turns=1"], env=env,
                          input="take\n", capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([*run, "replay", "verify", str(record)], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("ok:") and "unfinished" not in done.stdout, done.stdout
    done = subprocess.run([*run, "replay", "show", str(record)], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and "told by hoard_tui" in done.stdout, done.stdout + done.stderr


def test_a_broken_game_is_one_line() -> None:
    core_games.register("broken", "no_such_module_anywhere")
    try:
        code, _, err = invoke("simulate", "broken")
    finally:
        core_games.unregister("broken")
    assert code == 2 and err.startswith("error: the game no_such_module_anywhere cannot be loaded: ")
    assert err.count("\n") == 1


def test_the_registry_reads_the_installed_entry_points() -> None:
    from importlib import metadata

    declared = {point.name: point.value for point in metadata.entry_points(group=core_games.ENTRY_POINTS)}
    assert {"tafl": "core.tafl", "taifa": "core.taifa", "kingdom": "core.kingdom"}.items() <= declared.items()
    assert core_games.names()[:3] == ["tafl", "taifa", "kingdom"]
    # Each layer's plugins are declared the same way, under the same names.
    for group, package in (("fiefdom.notation", "notation.games"), ("fiefdom.tui", "tui.games")):
        plugins = {point.name: point.value for point in metadata.entry_points(group=group)}
        assert {name: f"{package}.{name}" for name in ("tafl", "taifa", "kingdom")}.items() <= plugins.items()


def test_naming_the_games_imports_none_of_them() -> None:
    code = ("import sys; from core import games; games.names(); "
            "print([m for m in ('core.tafl', 'core.taifa', 'core.kingdom') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


# -- the three games, to the bytes of the per-game commands -------------------------------------


@pytest.mark.parametrize("golden, args", [
    # `make goldens-taifa` (simulate taifa --scenario standard; --scenario el-cid --seats bot,bot,bot,ai), written
    # by the simulate of before the runner, when a checkpoint came every 16 steps
    ("taifa-standard-7-0001.fief", ["taifa", "--variant", "standard", "--seed", "7"]),
    ("taifa-el-cid-5-0001.fief", ["taifa", "--variant", "el-cid", "--seat", "El Cid=ai", "--seed", "5"]),
    # `make goldens-kingdom` (simulate kingdom --mode multi --players 3 --seats random,random,random; --mode solo)
    ("kingdom-multi-3-4-0001.fief", ["kingdom", "-v", "multi-3", "--seat", "1=random", "--seat", "2=random",
                                     "--seat", "3=random", "--seed", "4"]),
    ("kingdom-solo-4-0001.fief", ["kingdom", "-v", "solo", "--seat", "You=random", "--seed", "4"]),
])
def test_each_game_simulates_to_the_bytes_of_its_old_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              golden: str, args: list[str]) -> None:
    """The golden records were written by the per-game commands; the generic command with the same
    seed and seats writes the same bytes, header and all, once the creation time and app version are
    the golden's and its checkpoints spaced as fiefdom spaces them now (as test_simulate.py does)."""
    recording = read_record_file((ROOT / "replays" / golden).read_bytes())
    header, last = recording.header, recording.steps
    records = [r for r in recording.records
               if not isinstance(r, CheckpointRecord) or r.step % CHECKPOINT_EVERY == 0 or r.step == last]
    want = encode_game(header, records, reseal=True)
    monkeypatch.setattr("tui.simulate.utc_now", lambda: header.created)
    monkeypatch.setattr("notation.catalog.app_version", lambda: header.app)
    code, out, err = invoke("simulate", *args, "--games", "1", "--out", tmp_path)
    assert code == 0, err
    assert (tmp_path / golden).read_bytes() == want


def test_tafl_simulates_as_its_old_command_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tafl's golden records pin an older AI, so its old command is taken at its word instead: `simulate
    tafl --players beginner,ai --ai-time T --ai-depth D` made each seat ``SeatPlan("ai", Limit(seconds=T,
    depth=D, level=...))`` and the options the rules filled in, and ran them as a Batch."""
    from core.match import Limit
    from notation.runner import GameSetup, SeatPlan
    from tui.simulate import Batch, run

    monkeypatch.setattr("tui.simulate.utc_now", lambda: "2026-11-27T12:00:00Z")
    limit = Limit(seconds=30.0, depth=2)
    old = GameSetup("tafl", "brandubh", (SeatPlan("ai", Limit(seconds=30.0, depth=2, level="beginner")),
                                         SeatPlan("ai", limit)), 6, {"repetition": "draw"})
    run(Batch(old, 2, tmp_path / "old"))
    code, _, err = invoke("simulate", "tafl", "-v", "brandubh", "--seed", "6", "--seat", "attackers=beginner",
                          "--seat", "defenders=ai", "--ai-time", "30", "--ai-depth", "2", "-o", "repetition=draw",
                          "-n", "2", "--out", tmp_path / "new")
    assert code == 0, err
    names = [f"tafl-brandubh-6-000{n}.fief" for n in (1, 2)]
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == names
    for name in names:
        assert (tmp_path / "new" / name).read_bytes() == (tmp_path / "old" / name).read_bytes()


# -- fiefdom play GAME in the app ---------------------------------------------------------------


class FakeApp:
    """The app, as `fiefdom play GAME` starts it (what it is given), without a screen."""

    started: list[dict[str, Any]] = []

    def __init__(self, data: Any = None, **kwargs: Any) -> None:
        FakeApp.started.append({"data": data, **kwargs})

    def run(self) -> None:
        pass


def test_a_game_named_starts_in_the_app_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.app.FiefdomApp", FakeApp)
    FakeApp.started = []
    code, _, err = invoke("play", "tafl", "-v", "brandubh", "--seat", "defenders=beginner", "--seed", "3",
                          "--data-dir", tmp_path)
    assert code == 0, err
    (started,) = FakeApp.started
    record = started["resume_path"]
    assert record.parent == tmp_path / "autosave" and record.name.startswith("tafl-brandubh-")
    h = read_record_file(record).header
    assert ([s.kind for s in h.seats], h.seed) == (["human", "ai"], 3) and "level beginner" in h.seats[1].detail
    code, _, _ = invoke("play", "--data-dir", tmp_path)  # no game: the home screen, as before
    assert code == 0 and FakeApp.started[-1] == {"data": tmp_path}


# -- bad arguments --------------------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (("play", "chess"), "unknown game 'chess' (known: tafl, taifa, kingdom"),
    (("simulate", "chess"), "unknown game 'chess'"),
    (("games", "chess"), "unknown game 'chess'"),
    (("play", "--variant", "brandubh"), "--variant is for a new game: name the GAME"),
    (("play", "--seat", "1=ai"), "--seat is for a new game"),
    (("play", "tafl", "--prompt", "-v", "gild-7"), "unknown tafl variant 'gild-7'"),
    (("simulate", "taifa", "-v", "moon"), "unknown taifa scenario 'moon'"),
    (("simulate", "tafl", "--seat", "kings=ai"), "no seat 'kings' (seats: attackers, defenders"),
    (("simulate", "tafl", "--seat", "3=ai"), "no seat '3'"),
    (("simulate", "tafl", "--seat", "attackers"), "--seat takes NAME=KIND"),
    (("simulate", "tafl", "--seat", "attackers=bot"), "attackers may be human, ai, random, beginner"),
    (("simulate", "tafl", "--seat", "attackers=human"), "a simulated game has no person in it"),
    (("simulate", "kingdom", "-v", "solo", "--seat", "Enemy 2=ai"), "Enemy 2 may be bot, not 'ai'"),
    (("simulate", "tafl", "-o", "shieldwall"), "--option takes name=value"),
    (("simulate", "tafl", "-o", "cards=3"), "option 'cards' does not apply to tafl traditional"),
    (("simulate", "tafl", "--data", "map=x.toml"), "Tafl has no data file 'map' (it takes none)"),
    (("simulate", "taifa", "--data", "map"), "--data takes KEY=FILE"),
    (("simulate", "taifa", "--data", "map=/nonexistent/map.toml"), "/nonexistent/map.toml"),
    (("simulate", "tafl", "--seed", "-1"), "seed"),
    (("simulate", "tafl", "--ai-time", "inf"), "--ai-time"),
    (("play", "tafl", "--prompt", "--table-dice"), "Tafl throws no dice"),
])
def test_a_bad_argument_is_one_line(args: tuple[str, ...], words: str, tmp_path: Path) -> None:
    code, out, err = invoke(*args, *(("--out", tmp_path / "x") if args[0] == "play" and len(args) > 1
                                     and not args[1].startswith("-") else ()))
    assert code == 2 and out == "", out
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err, err
    assert not (tmp_path / "x").exists()


# -- replay verify, any number of records ---------------------------------------------------------


def test_replay_verify_takes_any_number_of_records(tmp_path: Path) -> None:
    goldens = sorted((ROOT / "replays").glob("*.fief"))
    code, out, err = invoke("replay", "verify", *goldens)
    assert code == 0 and err == ""
    *lines, last = out.splitlines()
    assert lines == [line for line in lines if line.split(": ", 1)[1].startswith("ok: ")]
    assert [line.split(": ", 1)[0] for line in lines] == list(map(str, goldens))
    assert last == f"{len(goldens)} records: {len(goldens)} ok"  # the summary line
    cut = tmp_path / "cut.fief"
    cut.write_bytes(goldens[0].read_bytes()[:20])  # inside its header: unreadable
    code, out, err = invoke("replay", "verify", cut, goldens[1])
    assert code == 2 and err.startswith(f"error: {cut}: ") and err.count("\n") == 1
    assert out.startswith(f"{goldens[1]}: ok: ") and out.endswith("\n2 records: 1 ok, 1 cannot be read\n")
    assert out.count("\n") == 2  # the next one is still verified
    code, out, _ = invoke("replay", "verify", goldens[1])
    assert code == 0 and out.startswith("ok: ")  # one record: its line alone, as it always was
