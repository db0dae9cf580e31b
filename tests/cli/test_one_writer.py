"""A record has one writer (issue 26): whoever plays it holds the OS's lock on it, a second writer is
refused in one line naming the process that holds it, exit 2; a process that dies lets go; autosave
names are taken exclusively, whatever starts at the same second; a data folder that cannot be one is
one line, exit 2."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.reader import read_record_file
from notation.record_lock import RecordInPlay, in_play
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from notation.writer import Journal
from tui.cli import app
from tui.session import DataDirError, data_dir, new_autosave

ROOT = Path(__file__).resolve().parents[2]
cli = CliRunner()


def fiefdom(*args: str | Path, stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
    """``fiefdom ARGS`` in a process of its own (the lock is the kernel's, held by a process)."""
    code = f"import sys; from tui.cli import main; sys.argv = ['fiefdom', *{list(map(str, args))!r}]; main()"
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for(condition, what: str, seconds: float = 60.0):  # type: ignore[no-untyped-def]
    """Poll until ``condition()`` is truthy (its value), failing after ``seconds``."""
    end = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < end, f"still not {what} after {seconds} s"
        time.sleep(0.02)


def unfinished(path: Path, kinds: tuple[str, ...] = ("human", "random"), seed: int = 3) -> bytes:
    """A Brandubh record waiting for a person's move (or, of bots alone, its first step only)."""
    runner = Runner.start(GameSetup("tafl", "brandubh", tuple(SeatPlan(k) for k in kinds), seed), path)
    runner.run(max_steps=0 if "human" not in kinds else None)
    runner.close()
    return path.read_bytes()


def one_line(err: str, *words: str) -> None:
    assert err.count("\n") == 1 and err.startswith("error: "), err
    for word in words:
        assert word in err, err


# -- two writers --------------------------------------------------------------------------------


def test_a_second_writer_is_refused_and_the_record_verifies(tmp_path: Path) -> None:
    record = tmp_path / "a.fief"
    before = unfinished(record)
    first = fiefdom("resume", record, "--prompt", stdin=subprocess.PIPE)  # waits for the person's move
    try:
        holder = wait_for(lambda: in_play(record), "locked by the first writer")
        assert f"process {first.pid}" in holder, holder
        second = fiefdom("resume", record, "--prompt")
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2, (out, err)
        one_line(err, "in play elsewhere", f"process {first.pid}")
    finally:
        first.communicate(input="", timeout=60)  # no more input: the first writer stops where it was
    assert in_play(record) is None
    assert record.read_bytes() == before
    assert verify(read_record_file(record.read_bytes())).ok


def test_two_writers_started_at_once_leave_one_whole_game(tmp_path: Path) -> None:
    """Random seats, seeded: whichever writer wins plays the game the record was cut from to its very bytes."""
    whole = tmp_path / "whole.fief"
    runner = Runner.start(GameSetup("tafl", "brandubh", (SeatPlan("random"), SeatPlan("random")), 5), whole)
    assert runner.run() is not None
    runner.close()
    cut = tmp_path / "cut.fief"
    offsets = read_record_file(whole.read_bytes()).offsets
    cut.write_bytes(whole.read_bytes()[:offsets[len(offsets) // 3] + 1])  # inside a record: a torn tail
    procs = [fiefdom("resume", cut, "--prompt") for _ in range(2)]
    ends = [(p.wait(timeout=120), *p.communicate()) for p in procs]
    for code, _, err in ends:
        assert code == 0 or (code == 2 and err.count("\n") == 1 and
                             ("in play elsewhere" in err or "a finished record cannot be continued" in err)), ends
    assert sorted(code for code, _, _ in ends)[0] == 0, ends
    assert cut.read_bytes() == whole.read_bytes()


def test_a_killed_writer_lets_go_of_the_record(tmp_path: Path) -> None:
    record = tmp_path / "a.fief"
    unfinished(record)
    first = fiefdom("resume", record, "--prompt", stdin=subprocess.PIPE)
    wait_for(lambda: in_play(record), "locked")
    first.send_signal(signal.SIGKILL)
    first.communicate(timeout=60)
    assert in_play(record) is None  # the kernel dropped it with the process: no stale lock
    runner = Runner.resume(record)
    runner.close()


# -- within one process: the runner's own rules -------------------------------------------------------


def test_a_record_being_played_is_neither_resumed_nor_replaced_nor_given_up_by_a_rewrite(tmp_path: Path) -> None:
    record = tmp_path / "a.fief"
    unfinished(record)
    runner = Runner.resume(record)
    try:
        assert in_play(record) == "this process"
        with pytest.raises(RecordInPlay, match="in play elsewhere"):
            Runner.resume(record)
        with pytest.raises(RecordInPlay, match="cannot be replaced"):
            Runner.start(GameSetup("tafl", "brandubh", (SeatPlan("human"), SeatPlan("random")), 9), record,
                         replace=True)
        point = runner.waiting
        assert point is not None
        runner.decide(point.options[0])  # type: ignore[union-attr]
        runner.run()
        resumed = runner.takeback()  # the record is written again and renamed into place...
        assert resumed is not None and len(resumed.history) < len(runner.history)
        runner = resumed
        assert in_play(record) == "this process"  # ...with the lock held throughout
        with pytest.raises(RecordInPlay):
            Journal.open_append(record)
    finally:
        runner.close()
    assert in_play(record) is None
    Runner.resume(record).close()


# -- autosave names ------------------------------------------------------------------------------


def test_many_games_started_at_once_each_get_their_own_record(tmp_path: Path) -> None:
    procs = [fiefdom("play", "tafl", "--prompt", "--seat", "1=random", "--seat", "2=random", "--variant", "brandubh",
                     "--seed", "7",
                     "--data-dir", tmp_path) for _ in range(4)]
    ends = [(p.wait(timeout=180), *p.communicate()) for p in procs]
    assert all(code == 0 for code, _, _ in ends), ends
    records = sorted((tmp_path / "autosave").glob("*.fief"))
    assert len(records) == 4, records
    said = sorted(line.split("record: ", 1)[1] for _, out, _ in ends for line in out.splitlines()
                  if line.startswith("record: "))
    assert said == sorted(map(str, records))
    for path in records:
        assert verify(read_record_file(path.read_bytes())).ok


def test_an_autosave_name_taken_passes_to_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.session.utc_stamp", lambda: "20261127-080000")
    made = []

    def start(path: Path) -> Path:
        if len(made) < 2:  # another process takes the name between the look and the making
            made.append(path)
            path.write_bytes(b"theirs")
            raise FileExistsError(path)
        return path

    got = new_autosave(tmp_path, "tafl", "brandubh", start)
    assert [p.name for p in made] == ["tafl-brandubh-20261127-080000.fief", "tafl-brandubh-20261127-080000-2.fief"]
    assert got.name == "tafl-brandubh-20261127-080000-3.fief"


# -- a data folder that cannot be one ------------------------------------------------------------


@pytest.mark.parametrize("command", [("play", "tafl", "--prompt", "--seat", "1=random", "--seat", "2=random",
                                      "--variant", "brandubh"),
                                     ("play", "taifa", "--prompt", "--variant", "el-cid", "--seat", "4=random"),
                                     ("play", "kingdom", "--prompt", "-v", "multi-3", "--seat", "1=random", "--seat",
                                      "2=random", "--seat", "3=random")])
@pytest.mark.parametrize("where", ["file", "under a file"])
def test_a_data_dir_naming_a_file_is_one_line(command: tuple[str, ...], where: str, tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    folder = blocker if where == "file" else blocker / "deeper"
    result = cli.invoke(app, [*command, "--seed", "1", "--data-dir", str(folder)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    one_line(result.stderr, "cannot use the data folder", str(folder))
    assert blocker.read_text() == "not a folder"


def test_the_platform_data_folder_being_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "fiefdom").write_text("not a folder")
    result = cli.invoke(app, ["play", "tafl", "--prompt", "--seat", "1=random", "--seat", "2=random", "--variant",
                              "brandubh"],
                        env={"XDG_DATA_HOME": str(tmp_path)})
    assert result.exit_code == 2, result.output
    one_line(result.stderr, "cannot use the data folder", str(tmp_path / "fiefdom"))
    with pytest.raises(DataDirError, match="a file is in the way"):
        data_dir(tmp_path / "fiefdom" / "deeper")


def test_an_autosave_folder_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "autosave").write_text("not a folder")
    result = cli.invoke(app, ["play", "tafl", "--prompt", "--seat", "1=random", "--seat", "2=random", "--variant",
                              "brandubh",
                              "--data-dir", str(tmp_path)])
    assert result.exit_code == 2, result.output
    one_line(result.stderr, "cannot use the data folder", str(tmp_path / "autosave"))
