"""A user's own data files (a Taifa map or decks, Take the Kingdom's cards) kept in the data
folder, so a game started with one can be continued, and its record opened, from the app.

A record names such a file only by its fingerprint (its setup field, core/games.py). When the
app starts a game with one, it keeps a copy as ``own/<game>/<key>/<fingerprint>.toml``; to
resume or open a record it reads the header's setup and loads the copies it names. A copy is
loaded through the game's own checks, like any file a user gives, and a copy that is missing
or refused leaves the record to say in one line which file it needs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from core import games as core_games
from core.engine import RulesError
from notation.catalog import GameLookup

__all__ = ["keep", "games_for"]

STORE = "own"
FINGERPRINT = re.compile(r"[0-9a-f]{1,64}")  # the games' fingerprints: short hex digests


def _copy(data_dir: Path, game: str, key: str, fingerprint: str) -> Path:
    return data_dir / STORE / game / key / f"{fingerprint}.toml"


def keep(data_dir: Path, game: str, paths: Mapping[str, Path], setup: Mapping[str, Any]) -> None:
    """Keep a copy of each file in ``paths`` (key -> the user's file) under the fingerprint the
    new record's ``setup`` gives it. A copy that cannot be written only means Continue will ask
    for the file later: the game itself goes on (OSError is not raised)."""
    from notation.files import read_regular, write_whole

    for key, path in paths.items():
        fingerprint = setup.get(key)
        if not isinstance(fingerprint, str) or not FINGERPRINT.fullmatch(fingerprint):
            continue
        target = _copy(data_dir, game, key, fingerprint)
        if target.exists():
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_whole(target, [read_regular(path)])
        except OSError:  # FileExistsError too: a copy written meanwhile
            pass


def games_for(data_dir: Path, record: Path, base: GameLookup) -> GameLookup:
    """``base``, with the kept copies of the data files the header of ``record`` names; ``base``
    itself when it names none we have (or the header cannot be read: the reader will say why)."""
    from notation.format import RecordError
    from notation.reader import peek_header
    from tui.session import read_data_file

    try:
        header = peek_header(record)
    except (RecordError, OSError):
        return base
    if header.game not in core_games.names():
        return base
    loaded: dict[str, Any] = {}
    for f in core_games.info(header.game).data_files:
        fingerprint = header.setup.get(f.key)
        if isinstance(fingerprint, str) and FINGERPRINT.fullmatch(fingerprint):
            copy = _copy(data_dir, header.game, f.key, fingerprint)
            if copy.is_file():
                try:
                    loaded[f.key] = read_data_file(copy, f.load)
                except RulesError:
                    pass
    return core_games.lookup({header.game: loaded}) if loaded else base
