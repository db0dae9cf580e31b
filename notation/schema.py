"""Validation of decoded msgpack values against the v1 schema.

Each function takes what msgpack decoded (untrusted) and returns the typed
value, or raises :class:`SchemaError` with a short reason; the reader adds the
record index and byte offset.

Control characters are refused where they can never belong (docs/replay-format.md,
section 3): names (game, variant, chance, created, seat kind, every key in options and
setup, option code strings) are printable ASCII, and strings inside options and setup
hold no control, format or line-separator character. Free text (seat names and details,
app, comments, a result's reason and rule) may hold anything: it is shown through
``notation.wording.visible``.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Any

from core.engine import Code, Outcome, Result, only_ints
from notation.deal import SECRET_BYTES, WHO_BYTES, Deal, Reveal, seat_of, shape_problem
from notation.format import (
    CHANCE_MODES, FORMAT_VERSION, HASH_SIZE, HEADER_KEYS, OPTIONAL_HEADER_KEYS, PARENT_KEYS, SEAT_KEYS, SEAT_KINDS,
    ChanceRecord, CheckpointRecord, CommentRecord, DecisionRecord, Header, Limits, Parent, Record,
    ResultRecord, Seat, Tag, short,
)


class SchemaError(ValueError):
    pass


_CREATED = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z", re.ASCII)
# What a string in options or setup may not hold: controls (C0, DEL, C1), format characters
# (bidi overrides, zero-width), line and paragraph separators, surrogates.
_NO_CONTROL = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs"))


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    # bool is an int in Python but not in msgpack: refuse it.
    if type(value) is not int or not lo <= value < hi:
        raise SchemaError(f"{what} must be an integer in {lo}..{hi - 1}, not {short(value)}")
    return value


def _str(value: Any, what: str, max_bytes: int, *, empty: bool = True) -> str:
    if type(value) is not str:
        raise SchemaError(f"{what} must be a string, not {short(value)}")
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise SchemaError(f"{what} is not valid UTF-8") from None
    if size > max_bytes:
        raise SchemaError(f"{what} is longer than {max_bytes} bytes")
    if not empty and not value:
        raise SchemaError(f"{what} must not be empty")
    return value


def _name(value: Any, what: str, max_bytes: int, *, empty: bool = True) -> str:
    """A string that names something: printable ASCII (space to ``~``), nothing that steers a terminal."""
    text = _str(value, what, max_bytes, empty=empty)
    if not (text.isascii() and text.isprintable()):
        raise SchemaError(f"{what} must be printable ASCII, not {short(text)}")
    return text


def _no_control(text: str, what: str) -> str:
    if not text.isprintable() and any(unicodedata.category(ch) in _NO_CONTROL for ch in text):
        raise SchemaError(f"{what} holds a control character: {short(text)}")
    return text


def _list(value: Any, what: str, max_len: int) -> list[Any]:
    if type(value) is not list:
        raise SchemaError(f"{what} must be an array, not {short(value)}")
    if len(value) > max_len:
        raise SchemaError(f"{what} has more than {max_len} items")
    return value


def _hash(value: Any, what: str, size: int = HASH_SIZE) -> bytes:
    if type(value) is not bytes or len(value) != size:
        raise SchemaError(f"{what} must be {size} bytes (msgpack bin), not {short(value)}")
    return value


def _map(value: Any, what: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
    """A map with exactly ``keys``, of which those in ``optional`` may be missing."""
    if type(value) is not dict:
        raise SchemaError(f"{what} must be a map, not {short(value)}")
    extra = [k for k in value if k not in keys]
    if extra:
        raise SchemaError(f"{what} has an unknown field {short(extra[0])}")
    missing = [k for k in keys if k not in value and k not in optional]
    if missing:
        raise SchemaError(f"{what} lacks the field {missing[0]!r}")
    return value


def _plain(value: Any, what: str, depth: int = 0) -> Any:
    """Options and setup values: nil, bool, int, str, arrays and string-keyed maps, shallow.
    Keys are names (printable ASCII); strings hold no control characters."""
    if value is None or type(value) is bool:
        return value
    if type(value) is str:
        return _no_control(value, what)
    if type(value) is int:
        return _int(value, what, -Limits.UINT64 // 2, Limits.UINT64)
    if depth >= Limits.NESTING:
        raise SchemaError(f"{what} is nested more than {Limits.NESTING} deep")
    if type(value) is list:
        return [_plain(v, what, depth + 1) for v in value]
    if type(value) is dict:
        out = {}
        for k, v in value.items():
            _name(k, f"a key in {what}", Limits.SHORT_STR_BYTES, empty=False)
            out[k] = _plain(v, f"{what}.{k}", depth + 1)
        return out
    raise SchemaError(f"{what} holds a value of a kind the format does not allow ({type(value).__name__})")


def header_from_wire(value: Any) -> Header:
    h = _map(value, "the header", HEADER_KEYS, OPTIONAL_HEADER_KEYS)
    if type(h["format"]) is not int or h["format"] != FORMAT_VERSION:
        raise SchemaError(f"the header says format {short(h['format'])}; the preamble says {FORMAT_VERSION}")
    for key in ("options", "setup"):
        if type(h[key]) is not dict:
            raise SchemaError(f"{key} must be a map, not {short(h[key])}")
    seats = tuple(_seat(s, i) for i, s in enumerate(_list(h["seats"], "seats", Limits.SEATS)))
    if not seats:
        raise SchemaError("the header lists no seats")
    chance = _name(h["chance"], "chance", Limits.SHORT_STR_BYTES)
    if chance not in CHANCE_MODES:
        raise SchemaError(f"chance must be one of {', '.join(CHANCE_MODES)}, not {short(chance)}")
    seed, created = game_stamp(h["seed"], h["created"], chance)
    deal = deal_from_wire(h["deal"], len(seats)) if "deal" in h else None
    parent = parent_from_wire(h["parent"]) if "parent" in h else None
    return Header(
        game=_name(h["game"], "game", Limits.SHORT_STR_BYTES, empty=False),
        variant=_name(h["variant"], "variant", Limits.SHORT_STR_BYTES, empty=False),
        revision=_int(h["revision"], "revision", 0, Limits.INT32),
        options=_plain(h["options"], "options"),
        setup=_plain(h["setup"], "setup"),
        seats=seats,
        chance=chance,
        seed=seed,
        app=_str(h["app"], "app", Limits.SHORT_STR_BYTES),
        created=created,
        deal=deal,
        parent=parent,
    )


def parent_from_wire(value: Any) -> Parent:
    """A header's ``parent``: the hash of the record a variation was played on from, and the step."""
    p = _map(value, "the parent", PARENT_KEYS)
    return Parent(_hash(p["hash"], "the parent's hash"), _int(p["step"], "the parent's step", 0, Limits.RECORDS + 1))


def deal_from_wire(value: Any, seats: int = Limits.SEATS) -> Deal:
    """A header's ``deal``: the host's reveal and at most Limits.SEATS seats' (of the ``seats`` the
    header lists), labelled and in order (notation.deal.shape_problem), every commitment and
    secret SECRET_BYTES of bin. Whether they match is for verify (notation.deal.problem)."""
    d = _map(value, "the deal", ("host", "seats"))
    host = _reveal(d["host"], "the deal's host")
    reveals = tuple(_reveal(r, f"the deal's seat reveal {i}")
                    for i, r in enumerate(_list(d["seats"], "the deal's seats", Limits.SEATS)))
    deal = Deal(host, reveals)
    shape = shape_problem(deal)
    if shape is not None:
        raise SchemaError(f"the deal: {shape}")
    for reveal in reveals:
        seat = seat_of(reveal.who)
        if seat is not None and seat >= seats:
            raise SchemaError(f"the deal has a reveal of {reveal.who}, but the header lists {seats} seats")
    return deal


def _reveal(value: Any, what: str) -> Reveal:
    r = _map(value, what, ("who", "commit", "secret"))
    return Reveal(
        _name(r["who"], f"{what}'s label", WHO_BYTES, empty=False),
        _hash(r["commit"], f"{what}'s commitment", SECRET_BYTES),
        _hash(r["secret"], f"{what}'s secret", SECRET_BYTES),
    )


def game_stamp(seed: Any, created: Any, chance: str) -> tuple[int | None, str]:
    """A header's seed and creation time, checked: the two fields a batch's games do not share."""
    if seed is not None:
        _int(seed, "seed", 0, Limits.UINT64)
    elif chance in ("seeded", "manual"):  # manual: the seed still deals the shuffles and picks
        raise SchemaError(f"chance is {chance} but the header has no seed")
    created = _name(created, "created", Limits.SHORT_STR_BYTES)
    if not _CREATED.fullmatch(created) or not _valid_time(created):
        raise SchemaError(f"created must be a UTC time like 2025-01-31T12:00:00Z, not {short(created)}")
    return seed, created


def _valid_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _seat(value: Any, index: int) -> Seat:
    s = _map(value, f"seat {index}", SEAT_KEYS)
    kind = _name(s["kind"], f"seat {index} kind", Limits.SHORT_STR_BYTES)
    if kind not in SEAT_KINDS:
        raise SchemaError(f"seat {index} kind must be one of {', '.join(SEAT_KINDS)}, not {short(kind)}")
    return Seat(
        name=_str(s["name"], f"seat {index} name", Limits.SHORT_STR_BYTES),
        kind=kind,
        detail=_str(s["detail"], f"seat {index} detail", Limits.TEXT_BYTES),
    )


# Item count (tag included) each record type allows, and what it is called in errors.
_SHAPES: dict[int, tuple[tuple[int, ...], str]] = {
    Tag.DECISION: ((3, 4), "a decision needs a seat and an option code, and at most a clock"),
    Tag.CHANCE: ((2,), "a chance record needs one outcome"),
    Tag.CHECKPOINT: ((4,), "a checkpoint needs a step, a state digest and a running hash"),
    Tag.COMMENT: ((2, 3), "a comment needs a text and at most a step"),
    Tag.RESULT: ((7,), "a result needs winners, reason, rule, scores, a state digest and a running hash"),
}


def record_from_wire(value: Any, seats: int) -> Record:
    if type(value) is not list or not value:
        raise SchemaError(f"a record must be a non-empty array, not {short(value)}")
    tag = value[0]
    if type(tag) is not int or tag not in _SHAPES:
        raise SchemaError(f"unknown record type {short(tag)} (known: 0..{len(_SHAPES) - 1})")
    lengths, shape = _SHAPES[tag]
    if len(value) not in lengths:
        raise SchemaError(shape)
    if tag == Tag.DECISION:
        clock = clock_from_wire(value[3]) if len(value) == 4 else None
        return DecisionRecord(_int(value[1], "the seat", 0, seats), code_from_wire(value[2]), clock)
    if tag == Tag.CHANCE:
        return ChanceRecord(outcome_from_wire(value[1]))
    if tag == Tag.CHECKPOINT:
        return CheckpointRecord(
            _int(value[1], "the step", 0, Limits.RECORDS + 1),
            _hash(value[2], "the state digest"),
            _hash(value[3], "the running hash"),
        )
    if tag == Tag.COMMENT:
        step = _int(value[2], "the step", 0, Limits.RECORDS + 1) if len(value) == 3 else None
        return CommentRecord(_str(value[1], "the comment", Limits.STR_BYTES), step)
    winners = tuple(_int(w, "a winner", 0, seats) for w in _list(value[1], "winners", Limits.SEATS))
    scores = tuple(_int(s, "a score", -Limits.INT32, Limits.INT32) for s in _list(value[4], "scores", Limits.SEATS))
    result = Result(
        winners,
        _str(value[2], "the reason", Limits.TEXT_BYTES),
        _str(value[3], "the rule", Limits.TEXT_BYTES),
        scores,
    )
    return ResultRecord(result, _hash(value[5], "the state digest"), _hash(value[6], "the running hash"))


def code_from_wire(value: Any) -> Code:
    items = _list(value, "an option code", Limits.CODE_LEN)
    code: list[int | str] = []
    for item in items:
        if type(item) is str:
            # Printable ASCII of at most SHORT_STR_BYTES characters (as many bytes) passes in one test;
            # anything else is checked step by step below, which says what is wrong.
            if not (len(item) <= Limits.SHORT_STR_BYTES and item.isascii() and item.isprintable()):
                text = _str(item, "an option code item", Limits.SHORT_STR_BYTES)
                if not text.isascii():  # "h٥" must not pass for "h5"
                    raise SchemaError(f"an option code item must be ASCII, not {short(text)}")
                _name(text, "an option code item", Limits.SHORT_STR_BYTES)  # nor "\x1b[2J" reach a screen
            code.append(item)
        else:
            code.append(_int(item, "an option code item", -Limits.INT32, Limits.INT32))
    return tuple(code)


def clock_from_wire(value: Any) -> int:
    """A decision's clock: the milliseconds left to the deciding seat, 0..2**32-1."""
    return _int(value, "the clock", 0, Limits.UINT32)


def outcome_from_wire(value: Any) -> Outcome:
    if type(value) is int:
        return _int(value, "a chance outcome", 0, Limits.UINT32)
    items = _list(value, "a chance outcome", Limits.ARRAY_LEN)
    # Every value an int in range, checked in C (a record's every outcome passes here); else each
    # value is checked in turn, to say which is wrong.
    if only_ints(items) and (not items or (min(items) >= 0 and max(items) < Limits.UINT32)):
        return tuple(items)
    return tuple(_int(v, "a chance outcome value", 0, Limits.UINT32) for v in items)
