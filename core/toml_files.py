"""A game's data file in TOML (a map, a deck), read as a stranger's file may be: at most
``max_bytes``, UTF-8, valid TOML, not nested too deeply; every failure one RulesError line
that starts with where the file is. Every name and text in it that a person reads is held to
one check (``check_line``), and an error quotes the file's values only made safe (``short``,
``label``)."""

from __future__ import annotations

import tomllib
import unicodedata
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


# -- the text a person reads ------------------------------------------------------------------

MAX_TEXT = 1000  # characters in one name or text of a data file
MAX_LABEL = 60  # a name longer than this is left out of the label of an error
# The kinds of character a name or text may not hold (str.isprintable() refuses exactly these,
# except the plain space): they could steer a terminal, hide or reorder text, or break a line.
_REFUSED = {"Cc": "a control character", "Cf": "a format character", "Zl": "a line separator",
            "Zp": "a paragraph separator", "Zs": "a space other than the plain space",
            "Cs": "a surrogate", "Co": "a private-use character", "Cn": "an unassigned code point"}


def check_line(value: str, where: str, field: str, max_chars: int = MAX_TEXT) -> str:
    """``value``, a name or text a person reads, when it is one line of 1 to ``max_chars``
    printable characters: nothing that steers a terminal (ESC, BEL), hides or reorders text
    (U+202E, a zero-width space) or breaks a line (a newline, U+2028). Else RulesError naming
    ``where``, the ``field`` and the first character refused, by its code point."""
    if not value.strip():
        raise RulesError(f"{where}: {field} is empty")
    if len(value) > max_chars:
        raise RulesError(f"{where}: {field} is longer than {max_chars} characters")
    if not value.isprintable():
        ch = next(ch for ch in value if not ch.isprintable())
        kind = _REFUSED.get(unicodedata.category(ch), "a character that is not printable")
        raise RulesError(f"{where}: {field} must be one line of printable characters, "
                         f"and holds U+{ord(ch):04X}, {kind}")
    return value


def short(value: Any) -> str:
    """A value read from a file, as an error message quotes it: repr (so nothing in it can steer
    a terminal), ``true``/``false`` for booleans, at most 40 characters."""
    text = ("true" if value else "false") if isinstance(value, bool) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def label(where: str, name: Any) -> str:
    """``where`` with the entry's ``name`` after it, ``card 'C01' (Heavy Cavalry)``, when the name
    is one short line of printable characters; ``where`` alone for any other name (an error about
    an entry must not print the very name that is refused)."""
    if isinstance(name, str) and name.strip() and len(name) <= MAX_LABEL and name.isprintable():
        return f"{where} ({name})"
    return where
