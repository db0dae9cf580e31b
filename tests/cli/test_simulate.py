"""`fiefdom simulate taifa` (and tafl, through the same loop): arguments, errors, records. The generic
command's own tests (every game, the toy game, the old commands' bytes) are in test_generic_commands.py."""

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
from notation.format import ChanceRecord, DecisionRecord
from notation.reader import read_record_file
from notation.verify import verify
from seat_args import seats
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
    said = re.match(r"shared wins: (\d+) ", summary[2])  # a line only when a win was shared
    shared = int(said.group(1)) if said else 0
    total = sum(map(int, wins.values()))  # a shared win counts for each of its winners
    assert total >= 3 and (total > 3) == (shared > 0)
    rest = summary[3:] if said else summary[2:]
    assert rest[0].startswith("reasons: ")
    assert re.fullmatch(r"steps: \d+ \(\d+\.\d per game\)", rest[1])
    assert re.fullmatch(r"time: [\d.]+s, [\d.]+ games/s, \d+ steps/s", rest[2])


def test_records_written_verify(tmp_path: Path) -> None:
    code, out, _ = _run("taifa", "--variant", "el-cid", "--games", "2", "--seed", "9",
                        "--seat", " El Cid = random", "--option", "almoravid_hand=15", "--out", tmp_path)
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
        code, _, _ = _run("taifa", "--games", "2", "--seed", "21", *seats("random", "bot", "bot", "bot", "bot",
                                                                          "random"),
                          "--out", tmp_path / run)
        assert code == 0
    for name in ("taifa-standard-21-0001.fief", "taifa-standard-21-0002.fief"):
        a, b = (read_record_file(tmp_path / run / name) for run in ("a", "b"))
        steps = [[r for r in rec.records if isinstance(r, (DecisionRecord, ChanceRecord))] for rec in (a, b)]
        assert steps[0] == steps[1] and a.result == b.result


def test_ai_seats(tmp_path: Path) -> None:
    ai = pytest.importorskip("core.taifa.ai")
    code, out, _ = _run("taifa", "--variant", "el-cid", "--games", "1", "--seat", "4=ai", "--out", tmp_path)
    assert code == 0, out
    (path,) = tmp_path.glob("*.fief")
    seat = read_record_file(path).header.seats[3]
    assert (seat.kind, seat.detail) == ("ai", ai.AI_VERSION)
    assert verify(read_record_file(path)).ok


@pytest.mark.parametrize("args, message", [
    (["--seat", "Granada=bot"], "no seat 'Granada' (seats: Castile, Catalan Counties, "),
    (["--variant", "el-cid", "--seat", "5=bot"], "(seats: Almoravids, Castile, Catalan Counties, El Cid, or their"),
    (["--seat", "Leon=human"], "a simulated game has no person in it"),
    (["--variant", "reconquista"], "unknown taifa scenario 'reconquista' (known: standard, el-cid)"),
    (["--option", "almoravid_hand=14"], "option 'almoravid_hand' does not apply to taifa standard"),
    (["--variant", "el-cid", "--option", "almoravid_hand=20"],
     "option almoravid_hand takes a whole number 12..16, not 20"),
    (["--variant", "el-cid", "--option", "almoravid_hand"], "--option takes name=value"),
    (["--option", "quiet_moves=3"], "option 'quiet_moves' does not apply to taifa standard"),
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
    code, out, err = _run("tafl", "--games", "3", *seats("random", "random"), "--out", tmp_path / "sub")
    assert code == 2 and out == "" and \
        err == f"error: cannot write records: [Errno {errno.EROFS}] Read-only file system: '{tmp_path / 'sub'}'\n"
    monkeypatch.undo()
    if os.geteuid() != 0:  # root may write anywhere the file system lets it
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        code, out, err = _run("tafl", "--games", "3", *seats("random", "random"), "--out", locked)
        assert code == 2 and out == "" and err == f"error: cannot write records: [Errno 13] Permission denied: '{locked}'\n"


def test_tafl_runs_through_the_same_loop(tmp_path: Path) -> None:
    code, out, _ = _run("tafl", "--variant", "gild-9", "--games", "2", *seats("random", "random"), "--out", tmp_path)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[2] == "2 games of tafl gild-9, seed 1, seats random,random"
    assert re.fullmatch(r"wins: attackers \d, defenders \d(; no winner \d)?", lines[3])
    assert re.fullmatch(r"moves: \d+ \(\d+\.\d per game\)", lines[5])
    for path in tmp_path.glob("*.fief"):
        assert verify(read_record_file(path)).ok
    code, _, err = _run("tafl", "--seat", "attackers=bot")
    assert code == 2 and "attackers may be human, ai, random, beginner, casual, strong, full, not 'bot'" in err


def test_tafl_seats_by_ai_level(tmp_path: Path) -> None:
    code, out, _ = _run("tafl", "--variant", "gild-9", "--games", "1", *seats("beginner", "casual"),
                        "--ai-time", "0.05", "--out", tmp_path)
    assert code == 0, out
    assert "seats beginner,casual" in out
    (path,) = tmp_path.glob("*.fief")
    played = read_record_file(path).header.seats
    assert [s.kind for s in played] == ["ai", "ai"]
    assert "level beginner" in played[0].detail and "level casual" in played[1].detail
    assert verify(read_record_file(path)).ok  # the levels are rebuilt from the record
    code, _, err = _run("tafl", "--seat", "attackers=grandmaster")
    assert code == 2 and "beginner, casual, strong, full" in err


def _raw_line(fd: int) -> str:
    """One line read from ``fd`` a byte at a time, none beyond it."""
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
    return line.decode()


def interruptible(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``fiefdom ARGS`` started with Ctrl-C as a terminal's foreground program has it: a test run
    started in the background by a shell without job control (`make test &` in a script, a CI
    runner) has SIGINT ignored, as POSIX says, and its children would inherit that. SIGUSR1 makes the
    child print where each of its threads is (finish_or_say_where asks for it if it does not stop)."""
    code = ("import sys, signal, faulthandler; signal.signal(signal.SIGINT, signal.default_int_handler); "
            "faulthandler.register(signal.SIGUSR1, all_threads=True); "
            f"from tui.cli import main; sys.argv = ['fiefdom', *{list(args)!r}]; main()")
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


def finish_or_say_where(proc: subprocess.Popen[str], timeout: float) -> tuple[str, str]:
    """The child's output once it ends; if it does not within ``timeout``, fail with its signal masks and
    its threads' stacks (its faulthandler, on SIGUSR1), so a rare stall says where it is."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        status = Path(f"/proc/{proc.pid}/status")
        masks = [line for line in status.read_text().splitlines() if line.startswith("Sig")] if status.exists() else []
        proc.send_signal(signal.SIGUSR1)
        try:
            _, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        proc.kill()
        pytest.fail(f"the run did not stop within {timeout} s of SIGINT; {' '.join(masks)}\n{err[-4000:]}")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_leaves_whole_games_and_one_line(jobs: str, tmp_path: Path) -> None:
    """A run stopped by Ctrl-C (SIGINT) while it plays, alone or with its games shared out among
    processes (which are stopped at once): each game's file is written whole when it comes back, so the
    folder holds whole games that verify, the first ones, and nothing else (no half game, no file
    aside), and the user reads one line."""
    out = tmp_path / "runs"
    proc = interruptible("simulate", "tafl", "--variant", "brandubh", "--seat", "1=random", "--seat", "2=random",
                         "--games", "1000000", "--out", str(out), "--jobs", jobs)
    assert proc.stdout is not None
    # A line at a time straight from the pipe: a buffered reader would take lines communicate() then misses
    lines = [_raw_line(proc.stdout.fileno()) for _ in range(3)]
    proc.send_signal(signal.SIGINT)
    rest, err = finish_or_say_where(proc, 30)
    assert proc.returncode == 130 and err == "interrupted\n", err
    played = [line for line in lines + rest.splitlines() if line.startswith("game ")]
    names = sorted(p.name for p in out.iterdir())
    # a game's file, its count and its line are one: a stop that comes between them waits for the three
    assert len(played) == len(names)
    assert names == [f"tafl-brandubh-1-{n:04d}.fief" for n in range(1, len(names) + 1)]
    for name in names:
        report = verify(read_record_file(out / name))
        assert report.ok and report.result is not None, report.verdict


def test_a_reader_that_stops_early_ends_the_run_without_a_word(tmp_path: Path) -> None:
    """`fiefdom simulate ... | head -1`: the closed pipe ends the run, with no error line (it used to
    read 'error: cannot write records: [Errno 32] Broken pipe') and status 141 (typer's own was 1)."""
    code = ("import sys; from tui.cli import main; sys.argv = ['fiefdom', 'simulate', 'tafl', '--seat', "
            "'1=random', '--seat', '2=random', '--games', '1000000']; main()")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith("game 1:")
    proc.stdout.close()  # as head does after its line
    err = proc.stderr.read()
    assert proc.wait(timeout=30) == 141  # 128 + SIGPIPE, as any program whose reader stopped
    assert err == "", err
