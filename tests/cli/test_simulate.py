"""`fiefdom simulate taifa` (and tafl, through the same loop): arguments, errors, records."""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.taifa.game import TaifaGame
from notation.format import CHECKPOINT_EVERY, ChanceRecord, CheckpointRecord, DecisionRecord
from notation.reader import read_record_file
from notation.verify import verify
from notation.writer import encode_game
from tui.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
STANDARD = TaifaGame("standard").seats


def _run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["simulate", *map(str, args)])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_six_bots_by_default() -> None:
    code, out, _ = _run("taifa", "--games", "3", "--seed", "4")
    assert code == 0, out
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["game 1", "game 2", "game 3"]
    summary = lines[3:]
    assert summary[0] == "3 games of taifa standard, seed 4, seats bot,bot,bot,bot,bot,bot"
    wins = dict(re.findall(r"([A-Z][A-Za-z ]+?) (\d+)", summary[1].removeprefix("wins: ")))
    assert list(wins) == list(STANDARD)
    shared = int(re.match(r"shared wins: (\d+) ", summary[2]).group(1))
    total = sum(map(int, wins.values()))  # a shared win counts for each of its winners
    assert total >= 3 and (total > 3) == (shared > 0)
    assert summary[3].startswith("reasons: ")
    assert re.fullmatch(r"steps: \d+ \(\d+\.\d per game\)", summary[4])
    assert re.fullmatch(r"time: [\d.]+s, [\d.]+ games/s, \d+ steps/s", summary[5])


def test_records_written_verify(tmp_path: Path) -> None:
    code, out, _ = _run("taifa", "--scenario", "el-cid", "--games", "2", "--seed", "9",
                        "--seats", "bot, bot ,bot,random", "--option", "almoravid_hand=15", "--out", tmp_path)
    assert code == 0, out
    assert out.splitlines()[-1] == f"records: {tmp_path}"
    paths = sorted(tmp_path.glob("*.fief"))
    assert [p.name for p in paths] == ["taifa-el-cid-9-0001.fief", "taifa-el-cid-9-0002.fief"]
    for path in paths:
        rec = read_record_file(path)
        h = rec.header
        assert (h.game, h.variant, h.options, h.setup) == (
            "taifa", "el-cid", {**TaifaGame("el-cid").options, "almoravid_hand": 15},
            {"bots": ["almoravids", "castile", "catalans"]})
        assert [(s.name, s.kind) for s in h.seats] == [
            ("Almoravids", "bot"), ("Castile", "bot"), ("Catalan Counties", "bot"), ("El Cid", "random")]
        assert h.chance == "seeded" and h.seed is not None
        assert any(isinstance(r, DecisionRecord) and r.seat == 3 for r in rec.records)
        report = verify(rec)
        assert report.ok and report.result is not None, report.verdict


def test_a_seed_gives_the_same_games(tmp_path: Path) -> None:
    for run in ("a", "b"):
        code, _, _ = _run("taifa", "--games", "2", "--seed", "21", "--seats", "random,bot,bot,bot,bot,random",
                          "--out", tmp_path / run)
        assert code == 0
    for name in ("taifa-standard-21-0001.fief", "taifa-standard-21-0002.fief"):
        a, b = (read_record_file(tmp_path / run / name) for run in ("a", "b"))
        steps = [[r for r in rec.records if isinstance(r, (DecisionRecord, ChanceRecord))] for rec in (a, b)]
        assert steps[0] == steps[1] and a.result == b.result


def test_ai_seats(tmp_path: Path) -> None:
    ai = pytest.importorskip("core.taifa.ai")
    code, out, _ = _run("taifa", "--scenario", "el-cid", "--games", "1", "--seats", "bot,bot,bot,ai", "--out", tmp_path)
    assert code == 0, out
    (path,) = tmp_path.glob("*.fief")
    seat = read_record_file(path).header.seats[3]
    assert (seat.kind, seat.detail) == ("ai", ai.AI_VERSION)
    assert verify(read_record_file(path)).ok


@pytest.mark.parametrize("args, message", [
    (["--seats", "bot,bot,bot"], "--seats lists 3 seats; taifa standard has 6 (Castile, Catalan Counties, "),
    (["--scenario", "el-cid", "--seats", "bot,bot,bot,bot,bot,bot"], "--seats lists 6 seats; taifa el-cid has 4"),
    (["--seats", "bot,bot,bot,bot,bot,human"], "--seats takes bot, ai or random for each kingdom"),
    (["--scenario", "reconquista"], "unknown taifa scenario 'reconquista' (known: standard, el-cid)"),
    (["--option", "almoravid_hand=14"], "almoravid_hand is an El Cid option (10.3)"),
    (["--scenario", "el-cid", "--option", "almoravid_hand=20"], "option almoravid_hand takes a whole number 12..16, not 20"),
    (["--scenario", "el-cid", "--option", "almoravid_hand"], "--option takes name=value"),
    (["--option", "quiet_moves=3"], "unknown taifa option 'quiet_moves'"),
])
def test_bad_arguments_are_one_line(args: list[str], message: str) -> None:
    code, out, err = _run("taifa", "--games", "1", *args)
    assert code == 2 and out == "" and err.startswith("error: ") and message in err and err.count("\n") == 1, err


def test_an_unwritable_folder_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = _run("taifa", "--games", "1", "--out", blocker / "sub")
    assert code == 2 and err.startswith("error: cannot write records: ") and err.count("\n") == 1


def test_a_folder_that_takes_no_file_is_one_line_before_any_game(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder no file can be made in (read-only for this user, or on a read-only file system, which
    root meets too) is said at once: no game is played first."""
    def read_only(**_: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr("tui.simulate.tempfile.TemporaryFile", read_only)
    code, out, err = _run("tafl", "--games", "3", "--players", "random,random", "--out", tmp_path / "sub")
    assert code == 2 and out == "" and \
        err == f"error: cannot write records: [Errno {errno.EROFS}] Read-only file system: '{tmp_path / 'sub'}'\n"
    monkeypatch.undo()
    if os.geteuid() != 0:  # root may write anywhere the file system lets it
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        code, out, err = _run("tafl", "--games", "3", "--players", "random,random", "--out", locked)
        assert code == 2 and out == "" and err == f"error: cannot write records: [Errno 13] Permission denied: '{locked}'\n"


def test_tafl_runs_through_the_same_loop(tmp_path: Path) -> None:
    code, out, _ = _run("tafl", "--variant", "gild-9", "--games", "2", "--players", "random,random", "--out", tmp_path)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[2] == "2 games of tafl gild-9, seed 1, players random,random"
    assert re.fullmatch(r"results: attackers \d, defenders \d, draw \d", lines[3])
    assert re.fullmatch(r"moves: \d+ \(\d+\.\d per game\)", lines[5])
    for path in tmp_path.glob("*.fief"):
        assert verify(read_record_file(path)).ok
    code, _, err = _run("tafl", "--players", "bot,random")
    assert code == 2 and "--players takes two of ai/random" in err


@pytest.mark.parametrize("golden, args", [
    ("taifa-standard-7-0001.fief", ["--scenario", "standard", "--seed", "7"]),
    ("taifa-el-cid-5-0001.fief", ["--scenario", "el-cid", "--seats", "bot,bot,bot,ai", "--seed", "5"]),
])
def test_records_are_the_golden_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, golden: str,
                                      args: list[str]) -> None:
    """`make goldens-taifa` wrote these with the simulate of before the runner: the same seed gives the
    same bytes, header and all, once the creation time and the app version are the golden's, and the
    golden's checkpoints are spaced as fiefdom spaces them now (one every 16 steps when it was written,
    every CHECKPOINT_EVERY since; docs/replay-format.md, section 4)."""
    recording = read_record_file((Path(__file__).resolve().parents[2] / "replays" / golden).read_bytes())
    header, last = recording.header, recording.steps
    records = [r for r in recording.records
               if not isinstance(r, CheckpointRecord) or r.step % CHECKPOINT_EVERY == 0 or r.step == last]
    want = encode_game(header, records, reseal=True)
    monkeypatch.setattr("tui.simulate.utc_now", lambda: header.created)
    monkeypatch.setattr("notation.catalog.app_version", lambda: header.app)
    code, out, _ = _run("taifa", *args, "--games", "1", "--out", tmp_path)
    assert code == 0, out
    assert (tmp_path / golden).read_bytes() == want


def test_tafl_seats_by_ai_level(tmp_path: Path) -> None:
    code, out, _ = _run("tafl", "--variant", "gild-9", "--games", "1", "--players", "beginner,casual",
                        "--ai-time", "0.05", "--out", tmp_path)
    assert code == 0, out
    assert "players beginner,casual" in out
    (path,) = tmp_path.glob("*.fief")
    seats = read_record_file(path).header.seats
    assert [s.kind for s in seats] == ["ai", "ai"]
    assert "level beginner" in seats[0].detail and "level casual" in seats[1].detail
    assert verify(read_record_file(path)).ok  # the levels are rebuilt from the record
    code, _, err = _run("tafl", "--players", "grandmaster,ai")
    assert code == 2 and "beginner/casual/strong/full" in err


def test_ctrl_c_leaves_whole_games_and_one_line(tmp_path: Path) -> None:
    """A run stopped by Ctrl-C (SIGINT) while it plays: each game's file is written whole when the game
    ends, so the folder holds whole games that verify and nothing else (no half game, no file aside),
    and the user reads one line."""
    out = tmp_path / "runs"
    code = ("import sys; from tui.cli import main; sys.argv = ['fiefdom', 'simulate', 'tafl', '--variant', "
            f"'brandubh', '--players', 'random,random', '--games', '1000000', '--out', {str(out)!r}]; main()")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(3)]
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err == "interrupted\n", err
    played = [line for line in lines + rest.splitlines() if line.startswith("game ")]
    names = sorted(p.name for p in out.iterdir())
    # a game's file is written as it ends, just before its line: the stop may come between the two
    assert len(played) <= len(names) <= len(played) + 1
    assert names == [f"tafl-brandubh-1-{n:04d}.fief" for n in range(1, len(names) + 1)]
    for name in names:
        report = verify(read_record_file(out / name))
        assert report.ok and report.result is not None, report.verdict


def test_a_reader_that_stops_early_ends_the_run_without_a_word(tmp_path: Path) -> None:
    """`fiefdom simulate ... | head -1`: the closed pipe ends the run, with no error line (it used to
    read 'error: cannot write records: [Errno 32] Broken pipe') and status 141 (typer's own was 1)."""
    code = ("import sys; from tui.cli import main; sys.argv = ['fiefdom', 'simulate', 'tafl', '--players', "
            "'random,random', '--games', '1000000']; main()")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith("game 1:")
    proc.stdout.close()  # as head does after its line
    err = proc.stderr.read()
    assert proc.wait(timeout=30) == 141  # 128 + SIGPIPE, as any program whose reader stopped
    assert err == "", err
