"""No command destroys a file (issue 9): an existing --out file is replaced only with --force,
an output is never its own input (even with --force, even through a link), a failed export
leaves no half file, and a record given as a FIFO is refused at once instead of blocking."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.export import ExportError
from notation.reader import read_record_file
from notation.verify import verify
from tui import cli_replay
from tui.cli import app
from tui.session import save_as

cli = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "replays" / "tafl-gild-9-5-0001.fief"
TAIFA = ROOT / "replays" / "taifa-standard-7-0001.fief"


def invoke(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
    result = cli.invoke(app, list(map(str, args)), input=stdin)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def refused(code: int, err: str, words: str) -> None:
    assert code == 2 and err.count("\n") == 1 and err.startswith("error: ") and words in err, err


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.fief"
    path.write_bytes(GOLDEN.read_bytes())
    return path


# -- replay export ---------------------------------------------------------------------------


def test_export_never_replaces_its_own_record(record: Path) -> None:
    """The issue's example: ``replay export --out R R`` used to replace the record with its export."""
    for force in ([], ["--force"]):
        code, _, err = invoke("replay", "export", "--out", record, record, *force)
        refused(code, err, "an output never replaces its own input")
    (record.parent / "link.fief").symlink_to(record)
    os.link(record, record.parent / "hard.fief")
    for other in ("link.fief", "hard.fief"):
        code, _, err = invoke("replay", "export", "--out", record.parent / other, record, "--force")
        refused(code, err, "an output never replaces its own input")
    assert record.read_bytes() == GOLDEN.read_bytes() and verify(read_record_file(record)).ok


def test_export_never_replaces_a_data_file_it_was_given(tmp_path: Path) -> None:
    own = tmp_path / "map.toml"
    own.write_text(resources.files("core.taifa").joinpath("data/map.toml").read_text("utf-8"), "utf-8")
    before = own.read_bytes()
    code, _, err = invoke("replay", "--map", own, "export", "--out", own, "--force", TAIFA)
    refused(code, err, "an output never replaces its own input")
    assert own.read_bytes() == before


def test_export_replaces_an_existing_file_only_with_force(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    out.write_text("my notes")
    code, _, err = invoke("replay", "export", "--out", out, record)
    refused(code, err, "exists; give --force to replace it")
    assert out.read_text() == "my notes"
    code, _, _ = invoke("replay", "export", "--out", out, record, "--force")
    assert code == 0 and out.read_text().startswith('[Game "tafl"]')
    fresh = tmp_path / "fresh.json"
    code, _, _ = invoke("replay", "export", "--out", fresh, record, "--format", "json")
    assert code == 0 and fresh.read_text().startswith("{")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.json", "game.fief", "game.txt"]


def test_a_failed_export_leaves_no_half_file(record: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "taifa.otg"
    code, _, err = invoke("replay", "export", "--format", "otg", "--out", out, TAIFA)
    assert code == 2 and "hold tafl games" in err and not out.exists()

    def stops(replay, fmt, viewer=None):  # type: ignore[no-untyped-def]
        yield "[Game "
        raise ExportError("the export stopped half way")

    monkeypatch.setattr(cli_replay, "_export_chunks", stops)
    code, _, err = invoke("replay", "export", "--out", tmp_path / "half.txt", record)
    assert code == 2 and "stopped half way" in err and not (tmp_path / "half.txt").exists()
    kept = tmp_path / "kept.txt"
    kept.write_text("before")
    code, _, _ = invoke("replay", "export", "--out", kept, record, "--force")
    assert code == 2 and kept.read_text() == "before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.fief", "kept.txt"]  # no temporary file left


# -- play ----------------------------------------------------------------------------------


def test_tafl_play_replaces_an_existing_out_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "mine.fief"
    out.write_text("a file of mine")
    code, _, err = invoke("play", "tafl", "--prompt", "--seat", "1=random", "--seat", "2=random", "--out", out)
    refused(code, err, "exists; give --force to replace it")
    assert out.read_text() == "a file of mine"
    code, stdout, _ = invoke("play", "tafl", "--prompt", "--seat", "1=random", "--seat", "2=random", "--out", out,
                             "--force")
    assert code == 0 and f"record: {out}" in stdout and verify(read_record_file(out)).ok


def test_taifa_play_never_writes_over_its_own_map(tmp_path: Path) -> None:
    own = tmp_path / "map.toml"
    own.write_text(resources.files("core.taifa").joinpath("data/map.toml").read_text("utf-8"), "utf-8")
    before = own.read_bytes()
    code, _, err = invoke("play", "taifa", "--prompt", "--seat", "1=bot", "--map", own, "--out", own, "--force")
    refused(code, err, "an output never replaces its own input")
    assert own.read_bytes() == before
    out = tmp_path / "t.fief"
    out.write_text("x")
    code, _, err = invoke("play", "taifa", "--prompt", "--seat", "1=bot", "--out", out)
    refused(code, err, "exists; give --force")
    code, _, _ = invoke("play", "taifa", "--prompt", "--seat", "1=bot", "--out", out, "--force")
    assert code == 0 and read_record_file(out).result is not None


# -- simulate --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [("tafl", "--seat", "1=random", "--seat", "2=random"), ("taifa",)])
def test_simulate_never_replaces_an_earlier_run_without_force(game: tuple[str, ...], tmp_path: Path) -> None:
    out = tmp_path / "runs"
    code, _, _ = invoke("simulate", *game, "-n", "2", "--seed", "4", "--out", out)
    assert code == 0
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    assert len(first) == 2
    code, stdout, err = invoke("simulate", *game, "-n", "3", "--seed", "4", "--out", out)
    refused(code, err, "of an earlier run with seed 4); give --force")
    assert "game 1" not in stdout and {p.name: p.read_bytes() for p in out.iterdir()} == first
    code, _, _ = invoke("simulate", *game, "-n", "2", "--seed", "5", "--out", out)  # another seed: new names
    assert code == 0 and len(list(out.iterdir())) == 4
    code, _, _ = invoke("simulate", *game, "-n", "3", "--seed", "4", "--out", out, "--force")
    assert code == 0 and len(list(out.iterdir())) == 5
    assert all(verify(read_record_file(p)).ok for p in out.iterdir())


def test_simulate_never_replaces_its_own_data_file(tmp_path: Path) -> None:
    out = tmp_path / "runs"
    out.mkdir()
    own = out / "taifa-standard-1-0001.fief"  # a map file with a record's name, in the folder
    own.write_text(resources.files("core.taifa").joinpath("data/map.toml").read_text("utf-8"), "utf-8")
    code, _, err = invoke("simulate", "taifa", "-n", "1", "--map", own, "--out", out, "--force")
    refused(code, err, "an output never replaces its own input")
    assert own.read_text("utf-8").startswith(resources.files("core.taifa").joinpath("data/map.toml")
                                             .read_text("utf-8")[:40])


def test_a_billion_games_show_the_first_at_once(tmp_path: Path) -> None:
    """Seeds are drawn lazily and the earlier-run check looks at the folder once: the first
    game's line comes at once (the run is stopped after it)."""
    code = ("import sys; from tui.cli import main; sys.argv = ['fiefdom', 'simulate', 'tafl', '--seat', "
            f"'1=random', '--seat', '2=random', '--games', '1000000000', '--out', {str(tmp_path / 'runs')!r}]; main()")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().startswith("game 1: ")
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()  # type: ignore[union-attr]


# -- saving a record in the app ---------------------------------------------------------------


def test_saving_a_record_never_replaces_another(record: Path, tmp_path: Path) -> None:
    target = tmp_path / "saved" / "best"
    assert save_as(record, target) == tmp_path / "saved" / "best.fief"
    with pytest.raises(FileExistsError):
        save_as(GOLDEN.with_name("tafl-gild-9-5-0002.fief"), target)
    assert (tmp_path / "saved" / "best.fief").read_bytes() == GOLDEN.read_bytes()


# -- a FIFO given as a record ----------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
@pytest.mark.parametrize("args", [("replay", "verify", "FIFO"), ("replay", "show", "FIFO"),
                                  ("replay", "export", "FIFO"), ("replay", "view", "FIFO"), ("resume", "FIFO"),
                                  ("resume", "--prompt", "FIFO"), ("replay", "--data", "map=FIFO", "verify", TAIFA),
                                  ("replay", "--map", "FIFO", "verify", TAIFA), ("taifa", "map", "--map", "FIFO"),
                                  ("taifa", "cards", "--cards", "FIFO"), ("play", "taifa", "--prompt", "--map", "FIFO"),
                                  ("simulate", "taifa", "--cards", "FIFO")])
def test_a_fifo_is_refused_at_once(args: tuple[str | Path, ...], tmp_path: Path) -> None:
    """Run in a process of its own with a time limit: a command that blocks fails the test, not the run."""
    fifo = tmp_path / "f.fief"
    os.mkfifo(fifo)
    argv = [str(a).replace("FIFO", str(fifo)) for a in args]
    code = f"import sys; from tui.cli import main; sys.argv = ['fiefdom', *{argv!r}]; main()"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "named pipe (FIFO)" in done.stderr, done


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
def test_the_app_skips_or_refuses_a_fifo(tmp_path: Path) -> None:
    """Continue's list passes over a FIFO named like an autosave; opening one is a one-line refusal."""
    (tmp_path / "autosave").mkdir()
    os.mkfifo(tmp_path / "autosave" / "tafl-gild-9-x.fief")
    os.mkfifo(tmp_path / "keymap.toml")
    code = "\n".join([
        "from pathlib import Path",
        "from core.games import info",
        "from notation.format import RecordError",
        "from tui.app import load_keymap",
        "from tui.session import open_replay, unfinished_games",
        f"base = Path({str(tmp_path)!r})",
        "assert unfinished_games(base) == []",
        "assert load_keymap(base / 'keymap.toml')[1].endswith('not a regular file')",
        "try:",
        "    open_replay(base / 'autosave' / 'tafl-gild-9-x.fief', info)",
        "except RecordError as err:",
        "    print(err)",
    ])
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "named pipe (FIFO)" in done.stdout, done
