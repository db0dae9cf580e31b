"""Files read and written safely (issue 9).

* A record is read only from a regular file: a FIFO (or a device) would block the reader,
  so the file is opened without blocking and refused unless it is regular.
* A new file appears whole or not at all: it is written beside its final name and renamed
  into place, so a kill can never leave it empty or cut, and it never replaces a file that is
  there unless asked to (``replace``).
* An output is never its own input (:func:`check_output`), even when replacing is allowed.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import BinaryIO, Union

from notation.format import Limits, RecordError
from notation.record_lock import RecordInPlay, in_play, lock

PathLike = Union[str, "os.PathLike[str]"]

_KINDS = {stat.S_IFIFO: "a named pipe (FIFO)", stat.S_IFDIR: "a folder", stat.S_IFCHR: "a device",
          stat.S_IFBLK: "a device", stat.S_IFSOCK: "a socket"}


class OutputRefused(Exception):
    """An output file that must not be written: it exists (and replacing was not asked for), or it
    is one of the command's own inputs. One line."""


def not_regular(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file (``a named pipe (FIFO)``), else None."""
    return None if stat.S_ISREG(mode) else _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def open_without_blocking(path: PathLike, flags: int) -> int:
    """A descriptor of ``path`` opened with ``flags`` without waiting on it (a FIFO with no writer
    would block), never taking it as a controlling terminal, closed on exec; the caller checks
    what it is (:func:`not_regular`) and sets it blocking again to read a file."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))


def read_regular(path: PathLike, limit: int = Limits.FILE_BYTES, *, head: int | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` + 1 of them (a longer file is the
    reader's error, or RecordError at once when its size says so); ``head``: only its first ``head``
    bytes, whatever its size. RecordError for a FIFO, a folder or a device, without blocking on it;
    OSError passes through."""
    fd = open_without_blocking(path, os.O_RDONLY)
    try:
        info = os.fstat(fd)
        kind = not_regular(info.st_mode)
        if kind is not None:
            raise RecordError(f"not a record file: it is {kind}")
        if head is None:
            _check_size(info.st_size, limit)
        os.set_blocking(fd, True)
        want = limit + 1 if head is None else head
        with os.fdopen(fd, "rb") as file:
            fd = -1  # the file object closes it
            # Asked for by its size, not ``want``: read() allocates all it is asked for (16 MiB)
            data = file.read(min(want, info.st_size + 1))
            if len(data) > info.st_size and len(data) < want:  # it grew since fstat
                data += file.read(want - len(data))
            return data
    finally:
        if fd >= 0:
            os.close(fd)


def _check_size(size: int, limit: int) -> None:
    if size > limit:
        raise RecordError(f"byte 0: the file is larger than {limit // 2**20} MiB, more than any record")


def read_open(file: BinaryIO, limit: int = Limits.FILE_BYTES) -> bytes:
    """The bytes of a regular file already open (a record its writer holds), from its start;
    RecordError when its size is more than any record's."""
    _check_size(os.fstat(file.fileno()).st_size, limit)
    file.seek(0)
    return file.read(limit + 1) or b""


def check_regular(path: PathLike) -> None:
    """RecordError, saying what it is, unless ``path`` names a regular file (links followed): checked
    before a loader that would block on a FIFO opens it. A missing file passes (the loader says so)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    kind = not_regular(mode)
    if kind is not None:
        raise RecordError(f"not a file to read: it is {kind}")


def same_file(a: PathLike, b: PathLike) -> bool:
    """True when ``a`` and ``b`` are one file (the same inode: through symbolic or hard links too)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def check_output(path: PathLike, *, replace: bool, inputs: Sequence[PathLike] = ()) -> None:
    """OutputRefused, in one line, unless a command may write ``path``: never one of its ``inputs``
    (even with ``replace``), never a folder, and an existing file only with ``replace``."""
    for source in inputs:
        if same_file(path, source):
            raise OutputRefused(f"{path} is the same file as {source}, an input of this command: "
                                "an output never replaces its own input")
    if os.path.isdir(path):
        raise OutputRefused(f"{path} is a folder")
    if os.path.lexists(path) and not replace:
        raise OutputRefused(f"{path} exists; give --force to replace it")


@contextmanager
def _aside(path: str) -> Iterator[tuple[int, str]]:
    """A new file beside ``path`` (same folder, so the rename is atomic), opened for writing: its
    descriptor and name. Names are joined as strings: a record a game, and pathlib's objects cost as
    much as the syscalls.

    Whatever stops the block (an error, a Ctrl-C at any moment, even as the file is being made) takes
    the file away again; the descriptor is the block's to close. The name is known before the file is
    made, so no moment leaves a file nobody will remove."""
    folder, name = os.path.split(path)
    tmp: str | None = None
    try:
        for _ in range(100):
            tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
            try:
                fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
            except FileExistsError:  # another's: not ours to remove
                tmp = None
                continue
            break
        else:
            raise FileExistsError(f"no free temporary name beside {path}")
        yield fd, tmp
    except BaseException:
        if tmp is not None:
            _discard(tmp)
        raise


def _place(tmp: str, path: str, replace: bool) -> None:
    """Rename ``tmp`` to ``path``: over a file there only with ``replace``, else FileExistsError."""
    if replace:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)  # atomic, and fails if ``path`` exists
    except FileExistsError:
        raise FileExistsError(17, "the file exists", path) from None
    except OSError:  # a file system without hard links: check, then rename (a narrow race)
        if os.path.lexists(path):
            raise FileExistsError(17, "the file exists", path) from None
        os.rename(tmp, path)
        return
    os.unlink(tmp)


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass


def write_all(file: BinaryIO, data: bytes) -> None:
    """Write ``data`` to an unbuffered file: one write(2) for a small record, more only if the
    system takes part of it."""
    done = file.write(data) or 0
    if done < len(data):
        view = memoryview(data)[done:]
        while view:
            view = view[file.write(view) or 0:]


def create_whole(path: PathLike, data: bytes, *, replace: bool = False, fsync: bool = False,
                 hold: bool = False) -> BinaryIO:
    """A new file at ``path`` holding ``data`` from the moment it appears, open for appending more
    (unbuffered: each write goes to the system at once, see :func:`write_all`).

    ``data`` is written to a temporary file in the same folder and renamed into place, so no
    process killed at any moment leaves ``path`` empty or holding part of ``data``. An existing
    file at ``path`` is replaced only with ``replace`` (else FileExistsError, nothing written).
    ``hold``: the file is a record to play on, locked for its one writer (notation/record_lock.py)
    before it appears; a record another process is playing is never replaced (RecordInPlay).
    """
    target = os.fspath(path)
    if hold and replace:
        holder = in_play(target)
        if holder is not None:
            raise RecordInPlay(f"{target} is in play elsewhere ({holder}): it cannot be replaced")
    with _aside(target) as (fd, tmp):
        try:
            file = open(fd, "r+b", buffering=0)  # readable too: a rewrite reads the record it holds
        except BaseException:
            os.close(fd)
            raise
        try:
            if hold:
                lock(file, tmp)  # a new file nobody else knows: taken at once
            write_all(file, data)
            if fsync:
                os.fsync(file.fileno())
            _place(tmp, target, replace)
        except BaseException:
            file.close()
            raise
    return file


def write_whole(path: PathLike, chunks: Iterable[bytes], *, replace: bool = False) -> None:
    """Write ``chunks`` to a new file at ``path``, whole or not at all: into a temporary file beside
    it, synced, then renamed into place (over a file there only with ``replace``). A failure while
    the chunks are made (an export that stops) leaves no file and ``path`` as it was."""
    target = os.fspath(path)
    with _aside(target) as (fd, tmp):
        try:
            with os.fdopen(fd, "wb") as file:
                fd = -1
                for chunk in chunks:
                    file.write(chunk)
                file.flush()
                os.fsync(file.fileno())
        except BaseException:
            if fd >= 0:
                os.close(fd)
            raise
        _place(tmp, target, replace)
