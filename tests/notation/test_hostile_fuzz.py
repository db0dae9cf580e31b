"""Hostile values in every field of records whose running hashes are recomputed (issue 9).

The mutation fuzzers (test_fief_fuzz.py) mostly stop at the first checkpoint, whose hash no
longer matches. Here every checkpoint and result is resealed, so the chain holds and a hostile
value reaches the schema, the game's constructor, the replay, verify and the command line: each
must end in a record read, or one visible line (RecordError, or verify's verdict), never a
traceback, within hypothesis's deadline.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from notation.export import export_json, export_text
from notation.format import HEADER_KEYS, PREAMBLE, SEAT_KEYS, Chain, RecordError, Tag
from notation.reader import read_record_file
from notation.replay import Replay
from notation.writer import encode_game
from tui.cli_replay import replay_app

ROOT = Path(__file__).resolve().parents[2]
TAIFA = {name: (ROOT / "replays" / f"{name}-0001.fief").read_bytes()
         for name in ("taifa-el-cid-5", "taifa-standard-7")}
STEERING = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")
HOSTILE = settings(
    max_examples=150,
    deadline=timedelta(milliseconds=1500),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    derandomize=True,
)
cli = CliRunner()

# Text a stranger would send: controls, escapes, bidi overrides, long and odd.
_steering = st.sampled_from(["\x1b[2J", "\x1b]0;title\x07", "\n", "\r", "\x9b", "\u202e", "\u2028", "\x00",
                             "\ufeff", "\U000e0041", "\x7f", "\t"])
_texts = (st.lists(st.characters(codec="utf-8") | _steering, max_size=24).map("".join)
          | st.sampled_from(["", "ok: 34 records, result defenders won", "x" * 300, "é" * 40, "9" * 5000,
                             "tafl", "taifa", "gild-9", "el-cid", "seeded", "2025-01-31T12:34:56Z", "human", "bot"]))
_ints = st.sampled_from([0, 1, -1, 2**31 - 1, 2**31, -(2**31), 2**32, 2**63 - 1, -(2**63), 2**64 - 1, 10**18]) \
    | st.integers(-(2**63), 2**64 - 1)
_scalars = st.none() | st.booleans() | _ints | st.floats() | _texts | st.binary(max_size=20)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_texts, inner, max_size=5),
    max_leaves=12,
)
_deep = st.integers(5, 200).map(lambda n: [[]] * 1 if n < 6 else _nest(n))


def _nest(n: int) -> Any:
    value: Any = "leaf"
    for _ in range(n):
        value = [value]
    return value


HOSTILE_VALUES = _values | _deep


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def sealed(header: Any, records: list[Any]) -> bytes:
    """A file of these wire values with every checkpoint's and result's running hash recomputed,
    as ``encode_game(..., reseal=True)`` does for typed records."""
    head = PREAMBLE + _pack(header)
    chain = Chain(head)
    out = [head]
    for record in records:
        if isinstance(record, list) and record and record[0] in (Tag.CHECKPOINT, Tag.RESULT) \
                and len(record) in (4, 7):
            record = [*record[:-1], chain.digest()]
        data = _pack(record)
        chain.update(data)
        out.append(data)
    return b"".join(out)


def _wire(data: bytes) -> tuple[dict[str, Any], list[list[Any]]]:
    rec = read_record_file(data)
    return rec.header.wire(), [r.wire() for r in rec.records]


def _visible_line(text: str) -> None:
    assert "\n" not in text and not [ch for ch in text if unicodedata.category(ch) in STEERING], text


def survives(data: bytes, tmp_path: Path) -> bool:
    """Read, replay, verify and export ``data``, and verify it at the command line: a record read or
    one visible line, never another exception. True if it was read."""
    try:
        recording = read_record_file(data)
    except RecordError as err:
        _visible_line(str(err))
        return False
    replay = Replay(recording)
    report = replay.verify()
    _visible_line(report.verdict)
    if replay.failure is not None:
        _visible_line(str(replay.failure))
    export_text(replay)
    export_json(replay)
    path = tmp_path / "hostile.fief"
    path.write_bytes(data)
    result = cli.invoke(replay_app, ["verify", str(path)])
    assert result.exit_code in (0, 1) and result.stdout.count("\n") == 1, result.output
    _visible_line(result.stdout.rstrip("\n"))
    return True


@pytest.fixture
def bases(samples: dict[str, bytes]) -> dict[str, bytes]:
    return {**samples, **TAIFA}


BASES = st.sampled_from(("short", "gild-9", "unfinished", *TAIFA))


def test_resealed_records_are_read_when_untouched(bases: dict[str, bytes]) -> None:
    """The resealer is faithful: an untouched record comes back byte for byte."""
    for data in bases.values():
        header, records = _wire(data)
        assert sealed(header, records) == data
        rec = read_record_file(data)
        assert encode_game(rec.header, rec.records, reseal=True) == data


@HOSTILE
@given(base=BASES, key=st.sampled_from(HEADER_KEYS), value=HOSTILE_VALUES)
def test_a_hostile_header_field(bases: dict[str, bytes], tmp_path: Path, base: str, key: str, value: Any) -> None:
    header, records = _wire(bases[base])
    header[key] = value
    survives(sealed(header, records), tmp_path)


@HOSTILE
@given(base=BASES, key=st.sampled_from(SEAT_KEYS), seat=st.integers(0, 5), value=HOSTILE_VALUES)
def test_a_hostile_seat_field(bases: dict[str, bytes], tmp_path: Path, base: str, key: str, seat: int,
                              value: Any) -> None:
    header, records = _wire(bases[base])
    header["seats"][seat % len(header["seats"])][key] = value
    survives(sealed(header, records), tmp_path)


@HOSTILE
@given(base=BASES, where=st.sampled_from(("options", "setup")), name=_texts, value=HOSTILE_VALUES,
       keep=st.booleans())
def test_hostile_options_and_setup(bases: dict[str, bytes], tmp_path: Path, base: str, where: str, name: str,
                                   value: Any, keep: bool) -> None:
    """A new or changed option or setup field, by any name and of any value; ``keep``: an existing
    one's name (``quiet_moves``, ``bots``, ``almoravid_hand``) when there is one."""
    header, records = _wire(bases[base])
    fields = dict(header[where])
    if keep and fields:
        name = sorted(fields)[len(name) % len(fields)]
    fields[name] = value
    header[where] = {k: fields[k] for k in sorted(fields)} if all(isinstance(k, str) for k in fields) else fields
    survives(sealed(header, records), tmp_path)


@HOSTILE
@given(base=BASES, at=st.integers(0, 10**6), item=st.integers(0, 8), value=HOSTILE_VALUES)
def test_a_hostile_record_field(bases: dict[str, bytes], tmp_path: Path, base: str, at: int, item: int,
                                value: Any) -> None:
    """Any item of any record (its tag too) replaced; checkpoints and the result resealed."""
    header, records = _wire(bases[base])
    record = records[at % len(records)]
    record[item % len(record)] = value
    survives(sealed(header, records), tmp_path)


@settings(HOSTILE, max_examples=60)  # each example replays a whole game: fewer of them
@given(base=BASES, text=_texts, reason=_texts, rule=_texts, at=st.integers(0, 10**6))
def test_hostile_free_text_is_read_and_shown_visibly(bases: dict[str, bytes], tmp_path: Path, base: str, text: str,
                                                     reason: str, rule: str, at: int) -> None:
    """A comment anywhere and a result of any words: read (within their lengths), and every line shown visibly."""
    header, records = _wire(bases[base])
    finished = records[-1][0] == Tag.RESULT
    # After the first checkpoint; before the last checkpoint of a finished record (which the result follows).
    records.insert(1 + at % (len(records) - 2 if finished else len(records)), [int(Tag.COMMENT), text])
    if finished:
        records[-1][2:4] = [reason, rule]
    read = survives(sealed(header, records), tmp_path)
    if len(text.encode()) <= 4096 and len(reason.encode()) <= 256 and len(rule.encode()) <= 256:
        assert read
