"""Damaged and hostile bytes: RecordError or a verify failure, never another exception.

Time is bounded through hypothesis's ``deadline`` on every example, not by timing here.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.export import export_text
from notation.format import PREAMBLE, RecordError
from notation.reader import read_record_file
from notation.replay import Replay

FUZZ = settings(
    max_examples=120,
    deadline=timedelta(milliseconds=1000),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,  # the same examples on every run, so a failure reproduces
)
SAMPLES = ("short", "gild-9", "unfinished")


def _survives(data: bytes) -> bool:
    """Read, replay, verify and export ``data``; True if it was read as a record."""
    try:
        recording = read_record_file(data)
    except RecordError as err:
        assert "\n" not in str(err)
        return False
    replay = Replay(recording)
    replay.verify()
    export_text(recording)
    return True


def test_every_bit_flip_is_refused_or_fails_verify(short_record: bytes, every_bit_flip_noticed) -> None:
    every_bit_flip_noticed(short_record)


@FUZZ
@given(st.sampled_from(SAMPLES), st.data())
def test_truncated(samples: dict[str, bytes], name: str, data: st.DataObject) -> None:
    record = samples[name]
    cut = data.draw(st.integers(0, len(record)))
    _survives(record[:cut])


_edit = st.tuples(st.sampled_from(("set", "insert", "delete")), st.integers(0, 10**6), st.integers(0, 255))


@FUZZ
@given(st.sampled_from(SAMPLES), st.lists(_edit, min_size=1, max_size=8))
def test_mutated(samples: dict[str, bytes], name: str, edits: list[tuple[str, int, int]]) -> None:
    data = bytearray(samples[name])
    for kind, pos, byte in edits:
        pos %= len(data) + 1
        if kind == "insert":
            data[pos:pos] = bytes((byte,))
        elif pos < len(data):
            if kind == "set":
                data[pos] = byte
            else:
                del data[pos]
    _survives(bytes(data))


@FUZZ
@given(st.binary(max_size=2048), st.booleans())
def test_random_bytes(data: bytes, with_preamble: bool) -> None:
    _survives(PREAMBLE + data if with_preamble else data)


_scalars = (
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(allow_nan=False)
    | st.text(max_size=20) | st.binary(max_size=20)
    | st.sampled_from([0, 1, 2, 3, 4, "d6", "d7", "tafl", "gild-9", b"\x00" * 16])
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=30,
)


@FUZZ
@given(st.lists(_values, max_size=12), st.data())
def test_random_msgpack_records_after_a_good_header(
    samples: dict[str, bytes], records: list[Any], data: st.DataObject
) -> None:
    """Well-formed msgpack, schema-shaped noise: exercises validation past the parser."""
    good = read_record_file(samples["short"])
    keep = data.draw(st.integers(0, len(good.records)))
    head = good.data[: good.offsets[keep]] if keep < len(good.records) else good.data
    body = b"".join(msgpack.packb(r, use_bin_type=True) for r in records)
    _survives(head + body)


@FUZZ
@given(st.dictionaries(st.sampled_from(["format", "game", "variant", "revision", "options", "setup",
                                         "seats", "chance", "seed", "app", "created", "x"]), _values))
def test_random_header_fields(samples: dict[str, bytes], changes: dict[str, Any]) -> None:
    header = {**read_record_file(samples["short"]).header.wire(), **changes}
    _survives(PREAMBLE + msgpack.packb(header, use_bin_type=True))
