"""A game's TOML data file read as a stranger's file may be: every failure one RulesError line
naming the file (core/toml_files.py, used by the Taifa map and decks and the Kingdom cards)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import toml_files
from core.engine import RulesError
from core.taifa.cards import load_cards as taifa_cards
from core.taifa.map import load_map


@pytest.mark.parametrize("content,expected", [
    (b"a = 1\n" + b"#" * 30000, "larger than 20000 bytes, too large for a map file"),
    (b"\xff\xfe[[area]]", "not UTF-8 text"),
    (b"[[area]\n", "not valid TOML"),
    (b"a = 1" + b"0" * 5000 + b"\n", "not valid TOML"),
    (b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deeply"),
], ids=["too large", "not UTF-8", "not TOML", "huge number", "nested"])
def test_a_bad_data_file_is_one_line_naming_it(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    with pytest.raises(RulesError) as err:
        toml_files.parse(toml_files.read_text(path, "map", max_bytes=20000), str(path), "map")
    assert expected in str(err.value) and str(path) in str(err.value) and "\n" not in str(err.value)


def test_a_missing_file_says_it_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read cards"):
        toml_files.read_text(tmp_path / "nope.toml", "cards")


@pytest.mark.parametrize("load", [load_map, taifa_cards])
def test_taifa_files_nested_too_deeply_or_too_large_are_refused(tmp_path: Path, load) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n", "utf-8")
    with pytest.raises(RulesError, match="nested too deeply"):
        load(str(deep))
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (toml_files.MAX_BYTES + 1))
    with pytest.raises(RulesError, match="too large"):
        load(str(big))
