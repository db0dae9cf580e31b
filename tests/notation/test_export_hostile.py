"""Text from a record never reaches an export raw (issue 9): seat names, seat details, the app
tag, comments and a result's reason holding any code point are written out by
``notation.wording.visible`` in text and otg, and escaped in JSON, in what is returned and in
a file written from the stream."""

from __future__ import annotations

import json
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.export import export, export_stream
from notation.format import STEP_TYPES, CommentRecord, Header, Record, ResultRecord
from notation.reader import read_record_file
from notation.wording import HIDDEN_CATEGORIES
from notation.writer import encode_game

REPLAYS = Path(__file__).parents[2] / "replays"
TAFL = read_record_file(REPLAYS / "tafl-gild-9-5-0001.fief")
TAIFA = read_record_file(REPLAYS / "taifa-el-cid-5-0001.fief")

# Any code point a record's UTF-8 can hold (no lone surrogates); short, so every field fits its limit.
ANY = st.text(st.characters(codec="utf-8"), max_size=12)
# At least one character visible() writes out, so every example is hostile; at most 64 bytes of UTF-8,
# the shortest field's limit (a seat's name, the app), which 25 characters of four bytes would pass.
HOSTILE = st.builds(lambda a, c, b: a + c + b, ANY,
                    st.characters(codec="utf-8", categories=("Cc", "Cf", "Zl", "Zp", "Co", "Cn")), ANY,
                    ).filter(lambda text: len(text.encode("utf-8")) <= 64)


def raw_hidden(text: str) -> list[str]:
    """The characters of ``text`` that visible() would have written out, but the export's own newlines."""
    return [ch for ch in text if ch != "\n" and (unicodedata.category(ch) in HIDDEN_CATEGORIES or ch == "\x7f")]


def hostile_record(base, names: list[str], details: list[str], app: str, comments: list[str],
                   reason: str | None) -> bytes:
    header: Header = base.header
    seats = tuple(replace(seat, name=names[i % len(names)], detail=details[i % len(details)])
                  for i, seat in enumerate(header.seats))
    records: list[Record] = [CommentRecord(comments[0])]
    for i, record in enumerate(base.records):
        if isinstance(record, ResultRecord) and reason is not None:
            record = replace(record, result=replace(record.result, reason=reason))
        records.append(record)
        if isinstance(record, STEP_TYPES) and i % 5 == 2:
            records.append(CommentRecord(comments[i % len(comments)]))
    return encode_game(replace(header, seats=seats, app=app), records, reseal=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(HOSTILE, min_size=1, max_size=2), details=st.lists(HOSTILE, min_size=1, max_size=2),
       app=HOSTILE, comments=st.lists(HOSTILE, min_size=1, max_size=3),
       reason=st.none() | HOSTILE, taifa=st.booleans())
def test_no_export_carries_a_raw_control_character(tmp_path_factory, names, details, app, comments, reason,
                                                   taifa) -> None:
    data = hostile_record(TAIFA if taifa else TAFL, names, details, app, comments, reason)
    recording = read_record_file(data)
    formats = ["text", "json"] + ([] if taifa else ["otg"])
    out = tmp_path_factory.mktemp("export")
    for fmt in formats:
        if fmt == "otg" and reason is not None:
            continue  # a claimed result the rules do not give: otg refuses the record
        text = export(recording, fmt)
        assert raw_hidden(text) == [], (fmt, text)
        path = out / f"x.{fmt}"
        with open(path, "w", encoding="utf-8") as f:
            for piece in export_stream(recording, fmt):
                f.write(piece)
        assert path.read_bytes().decode("utf-8") == text
        if fmt == "json":  # the strings are data there: they come back whole
            doc = json.loads(text)
            assert [s["name"] for s in doc["header"]["seats"]] == [s.name for s in recording.header.seats]
            assert doc["header"]["app"] == app
            assert doc["start_comments"] == [comments[0]]
            if reason is not None:
                assert doc["recorded_result"]["reason"] == reason


@pytest.mark.parametrize("fmt", ["text", "json", "otg"])
def test_a_control_character_is_written_out_where_it_stood(fmt: str) -> None:
    data = hostile_record(TAFL, ["Ast\x1b[2Jrid"], ["bot\u202e"], "fief\ndom", ["ok: 34 records\nforged"], None)
    text = export(read_record_file(data), fmt)
    assert "\x1b" not in text and "\u202e" not in text and "forged\n" not in text
    if fmt == "json":
        assert "\\u001b[2J" in text and "\\u202e" in text
    elif fmt == "otg":  # a tag's brackets become parentheses there
        assert "[attackers:Ast\\x1b(2Jrid]" in text and "[ok: 34 records\\nforged|]" in text
    else:  # a tag's backslashes are doubled, as PGN escapes them
        assert 'attackers: Ast\\\\x1b[2Jrid (ai, bot\\\\u202e)' in text and '[App "fief\\\\ndom"]' in text
        assert "\n{ok: 34 records\\nforged}\n1. " in text
