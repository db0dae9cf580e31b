"""The app's side of playing: where records live, which games are unfinished, saving a copy.

Games themselves run on :class:`notation.runner.Runner`; nothing here knows any game.
The app imports this module at start: the record reader is imported when first needed.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, TypeVar

import platformdirs

if TYPE_CHECKING:
    from notation.catalog import GameLookup
    from notation.format import Header
    from notation.replay import Replay

# A record up to this size opens in the viewer at once (read, replayed and verified in
# about 0.1 s); a longer one shows its start at once and is read in a worker.
OPEN_AT_ONCE_BYTES = 16 * 1024

APP_NAME = "fiefdom"
T = TypeVar("T")


def default_data_dir() -> Path:
    """The data folder when --data-dir is not given (platformdirs'; not created here)."""
    return Path(platformdirs.user_data_dir(APP_NAME))


class DataDirError(OSError):
    """A data folder (or its autosave folder) that cannot be made or used: one line naming it."""


def _folder(path: Path) -> Path:
    """``path``, a folder made if missing; DataDirError (one line) when it cannot be one."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        reason = err.strerror or str(err)
        if isinstance(err, (FileExistsError, NotADirectoryError)):
            reason = "a file is in the way (a folder is needed)"
        raise DataDirError(f"cannot use the data folder {path}: {reason}") from None
    return path


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where autosaves, saved records, the keymap and the preferences (tui/preferences.py) live
    (platformdirs, or --data-dir)."""
    return _folder(Path(override) if override else default_data_dir())


def new_seed() -> int:
    """A fresh seed for a new game, so two games do not get the same dice and AI replies."""
    return secrets.randbelow(2 ** 32)


def autosave_dir(base: Path) -> Path:
    """``base``/autosave (created): every game being played is journaled there."""
    return _folder(base / "autosave")


def utc_stamp() -> str:
    """The time now, as record file names carry it: ``20261124-041151``."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime())


def new_autosave(base: Path, game: str, variant: str, start: Callable[[Path], T]) -> T:
    """``start`` given a new autosave's name under the data folder ``base``
    (``autosave/<game>-<variant>-<UTC time>[-n].fief``), what it returns. ``start`` creates its file
    exclusively (FileExistsError when the name is taken, nothing written): a name another game took
    since, in this process or another starting at the same second, passes to the next."""
    stamp = utc_stamp()
    folder = autosave_dir(base)
    for n in range(1, 10_000):
        path = folder / (f"{game}-{variant}-{stamp}.fief" if n == 1 else f"{game}-{variant}-{stamp}-{n}.fief")
        if os.path.lexists(path):
            continue
        try:
            return start(path)
        except FileExistsError:
            continue
    raise DataDirError(f"cannot use the data folder {base}: no free autosave name for {game} at {stamp}")


@dataclass(frozen=True)
class Unfinished:
    path: Path
    title: str
    steps: int
    elsewhere: str | None = None  # who is playing it now, when another process is (record_lock.in_play)


def unfinished_games(base: Path) -> list[Unfinished]:
    """Autosaved games of any registered game without a result, newest first.
    A file that cannot be read (damaged, or a game this fiefdom does not play) is skipped."""
    from core import games as core_games
    from core.engine import RulesError
    from notation.files import read_regular
    from notation.format import RecordError
    from notation.reader import read_record_file
    from notation.record_lock import in_play
    from notation.wording import visible
    from tui.own_files import games_for

    def mtime(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    out = []
    for path in sorted(autosave_dir(base).glob("*.fief"), key=mtime, reverse=True):
        try:
            # A FIFO named *.fief is skipped, never waited on; a game on a user's own data files
            # is read with the copies kept of them (own_files.py).
            rec = read_record_file(read_regular(path), games=games_for(base, path, core_games.info))
            title = core_games.info(rec.header.game).title
        except (RecordError, RulesError, OSError):
            continue
        if rec.result is None:
            h = rec.header
            seats = ", ".join(f"{s.name} ({s.kind})" for s in h.seats)
            # The seat names are the record's own text: made visible for the Continue list.
            out.append(Unfinished(path, visible(f"{title} {h.variant}: {seats}; started {local_time(h.created)}"),
                                  rec.steps, in_play(path)))
    return out


def local_time(created: str) -> str:
    """A record's creation time (UTC, ``2026-11-27T03:58:40Z``) as this machine's clock reads it:
    ``2026-11-27 04:58``; the text as it is when it is no such time."""
    from datetime import datetime

    try:
        when = datetime.fromisoformat(created.replace("Z", "+00:00"))
    except ValueError:
        return created
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def open_replay(path: Path, games: GameLookup) -> Replay | LongRecord:
    """A Replay for a record file, verified, or for a long one (over ``OPEN_AT_ONCE_BYTES``) its
    header and :meth:`LongRecord.load`; RecordError/OSError for files that cannot be read."""
    from notation.files import check_regular
    from notation.reader import read_header, run

    check_regular(path)  # a FIFO would block the reader: RecordError
    if path.stat().st_size > OPEN_AT_ONCE_BYTES:
        return LongRecord(path, read_header(path, games=games), games)
    return run(record_loading(path, games))


@dataclass(frozen=True)
class LongRecord:
    """A record being opened: its header, read at once, and the rest, read by :meth:`load`."""

    path: Path
    header: Header
    games: GameLookup

    def load(self) -> Replay:
        """The record read, replayed and verified (the report is kept)."""
        from notation.reader import run

        return run(self.loading())

    def loading(self) -> Generator[tuple[str, float], None, Replay]:
        """:meth:`load` in slices: yields what it is doing and how far (``("replaying", 0.4)``)."""
        return record_loading(self.path, self.games)


def record_loading(path: Path, games: GameLookup) -> Generator[tuple[str, float], None, Replay]:
    """The record at ``path`` read, replayed and verified, in slices (:meth:`LongRecord.loading`)."""
    from notation.reader import reading
    from notation.replay import Replay

    recording = yield from _phase("reading", reading(path, games=games))
    # Replaying verifies too: one walk over the record (notation/walk.py).
    return (yield from _phase("replaying", Replay.building(recording, games=games)))


def _phase(name: str, work: Generator[float, None, T]) -> Generator[tuple[str, float], None, T]:
    """``work``'s progress, named."""
    while True:
        try:
            done = next(work)
        except StopIteration as stop:
            return stop.value
        yield name, done


def save_as(source: Path, target: Path) -> Path:
    """Copy the record ``source`` (finished or not) to ``target``, adding .fief if missing: whole or
    not at all, and never over a file already there (FileExistsError)."""
    from notation.files import write_whole

    if target.suffix != ".fief":
        target = target.with_name(target.name + ".fief")
    target.parent.mkdir(parents=True, exist_ok=True)
    write_whole(target, [source.read_bytes()])
    return target


def read_data_file(path: Path, load: "Callable[[str], Any]") -> Any:
    """A user's own data file (a map, decks) loaded by ``load``; RulesError in one line when it
    cannot be (not a regular file, unreadable, or refused by the game's checks)."""
    from core.engine import RulesError
    from notation.files import check_regular
    from notation.format import RecordError

    try:
        check_regular(path)  # a FIFO would block the loader
        return load(str(path))
    except RecordError as err:
        raise RulesError(f"{path}: {err}") from None
    except OSError as err:
        raise RulesError(f"{path}: {err.strerror or err}") from None

