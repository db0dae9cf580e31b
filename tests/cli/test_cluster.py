"""--cluster: a real Dask scheduler and two workers, started here as processes on 127.0.0.1, play a
batch's games and verify a folder with the same bytes and lines as this machine alone (issue 32)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_jobs import STAMP, but_time, folder, invoke

pytest.importorskip("distributed", reason="the cluster extra (fiefdom[cluster]) is part of the test extra")

WORKERS = 2
START_SECONDS = 120  # a scheduler and workers starting on two busy cores


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scheduler and two single-threaded workers; the scheduler's address once both have joined."""
    here = tmp_path_factory.mktemp("cluster")
    plan = here / "scheduler.json"
    python = [sys.executable, "-m"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([*python, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", str(plan)], cwd=here, **quiet)
    workers: list[subprocess.Popen[bytes]] = []
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _address(plan) and time.monotonic() < deadline and scheduler.poll() is None:
            time.sleep(0.1)
        address = _address(plan)
        assert address, "the scheduler did not start"
        for n in range(WORKERS):
            workers.append(subprocess.Popen(
                [*python, "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                 "--host", "127.0.0.1", "--local-directory", str(here / f"worker{n}"), "--name", f"w{n}"],
                cwd=here, **quiet))
        from distributed import Client

        with Client(address, timeout=START_SECONDS) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(WORKERS, timeout=START_SECONDS)
        yield address
    finally:
        # The workers first, while the scheduler they say goodbye to is there: a worker whose
        # scheduler is gone retries it for Dask's connect timeout (30 s) before it ends.
        for group in (workers, [scheduler]):
            for process in group:
                process.terminate()
            for process in group:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def _address(plan: Path) -> str:
    try:
        return str(json.loads(plan.read_text())["address"])
    except (OSError, ValueError, KeyError):
        return ""


def test_a_batch_on_the_cluster_writes_the_bytes_of_a_local_run(cluster: str, tmp_path: Path) -> None:
    game = ["simulate", "kingdom", "--variant", "multi-3", "--seat", "1=greedy", "--seat", "2=random",
            "--games", "20", "--seed", "3"]
    runs = {}
    for where, how in (("local", ["--jobs", "1"]), ("cluster", ["--cluster", cluster])):
        out = tmp_path / where
        code, text, err = invoke(*game, *how, "--out", out, env={"SOURCE_DATE_EPOCH": STAMP})
        assert code == 0, err
        runs[where] = (folder(out), but_time(text))
    assert runs["cluster"] == runs["local"] and len(runs["local"][0]) == 20


def test_a_folder_verified_on_the_cluster_reads_as_here(cluster: str, tmp_path: Path) -> None:
    out = tmp_path / "games"
    assert invoke("simulate", "taifa", "--variant", "el-cid", "--games", "12", "--out", out)[0] == 0
    (out / "torn.fief").write_bytes(next(out.iterdir()).read_bytes()[:50])
    here = invoke("replay", "verify", out)
    there = invoke("replay", "verify", out, "--cluster", cluster)
    assert there == here and here[0] == 2 and here[1].endswith("\n13 records: 12 ok, 1 cannot be read\n")


def test_no_scheduler_at_the_address_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("notation.tasks.CONNECT_SECONDS", 1)
    code, out, err = invoke("simulate", "taifa", "--games", "2", "--cluster", "tcp://127.0.0.1:9")
    assert code == 2 and out == "" and err.startswith("error: no Dask scheduler answers at tcp://127.0.0.1:9: ")
    assert err.count("\n") == 1


def test_an_analysis_on_the_cluster_gives_the_figures_of_one_process(cluster: str, tmp_path: Path) -> None:
    record = tmp_path / "tafl.fief"
    shutil.copyfile(Path(__file__).parents[2] / "replays" / "tafl-gild-9-5-0001.fief", record)
    quick = ("--seconds", "0.01", "--json", "--no-keep")
    here = invoke("replay", "analyse", record, *quick, "--jobs", "1")
    there = invoke("replay", "analyse", record, *quick, "--cluster", cluster)
    assert here[0] == there[0] == 0
    assert json.loads(there[1]) == json.loads(here[1]) and json.loads(here[1])["whole"]


def test_a_tournament_on_the_cluster_prints_what_one_process_prints(cluster: str) -> None:
    game = ["tournament", "kingdom", "--seat-kinds", "casual,greedy,random", "--games", "1", "--json"]
    here = invoke(*game, "--jobs", "1")
    there = invoke(*game, "--cluster", cluster)
    assert here[0] == there[0] == 0
    mine, theirs = json.loads(here[1]), json.loads(there[1])
    mine.pop("seconds", None)
    theirs.pop("seconds", None)
    assert theirs == mine and mine["complete"]
