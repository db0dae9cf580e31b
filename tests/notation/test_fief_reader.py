"""The strict reader: every bad header or record is one RecordError naming where it is."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path
from typing import Any

import msgpack
import pytest

from notation.format import PREAMBLE, CommentRecord, Limits, RecordError, ResultRecord
from notation.reader import read_record_file

LOCATED = re.compile(r"^(byte \d+|header at byte 5|record \d+ at byte \d+): \S")


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _header(samples: dict[str, bytes]) -> dict[str, Any]:
    return read_record_file(samples["short"]).header.wire()


def _file(header: dict[str, Any], *records: Any) -> bytes:
    return PREAMBLE + _pack(header) + b"".join(_pack(r) for r in records)


def _error(data: bytes) -> str:
    with pytest.raises(RecordError) as info:
        read_record_file(data)
    message = str(info.value)
    assert "\n" not in message and LOCATED.match(message), message
    return message


@pytest.mark.parametrize("data, expected", [
    (b"", "byte 0: the file is too short to be a fiefdom record"),
    (b"FI", "byte 0: the file is too short to be a fiefdom record"),
    (b"PK\x03\x04 a zip file", "byte 0: not a fiefdom record (it does not start with FIEF)"),
    (b"FIEF", "byte 4: the file ends before the format version"),
    (b"FIEF\x02\x80", "byte 4: this record uses format version 2; this fiefdom reads version 1"),
    (PREAMBLE, "header at byte 5: the file ends inside the header"),
    (PREAMBLE + b"\xc1", "header at byte 5: not valid msgpack (a byte that starts no msgpack value)"),
    (PREAMBLE + b"\x93\x01\x02\x03", "header at byte 5: the header must be a map, not [1, 2, 3]"),
    (PREAMBLE + b"\x81\x01\x02", "header at byte 5: not valid msgpack (int is not allowed for map key"),
    (PREAMBLE + b"\xd4\x05\x00", "header at byte 5: not valid msgpack (msgpack ext types are not allowed)"),
    (PREAMBLE + b"\xc7\x00\x05", "header at byte 5: not valid msgpack (msgpack ext types are not allowed)"),
    (PREAMBLE + b"\x91" * 2000, "header at byte 5: not valid msgpack (values nested too deeply)"),
    (PREAMBLE + b"\xa1\xff", "header at byte 5: not valid msgpack (a string that is not valid UTF-8)"),
    (PREAMBLE + b"\xda\x13\x88" + b"x" * 5000, "header at byte 5: not valid msgpack (a value larger than the format"),
])
def test_bad_preamble_or_header_bytes(data: bytes, expected: str) -> None:
    assert _error(data).startswith(expected)


@pytest.mark.parametrize("change, expected", [
    ({"game": "chess"}, "unknown game 'chess' (known: tafl"),
    ({"variant": "tablut"}, "unknown tafl variant 'tablut' (known: traditional, gild-9, gild-11, copenhagen, fetlar, brandubh)"),
    ({"revision": 7}, "this record uses tafl rules revision 7; this fiefdom plays revision 1"),
    ({"options": {"quiet_moves": "many"}}, "option quiet_moves takes a whole number >= 0"),
    ({"options": {"ai_depth": 3}}, "option 'ai_depth' does not apply to gild-9"),
    ({"options": {"x": 1.5}}, "options.x holds a value of a kind the format does not allow (float)"),
    ({"options": {"x": [[[[[1]]]]]}}, "options.x is nested more than 4 deep"),
    ({"setup": {"position": "/9/"}}, "the position has 1 rows; this board has 9"),
    ({"setup": {"position": 5}}, "the options or setup cannot start a tafl game (AttributeError)"),
    ({"setup": {"colour": "red"}}, "unknown tafl setup field(s): colour"),
    ({"seats": [{"name": "a", "kind": "human", "detail": ""}]}, "tafl has 2 seats; the header lists 1"),
    ({"seats": []}, "the header lists no seats"),
    ({"seats": [{"name": "a", "kind": "robot", "detail": ""}] * 2}, "seat 0 kind must be one of human, bot, ai"),
    ({"seats": [{"name": "a", "kind": "ai"}] * 2}, "seat 0 lacks the field 'detail'"),
    ({"chance": "loaded"}, "chance must be one of seeded, recorded, manual, none, not 'loaded'"),
    ({"seed": None}, "chance is seeded but the header has no seed"),
    ({"seed": -1}, "seed must be an integer in 0..18446744073709551615, not -1"),
    ({"seed": True}, "seed must be an integer"),
    ({"created": "yesterday"}, "created must be a UTC time like 2025-01-31T12:00:00Z"),
    ({"created": "2025-02-30T00:00:00Z"}, "created must be a UTC time"),
    ({"format": 2}, "the header says format 2; the preamble says 1"),
    ({"extra": 1}, "the header has an unknown field 'extra'"),
    ({"game": ""}, "game must not be empty"),
    ({"app": "x" * 65}, "app is longer than 64 bytes"),
])
def test_bad_header_fields(samples: dict[str, bytes], change: dict[str, Any], expected: str) -> None:
    header = {**_header(samples), **change}
    assert _error(_file(header)).startswith(f"header at byte 5: {expected}")


def test_missing_header_field(samples: dict[str, bytes]) -> None:
    header = _header(samples)
    del header["seed"]
    assert _error(_file(header)) == "header at byte 5: the header lacks the field 'seed'"


def test_repeated_map_key_is_refused() -> None:
    twice = PREAMBLE + b"\x82" + _pack("game") + _pack("tafl") + _pack("game") + _pack("tafl")
    assert _error(twice) == "header at byte 5: not valid msgpack (a map repeats the key 'game')"


def _records_error(samples: dict[str, bytes], *records: Any) -> str:
    data = _file(_header(samples), *records)
    return _error(data)


DIGEST = b"\x01" * 16


@pytest.mark.parametrize("records, expected", [
    ([[0, 0]], "record 0 at byte {0}: a decision needs a seat and an option code"),
    ([[0, 2, ["d6", "d7"]]], "record 0 at byte {0}: the seat must be an integer in 0..1, not 2"),
    ([[0, 0, "d6d7"]], "record 0 at byte {0}: an option code must be an array, not 'd6d7'"),
    ([[0, 0, [1.5]]], "record 0 at byte {0}: an option code item must be an integer"),
    ([[0, 0, ["x" * 65]]], "record 0 at byte {0}: an option code item is longer than 64 bytes"),
    ([[0, 0, ["h\u0665", "h8"]]], "record 0 at byte {0}: an option code item must be ASCII, not 'h\u0665'"),
    ([[1, -1]], "record 0 at byte {0}: a chance outcome must be an integer in 0..4294967295, not -1"),
    ([[1, [1, "2"]]], "record 0 at byte {0}: a chance outcome value must be an integer"),
    ([[2, 0, b"\x01" * 15, DIGEST]], "record 0 at byte {0}: the state digest must be 16 bytes (msgpack bin)"),
    ([[2, 0, DIGEST, "x" * 16]], "record 0 at byte {0}: the running hash must be 16 bytes (msgpack bin)"),
    ([[2, 3, DIGEST, DIGEST]], "record 0 at byte {0}: the checkpoint names step 3, but it follows step 0"),
    ([[3, "hi", 1]], "record 0 at byte {0}: the comment is about step 1, which is not played yet"),
    ([[3, 5]], "record 0 at byte {0}: the comment must be a string, not 5"),
    ([[4, [0], "r", "x", [], DIGEST, DIGEST]], "record 0 at byte {0}: a result must follow a checkpoint of the last step"),
    ([[2, 0, DIGEST, DIGEST], [4, [3], "r", "x", [], DIGEST, DIGEST]], "record 1 at byte {1}: a winner must be an integer in 0..1, not 3"),
    ([[2, 0, DIGEST, DIGEST], [4, [0], "r", "x", [], DIGEST, DIGEST], [3, "after"]],
     "record 2 at byte {2}: nothing may follow the result record"),
    ([[9, 1]], "record 0 at byte {0}: unknown record type 9 (known: 0..4)"),
    ([[]], "record 0 at byte {0}: a record must be a non-empty array, not []"),
    ([{"tag": 0}], "record 0 at byte {0}: a record must be a non-empty array, not {{'tag': 0}}"),
    ([True], "record 0 at byte {0}: a record must be a non-empty array, not True"),
    ([[True, 0, ["a1", "a2"]]], "record 0 at byte {0}: unknown record type True"),
    ([[3, "x" * 5000]], "record 0 at byte {0}: not valid msgpack (a value larger than the format allows: 5000 exceeds"),
])
def test_bad_records(samples: dict[str, bytes], records: list[Any], expected: str) -> None:
    head = len(PREAMBLE + _pack(_header(samples)))
    offsets = [head]
    for r in records:
        offsets.append(offsets[-1] + len(_pack(r)))
    assert _records_error(samples, *records).startswith(expected.format(*offsets))


def test_garbage_in_the_middle_is_an_error(samples: dict[str, bytes]) -> None:
    data = samples["gild-9"]
    rec = read_record_file(data)
    at = rec.offsets[10]
    assert _error(data[:at] + b"\xc1" + data[at:]).startswith(f"record 10 at byte {at}: not valid msgpack")
    # A record that is whole msgpack but no record, then more records: an error, not a torn tail.
    assert _error(data[:at] + _pack("junk") + data[at:]).startswith(f"record 10 at byte {at}: a record must be")


@pytest.mark.parametrize("after", [
    b"\x93\x00",  # an incomplete record
    b"\x01",  # a whole value that is no record
    b"\x92\x03\xa5after",  # a whole, valid comment
])
def test_bytes_after_the_result_are_an_error(samples: dict[str, bytes], after: bytes) -> None:
    data = samples["short"]
    rec = read_record_file(data)
    assert _error(data + after) == f"record {len(rec.records)} at byte {len(data)}: nothing may follow the result record"


def test_a_record_longer_than_the_record_window_is_an_error(samples: dict[str, bytes], monkeypatch) -> None:
    data = samples["unfinished"]
    long = _pack([3, "x" * 3000])
    torn = data + long[:-1]
    assert read_record_file(torn).torn
    assert read_record_file(data + long).records[-1] == CommentRecord("x" * 3000)
    monkeypatch.setattr(Limits, "RECORD_BYTES", 1000)
    too_long = f"record {len(read_record_file(data).records)} at byte {len(data)}: the record is longer than 1000 bytes, more than any record can be"
    assert _error(torn) == too_long  # cut short, but longer than a torn record can be
    assert _error(data + long) == too_long  # whole, last
    at = read_record_file(data).offsets[10]
    assert _error(data[:at] + long + data[at:]) == (  # whole, in the middle
        f"record 10 at byte {at}: the record is longer than 1000 bytes, more than any record can be"
    )
    # The window is the whole limit: a record of exactly RECORD_BYTES is read.
    monkeypatch.setattr(Limits, "RECORD_BYTES", len(long))
    assert read_record_file(data + long).records[-1] == CommentRecord("x" * 3000)


def test_the_header_window(samples: dict[str, bytes], monkeypatch) -> None:
    data = samples["short"]
    size = read_record_file(data).offsets[0] - len(PREAMBLE)
    monkeypatch.setattr(Limits, "HEADER_BYTES", size)
    assert read_record_file(data).header.variant == "gild-9"
    assert _error(data[: len(PREAMBLE) + size - 1]) == "header at byte 5: the file ends inside the header"
    monkeypatch.setattr(Limits, "HEADER_BYTES", size - 1)
    assert _error(data) == f"header at byte 5: the header is larger than {size - 1} bytes"


def _empty_arrays(size: int) -> bytes:
    """One msgpack value of about ``size`` bytes: arrays of 1024 arrays of 15 empty arrays.

    Decoded whole it is about a million lists per MiB of bytes (~1 GB for 16 MiB)."""
    middle = b"\xdc\x04\x00" + (b"\x9f" + b"\x90" * 15) * 1024
    count = (size - 3) // len(middle)
    return b"\xdc" + count.to_bytes(2, "big") + middle * count


@pytest.mark.parametrize("where", ["header", "record"])
def test_a_hostile_value_is_refused_in_bounded_memory(samples: dict[str, bytes], where: str) -> None:
    head = PREAMBLE if where == "header" else samples["short"][: read_record_file(samples["short"]).offsets[0]]
    data = head + _empty_arrays(Limits.FILE_BYTES - len(head))
    assert Limits.FILE_BYTES - 2**16 < len(data) <= Limits.FILE_BYTES
    tracemalloc.start()
    try:
        message = _error(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert message == {
        "header": f"header at byte 5: the header is larger than {Limits.HEADER_BYTES} bytes",
        "record": f"record 0 at byte {len(head)}: the record is longer than {Limits.RECORD_BYTES} bytes, "
                  "more than any record can be",
    }[where]
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB"


def _wide(value: Any) -> bytes:
    """Valid msgpack, never the canonical encoding: every int, string, bin, array and map
    in its widest form (int64, str32, bin32, array32, map32)."""
    if type(value) is int:
        return b"\xd3" + value.to_bytes(8, "big", signed=True)
    if isinstance(value, str):
        raw = value.encode()
        return b"\xdb" + len(raw).to_bytes(4, "big") + raw
    if isinstance(value, bytes):
        return b"\xc6" + len(value).to_bytes(4, "big") + value
    if isinstance(value, (list, tuple)):
        return b"\xdd" + len(value).to_bytes(4, "big") + b"".join(_wide(v) for v in value)
    if isinstance(value, dict):
        return b"\xdf" + len(value).to_bytes(4, "big") + b"".join(_wide(k) + _wide(v) for k, v in value.items())
    return _pack(value)


def test_wide_encodings_decode_to_the_same_values() -> None:
    value = [4, [1], "the king", "", [-3], b"\x01" * 16, {"a": None, "b": True}]
    assert msgpack.unpackb(_wide(value), raw=False) == value and _wide(value) != _pack(value)


@pytest.mark.parametrize("sample", ["short", "unfinished"])
def test_only_the_canonical_encoding_is_read(samples: dict[str, bytes], sample: str) -> None:
    """Any other encoding of any record, the result's included, is refused where it is."""
    data = samples[sample]
    rec = read_record_file(data)
    ends = [*rec.offsets[1:], len(data)]
    for index, (record, start, end) in enumerate(zip(rec.records, rec.offsets, ends)):
        assert data[start:end] == _pack(record.wire())
        changed = data[:start] + _wide(record.wire()) + data[end:]
        assert _error(changed) == f"record {index} at byte {start}: the record is not in canonical form " \
            "(its bytes are not the shortest msgpack encoding of its value, in the format's key order)"
    wide_header = PREAMBLE + _wide(rec.header.wire()) + data[rec.offsets[0]:]
    assert _error(wide_header).startswith("header at byte 5: the header is not in canonical form")


def test_a_result_reason_in_a_longer_encoding_is_refused(samples: dict[str, bytes]) -> None:
    """The result record is the one record no running hash covers: its bytes are held by the canonical form."""
    data = samples["short"]
    rec = read_record_file(data)
    at = rec.offsets[-1]
    result = rec.records[-1]
    assert isinstance(result, ResultRecord)
    reason = result.result.reason.encode()
    fixstr = _pack(result.result.reason)
    str8 = b"\xd9" + bytes((len(reason),)) + reason
    assert fixstr == bytes((0xA0 + len(reason),)) + reason
    longer = data[:at] + data[at:].replace(fixstr, str8, 1)
    assert len(longer) == len(data) + 1
    assert msgpack.unpackb(longer[at:], raw=False) == msgpack.unpackb(data[at:], raw=False)
    assert _error(longer).startswith(f"record {len(rec.records) - 1} at byte {at}: the record is not in canonical form")


@pytest.mark.parametrize("change", [
    lambda h: dict(reversed(list(h.items()))),  # the keys out of order
    lambda h: {**h, "options": {"repetition": "draw", "quiet_moves": 0}},  # options unsorted
    lambda h: {**h, "seats": [dict(reversed(list(s.items()))) for s in h["seats"]]},
])
def test_a_header_out_of_key_order_is_refused(samples: dict[str, bytes], change) -> None:
    data = samples["short"]
    rec = read_record_file(data)
    header = change(rec.header.wire())
    assert _error(_file(header)).startswith("header at byte 5: the header is not in canonical form")


def test_size_limits(samples: dict[str, bytes], monkeypatch, tmp_path: Path) -> None:
    data = samples["gild-9"]
    count = len(read_record_file(data).records)
    monkeypatch.setattr(Limits, "RECORDS", count - 1)
    assert _error(data).endswith(f"the file has more than {count - 1} records")
    monkeypatch.setattr(Limits, "FILE_BYTES", len(data) - 1)
    assert _error(data) == "byte 0: the file is larger than 0 MiB, more than any record"
    path = tmp_path / "big.fief"
    path.write_bytes(data)
    with pytest.raises(RecordError, match="larger than"):
        read_record_file(path)


def test_a_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_record_file(tmp_path / "nothing.fief")
