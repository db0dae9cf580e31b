"""Text from a record never controls the terminal (issue 9).

The reader refuses control characters where they can never belong (names: game, variant,
chance, created, seat kind, keys in options and setup, option code strings; strings in
options and setup), and every free text (seat names and details, app, comments, a result's
reason and rule) reaches the command line's output visibly: ``replay verify`` prints exactly
one line, ``show`` and ``export`` never an escape sequence.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from notation.format import CommentRecord, DecisionRecord, RecordError, ResultRecord
from notation.reader import read_record_file
from notation.schema import SchemaError, code_from_wire
from notation.verify import verify
from notation.writer import encode_game
from tui.cli_replay import replay_app

STEERING = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")
HOSTILE = ["\x1b[2J", "\x1b]0;title\x07", "\n", "\r", "\x9b2J", "\u202e", "\u2028", "\x00", "\x7f", "\u200b"]
FORGED = "\nok: 34 records, result defenders won"


def steers(text: str) -> list[str]:
    """The characters of ``text`` that could steer a terminal or hide text (line breaks aside)."""
    return [ch for ch in text if ch != "\n" and unicodedata.category(ch) in STEERING]


def hostile(data: bytes, field: str, text: str) -> bytes:
    """The record ``data`` with ``text`` in one free-text field, its running hashes recomputed."""
    rec = read_record_file(data)
    header, records = rec.header, list(rec.records)
    if field in ("name", "detail"):
        seats = list(header.seats)
        seats[0] = replace(seats[0], **{field: text})
        header = replace(header, seats=tuple(seats))
    elif field == "app":
        header = replace(header, app=text)
    elif field == "comment":
        at = next(i for i, r in enumerate(records) if isinstance(r, CommentRecord))
        records[at] = CommentRecord(text, records[at].step)  # type: ignore[union-attr]
    else:
        last = records[-1]
        assert isinstance(last, ResultRecord)
        records[-1] = replace(last, result=replace(last.result, **{field: text}))
    return encode_game(header, records, reseal=True)


# -- the reader refuses control characters in names ---------------------------------------


def _header_error(data: bytes, **changes: Any) -> str:
    rec = read_record_file(data)
    with pytest.raises(RecordError) as err:
        read_record_file(encode_game(replace(rec.header, **changes), rec.records, reseal=True))
    return str(err.value)


@pytest.mark.parametrize("bad", ["\x1b[2J", "\n", "\x00", "\x7f", "\x9b", "\u202e", "é"])
def test_names_in_the_header_are_printable_ascii(short_record: bytes, bad: str) -> None:
    rec = read_record_file(short_record)
    seats = (replace(rec.header.seats[0], kind="human" + bad), rec.header.seats[1])
    cases = {
        "game": {"game": "tafl" + bad},
        "variant": {"variant": "gild-9" + bad},
        "chance": {"chance": "seeded" + bad},
        "created": {"created": "2025-01-31T12:34:56Z" + bad},
        "seat 0 kind": {"seats": seats},
        "a key in options": {"options": {"quiet_moves" + bad: 1}},
        "a key in setup": {"setup": {**rec.header.setup, "position" + bad: "x"}},
        "a key in setup.deep": {"setup": {**rec.header.setup, "deep": {"k" + bad: 1}}},
    }
    for what, changes in cases.items():
        message = _header_error(short_record, **changes)
        assert message.startswith("header at byte 5: ") and what in message, (what, message)
        assert not steers(message) and "\n" not in message


def test_created_is_ascii_digits(short_record: bytes) -> None:
    message = _header_error(short_record, created="٢٠٢٥-01-31T12:34:56Z")  # Arabic-Indic digits
    assert "created must be" in message


@pytest.mark.parametrize("bad", ["\x1b[2J", "\n", "\x00", "\x85", "\u202e", "\u2028", "\ufeff"])
def test_strings_in_options_and_setup_hold_no_control_character(short_record: bytes, bad: str) -> None:
    rec = read_record_file(short_record)
    message = _header_error(short_record, setup={**rec.header.setup, "position": rec.header.setup["position"] + bad})
    assert "setup.position holds a control character" in message and not steers(message)
    message = _header_error(short_record, options={"names": ["León", "x" + bad]})
    assert "options.names holds a control character" in message and not steers(message)


def test_plain_unicode_in_options_and_setup_is_read(short_record: bytes) -> None:
    """Only what steers a terminal is refused: accents and other scripts are text (the game may refuse them)."""
    rec = read_record_file(short_record)
    data = encode_game(replace(rec.header, setup={**rec.header.setup, "note": "León, Córdoba ♜"}),
                       rec.records, reseal=True)
    with pytest.raises(RecordError) as err:  # read, then the game refuses the setup field it does not know
        read_record_file(data)
    assert "control" not in str(err.value)


@pytest.mark.parametrize("bad", ["\x1b", "\n", "\x00", "\x7f"])
def test_option_code_strings_are_printable_ascii(short_record: bytes, bad: str) -> None:
    rec = read_record_file(short_record)
    records = list(rec.records)
    at = next(i for i, r in enumerate(records) if isinstance(r, DecisionRecord))
    records[at] = DecisionRecord(0, ("d6" + bad, "d7"))
    with pytest.raises(RecordError) as err:
        read_record_file(encode_game(rec.header, records, reseal=True))
    assert "an option code item must be printable ASCII" in str(err.value) and not steers(str(err.value))


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(max_codepoint=0x2100), max_size=70) | st.text("ab\x1b\x7f\u0665", max_size=70))
def test_an_option_code_string_passes_when_printable_ascii_of_at_most_64_bytes(text: str) -> None:
    """The schema's one-test path for the common code item and its step-by-step checks agree with the rule."""
    allowed = text.isascii() and text.isprintable() and len(text) <= 64
    try:
        assert code_from_wire([text, 1]) == (text, 1) and allowed
    except SchemaError as err:
        assert not allowed and str(err).startswith("an option code item ")


@pytest.mark.parametrize("field", ["name", "detail", "app", "comment", "reason", "rule"])
def test_free_text_is_read_as_it_is(short_record: bytes, field: str) -> None:
    text = "".join(HOSTILE)
    rec = read_record_file(hostile(short_record, field, text))
    found = {
        "name": rec.header.seats[0].name, "detail": rec.header.seats[0].detail, "app": rec.header.app,
        "comment": next(r.text for r in rec.records if isinstance(r, CommentRecord)),
        "reason": rec.result.reason if rec.result else None, "rule": rec.result.rule if rec.result else None,
    }
    assert found[field] == text


def test_record_errors_are_one_visible_line() -> None:
    err = RecordError("record 3 at byte 9: 'x\x1b[2J\ny'\u202e")
    assert str(err) == "record 3 at byte 9: 'x\\x1b[2J y'\\u202e"


# -- the command line shows free text visibly ------------------------------------------------

cli = CliRunner()
FIELDS = ("name", "detail", "app", "comment", "reason", "rule")
# Any code point UTF-8 can carry, with the characters that steer a terminal drawn often.
ANY_TEXT = st.lists(st.characters(codec="utf-8") | st.sampled_from(HOSTILE), max_size=10).map("".join)
PROPERTY = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _run(*args: str | Path) -> tuple[int, str, str]:
    result = cli.invoke(replay_app, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def test_a_forged_line_stays_on_the_verify_line(short_record: bytes, tmp_path: Path) -> None:
    """The issue's example: a reason holding a newline and a line that looks like verify's own."""
    path = tmp_path / "forged.fief"
    path.write_bytes(hostile(short_record, "reason", "the king reached a corner" + FORGED + "\x1b[2J"))
    code, out, err = _run("verify", path)
    assert code == 1 and out.count("\n") == 1 and out.startswith("differs at step 4: ")
    assert "\\nok: 34 records, result defenders won\\x1b[2J" in out and not steers(out) and not err


def test_verify_of_a_good_record_with_hostile_names_is_one_line(short_record: bytes, tmp_path: Path) -> None:
    path = tmp_path / "names.fief"
    path.write_bytes(hostile(short_record, "name", "Ev\x1b[2Jil" + FORGED))
    assert verify(read_record_file(path)).ok
    code, out, _ = _run("verify", path)
    assert code == 0 and out.count("\n") == 1 and out.startswith("ok: ")


SHOWN = ("0", "2", "4")  # the steps `replay show` draws of each hostile record


@pytest.fixture(scope="module")
def clean_lines(samples: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory) -> dict[str, int]:
    """How many lines `replay show` draws at each of :data:`SHOWN` of the short record as it was: the
    same for every example below, so drawn once."""
    clean = tmp_path_factory.mktemp("clean") / "clean.fief"
    clean.write_bytes(samples["short"])
    return {step: _run("show", clean, "--step", step)[1].count("\n") for step in SHOWN}


@PROPERTY
@given(field=st.sampled_from(FIELDS), text=ANY_TEXT)
def test_no_record_text_reaches_verify_or_show_raw(short_record: bytes, clean_lines: dict[str, int], tmp_path: Path,
                                                   field: str, text: str) -> None:
    path = tmp_path / "hostile.fief"
    path.write_bytes(hostile(short_record, field, text))
    code, out, err = _run("verify", path)
    assert code in (0, 1) and out.count("\n") == 1 and out.endswith("\n"), out
    assert not steers(out) and not steers(err)
    for step in SHOWN:
        code, out, err = _run("show", path, "--step", step)
        assert code == 0 and not steers(out) and not steers(err), out
        assert out.count("\n") == clean_lines[step]  # no line forged


@PROPERTY
@given(field=st.sampled_from(FIELDS), text=ANY_TEXT, fmt=st.sampled_from(("text", "json", "otg")))
def test_no_record_text_reaches_an_export_raw(short_record: bytes, tmp_path: Path, field: str, text: str,
                                              fmt: str) -> None:
    path = tmp_path / "hostile.fief"
    path.write_bytes(hostile(short_record, field, text))
    code, out, err = _run("export", path, "--format", fmt)
    assert code in (0, 1) and not steers(out) and not steers(err), out
    out_file = tmp_path / f"out.{fmt}"
    out_file.unlink(missing_ok=True)
    _run("export", path, "--format", fmt, "--out", out_file)
    if out_file.exists():
        assert not steers(out_file.read_text("utf-8"))
