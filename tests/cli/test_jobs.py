"""--jobs: a batch's games and a folder's records shared out among processes, with the same bytes and
lines as one process (issue 32); a folder, a glob and many files verified in one command."""

from __future__ import annotations

import os
import pickle
import signal
import sys
import time
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.reader import read_record_file
from notation.tasks import WorkerLost, default_jobs, every_core, run_in_order
from notation.verify import verify
from tui.cli import app

STAMP = "1800000000"  # SOURCE_DATE_EPOCH: the records of two runs carry the same creation time
FIEFDOM = Path(sys.executable).parent / "fiefdom"


def invoke(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(map(str, args)), env=env)
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


def folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def but_time(out: str) -> list[str]:
    return [line for line in out.splitlines() if not line.startswith("time: ") and not line.startswith("records: ")]


@pytest.mark.parametrize("game", [
    ["taifa", "--variant", "el-cid"],
    ["kingdom", "--variant", "multi-3", "--seat", "1=greedy", "--seat", "2=random", "--seat", "3=ai"],
    ["tafl", "--variant", "brandubh", "--seat", "attackers=random", "--seat", "defenders=ai", "--ai-depth", "1"],
])
def test_simulate_writes_the_same_records_and_lines_for_any_jobs(game: list[str], tmp_path: Path) -> None:
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        code, text, err = invoke("simulate", *game, "--games", "7", "--seed", "5", "--jobs", jobs, "--out", out,
                                 env={"SOURCE_DATE_EPOCH": STAMP})
        assert code == 0 and err == ""
        runs[jobs] = (folder(out), but_time(text))
    assert runs["1"] == runs["2"]
    records, lines = runs["1"]
    assert len(records) == 7 and [line.split(":")[0] for line in lines[:7]] == [f"game {n}" for n in range(1, 8)]
    for data in records.values():
        recording = read_record_file(data)
        assert verify(recording).ok and recording.header.created == "2027-01-15T08:00:00Z"


def test_quiet_prints_the_summary_alone(tmp_path: Path) -> None:
    code, text, _ = invoke("simulate", "taifa", "--games", "3", "--quiet")
    assert code == 0 and text.startswith("3 games of taifa standard, seed 1")
    assert not any(line.startswith("game ") for line in text.splitlines())
    assert "\x1b" not in text  # no bar drawn into a pipe


def test_jobs_default_to_every_core_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIEFDOM_JOBS")
    assert default_jobs() == every_core() == len(os.sched_getaffinity(0))
    for given, want in (("3", 3), (" 2 ", 2), ("0", every_core()), ("many", every_core()), ("999", 256)):
        monkeypatch.setenv("FIEFDOM_JOBS", given)
        assert default_jobs() == want


def test_jobs_and_cluster_together_are_one_line() -> None:
    code, out, err = invoke("simulate", "taifa", "--games", "1", "--jobs", "2", "--cluster", "tcp://127.0.0.1:9")
    assert code == 2 and out == "" and err.startswith("error: --jobs is for this machine's cores") and err.count("\n") == 1


def _square(n: int) -> int:
    return n * n


def _wait_long(task: tuple[int, str]) -> int:
    n, here = task
    Path(here, str(os.getpid())).touch()
    if n > 0:
        time.sleep(600)
    return n


def test_tasks_come_back_in_order_and_a_run_given_up_stops_its_processes(tmp_path: Path) -> None:
    assert list(run_in_order(_square, range(50), jobs=2, ahead=3)) == [n * n for n in range(50)]
    results = run_in_order(_wait_long, ((n, str(tmp_path)) for n in range(4)), jobs=2)
    assert next(results) == 0
    deadline = time.monotonic() + 60
    while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:  # the second worker asleep in a task
        time.sleep(0.05)
    workers = [int(p.name) for p in tmp_path.iterdir()]
    assert len(workers) == 2 and all(map(_alive, workers))
    results.close()  # as a Ctrl-C does: the workers are stopped, not waited for
    deadline = time.monotonic() + 30
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(_alive, workers))


def _killed_at(n: int) -> int:
    if n == 3:  # as the kernel's out-of-memory killer would: no exception, no result, the process gone
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_worker_killed_in_a_task_ends_the_run_in_one_line_not_a_hang() -> None:
    taken: list[int] = []
    with pytest.raises(WorkerLost, match="a worker process ended in the middle of the run"):
        for result in run_in_order(_killed_at, range(8), jobs=2, ahead=4):
            taken.append(result)  # the task it held never comes back; waiting for it would be forever
    # The run knows which tasks each worker holds, so the lost one is known: every result before it
    # comes back, in order; none after it.
    assert taken == [0, 1, 2]


def _fails_at_two(n: int) -> int:
    if n == 2:
        raise ValueError("two is not played")
    return n


def test_a_tasks_error_is_raised_in_its_turn_after_the_results_before_it() -> None:
    taken: list[int] = []
    with pytest.raises(ValueError, match="two is not played"):
        for result in run_in_order(_fails_at_two, range(6), jobs=2, ahead=4):
            taken.append(result)
    assert taken == [0, 1]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_verify_takes_folders_and_globs_with_a_line_a_record_and_a_summary(tmp_path: Path) -> None:
    games = tmp_path / "games"
    assert invoke("simulate", "kingdom", "--games", "4", "--seat", "1=random", "--out", games)[0] == 0
    (games / "deeper").mkdir()
    (games / "deeper" / "copy.fief").write_bytes((games / "kingdom-multi-2-1-0001.fief").read_bytes())
    (games / "notes.txt").write_text("not a record")
    torn = games / "torn.fief"
    torn.write_bytes((games / "kingdom-multi-2-1-0002.fief").read_bytes()[:30])
    edited = bytearray((games / "kingdom-multi-2-1-0003.fief").read_bytes())
    edited[-40] ^= 1
    (tmp_path / "edited.fief").write_bytes(bytes(edited))
    code, out, err = invoke("replay", "verify", games, tmp_path / "edited.fief")
    names = [str(games / "deeper" / "copy.fief"), *(str(games / f"kingdom-multi-2-1-000{n}.fief") for n in range(1, 5))]
    lines = out.splitlines()
    assert code == 2
    assert [line.split(": ok: ")[0] for line in lines[:5]] == names  # sorted, subfolders too, .fief only
    assert lines[5].startswith(f"{tmp_path / 'edited.fief'}: ") and ": ok" not in lines[5]
    assert lines[6:] == ["7 records: 5 ok, 1 differs, 1 cannot be read"]
    assert err.startswith(f"error: {torn}: ") and err.count("\n") == 1
    pattern = str(games / "kingdom-*.fief")
    code, globbed, _ = invoke("replay", "verify", pattern, "--jobs", "2")
    assert code == 0 and globbed.splitlines() == [*lines[1:5], "4 records: 4 ok"]
    code, quiet, _ = invoke("replay", "verify", games, tmp_path / "edited.fief", "--quiet", "--jobs", "2")
    assert code == 2 and quiet.splitlines() == lines[5:]
    code, _, err = invoke("replay", "verify", str(tmp_path / "none-*.fief"))
    assert code == 2 and err == f"error: {tmp_path / 'none-*.fief'}: No such file or directory\n"


def test_ones_own_cards_travel_to_the_processes_and_a_folder_reads_with_them(tmp_path: Path) -> None:
    """A user's data file is loaded once and sent to each process (its read-only maps included):
    records on one's own Take the Kingdom cards, the same for any --jobs, verify with --cards (Taifa
    takes a "cards" file too: the file says whose it is)."""
    text = resources.files("core.kingdom").joinpath("data/cards.toml").read_text("utf-8")
    own = tmp_path / "own-cards.toml"
    own.write_text(text.replace('name = "Soldiers"', 'name = "Footmen"', 1), "utf-8")
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        code, _, err = invoke("simulate", "kingdom", "--seat", "1=random", "--seat", "2=greedy", "--games", "4",
                              "--cards", own, "--jobs", jobs, "--out", out, env={"SOURCE_DATE_EPOCH": STAMP})
        assert code == 0, err
        runs[jobs] = folder(out)
    assert runs["1"] == runs["2"]
    code, out, err = invoke("replay", "--cards", own, "verify", tmp_path / "jobs2", "--jobs", "2")
    assert (code, err) == (0, "") and out.endswith("\n4 records: 4 ok\n")
    code, out, err = invoke("replay", "verify", tmp_path / "jobs2", "--jobs", "2")
    assert code == 2 and out == "4 records: 0 ok, 4 cannot be read\n" and err.count("give that file with --cards") == 4


@pytest.mark.parametrize("game, key", [("taifa", "map"), ("taifa", "cards"), ("kingdom", "cards")])
def test_a_games_data_survives_the_journey_to_a_process(game: str, key: str) -> None:
    from core import games as core_games
    from notation import pickling  # noqa: F401 - what the test is about

    (data_file,) = [f for f in core_games.info(game).data_files if f.key == key]
    loaded = data_file.load(str(resources.files(f"core.{game}").joinpath(f"data/{key}.toml")))
    again = pickle.loads(pickle.dumps(loaded))
    assert again == loaded and type(again) is type(loaded)
