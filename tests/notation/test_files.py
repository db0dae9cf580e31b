"""Records are created whole and never over another file; a FIFO is never read (issue 9).

``Journal.create`` writes the preamble, the header and the first checkpoint beside the final
name and renames the file into place, so no moment exists where the record is there with
fewer bytes: checked by watching every step of the creation, and by killing a process that
creates records over and over.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from notation import files
from notation.catalog import new_header
from notation.format import CheckpointRecord, CommentRecord, Header, RecordError, Seat
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan, read_unfinished
from notation.writer import Journal

ROOT = Path(__file__).resolve().parents[2]


def _header() -> Header:
    return new_header("tafl", "gild-9", (Seat("a", "random"), Seat("b", "random")), seed=1,
                      app="test", created="2025-01-31T12:34:56Z")


def _start(tmp_path: Path) -> bytes:
    """A whole record's first bytes: preamble, header and the step-0 checkpoint."""
    with Journal.create(tmp_path / "model.fief", _header()) as journal:
        path = Path(journal.path)
    return path.read_bytes()


def test_a_new_record_is_there_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Watch the creation: the final name is never opened, and when it appears (link or rename) the
    file behind it already holds the header and the first checkpoint."""
    whole = _start(tmp_path)
    target = tmp_path / "new.fief"
    opened: list[str] = []
    placed: list[int] = []
    real_open, real_link, real_replace = os.open, os.link, os.replace

    def spy_open(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    def spy_place(real):  # type: ignore[no-untyped-def]
        def place(src, dst, *args, **kwargs):  # type: ignore[no-untyped-def]
            assert not os.path.lexists(dst) or real is real_replace
            placed.append(os.path.getsize(src))
            return real(src, dst, *args, **kwargs)
        return place

    monkeypatch.setattr(files.os, "open", spy_open)
    monkeypatch.setattr(files.os, "link", spy_place(real_link))
    monkeypatch.setattr(files.os, "replace", spy_place(real_replace))
    journal = Journal.create(target, _header())
    try:
        assert os.fspath(target) not in opened and placed == [len(whole)]
        assert target.read_bytes() == whole and journal.path == os.fspath(target)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["model.fief", "new.fief"]  # no temporary file left
    finally:
        journal.close()


def test_a_journal_goes_on_appending_to_the_file_it_created(tmp_path: Path) -> None:
    path = tmp_path / "g.fief"
    journal = Journal.create(path, _header())
    journal.comment("first words")
    journal.close()
    rec = read_record_file(path)
    assert isinstance(rec.records[0], CheckpointRecord) and rec.records[1] == CommentRecord("first words")


def test_an_existing_file_is_replaced_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "mine.fief"
    path.write_bytes(b"somebody's file")
    with pytest.raises(FileExistsError):
        Journal.create(path, _header())
    assert path.read_bytes() == b"somebody's file" and sorted(tmp_path.iterdir()) == [path]
    with pytest.raises(FileExistsError):
        Runner.start(GameSetup("tafl", "gild-9", (SeatPlan("random"), SeatPlan("random"))), path)
    assert path.read_bytes() == b"somebody's file"
    Journal.create(path, _header(), replace=True).close()
    assert read_record_file(path).steps == 0


_CREATOR = """
import sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from notation.catalog import new_header
from notation.format import Seat
from notation.writer import Journal
header = new_header("tafl", "gild-9", (Seat("a", "random"), Seat("b", "random")), seed=1,
                    app="test", created="2025-01-31T12:34:56Z")
folder = Path(sys.argv[1])
print("ready", flush=True)
for i in range(10**9):
    Journal.create(folder / f"g{{i}}.fief", header).close()
"""


def test_a_kill_never_leaves_an_empty_or_cut_record(tmp_path: Path) -> None:
    """A process creating records as fast as it can, killed (SIGKILL) at random moments: every
    record file it leaves reads, with its header and first checkpoint."""
    script = _CREATOR.format(tests=str(ROOT / "tests"))
    rng = random.Random(9)
    for kill in range(8):
        folder = tmp_path / f"run{kill}"
        folder.mkdir()
        proc = subprocess.Popen([sys.executable, "-c", script, str(folder)], cwd=ROOT, stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        # The kill lands at a random moment once records are being made: a busy machine may take
        # longer than the random delay over the first one, which would test nothing.
        deadline = time.monotonic() + 30
        while not any(folder.glob("*.fief")) and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(rng.uniform(0.005, 0.06))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        records = sorted(folder.glob("*.fief"))
        assert records, "the process made no record in 30 s"
        for path in records:
            rec = read_record_file(path)
            assert isinstance(rec.records[0], CheckpointRecord) and not rec.torn
        # Only hidden temporary files may be left beside them, never a record-looking name.
        assert all(p.name.startswith(".") and p.name.endswith(".tmp") for p in folder.iterdir() if p.suffix != ".fief")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "f.fief"
    os.mkfifo(fifo)
    for read in (files.read_regular, read_unfinished, Journal.open_append, files.check_regular):
        with pytest.raises(RecordError, match="named pipe"):
            read(fifo)  # type: ignore[operator]
    with pytest.raises(RecordError, match="a folder"):
        files.read_regular(tmp_path)
    with pytest.raises(FileNotFoundError):
        files.read_regular(tmp_path / "missing.fief")


def test_read_regular_reads_by_size_and_what_grew_since(tmp_path: Path) -> None:
    """It asks for the file's size (not its 16 MiB limit), yet a file larger than its size said
    (one that grew, or a /proc file that says 0) is read to the limit, and a head is a head."""
    path = tmp_path / "r.fief"
    path.write_bytes(b"0123456789")
    assert files.read_regular(path) == b"0123456789"
    with pytest.raises(RecordError, match="larger than"):  # its size says so at once
        files.read_regular(path, 4)
    assert files.read_regular(path, head=3) == b"012"
    status = Path("/proc/self/status")
    if status.exists():  # Linux: a regular file of size 0 with text in it
        assert os.stat(status).st_size == 0
        assert files.read_regular(status).startswith(b"Name:")
        assert files.read_regular(status, 5) == b"Name:\t"  # limit + 1: the reader's "too long"


def test_an_output_is_never_its_own_input(tmp_path: Path) -> None:
    record = tmp_path / "r.fief"
    record.write_bytes(b"x")
    (tmp_path / "sym.fief").symlink_to(record)
    os.link(record, tmp_path / "hard.fief")
    for out in (record, tmp_path / "sym.fief", tmp_path / "hard.fief", tmp_path / "." / "r.fief"):
        with pytest.raises(files.OutputRefused, match="an input of this command"):
            files.check_output(out, replace=True, inputs=[record])
    with pytest.raises(files.OutputRefused, match="exists; give --force"):
        files.check_output(tmp_path / "hard.fief", replace=False, inputs=[tmp_path / "other.fief"])
    with pytest.raises(files.OutputRefused, match="is a folder"):
        files.check_output(tmp_path, replace=True)
    files.check_output(tmp_path / "new.txt", replace=False, inputs=[record])


def test_a_whole_write_that_fails_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"

    def chunks():  # type: ignore[no-untyped-def]
        yield b"half of it"
        raise RuntimeError("the export stopped")

    with pytest.raises(RuntimeError):
        files.write_whole(out, chunks())
    assert list(tmp_path.iterdir()) == []
    out.write_bytes(b"before")
    with pytest.raises(RuntimeError):
        files.write_whole(out, chunks(), replace=True)
    assert out.read_bytes() == b"before" and list(tmp_path.iterdir()) == [out]
    with pytest.raises(FileExistsError):
        files.write_whole(out, [b"new"])
    files.write_whole(out, [b"new ", b"text"], replace=True)
    umask = os.umask(0)
    os.umask(umask)
    assert out.read_bytes() == b"new text" and out.stat().st_mode & 0o777 == 0o666 & ~umask  # as open() makes files


@pytest.mark.parametrize("when", ["made", "written", "placed"])
def test_a_ctrl_c_at_any_moment_of_a_whole_file_leaves_no_file_aside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     when: str) -> None:
    """A KeyboardInterrupt right after the temporary file is made (before its name is even handed back),
    after it is written, or after it is linked into place: no file is left beside the record's name,
    and the record is there whole or not at all."""
    real = {"made": os.open, "written": files.write_all, "placed": os.link}

    def then_stop(*args: object, **kwargs: object) -> object:
        real[when](*args, **kwargs)  # type: ignore[operator]
        raise KeyboardInterrupt

    target = {"made": "notation.files.os.open", "written": "notation.files.write_all", "placed": "notation.files.os.link"}
    monkeypatch.setattr(target[when], then_stop)
    path = tmp_path / "game.fief"
    with pytest.raises(KeyboardInterrupt):
        files.create_whole(path, b"whole")
    monkeypatch.undo()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == (["game.fief"] if when == "placed" else [])
    if left:
        assert path.read_bytes() == b"whole"
