"""What the app remembers between runs, in the data folder's ``preferences.json``: the theme, and
per game the last setup the New game form started (variant, seats, AI time and strength, dice,
rule options, data files; never the seed, fresh for each game).

The file is the user's to read and edit, so whatever is in it is only a suggestion: a file that
cannot be read is ignored with one line saying why, and a value that does not fit (not the
right type, a variant or option that no longer exists) is left out by whoever reads it. Each
write reads the file again and changes only its own part, so two apps open at once keep each
other's setups.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["FILE_NAME", "Preferences"]

FILE_NAME = "preferences.json"
MAX_BYTES = 256 * 1024  # far more than any real preferences; a larger file is not ours


def read(path: Path) -> tuple[dict[str, Any], str | None]:
    """The file's object (empty when it is missing or unusable), and a line saying why it was
    not used. A FIFO or a folder in its place is refused without blocking."""
    from notation.files import read_regular
    from notation.format import RecordError

    try:
        raw = read_regular(path, MAX_BYTES)
    except FileNotFoundError:
        return {}, None
    except (OSError, RecordError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else "not a regular file"
        return {}, f"{path}: ignored ({reason})"
    if len(raw) > MAX_BYTES:
        return {}, f"{path}: ignored (larger than {MAX_BYTES // 1024} KiB)"
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:  # ValueError: JSON's own errors
        return {}, f"{path}: ignored (not JSON: {str(err)[:80]})"
    if not isinstance(data, dict):
        return {}, f"{path}: ignored (not a JSON object)"
    return data, None


def _part(data: dict[str, Any], key: str) -> dict[str, Any]:
    """``data[key]`` when it is an object, else an empty one."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


class Preferences:
    """The preferences file of one data folder, read once; ``problem`` says why it was ignored."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE_NAME
        self.data, self.problem = read(self.path)

    @property
    def theme(self) -> str | None:
        """The theme last chosen (its name, as the user's file has it: check it exists)."""
        value = self.data.get("theme")
        return value if isinstance(value, str) else None

    def setup(self, game: str) -> dict[str, Any]:
        """The form's values when ``game`` last started from it (see SetupScreen.memory); empty if none."""
        return _part(_part(self.data, "setup"), game)

    def keep_theme(self, name: str) -> str | None:
        """Remember the theme; a line saying why it could not be written, else None."""
        if name == self.theme:
            return None
        def change(data: dict[str, Any]) -> None:
            data["theme"] = name

        return self._change(change)

    def keep_setup(self, game: str, values: dict[str, Any]) -> str | None:
        """Remember the form's values for ``game``; a line saying why they could not be written."""
        def change(data: dict[str, Any]) -> None:
            data["setup"] = {**_part(data, "setup"), game: values}

        return self._change(change)

    def _change(self, change: Callable[[dict[str, Any]], None]) -> str | None:
        """The file read again, ``change`` applied, written whole (atomically) over the old one."""
        from notation.files import write_whole

        data, _ = read(self.path)  # a broken file is replaced by what this app knows
        change(data)
        self.data = data
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        try:
            write_whole(self.path, [text.encode("utf-8")], replace=True)
        except OSError as err:
            return f"{self.path}: not written ({err.strerror or err})"
        return None
