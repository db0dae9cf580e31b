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
from typing import Any

DIGEST_SIZE = 16


def encode(obj: Any) -> bytes:
    out: list[bytes] = []
    _encode(obj, out)
    return b"".join(out)


def _encode(obj: Any, out: list[bytes]) -> None:
    if obj is None:
        out.append(b"N")
    elif obj is True:
        out.append(b"T")
    elif obj is False:
        out.append(b"F")
    elif isinstance(obj, int):
        out.append(b"i%d;" % obj)
    elif isinstance(obj, str):
        data = obj.encode("utf-8")
        out.append(b"s%d:" % len(data))
        out.append(data)
    elif isinstance(obj, (bytes, bytearray)):
        out.append(b"b%d:" % len(obj))
        out.append(bytes(obj))
    elif isinstance(obj, (tuple, list)):
        out.append(b"l%d:" % len(obj))
        for item in obj:
            _encode(item, out)
    elif isinstance(obj, dict):
        pairs = sorted((encode(k), encode(v)) for k, v in obj.items())
        out.append(b"d%d:" % len(pairs))
        for k, v in pairs:
            out.append(k)
            out.append(v)
    else:
        raise TypeError(f"cannot encode {type(obj).__name__} canonically")


def digest(state: Any) -> bytes:
    """The 16-byte digest of a game (anything with ``canonical()``) or a raw structure."""
    canon = state.canonical() if hasattr(state, "canonical") else state
    return hashlib.blake2b(encode(canon), digest_size=DIGEST_SIZE).digest()
