"""The .fief format, version 1: constants, limits, the header and the five record types.

A file is ``PREAMBLE`` (``b"FIEF"`` and one version byte), one msgpack map (the
header), then one msgpack array per record whose first item is a :class:`Tag`.
docs/replay-format.md specifies every byte; this module is its code form.
"""

from __future__ import annotations

import hashlib
import reprlib
import threading
from dataclasses import dataclass, field
from enum import IntEnum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Union

import msgpack

from core.digest import DIGEST_SIZE
from core.engine import Code, Outcome, Result
from notation.wording import visible

if TYPE_CHECKING:  # notation.deal reads this module's limits
    from notation.deal import Deal

MAGIC = b"FIEF"
FORMAT_VERSION = 1
PREAMBLE = MAGIC + bytes((FORMAT_VERSION,))

# fiefdom writes a checkpoint after step 0 (right after the header), every CHECKPOINT_EVERY
# steps, and the last step (right before the result); a reader accepts any spacing. 32 since
# 2026-11-24 (16 before): docs/replay-format.md, section 4.
CHECKPOINT_EVERY = 32
HASH_SIZE = 16  # the running blake2b hash in checkpoints and the result
assert DIGEST_SIZE == 16, "the format fixes state digests at 16 bytes"

SEAT_KINDS = ("human", "bot", "ai", "random")
CHANCE_MODES = ("seeded", "recorded", "manual", "none")
HEADER_KEYS = (
    "format", "game", "variant", "revision", "options", "setup",
    "seats", "chance", "seed", "app", "created", "deal", "parent",
)
OPTIONAL_HEADER_KEYS = ("deal", "parent")  # written only when present: a header without them is as it always was
PARENT_KEYS = ("hash", "step")
SEAT_KEYS = ("name", "kind", "detail")


class Limits:
    """What a reader accepts: anything larger is refused, so memory and time stay bounded."""

    FILE_BYTES = 16 * 1024 * 1024  # read into memory whole
    HEADER_BYTES = 64 * 1024  # the reader decodes the header from at most this many bytes
    RECORD_BYTES = 8 * 1024  # every record fits (the writer refuses more); the reader decodes no more at once
    RECORDS = 200_000
    STR_BYTES = 4096  # the longest string anywhere (a comment)
    SHORT_STR_BYTES = 64  # game, variant, seat names, code strings, map keys
    TEXT_BYTES = 256  # seat detail, result reason and rule
    ARRAY_LEN = 1024
    MAP_LEN = 64
    NESTING = 4  # maps and arrays inside options and setup
    SEATS = 16
    CODE_LEN = 16
    INT32 = 2**31
    UINT32 = 2**32
    UINT64 = 2**64


class Chain:
    """The running blake2b-128 hash of every byte of the file so far."""

    def __init__(self, data: bytes = b"") -> None:
        self._hash = hashlib.blake2b(data, digest_size=HASH_SIZE)
        # The hash's own methods, called straight (a record is written a few microseconds apart).
        self.update = self._hash.update  # type: ignore[method-assign,assignment]  # the same call, straight
        self.digest = self._hash.digest  # type: ignore[method-assign]  # the same call, straight

    def update(self, data: bytes) -> None:
        self._hash.update(data)

    def digest(self) -> bytes:
        return self._hash.digest()


class Tag(IntEnum):
    DECISION = 0
    CHANCE = 1
    CHECKPOINT = 2
    COMMENT = 3
    RESULT = 4


class RecordError(Exception):
    """A record file that cannot be read: one line naming the record and byte offset.

    The message may quote the record, a stranger's text: it is made one line and visible
    (``notation.wording.visible``), so printing it can never steer a terminal."""

    def __init__(self, message: str) -> None:
        super().__init__(visible(" ".join(message.split())))


_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 40
_repr.maxlevel = 2
_repr.maxlist = _repr.maxtuple = _repr.maxdict = 6


def short(value: Any) -> str:
    """A bounded repr for error messages about untrusted values."""
    return _repr.repr(value)


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str  # one of SEAT_KINDS
    detail: str = ""  # e.g. an AI's name and version, or its time budget

    def wire(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "detail": self.detail}


@dataclass(frozen=True)
class Parent:
    """The game a variation was played on from ("play from here"): ``hash`` is BLAKE2b-128 of the
    parent record's bytes from its first byte to the end of its ``step``-th step record (to the end
    of its header for step 0), so it names that game up to that position whatever the parent gets
    after it (more steps, a result, notes); ``step`` is the position the variation starts from."""

    hash: bytes
    step: int

    def wire(self) -> dict[str, Any]:
        return {"hash": self.hash, "step": self.step}


@dataclass(frozen=True)
class Header:
    game: str
    variant: str
    revision: int
    options: dict[str, Any]
    setup: dict[str, Any]
    seats: tuple[Seat, ...]
    chance: str  # one of CHANCE_MODES
    seed: int | None
    app: str
    created: str  # UTC, ISO-8601: 2025-01-31T12:00:00Z
    format: int = FORMAT_VERSION
    deal: Deal | None = None  # the commitments and reveals the seed came from (notation/deal.py)
    parent: Parent | None = None  # the record and position a variation was played on from

    def wire(self) -> dict[str, Any]:
        """The header map, keys in HEADER_KEYS order and nested maps sorted, so bytes are stable;
        ``deal`` and ``parent`` only when there is one."""
        out: dict[str, Any] = {
            "format": self.format,
            "game": self.game,
            "variant": self.variant,
            "revision": self.revision,
            "options": sorted_maps(self.options),
            "setup": sorted_maps(self.setup),
            "seats": [s.wire() for s in self.seats],
            "chance": self.chance,
            "seed": self.seed,
            "app": self.app,
            "created": self.created,
        }
        if self.deal is not None:
            out["deal"] = self.deal.wire()
        if self.parent is not None:
            out["parent"] = self.parent.wire()
        return out


def sorted_maps(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: sorted_maps(value[k]) for k in sorted(value)}
    if isinstance(value, (list, tuple)):
        return [sorted_maps(v) for v in value]
    return value


@dataclass(frozen=True)
class DecisionRecord:
    tag: ClassVar[Tag] = Tag.DECISION
    seat: int
    code: Code
    clock: int | None = None  # ms left on the seat's clock after deciding, increment added; None: no clock

    def wire(self) -> list[Any]:
        if self.clock is not None:
            return [int(self.tag), self.seat, list(self.code), self.clock]
        return [int(self.tag), self.seat, list(self.code)]


@dataclass(frozen=True)
class ChanceRecord:
    tag: ClassVar[Tag] = Tag.CHANCE
    outcome: Outcome

    def wire(self) -> list[Any]:
        value = self.outcome
        return [int(self.tag), value if isinstance(value, int) else list(value)]


@dataclass(frozen=True)
class CheckpointRecord:
    tag: ClassVar[Tag] = Tag.CHECKPOINT
    step: int
    digest: bytes  # core.digest.digest of the state after ``step``
    chain: bytes = field(default=b"\0" * HASH_SIZE)  # blake2b-128 of every byte before this record

    def wire(self) -> list[Any]:
        return [int(self.tag), self.step, self.digest, self.chain]


@dataclass(frozen=True)
class CommentRecord:
    tag: ClassVar[Tag] = Tag.COMMENT
    text: str
    step: int | None = None  # the step it is about; None: the step just played

    def wire(self) -> list[Any]:
        return [int(self.tag), self.text] if self.step is None else [int(self.tag), self.text, self.step]


RESIGN_RULE = "resign"  # a result record's rule when a seat resigned (docs/replay-format.md, section 4)


def resignation(seats: Sequence[str], seat: int) -> Result:
    """The result when ``seat`` resigns: every other seat wins; no scores."""
    return Result(tuple(i for i in range(len(seats)) if i != seat), f"{seats[seat]} resigned", RESIGN_RULE)


def resigned_seat(result: Result, seats: Sequence[str]) -> int | None:
    """The seat a result says resigned, if it is exactly a resignation of one seat, else None."""
    losers = [i for i in range(len(seats)) if i not in result.winners]
    if result.rule != RESIGN_RULE or len(losers) != 1 or resignation(seats, losers[0]) != result:
        return None
    return losers[0]


@dataclass(frozen=True)
class ResultRecord:
    tag: ClassVar[Tag] = Tag.RESULT
    result: Result
    digest: bytes
    chain: bytes = field(default=b"\0" * HASH_SIZE)

    def wire(self) -> list[Any]:
        r = self.result
        return [int(self.tag), list(r.winners), r.reason, r.rule, list(r.scores), self.digest, self.chain]


StepRecord = Union[DecisionRecord, ChanceRecord]
Record = Union[DecisionRecord, ChanceRecord, CheckpointRecord, CommentRecord, ResultRecord]
STEP_TYPES = (DecisionRecord, ChanceRecord)
CHAINED_TYPES = (CheckpointRecord, ResultRecord)


_packers = threading.local()  # a Packer is not safe to share between threads


def pack(value: Any) -> bytes:
    """The canonical encoding: every value in its shortest form, maps in the order given.

    The writer writes exactly these bytes and the reader accepts nothing else. (What
    ``msgpack.packb(value, use_bin_type=True)`` gives, from a Packer kept per thread.)
    """
    try:
        packer = _packers.packer
    except AttributeError:
        packer = _packers.packer = msgpack.Packer(use_bin_type=True)
    packed: bytes = packer.pack(value)
    return packed


def encode_header(header: Header) -> bytes:
    """The preamble and the header map: the first bytes of every file."""
    return PREAMBLE + pack(header.wire())


def encode_record(record: Record) -> bytes:
    return pack(record.wire())
