"""Shape checks shared by the Taifa data files: one TOML ``[[table]]`` row."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from core.engine import RulesError
from core.toml_files import short

KIND_WORDS = {str: "text", int: "a whole number", bool: "true or false", list: "a list"}


def check_row(row: Any, where: str, fields: Mapping[str, type], required: Iterable[str]) -> None:
    """Known fields only, the required ones present, each of its type (bool is not an int)."""
    for key in row:
        if key not in fields:
            raise RulesError(f"{where}: unknown field {short(key)}")
    for key in required:
        if key not in row:
            raise RulesError(f"{where}: {key} is missing")
    for key, value in row.items():
        kind = fields[key]
        if (type(value) is not int) if kind is int else not isinstance(value, kind):
            raise RulesError(f"{where}: {key} must be {KIND_WORDS[kind]}, not {short(value)}")


def table_rows(raw: Mapping[str, Any], table: str, allowed: Iterable[str]) -> list[Any]:
    """The rows of ``[[table]]``, after refusing top-level tables the file format does not have."""
    unknown = set(raw) - set(allowed)
    if unknown:
        raise RulesError(f"unknown top-level table(s): {', '.join(short(t) for t in sorted(unknown))}")
    rows = raw.get(table)
    if not isinstance(rows, list) or not rows:
        raise RulesError(f"no [[{table}]] entries")
    return rows


def fold_name(name: str) -> str:
    """A name for lookups: case and accents ignored ("malaga" finds Málaga)."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold().strip()
