"""A game's data file in TOML (a map, a deck), read as a stranger's file may be: at most
``max_bytes``, UTF-8, valid TOML, not nested too deeply; every failure one RulesError line
that starts with where the file is."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from core.engine import RulesError

MAX_BYTES = 1_000_000  # a larger data file is refused before it is parsed


def read_text(path: str | Path, what: str, max_bytes: int = MAX_BYTES) -> str:
    """The text of the ``what`` file ("cards", "map") at ``path``."""
    source = str(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(max_bytes + 1)
    except OSError as exc:
        raise RulesError(f"{source}: cannot read {what}: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise RulesError(f"{source}: larger than {max_bytes} bytes, too large for a {what} file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"{source}: not UTF-8 text") from None


def parse(text: str, source: str, what: str) -> dict[str, Any]:
    """The TOML ``text`` as tables; ``source`` says where it came from."""
    try:
        return tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer of thousands of digits
        raise RulesError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise RulesError(f"{source}: not a {what} file: its tables or lists are nested too deeply") from None
