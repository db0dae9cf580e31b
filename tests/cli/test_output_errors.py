"""Standard output or input that cannot be used (issue 26): a full disk (``> /dev/full``), a closed
descriptor (``>&-``, ``<&-``) or a reader that went away (``| head``). Every command says the first
two in one line on stderr and exits 2, as any failed write does (never the internal error, exit 3,
nor Python's "Exception ignored" and status 120); the closed pipe ends quietly with status 141.

Most cases run ``main`` in this process with a stand-in for standard output; a few run a real
process, for what only the operating system does (/dev/full, a closed descriptor, a pipe)."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.reader import read_record_file
from notation.verify import verify
from tui.cli import WRITE_FAILED, app, main

ROOT = Path(__file__).resolve().parents[2]
TAFL = ROOT / "replays" / "tafl-traditional-5-0001.fief"
KINGDOM = ROOT / "replays" / "kingdom-multi-3-1-0001.fief"
FULL = f"error: cannot write to standard output: {os.strerror(errno.ENOSPC)}\n"
CLOSED = f"error: cannot write to standard output: {os.strerror(errno.EBADF)}\n"


class FullDisk(io.TextIOBase):
    """Standard output on a full disk: every write fails, as on /dev/full."""

    encoding = "utf-8"
    errors = "strict"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return 0


class FullLater(io.StringIO):
    """Standard output that takes text into its buffer and fails when it is flushed: what a block-
    buffered stdout does, the failure showing only when the buffer is written (at the latest, at exit)."""

    def flush(self) -> None:
        if self.getvalue():
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def run_main(args: list[str | Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             stdout: object, stdin: str = "") -> tuple[int, str]:
    """``fiefdom ARGS`` through the entry point, with ``stdout`` for standard output (None: closed)."""
    monkeypatch.setattr(sys, "argv", ["fiefdom", *map(str, args)])
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as end:
        main()
    assert sys.stdout is stdout  # main leaves the streams as it found them
    return int(end.value.code or 0), capsys.readouterr().err


def unfinished(tmp_path: Path) -> Path:
    """A Tafl record at the prompt, stopped before the person's first move."""
    path = tmp_path / "h.fief"
    result = CliRunner().invoke(app, ["play", "tafl", "--prompt", "--seat", "1=human", "--seat", "2=random",
                                      "--variant", "brandubh",
                                      "--out", str(path), "--seed", "3"], input="")
    assert result.exit_code == 2 and path.exists(), result.output
    return path


COMMANDS = [
    ("--help",),
    ("replay", "verify", TAFL),
    ("replay", "show", TAFL),
    ("replay", "export", TAFL),  # it used to say "error: None: No space left on device"
    ("replay", "export", KINGDOM, "--format", "json"),
    ("tafl", "export-otg", TAFL),
    ("tafl", "variants"),
    ("tafl", "rules-string"),
    ("tafl", "analyse", "e1-e4"),
    ("kingdom", "cards"),
    ("taifa", "map"),
    ("taifa", "cards"),
    ("simulate", "tafl", "--variant", "brandubh", "--seat", "1=random", "--seat", "2=random", "-n", "1"),
    ("play", "tafl", "--prompt", "--variant", "brandubh", "--seat", "1=random", "--seat", "2=random", "--seed", "3",
     "--out", "OUT"),
    ("play", "kingdom", "--prompt", "-v", "multi-3", "--seat", "1=random", "--seat", "2=random", "--seat", "3=random",
     "--seed", "3", "--out", "OUT"),
    ("resume", "UNFINISHED", "--prompt"),
]


@pytest.mark.parametrize("stdout", ["full", "full later", "closed"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(str(a) for a in c[:2]))
def test_every_command_says_a_failed_standard_output_in_one_line(
        command: tuple[str | Path, ...], stdout: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    args = [tmp_path / "out.fief" if a == "OUT" else unfinished(tmp_path) if a == "UNFINISHED" else a
            for a in command]
    stream = {"full": FullDisk(), "full later": FullLater(), "closed": None}[stdout]
    code, err = run_main(args, monkeypatch, capsys, stream, stdin="1\n" * 5)
    assert (code, err) == (WRITE_FAILED, CLOSED if stdout == "closed" else FULL)
    for arg in args:
        if isinstance(arg, Path) and arg.suffix == ".fief" and arg.parent == tmp_path:
            assert verify(read_record_file(arg)).ok  # the game played so far is kept, whole


def test_a_full_standard_error_ends_with_the_status_of_the_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`fiefdom replay verify MISSING 2>/dev/full`: nothing can be said, the status still says it."""
    monkeypatch.setattr(sys, "stderr", FullDisk())
    code, _ = run_main(["replay", "verify", "/nonexistent/x.fief"], monkeypatch, capsys, io.StringIO())
    assert code == WRITE_FAILED


def test_the_engine_with_no_standard_input_says_so_before_a_word(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`fiefdom engine --otep <&-`: it used to end in an internal error (AttributeError, exit 3)."""
    out = io.StringIO()
    monkeypatch.setattr(sys, "argv", ["fiefdom", "engine", "--otep"])
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stdin", None)  # what Python makes of a closed descriptor 0
    with pytest.raises(SystemExit) as end:
        main()
    assert end.value.code == 2 and out.getvalue() == ""
    assert capsys.readouterr().err == f"error: cannot read standard input: {os.strerror(errno.EBADF)}\n"


# -- in a real process -------------------------------------------------------------------


def fiefdom(args: list[str | Path], redirect: str) -> subprocess.CompletedProcess[str]:
    """``fiefdom ARGS REDIRECT`` run by the shell (its redirections are the point)."""
    code = "import sys; from tui.cli import main; sys.argv = ['fiefdom', *sys.argv[1:]]; main()"
    line = " ".join([f"exec {sys.executable!s} -c \"$0\" \"$@\"", redirect])
    return subprocess.run(["sh", "-c", line, code, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("args", [["replay", "verify", TAFL], ["replay", "export", KINGDOM],
                                  ["play", "tafl", "--prompt", "--variant", "brandubh", "--seat", "1=random",
                                   "--seat", "2=random",
                                   "--seed", "3", "--out", "OUT"]],
                         ids=["verify", "export", "prompt"])
def test_a_full_disk(args: list[str | Path], tmp_path: Path) -> None:
    """The prompt writes by print(), held in Python's buffer: its failure shows at the end, and must
    still be the one line (not "Exception ignored ... OSError", status 120)."""
    done = fiefdom([tmp_path / "o.fief" if a == "OUT" else a for a in args], "> /dev/full")
    assert (done.returncode, done.stderr) == (WRITE_FAILED, FULL)


def test_a_closed_output_and_a_closed_input() -> None:
    done = fiefdom(["kingdom", "cards"], ">&-")
    assert (done.returncode, done.stderr) == (WRITE_FAILED, CLOSED)
    done = fiefdom(["engine", "--otep"], "<&-")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error: cannot read standard input: {os.strerror(errno.EBADF)}\n"


def test_a_reader_that_went_away_is_not_an_error() -> None:
    """`fiefdom replay export R | head -c 10`: quiet, status 141 (the export is bigger than a pipe holds)."""
    code = "import sys; from tui.cli import main; sys.argv = ['fiefdom', 'replay', 'export', sys.argv[1]]; main()"
    proc = subprocess.Popen([sys.executable, "-c", code, str(KINGDOM)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10)
    proc.stdout.close()  # as head does
    err = proc.stderr.read()
    assert (proc.wait(timeout=60), err) == (141, "")
