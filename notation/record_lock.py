"""One writer per record (issue 26): whoever plays a record holds an exclusive lock on it.

The lock is the operating system's advisory lock on the record file itself (``flock``): the kernel
drops it when the process ends, however it ends, so a crash never leaves a stale lock, and no lock
file is left beside the record. It belongs to the open file, not to the process, so a reader in the
same process (the app's viewer, verify) opening the file never disturbs it. Readers take no lock:
a writer only ever appends whole records or renames a whole new file into place, so a reader sees
the record as it was before or after a write, at worst with a torn last record it drops.

A record rewritten (takeback, a seat handed over) is a new file renamed over the old: its writer
locks the new file before the rename, so the name is never free for another writer. A writer that
opened the old file just before the rename finds the name now names another file, and tries again.
"""

from __future__ import annotations

import errno
import os
import time
from typing import BinaryIO

from notation.format import RecordError

try:
    import fcntl
except ImportError:  # pragma: no cover - a system without POSIX locks: every writer is let in
    fcntl = None  # type: ignore[assignment]  # no module: None, which the locks test for

# A reader asking whether a record is in play (the Continue list) holds a shared lock for a moment;
# a writer starting at that very moment waits for it this long before it says the record is taken.
_TRIES, _PAUSE = 5, 0.02


class RecordInPlay(RecordError):
    """A record another process is playing: one line saying which process holds it."""


def lock(file: BinaryIO | int, path: str | os.PathLike[str]) -> None:
    """Take the writer's lock on the open record ``file`` (at ``path``), or RecordInPlay."""
    if fcntl is None:
        return
    fd = file if isinstance(file, int) else file.fileno()
    for attempt in range(_TRIES):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except OSError as err:
            if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return  # a file system without locks (some network mounts): nothing to hold
            if attempt + 1 < _TRIES:
                time.sleep(_PAUSE)
    raise RecordInPlay(f"in play elsewhere ({holder(fd)}): a record has one writer "
                       "(it can still be opened in the viewer)")


def in_play(path: str | os.PathLike[str]) -> str | None:
    """Who holds the writer's lock on the record at ``path`` (``process 123 (fiefdom ...)``), or
    None when nobody does (or the file cannot be opened: reading it will say why)."""
    from notation.files import open_without_blocking

    if fcntl is None:
        return None
    try:
        fd = open_without_blocking(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # dropped with the descriptor
        except OSError as err:
            if err.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return holder(fd)
        return None
    finally:
        os.close(fd)


def same_file_at(file: BinaryIO | int, path: str | os.PathLike[str]) -> bool:
    """Does ``path`` still name the open ``file`` (not a file renamed over it since it was opened)?"""
    fd = file if isinstance(file, int) else file.fileno()
    try:
        there, mine = os.stat(path), os.fstat(fd)
    except OSError:
        return False
    return (there.st_dev, there.st_ino) == (mine.st_dev, mine.st_ino)


def holder(fd: int) -> str:
    """The process holding a lock on the open file ``fd``, in words: Linux lists every lock with its
    owner in /proc/locks; elsewhere (or when it is not listed) only "another process"."""
    info = os.fstat(fd)
    key = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            for line in locks:
                # "1: FLOCK  ADVISORY  WRITE 31548 fe:00:2146703 0 EOF"; a waiter's line has "->".
                words = line.split()
                if len(words) >= 6 and words[1] == "FLOCK" and words[2] != "->" and words[5] == key:
                    return _process(int(words[4]))
    except (OSError, ValueError):
        pass
    return "another process"


def _process(pid: int) -> str:
    if pid == os.getpid():
        return "this process"
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = [w for w in f.read(4096).decode("utf-8", "replace").split("\0") if w]
    except OSError:
        words = []
    if len(words) > 1 and os.path.basename(words[0]).startswith("python"):
        words = words[1:]  # the program the interpreter runs
    if words:
        words[0] = os.path.basename(words[0])
    command = " ".join(words)
    if len(command) > 60:
        command = command[:59] + "…"
    return f"process {pid}" + (f": {command}" if command else "")


def open_locked(path: str | os.PathLike[str]) -> BinaryIO:
    """The record at ``path`` opened to be carried on (read and written, unbuffered) with the writer's
    lock held: RecordInPlay when another process holds it, RecordError for a FIFO, a folder or a
    device (never blocked on); OSError passes through."""
    from notation.files import not_regular, open_without_blocking

    for _ in range(100):  # a rewrite renaming a new file over it is the only reason to go round
        fd = open_without_blocking(path, os.O_RDWR)
        try:
            kind = not_regular(os.fstat(fd).st_mode)
            if kind is not None:
                raise RecordError(f"not a record file: it is {kind}")
            os.set_blocking(fd, True)
            lock(fd, path)
            if not same_file_at(fd, path):
                os.close(fd)
                continue
            return open(fd, "r+b", buffering=0)
        except BaseException:
            os.close(fd)
            raise
    raise RecordInPlay(f"{os.fspath(path)} is being rewritten again and again by another process")
