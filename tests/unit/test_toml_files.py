"""A game's TOML data file read as a stranger's file may be: every failure one RulesError line
naming the file (core/toml_files.py, used by the Taifa map and decks and the Kingdom cards), and
every name and text in it held to one check, so none can steer the terminal it is shown on."""

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


# -- names and texts (issue 26): refused at load, like Kingdom's cards always were -------------------

# The area name: it set the terminal's title and cleared the screen in the app.
PWNED = '"Evil\\u001b]0;PWNED\\u0007\\u001b[2J\\u202e"'
# As a TOML string: what steers a terminal, hides or reorders text, or breaks a line; the first
# character the loader names.
HOSTILE = [
    (PWNED, "U+001B, a control character"),
    ('"Cala\\u202etayud"', "U+202E, a format character"),  # right-to-left override
    ('"Cala\\u200btayud"', "U+200B, a format character"),  # zero-width space
    ('"Cala\\ttayud"', "U+0009, a control character"),
    ('"Cala\\ntayud"', "U+000A, a control character"),
    ('"Cala\\u0085tayud"', "U+0085, a control character"),  # NEL, a C1 control
    ('"Cala\\u2028tayud"', "U+2028, a line separator"),
    ('"Cala\\u2029tayud"', "U+2029, a paragraph separator"),
    ('"Cala\\u00a0tayud"', "U+00A0, a space other than the plain space"),
    ('"Cala\\ue000tayud"', "U+E000, a private-use character"),
    ('"Cala\\U000e0001tayud"', "U+E0001, a format character"),  # a language tag
]


def _value(literal: str) -> str:
    return toml_files.parse(f"v = {literal}\n", "<test>", "test")["v"]


@pytest.mark.parametrize(("literal", "named"), HOSTILE, ids=[h[1].split(",")[0] for h in HOSTILE])
def test_a_name_that_steers_hides_or_breaks_a_line_is_refused_by_its_code_point(literal: str, named: str) -> None:
    with pytest.raises(RulesError) as err:
        toml_files.check_line(_value(literal), "area 23", "name")
    msg = str(err.value)
    assert msg == f"area 23: name must be one line of printable characters, and holds {named}"
    assert msg.isprintable()


def test_printable_names_pass_and_blank_or_long_ones_do_not() -> None:
    for name in ("Málaga", "Taifa of Sevilla", "Évora", "Ḥiṣn al-Qaṣr", "北京", "A B"):
        assert toml_files.check_line(name, "area 1", "name") == name
    with pytest.raises(RulesError, match=r"^area 1: name is empty$"):
        toml_files.check_line("  ", "area 1", "name")
    with pytest.raises(RulesError, match=r"^card 'C01': text is longer than 1000 characters$"):
        toml_files.check_line("x" * 1001, "card 'C01'", "text")


def _file(package: str, name: str) -> str:
    return (Path(__file__).resolve().parents[2] / "core" / package / "data" / name).read_text("utf-8")


def _load(kind: str, path: Path) -> object:
    from core.kingdom.cards import load_cards as kingdom_cards

    return {"taifa map": load_map, "taifa cards": taifa_cards, "kingdom cards": kingdom_cards}[kind](str(path))


# Every name and text a person reads, in each game's data files: (file, the line to edit, where).
FIELDS = [
    ("taifa map", 'name = "Calatayud"', "area 23"),
    ("taifa cards", 'name = "Heavy Cavalry"', "card 'C01'"),
    ("taifa cards", 'text = "Mailed knights on great horses: 4 dice."', "card 'C01' (Heavy Cavalry)"),
    ("kingdom cards", 'name = "Cannon"', "card 'cannon-1'"),
    ("kingdom cards", 'text = "Gunpowder and iron: the heaviest single blow in the deck."', "card 'cannon-1' (Cannon)"),
    ("kingdom cards", "effect = \"Attack 4 on one", "card 'cannon-1' (Cannon)"),
]
_TEXTS = {"taifa map": ("taifa", "map.toml"), "taifa cards": ("taifa", "cards.toml"), "kingdom cards": ("kingdom", "cards.toml")}


@pytest.mark.parametrize(("literal", "named"), [HOSTILE[0], HOSTILE[6]], ids=["the issue's name", "a line separator"])
@pytest.mark.parametrize(("kind", "line", "where"), FIELDS, ids=[f"{f[0]} {f[1].split()[0]}" for f in FIELDS])
def test_every_name_and_text_of_a_data_file_is_checked_at_load(tmp_path: Path, kind: str, line: str, where: str,
                                                                literal: str, named: str) -> None:
    text = _file(*_TEXTS[kind])
    field, _, old = line.partition(" = ")
    start = text.index(line)
    end = text.index("\n", start)
    path = tmp_path / "hostile.toml"
    path.write_text(text[:start] + f"{field} = {literal}" + text[end:], "utf-8")
    with pytest.raises(RulesError) as err:
        _load(kind, path)
    msg = str(err.value)
    assert msg == f"{path}: {where}: {field} must be one line of printable characters, and holds {named}"


@pytest.mark.parametrize(("kind", "old", "new", "expected"), [
    ("taifa map", 'name = "Calatayud"\n', f'name = {PWNED}\n"col\\u001bour" = 1\n', "area 23: unknown field 'col\\x1bour'"),
    ("taifa map", "[el_cid]\n", '[el_cid]\n"\\u001b[2J" = 1\n', "el_cid: unknown field(s) '\\x1b[2J'"),
    ("taifa map", "[el_cid]\n", '["\\u001b]0;PWNED\\u0007"]\n[el_cid]\n', "unknown top-level table(s): '\\x1b]0;PWNED\\x07'"),
    ("taifa map", 'owner = "valencia"\n', f'owner = {PWNED}\n', "area 23 (Calatayud): owner 'Evil\\x1b]0;PWNED\\x07\\x1b[2J\\u202e' is"),
    ("taifa cards", 'name = "Heavy Cavalry"\n', f'name = {PWNED}\n"\\u202e" = 1\n', "card 'C01': unknown field '\\u202e'"),
    ("taifa cards", 'kind = "troop"\n', f'kind = "{"x" * 5000}"\n', "card 'C01' (Heavy Cavalry): kind '" + "x" * 36 + "... is not"),
    ("kingdom cards", 'name = "Cannon"\ntype = "attack"\nvalue = 4\n',
     f'name = {PWNED}\ntype = "attack"\nvalue = "4"\n', "card 'cannon-1': value must be a whole number, not '4'"),
], ids=["a field's name", "an el_cid field's name", "a table's name", "an owner", "a card field's name",
        "a long kind", "a refused name in another error"])
def test_an_error_quotes_the_files_keys_and_values_safely(tmp_path: Path, kind: str, old: str, new: str,
                                                          expected: str) -> None:
    """Every key and value an error quotes is written out and cut short; a name that is itself refused is left
    out of the entry's label."""
    text = _file(*_TEXTS[kind])
    path = tmp_path / "hostile.toml"
    path.write_text(text.replace(old, new, 1), "utf-8")
    with pytest.raises(RulesError) as err:
        _load(kind, path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: {expected}") and msg.isprintable() and len(msg) < 400, msg
