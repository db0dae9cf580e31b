"""notation.wording.visible: text from a record never reaches a terminal raw (issue 9)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from notation.wording import visible

STEERING = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")


def test_plain_text_is_unchanged() -> None:
    for text in ("attackers won: the king is captured (gild OBJECT)", "Taifa of Seville", "café ♜ Córdoba", ""):
        assert visible(text) == text


def test_controls_are_written_out() -> None:
    assert visible("ok: 34 records\nforged") == "ok: 34 records\\nforged"
    assert visible("\x1b[2J\x1b]0;title\x07") == "\\x1b[2J\\x1b]0;title\\x07"
    assert visible("\t\r\x7f\x9b") == "\\t\\r\\x7f\\x9b"
    assert visible("a\u202eb\u200b") == "a\\u202eb\\u200b"  # a bidi override, a zero-width space
    assert visible("\U000e0041") == "\\U000e0041"  # a tag character (format)


@given(st.text(alphabet=st.characters(codec=None)))
def test_no_character_that_steers_a_terminal_survives(text: str) -> None:
    shown = visible(text)
    assert not any(unicodedata.category(ch) in STEERING for ch in shown)
    assert "\n" not in shown and "\x1b" not in shown
