"""Canonical encoding of a game state and its digest (blake2b-128).

The encoding is fixed-order and type-tagged, so equal states give equal
bytes on every platform:

    None -> b"N"          True/False -> b"T" / b"F"
    int  -> b"i" + decimal ASCII + b";"
    str  -> b"s" + length + b":" + UTF-8 bytes
    bytes-> b"b" + length + b":" + bytes
    tuple/list -> b"l" + count + b":" + items
    dict -> b"d" + count + b":" + (key, value) pairs sorted by encoded key
"""

from __future__ import annotations

import hashlib
from operator import itemgetter
from typing import Any

DIGEST_SIZE = 16


def encode(obj: Any) -> bytes:
    out: list[bytes] = []
    _encode(obj, out)
    return b"".join(out)


def _encode(obj: Any, out: list[bytes]) -> None:
    kind = type(obj)
    if kind is str:  # the commonest: dict keys, names
        data = _STRINGS.get(obj)
        if data is None:
            data = _string(obj)
        out.append(data)
    elif kind is int:
        out.append(b"i%d;" % obj)
    elif kind is dict:
        # Keys encode to distinct bytes, so sorting by the key's bytes alone gives the
        # order of the (key, value) pairs sorted by their encodings.
        pairs = []
        for k, v in obj.items():
            key = _STRINGS.get(k)  # a string key met before (the commonest)
            pairs.append((key if key is not None else encode(k), v))
        pairs.sort(key=_first)
        out.append(b"d%d:" % len(pairs))
        for k, v in pairs:
            out.append(k)
            _encode(v, out)
    elif kind is list or kind is tuple:
        out.append(b"l%d:" % len(obj))
        for item in obj:
            _encode(item, out)
    else:
        _encode_other(obj, out)


def _encode_other(obj: Any, out: list[bytes]) -> None:
    """None, booleans, bytes and subclasses of the common types, in the order of the spec."""
    if obj is None:
        out.append(b"N")
    elif obj is True:
        out.append(b"T")
    elif obj is False:
        out.append(b"F")
    elif isinstance(obj, int):
        out.append(b"i%d;" % obj)
    elif isinstance(obj, str):
        out.append(_string(obj))
    elif isinstance(obj, (bytes, bytearray)):
        out.append(b"b%d:" % len(obj))
        out.append(bytes(obj))
    elif isinstance(obj, (tuple, list)):
        out.append(b"l%d:" % len(obj))
        for item in obj:
            _encode(item, out)
    elif isinstance(obj, dict):
        _encode(dict(obj), out)
    else:
        raise TypeError(f"cannot encode {type(obj).__name__} canonically")


_first = itemgetter(0)
_STRINGS: dict[str, bytes] = {}  # short strings met before (keys, names) and their encodings


def _string(text: str) -> bytes:
    data = text.encode("utf-8")
    encoded = b"s%d:" % len(data) + data
    if len(data) <= 32 and len(_STRINGS) < 4096 and type(text) is str:
        _STRINGS[text] = encoded
    return encoded


def digest(state: Any) -> bytes:
    """The 16-byte digest of a game (anything with ``canonical()``) or a raw structure."""
    canon = state.canonical() if hasattr(state, "canonical") else state
    return hashlib.blake2b(encode(canon), digest_size=DIGEST_SIZE).digest()
