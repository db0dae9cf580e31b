"""The strict reader: .fief bytes from an untrusted source -> a validated :class:`Recording`.

Every failure is a :class:`RecordError` naming the record and byte offset.
msgpack runs with size and length limits and ext types are refused; the header
is decoded from at most ``Limits.HEADER_BYTES`` bytes and each record from at
most ``Limits.RECORD_BYTES``, so what one value can make the decoder build is
bounded by those windows, not by the file. Every value is checked against the
schema and must be byte for byte the canonical encoding the writer produces.
Only an incomplete last record (a write cut short by a crash) is dropped, and
then ``Recording.torn`` says so. A finished record may be followed by an annex (notes and
analysis, notation/annex.py), read within its own limits into ``Recording.annex``; one that is
torn, damaged or written for another version of the record is left out, never an error, and
``Recording.annex_warning`` says why in one line.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, Union, overload

import msgpack

from core import games as core_games
from core.engine import Result, RulesError
from notation.annex import (
    ANALYSIS_KEYS, ANNEX_KEYS, ANNEX_MAGIC, ANNEX_PREAMBLE, ANNEX_VERSION, Annex, AnnexLimits, judged_from_wire,
    note_from_wire, record_hash,
)
from notation.catalog import GameLookup, build_game
from notation.deal import SECRET_BYTES
from notation.files import read_regular
from notation.format import (
    HASH_SIZE, MAGIC, PREAMBLE, ChanceRecord, CheckpointRecord, CommentRecord, DecisionRecord, Header, Limits, Record,
    RecordError, ResultRecord, STEP_TYPES, Tag, encode_header, encode_record, pack, short,
)
from notation.schema import SchemaError, header_from_wire, record_from_wire
from notation.wording import visible

Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"]
T = TypeVar("T")


# A record of at most this many records keeps the ones the reader decoded (a few MB at most): a
# verify or a replay then walks them without decoding each again. A longer one (a record of
# 200,000 moves) decodes a record each time it is asked for, and its memory stays the file's.
KEEP_DECODED = 20_000
# Steps already read, by seat count then bytes: a move or an outcome recurs within a record and
# across a folder's records, and one found valid and canonical once is the same record again.
# Frozen records, shared; emptied when it holds KNOWN_STEPS, so its memory stays bounded.
KNOWN_STEPS = 16_384
_known_steps: dict[int, dict[bytes, Record]] = {}


class Records(Sequence[Record]):
    """A recording's records: those the reader decoded (``decoded``), or, for a long record, each
    decoded again from the file's bytes when asked for.

    The reader has checked every record already, so decoding one again cannot fail.
    """

    def __init__(self, data: bytes, offsets: array[int], tags: bytes, seats: int,
                 decoded: list[Record] | None = None) -> None:
        self._data = data
        self._offsets = offsets
        self.tags = tags  # each record's type tag (notation.format.Tag), one byte a record
        self._seats = seats
        self._decoded = decoded

    def __len__(self) -> int:
        return len(self._offsets)

    @overload
    def __getitem__(self, index: int) -> Record: ...
    @overload
    def __getitem__(self, index: slice) -> list[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | list[Record]:
        if isinstance(index, slice):
            return [self._decode(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("record index out of range")
        return self._decode(index)

    def __iter__(self) -> Iterator[Record]:
        if self._decoded is not None:
            return iter(self._decoded)
        return (self._decode(i) for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Records):
            other = tuple(other)
        return isinstance(other, (tuple, list)) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple or list: unhashable, as a list is

    def __repr__(self) -> str:
        return f"<{len(self)} records>"

    def _decode(self, index: int) -> Record:
        if self._decoded is not None:
            return self._decoded[index]
        start = self._offsets[index]
        end = self._offsets[index + 1] if index + 1 < len(self._offsets) else len(self._data)
        value = msgpack.unpackb(self._data[start:end], raw=False, use_list=True)
        if self.tags[index] == Tag.DECISION:  # the commonest, built straight: the reader checked it
            return DecisionRecord(value[1], tuple(value[2]), value[3] if len(value) == 4 else None)
        return record_from_wire(value, self._seats)


@dataclass(frozen=True)
class Recording:
    header: Header
    records: Records
    offsets: Sequence[int]  # byte offset of each record in the file
    data: bytes  # the file up to the end of its last whole record
    torn_bytes: int = 0  # length of the incomplete last record that was dropped
    steps: int = 0  # the number of decision and chance records
    annex: Annex | None = None  # the notes and analysis after a finished record (notation/annex.py)
    annex_warning: str = ""  # why an annex after the result was ignored (one line), "" when none was

    @property
    def torn(self) -> bool:
        return self.torn_bytes > 0

    @property
    def end(self) -> int:
        return len(self.data)

    @property
    def result(self) -> Result | None:
        last = self.records[-1] if self.records.tags and self.records.tags[-1] == Tag.RESULT else None
        return last.result if isinstance(last, ResultRecord) else None


def read_record_file(source: Source, *, games: GameLookup = core_games.info) -> Recording:
    """Read and validate a record from a path or from bytes. OSError passes through."""
    return run(reading(source, games=games))


def run(work: Generator[Any, None, T]) -> T:
    """What a generator of work in slices returns, its slices run one after another."""
    while True:
        try:
            next(work)
        except StopIteration as done:
            value: T = done.value
            return value


def reading(source: Source, *, games: GameLookup = core_games.info,
            every: int = 2048) -> Generator[float, None, Recording]:
    """:func:`read_record_file` in slices: yields the part of the file read so far (0..1) after
    every ``every`` records and returns the Recording, so a screen stays live while it reads."""
    data = _load(source)
    _check_preamble(data)
    header, offset = _read_header(data, games)
    stream = _Stream(data, offset, Limits.RECORD_BYTES)
    body = _Body(chance=header.chance != "none")
    annex: Annex | None = None
    warning = ""  # why an annex was ignored
    annexed = False  # the file ends with an annex (read or ignored), not a torn record
    decoded: list[Record] | None = []  # the records, kept while there are at most KEEP_DECODED
    known = _known_steps.setdefault(len(header.seats), {})
    while stream.offset < len(data):
        offset = stream.offset
        if len(body.offsets) % every == every - 1:
            yield offset / len(data)
        if body.finished:
            if not ANNEX_MAGIC.startswith(data[offset:offset + len(ANNEX_MAGIC)]):  # an annex, or one cut short
                raise RecordError(f"{_at(body, offset)}: nothing may follow the result record")
            annex, warning = _read_annex(data, offset, len(header.seats), body.steps)
            annexed = True
            break
        try:
            raw, encoded = stream.next()
        except msgpack.OutOfData:
            if len(data) - offset > Limits.RECORD_BYTES:
                raise RecordError(
                    f"{_at(body, offset)}: the record is longer than {Limits.RECORD_BYTES} bytes, more than any record can be"
                ) from None
            break  # an incomplete last record: a write cut short
        except Exception as err:  # msgpack's and our hooks' errors, whatever their type
            raise RecordError(f"{_at(body, offset)}: not valid msgpack ({_why(err)})") from None
        try:
            key = bytes(encoded)
            known_record = known.get(key)
            if known_record is None:
                record = record_from_wire(raw, len(header.seats))
                if encode_record(record) != encoded:
                    raise SchemaError(_NOT_CANONICAL.format("record"))
                if isinstance(record, STEP_TYPES):
                    if len(known) >= KNOWN_STEPS:
                        known.clear()
                    known[key] = record
            else:
                record = known_record
            body.add(record, offset)
        except SchemaError as err:
            if data.startswith(ANNEX_MAGIC, offset):  # looked for only here: never on the way of a good record
                raise RecordError(f"{_at(body, offset)}: an annex (notes) may only follow a result record") from None
            raise RecordError(f"{_at(body, offset)}: {err}") from None
        if decoded is not None and len(decoded) < KEEP_DECODED:
            decoded.append(record)
        else:
            decoded = None
    end = stream.offset  # the end of the last whole record
    kept = bytes(data[:end])
    records = Records(kept, body.offsets, bytes(body.tags), len(header.seats), decoded)
    torn = 0 if annexed else len(data) - end
    return Recording(header, records, body.offsets, kept, torn, body.steps, annex, warning)


def _at(body: _Body, offset: int) -> str:
    """Where the record being read is, for its error (worded only then)."""
    return f"record {len(body.offsets)} at byte {offset}"


def read_header(source: Source, *, games: GameLookup = core_games.info) -> Header:
    """The header alone, checked as :func:`read_record_file` checks it: a viewer shows a long
    record's start while the rest is read. RecordError, or OSError, as there."""
    data = _load(source)
    _check_preamble(data)
    return _read_header(data, games)[0]


_NOT_CANONICAL = (
    "the {} is not in canonical form (its bytes are not the shortest msgpack encoding "
    "of its value, in the format's key order)"
)


def _load(source: Source) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        data = read_regular(source, Limits.FILE_BYTES)  # a FIFO or a device is refused, never waited on
    if len(data) > Limits.FILE_BYTES:
        raise RecordError(f"byte 0: the file is larger than {Limits.FILE_BYTES // 2**20} MiB, more than any record")
    return data


def _check_preamble(data: bytes) -> None:
    if not data.startswith(MAGIC):
        if len(data) < len(MAGIC) and MAGIC.startswith(data):
            raise RecordError("byte 0: the file is too short to be a fiefdom record")
        raise RecordError("byte 0: not a fiefdom record (it does not start with FIEF)")
    if len(data) < len(PREAMBLE):
        raise RecordError(f"byte {len(MAGIC)}: the file ends before the format version")
    version = data[len(MAGIC)]
    if version != PREAMBLE[-1]:
        raise RecordError(
            f"byte {len(MAGIC)}: this record uses format version {version}; "
            f"this fiefdom reads version {PREAMBLE[-1]}"
        )


def _unique_keys(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"a map repeats the key {short(key)}")
        out[key] = value
    return out


_NO_EXT = "msgpack ext types are not allowed"


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(_NO_EXT)  # only an empty ext gets here: max_ext_len=0 stops the rest


def _unpacker(window: int, max_bin: int = HASH_SIZE) -> msgpack.Unpacker:
    return msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        use_list=True,
        object_pairs_hook=_unique_keys,
        ext_hook=_no_ext,
        max_buffer_size=window,
        max_str_len=Limits.STR_BYTES,
        max_bin_len=max_bin,
        max_array_len=Limits.ARRAY_LEN,
        max_map_len=Limits.MAP_LEN,
        max_ext_len=0,
    )


class _Stream:
    """msgpack values one after another from ``data[start:]``, the decoder never given
    more than ``window`` bytes from the start of the value it is decoding.

    A value longer than the window raises OutOfData, like a value cut short by the
    end of the file; what the decoder builds stays bounded by the window either way.
    """

    def __init__(self, data: bytes, start: int, window: int, max_bin: int = HASH_SIZE) -> None:
        self._view = memoryview(data)
        self._start = start
        self._window = window
        self._unpacker = _unpacker(window, max_bin)
        self._fed = start  # the file's bytes up to here are in the unpacker
        self.offset = start  # where the next value starts

    def next(self) -> tuple[Any, memoryview]:
        """The next value and its bytes. The unpacker holds at most ``window`` bytes: those
        of this value and after it, never more of the file."""
        self._feed()
        value = self._unpacker.unpack()
        start, self.offset = self.offset, self._start + self._unpacker.tell()
        return value, self._view[start:self.offset]

    def container(self, read: Callable[[msgpack.Unpacker], int]) -> int:
        """The item count of the map or array that starts here (``read``: the unpacker's
        ``read_map_header`` or ``read_array_header``): its items are the next values."""
        self._feed()
        items = read(self._unpacker)
        self.offset = self._start + self._unpacker.tell()
        return items

    def _feed(self) -> None:
        end = min(self.offset + self._window, len(self._view))
        if end > self._fed:
            self._unpacker.feed(self._view[self._fed:end])
            self._fed = end


def _why(err: Exception) -> str:
    if isinstance(err, msgpack.StackError):
        return "values nested too deeply"
    if isinstance(err, msgpack.FormatError):
        return "a byte that starts no msgpack value"
    if isinstance(err, UnicodeDecodeError):
        return "a string that is not valid UTF-8"
    text = str(err).splitlines()[0] if str(err) else type(err).__name__
    if "max_ext_len" in text:
        return _NO_EXT
    if "exceeds max_" in text:
        return f"a value larger than the format allows: {text}"
    return text[:120]


_HEADER_AT = f"header at byte {len(PREAMBLE)}"


def _header_wire(data: bytes) -> tuple[Any, bytes | memoryview, int]:
    """The header's decoded value, its bytes, and the offset of the first record."""
    stream = _Stream(data, len(PREAMBLE), Limits.HEADER_BYTES, SECRET_BYTES)  # the deal's bins are the longest
    try:
        raw, encoded = stream.next()
    except msgpack.OutOfData:
        if len(data) - len(PREAMBLE) > Limits.HEADER_BYTES:
            raise RecordError(f"{_HEADER_AT}: the header is larger than {Limits.HEADER_BYTES} bytes") from None
        raise RecordError(f"{_HEADER_AT}: the file ends inside the header") from None
    except Exception as err:
        raise RecordError(f"{_HEADER_AT}: not valid msgpack ({_why(err)})") from None
    return raw, encoded, stream.offset


def peek_header(source: Source) -> Header:
    """The header as written, without starting its game: what a caller reads to learn which of a
    user's own data files (named by fingerprint in its setup) the game needs. Only the header's
    bytes are read. RecordError, OSError."""
    head = len(PREAMBLE) + Limits.HEADER_BYTES + 1  # one byte more tells a header too large
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source[:head])
    else:
        data = read_regular(source, head=head)
    _check_preamble(data)
    try:
        return header_from_wire(_header_wire(data)[0])
    except SchemaError as err:
        raise RecordError(f"{_HEADER_AT}: {err}") from None


def _read_header(data: bytes, games: GameLookup) -> tuple[Header, int]:
    """The header and the offset of the first record."""
    where = _HEADER_AT
    raw, encoded, offset = _header_wire(data)
    try:
        header = header_from_wire(raw)
        build_game(header, games)
        if encode_header(header)[len(PREAMBLE):] != encoded:
            raise SchemaError(_NOT_CANONICAL.format("header"))
    except (SchemaError, RulesError) as err:
        raise RecordError(f"{where}: {err}") from None
    except Exception as err:  # a lookup that fails some other way
        raise RecordError(f"{where}: cannot start the game ({type(err).__name__})") from None
    return header, offset


class _Body:
    """The order rules between records: checkpoints name the step they follow,
    a comment names a step already played, a result is last and follows a checkpoint;
    a record whose header says ``chance: "none"`` has no chance record.
    Keeps each record's offset and type, and the last record, not the records."""

    def __init__(self, chance: bool = True) -> None:
        self.chance = chance  # whether the header allows chance records
        self.offsets = array("I")
        self.tags = bytearray()
        self.last: Record | None = None
        self.steps = 0

    @property
    def finished(self) -> bool:
        return isinstance(self.last, ResultRecord)

    def add(self, record: Record, offset: int) -> None:
        previous = self.last
        if len(self.offsets) >= Limits.RECORDS:
            raise SchemaError(f"the file has more than {Limits.RECORDS} records")
        if isinstance(record, ChanceRecord) and not self.chance:
            raise SchemaError('a chance outcome, but the header says chance "none", a game without chance points')
        if isinstance(record, (DecisionRecord, ChanceRecord)):
            self.steps += 1
        elif isinstance(record, CheckpointRecord) and record.step != self.steps:
            raise SchemaError(f"the checkpoint names step {record.step}, but it follows step {self.steps}")
        elif isinstance(record, CommentRecord) and record.step is not None and record.step > self.steps:
            raise SchemaError(f"the comment is about step {record.step}, which is not played yet")
        elif isinstance(record, ResultRecord) and not (
            isinstance(previous, CheckpointRecord) and previous.step == self.steps
        ):
            raise SchemaError("a result must follow a checkpoint of the last step")
        self.offsets.append(offset)
        self.tags.append(record.tag)
        self.last = record


def _read_annex(data: bytes, start: int, seats: int, steps: int) -> tuple[Annex | None, str]:
    """The annex that starts at ``start``, after the result record, and ""; or None and why it was
    ignored, in one line. A torn, damaged, too large or foreign annex never fails the record: the
    record is read without it (docs/replay-format.md, section 13)."""
    where = f"the notes at byte {start}"
    body = start + len(ANNEX_PREAMBLE)
    if len(data) < body:
        return None, f"{where} are cut short; they are ignored"
    if data[body - 1] != ANNEX_VERSION:
        return None, (f"{where} are in annex version {data[body - 1]}; this fiefdom reads version "
                      f"{ANNEX_VERSION}; they are ignored")
    if len(data) - body > AnnexLimits.BYTES:
        return None, f"{where} take more than {AnnexLimits.BYTES // 2**20} MiB; they are ignored"
    try:
        stream = _Stream(data, body, AnnexLimits.VALUE_BYTES, HASH_SIZE)
        wire = _annex_wire(stream, seats, steps)
        if stream.offset != len(data):
            raise SchemaError("bytes follow the annex's map")
        annex, of = Annex.from_wire(wire, seats=seats, steps=steps)
        if pack(annex.wire(of)) != data[body:]:
            raise SchemaError(_NOT_CANONICAL.format("annex"))
    except msgpack.OutOfData:
        return None, (f"{where} are cut short (or hold a value larger than {AnnexLimits.VALUE_BYTES} bytes); "
                      "they are ignored")
    except SchemaError as err:
        return None, visible(" ".join(f"{where} are damaged ({err}); they are ignored".split()))
    except Exception as err:  # msgpack's errors, whatever their type
        return None, visible(f"{where} are damaged (not valid msgpack: {_why(err)}); they are ignored")
    if of != record_hash(memoryview(data)[:start]):
        return None, f"{where} were written for this record before it changed; they are ignored"
    return annex, ""


def _annex_wire(stream: _Stream, seats: int, steps: int) -> dict[str, Any]:
    """The annex's map decoded value by value, each from at most ``AnnexLimits.VALUE_BYTES``, each note
    and judged decision checked as it comes: what a hostile annex makes the decoder build stays within
    what a valid annex of its size would (Annex.from_wire then checks the whole)."""
    def notes() -> list[Any]:
        return _array_stream(stream, AnnexLimits.NOTES, lambda value: note_from_wire(value, steps))

    def decisions() -> list[Any]:
        return _array_stream(stream, min(steps, AnnexLimits.DECISIONS),
                             lambda value: judged_from_wire(value, seats, steps))

    def analysis() -> dict[str, Any]:
        return _map_stream(stream, len(ANALYSIS_KEYS), {"decisions": decisions})

    return _map_stream(stream, len(ANNEX_KEYS), {"notes": notes, "analysis": analysis})


def _map_stream(stream: _Stream, most: int, streamed: dict[str, Callable[[], Any]]) -> dict[str, Any]:
    """A map of at most ``most`` pairs, the values of the keys in ``streamed`` read by their function."""
    pairs = stream.container(msgpack.Unpacker.read_map_header)
    if pairs > most:
        raise SchemaError(f"a map in the annex has {pairs} fields, more than {most}")
    out: dict[str, Any] = {}
    for _ in range(pairs):
        key = stream.next()[0]
        if type(key) is not str or key in out:
            raise SchemaError(f"a map in the annex has the key {short(key)} twice, or a key that is not a string")
        out[key] = streamed[key]() if key in streamed else stream.next()[0]
    return out


def _array_stream(stream: _Stream, most: int, check: Callable[[Any], object]) -> list[Any]:
    """An array of at most ``most`` items, each checked by ``check`` as soon as it is decoded."""
    items = stream.container(msgpack.Unpacker.read_array_header)
    if items > most:
        raise SchemaError(f"an array in the annex has {items} items, more than {most}")
    out = []
    for _ in range(items):
        value = stream.next()[0]
        check(value)
        out.append(value)
    return out
