"""Typed input never crashes: any text gives a move or one RulesError line."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.engine import RulesError
from core.tafl import TaflGame
from core.tafl.board import parse_position

MOVEISH = st.text(alphabet="abcdefghijklK0123456789-x/+# ", max_size=14)


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(MOVEISH, st.text(max_size=20)))
def test_any_typed_move_is_a_move_or_one_clear_error(text: str) -> None:
    g = TaflGame("gild-9")
    try:
        code = g.parse(text)
    except RulesError as err:
        assert str(err) and "\n" not in str(err)
    else:
        assert code in g.point().options


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="/tTK0123456789x", max_size=40), size=st.sampled_from([9, 11]))
def test_any_position_string_parses_or_errors_cleanly(text: str, size: int) -> None:
    try:
        board = parse_position(text, size)
    except RulesError as err:
        assert "\n" not in str(err)
    else:
        assert len(board) == size * size


def test_huge_counts_are_refused_without_building_them() -> None:
    try:
        parse_position("/" + "/".join(["9" * 30] * 9) + "/", 9)
    except RulesError as err:
        assert "do not fit" in str(err)
    else:
        raise AssertionError("accepted an impossible row")
