"""The network protocol, version 1: frames and messages between a host and its clients.

docs/protocol.md specifies it for another program to write a client. A frame is four bytes (the
length of what follows, big-endian) and one msgpack map with ``v`` (the protocol version) and
``t`` (the message type). What a client sends is untrusted: it is decoded with msgpack's size
limits, ext types refused, keys unique, then checked field by field (:func:`from_client`), as the
record reader checks a record; every failure is a :class:`ProtocolError` in one line. What the
host sends is checked by the client the same way, with larger limits (a seat's view and log).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import msgpack

from core.engine import Code, Result
from notation.format import Limits, short
from notation.reader import _no_ext, _unique_keys, _why
from notation.schema import SchemaError, _int, _map, _str, code_from_wire

VERSION = 1
SCHEME = "fief"
WATCH = "watch"  # the path of a spectator's invitation, where a seat's has its number
SECRET_BYTES = 32  # a commitment and a secret of the deal (notation/deal.py)


class ProtocolError(ValueError):
    """A frame or a message that breaks the protocol, said in one line."""


class FrameLimits:
    """The largest frame each side reads: a client sends short messages; the host a seat's view and log."""

    FROM_CLIENT = 16 * 1024
    FROM_HOST = 8 * 1024 * 1024
    LOG_PAGE = 200  # log entries in one table message (a rejoin gets the rest in the next ones)


HEADER = 4


def pack(message: dict[str, Any]) -> bytes:
    """One frame: the message (``t`` and its fields) with the version, length first. A view goes in
    as the game made it: tuples are arrays, a Result a one-key map (:func:`_wire_default`)."""
    body: bytes = msgpack.packb({"v": VERSION, **message}, use_bin_type=True, default=_wire_default)
    return len(body).to_bytes(HEADER, "big") + body


async def read_frame(reader: asyncio.StreamReader, limit: int) -> dict[str, Any] | None:
    """The next message (a map with its version checked); None at a clean end of the stream.
    ProtocolError for a frame over ``limit`` (the stream cannot go on: the caller drops it),
    bad msgpack or a wrong version (the stream is still in step)."""
    try:
        head = await reader.readexactly(HEADER)
    except asyncio.IncompleteReadError as err:
        if err.partial:
            raise ProtocolError("the connection ended inside a frame") from None
        return None
    size = int.from_bytes(head, "big")
    if size > limit:
        raise FrameTooLarge(f"a frame of {size} bytes; at most {limit} are read")
    try:
        body = await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise ProtocolError("the connection ended inside a frame") from None
    return decode(body, limit)


class FrameTooLarge(ProtocolError):
    """A frame larger than the side reads: the stream cannot be followed past it."""


def decode(body: bytes, limit: int) -> dict[str, Any]:
    """A frame's body as a message map, with msgpack's limits set from ``limit``."""
    small = limit <= FrameLimits.FROM_CLIENT
    try:
        value = msgpack.unpackb(
            body, raw=False, strict_map_key=False, use_list=True, object_pairs_hook=_unique_keys,
            ext_hook=_no_ext, max_str_len=limit, max_bin_len=SECRET_BYTES if small else limit,
            max_array_len=Limits.ARRAY_LEN if small else limit, max_map_len=Limits.MAP_LEN if small else limit,
            max_ext_len=0)
    except Exception as err:  # noqa: BLE001 - msgpack raises several kinds: each is one line
        raise ProtocolError(f"not a msgpack message: {_why(err)}") from None
    if type(value) is not dict:
        raise ProtocolError(f"a message must be a map, not {short(value)}")
    if value.get("v") != VERSION or type(value.get("v")) is not int:
        raise ProtocolError(f"protocol version {short(value.get('v'))}; this side speaks {VERSION}")
    if type(value.get("t")) is not str:
        raise ProtocolError(f"a message needs its type (t), not {short(value.get('t'))}")
    return value


# -- what a client sends ---------------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    """The first message: which seat (None: a spectator) and the invitation's token."""

    seat: int | None
    token: str


@dataclass(frozen=True)
class Commit:
    commit: bytes
    round: int  # the deal's round it answers


@dataclass(frozen=True)
class Reveal:
    secret: bytes
    round: int


@dataclass(frozen=True)
class Decide:
    """A choice for the question numbered ``ask`` (a choice made for an older question is refused)."""

    ask: tuple[int, int]
    code: Code


@dataclass(frozen=True)
class Resign:
    pass


ClientMessage = Hello | Commit | Reveal | Decide | Resign
_FIELDS = {"hello": ("v", "t", "seat", "token"), "commit": ("v", "t", "commit", "round"),
           "reveal": ("v", "t", "secret", "round"),
           "decide": ("v", "t", "ask", "code"), "resign": ("v", "t")}


def _bytes32(value: Any, what: str) -> bytes:
    if type(value) is not bytes or len(value) != SECRET_BYTES:
        raise SchemaError(f"{what} must be {SECRET_BYTES} bytes, not {short(value)}")
    return value


def from_client(message: dict[str, Any]) -> ClientMessage:
    """A decoded client message checked against its schema; ProtocolError in one line."""
    kind = message["t"]
    if kind not in _FIELDS:
        raise ProtocolError(f"unknown message type {short(kind)} (known: {', '.join(_FIELDS)})")
    try:
        m = _map(message, f"a {kind} message", _FIELDS[kind])
        if kind == "hello":
            seat = None if m["seat"] is None else _int(m["seat"], "the seat", 0, Limits.SEATS)
            return Hello(seat, _str(m["token"], "the token", Limits.SHORT_STR_BYTES))
        if kind == "commit":
            return Commit(_bytes32(m["commit"], "the commitment"), _int(m["round"], "the round", 0, Limits.UINT32))
        if kind == "reveal":
            return Reveal(_bytes32(m["secret"], "the secret"), _int(m["round"], "the round", 0, Limits.UINT32))
        if kind == "decide":
            ask = m["ask"]
            if type(ask) is not list or len(ask) != 2:
                raise SchemaError(f"ask must be the question's two numbers, not {short(ask)}")
            return Decide((_int(ask[0], "ask", 0, Limits.UINT32), _int(ask[1], "ask", 0, Limits.UINT32)),
                          code_from_wire(m["code"]))
        return Resign()
    except SchemaError as err:
        raise ProtocolError(str(err)) from None


# -- invitations -----------------------------------------------------------------------------

def reachable_name(bind: str) -> str:
    """The name others use for a server listening on ``bind``: the machine's name for every address
    (``0.0.0.0``, ``::``), else the address itself."""
    try:
        address = ipaddress.ip_address(bind)
    except ValueError:
        return bind
    return socket.gethostname() if address.is_unspecified else bind


@dataclass(frozen=True)
class Invitation:
    """``fief://HOST:PORT/SEAT?t=TOKEN``: SEAT counts from 1, ``watch`` for a spectator."""

    host: str
    port: int
    seat: int | None
    token: str

    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        where = WATCH if self.seat is None else str(self.seat + 1)
        return f"{SCHEME}://{host}:{self.port}/{where}?t={self.token}"

    @classmethod
    def parse(cls, text: str) -> "Invitation":
        """An invitation as a person pastes it; ProtocolError in one line when it is not one."""
        text = text.strip()
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError as err:
            raise ProtocolError(f"not an invitation ({err}): {short(text)}") from None
        if parts.scheme != SCHEME or not parts.hostname or not port:
            raise ProtocolError(f"an invitation looks like {SCHEME}://HOST:PORT/SEAT?t=TOKEN, not {short(text)}")
        host = parts.hostname
        if len(host) > 253 or not all(ch.isalnum() or ch in ".-_:%" for ch in host):
            raise ProtocolError(f"the invitation's host is not a host name or an address: {short(host)}")
        where = parts.path.strip("/")
        try:
            tokens = parse_qs(parts.query, errors="strict").get("t", [])
        except UnicodeError:
            tokens = []
        if len(tokens) != 1 or not tokens[0]:
            raise ProtocolError("the invitation has no token (?t=...)")
        token = tokens[0]
        if not (token.isascii() and token.isprintable()) or " " in token or len(token) > Limits.SHORT_STR_BYTES:
            raise ProtocolError(f"the invitation's token is not one a host gives: {short(token)}")
        if where == WATCH:
            seat = None
        elif where.isascii() and where.isdigit() and len(where) <= 2 and 1 <= int(where) <= Limits.SEATS:
            seat = int(where) - 1
        else:
            raise ProtocolError(f"the invitation names no seat: {short(where)} (a number from 1, or {WATCH})")
        return cls(host, port, seat, token)


# -- a view on the wire ------------------------------------------------------------------------

RESULT_KEY = "~result"  # a view's Result, as a map of this one key (a view's own keys are names)


def _wire_default(value: Any) -> Any:
    """What msgpack cannot pack by itself in a view: a Result, as a one-key map."""
    if isinstance(value, Result):
        return {RESULT_KEY: [list(value.winners), value.reason, value.rule, list(value.scores)]}
    raise TypeError(f"a view cannot hold a {type(value).__name__}")


_SCALARS = (type(None), bool, int, float, str, bytes)


def view_from_wire(value: Any, depth: int = 0) -> Any:
    """The view as the game made it, checked on the way (one pass): arrays back to tuples (a view
    holds no lists), a Result back; nil, bool, int, float, str and bytes as they are, nothing nested
    more than DEPTH deep. ProtocolError in one line otherwise."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if depth >= DEPTH:
        raise ProtocolError(f"the host sent a view nested more than {DEPTH} deep")
    if kind is list:
        return tuple([v if type(v) in _SCALARS else view_from_wire(v, depth + 1) for v in value])
    if kind is dict:
        if len(value) == 1 and RESULT_KEY in value:
            r = value[RESULT_KEY]
            if type(r) is not list or len(r) != 4 or not all(type(x) is int for x in (*r[0], *r[3])):
                raise ProtocolError("the host sent a bad result in a view")
            return Result(tuple(r[0]), str(r[1]), str(r[2]), tuple(r[3]))
        return {k if type(k) in _SCALARS else view_from_wire(k, depth + 1):
                v if type(v) in _SCALARS else view_from_wire(v, depth + 1) for k, v in value.items()}
    raise ProtocolError(f"the host sent a view holding a {kind.__name__}")


# -- what the host sends (checked by a client: a host may be hostile too) ----------------------

HOST_TYPES = ("welcome", "lobby", "deal", "table", "refused", "error", "bye")
DATA_FILES = 8  # a user's own data files a welcome may carry
DATA_BYTES = 2 * 1024 * 1024  # each at most
DEPTH = 12  # how deep a view may nest


def _plain_data(value: Any, what: str, depth: int = 0) -> Any:
    """A view: nil, bool, int, float, str, bytes, arrays and maps of them, at most DEPTH deep."""
    if value is None or type(value) in (bool, int, float, str, bytes):
        return value
    if depth >= DEPTH:
        raise SchemaError(f"{what} is nested more than {DEPTH} deep")
    if type(value) is list:
        for v in value:
            _plain_data(v, what, depth + 1)
        return value
    if type(value) is dict:
        for k, v in value.items():
            _plain_data(k, what, depth + 1)
            _plain_data(v, what, depth + 1)
        return value
    raise SchemaError(f"{what} holds a {type(value).__name__}")


def _text(value: Any, what: str) -> str:
    return _str(value, what, Limits.STR_BYTES)


def _items(value: Any, what: str, n: int | None = None, most: int = FrameLimits.FROM_HOST) -> list[Any]:
    if type(value) is not list or len(value) > most or (n is not None and len(value) != n):
        raise SchemaError(f"{what} must be an array{'' if n is None else f' of {n}'}, not {short(value)}")
    return value


def _seat_or_none(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what, 0, Limits.SEATS)


def from_host(message: dict[str, Any]) -> dict[str, Any]:
    """A decoded host message checked field by field (the same map back, a table's view in the game's
    own form); ProtocolError in one line."""
    kind = message["t"]
    try:
        if kind not in HOST_TYPES:
            raise SchemaError(f"unknown message type {short(kind)}")
        if kind in ("refused", "error", "bye"):
            _text(message.get("text"), "the text")
        elif kind == "welcome":
            _seat_or_none(message.get("seat"), "the seat")
            game = message.get("game")
            if type(game) is not dict:
                raise SchemaError("welcome: game must be a map")
            for key in ("game", "variant"):
                _str(game.get(key), key, Limits.SHORT_STR_BYTES, empty=False)
            _int(game.get("revision"), "revision", 0, Limits.INT32)
            _plain_data(game.get("options"), "options")
            _plain_data(game.get("setup"), "setup")
            for seat in _items(message.get("seats"), "seats", most=Limits.SEATS):
                _items(seat, "a seat", 2)
                _str(seat[0], "a seat's name", Limits.SHORT_STR_BYTES)
                _str(seat[1], "a seat's kind", Limits.SHORT_STR_BYTES)
            clock = message.get("clock")
            if clock is not None:
                _items(clock, "the clock", 3)
            data = message.get("data", {})
            if type(data) is not dict or len(data) > DATA_FILES:
                raise SchemaError(f"welcome: data must be a map of at most {DATA_FILES} files")
            for key, text in data.items():
                _str(key, "a data file's key", Limits.SHORT_STR_BYTES, empty=False)
                _str(text, "a data file", DATA_BYTES)
        elif kind == "lobby":
            for key in ("here", "people"):
                [_int(s, key, 0, Limits.SEATS) for s in _items(message.get(key), key, most=Limits.SEATS)]
        elif kind == "deal":
            _int(message.get("round"), "the deal's round", 0, Limits.UINT32)
            if message.get("phase") == "commit":
                _bytes32(message.get("host"), "the host's commitment")
            elif message.get("phase") == "reveal":
                for who, commit in (_items(c, "a commitment", 2) for c in
                                    _items(message.get("commits"), "commitments", most=Limits.SEATS + 1)):
                    _str(who, "who", Limits.SHORT_STR_BYTES)
                    _bytes32(commit, "a commitment")
            else:
                raise SchemaError(f"deal: unknown phase {short(message.get('phase'))}")
        else:
            _table(message)
    except SchemaError as err:
        raise ProtocolError(f"the host sent a bad {short(kind)} message: {err}") from None
    return message


def _table(m: dict[str, Any]) -> None:
    m["view"] = view_from_wire(m.get("view"))  # checked as it is turned back into the game's form
    ask = m.get("ask")
    if ask is not None:
        if type(ask) is not dict:
            raise SchemaError("ask must be a map")
        [_int(n, "ask", 0, Limits.UINT32) for n in _items(ask.get("n"), "ask", 2)]
        _str(ask.get("kind"), "ask kind", Limits.SHORT_STR_BYTES)
        _text(ask.get("prompt"), "the prompt")
        for option in _items(ask.get("options"), "options", most=64 * 1024):
            code, words, warns = _items(option, "an option", 3)
            code_from_wire(code)
            _text(words, "an option's words")
            _text(warns, "an option's warning")
    turn = m.get("turn")
    if turn is not None:
        _int(_items(turn, "turn", 2)[0], "turn", 0, Limits.SEATS)
    _int(m.get("log_from"), "log_from", 0, Limits.RECORDS + 1)
    for entry in _items(m.get("log"), "the log", most=FrameLimits.LOG_PAGE):
        step, kind, seat, text, events, value = _items(entry, "a log entry", 6)
        _int(step, "a step", 0, Limits.RECORDS + 1)
        _str(kind, "a step's kind", Limits.SHORT_STR_BYTES)
        _seat_or_none(seat, "a step's seat")
        _text(text, "a step's words")
        for event in _items(events, "events"):
            for part in _items(event, "an event", 3):
                _text(part, "an event")
        _plain_data(value, "a step's value")
    for note in _items(m.get("notes"), "notes"):
        _int(_items(note, "a note", 3)[0], "a note", 0, Limits.RECORDS + 1)
        _text(note[1], "a note")
    result = m.get("result")
    if result is not None:
        winners, reason, rule, scores = _items(result, "the result", 4)
        [_int(w, "a winner", 0, Limits.SEATS) for w in _items(winners, "winners", most=Limits.SEATS)]
        _text(reason, "the result")
        _text(rule, "the result")
        [_int(s, "a score", -Limits.INT32, Limits.INT32) for s in _items(scores, "scores", most=Limits.SEATS)]
    clocks = m.get("clocks")
    if clocks is not None:
        for clock in _items(clocks, "clocks", most=Limits.SEATS):
            _int(_items(clock, "a clock", 3)[1], "a clock", 0, Limits.UINT64)
    if m.get("seed") is not None:
        _int(m["seed"], "the seed", 0, Limits.UINT64)
    if m.get("deal") is not None:
        for who, commit, secret in (_items(r, "a reveal", 3) for r in _items(m["deal"], "the deal", most=Limits.SEATS + 1)):
            _str(who, "who", Limits.SHORT_STR_BYTES)
            _bytes32(commit, "a commitment")
            _bytes32(secret, "a secret")
