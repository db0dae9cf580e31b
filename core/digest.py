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
        out.append(data if data is not None else _string(obj))
    elif kind is int:
        out.append(b"i%d;" % obj)
    elif kind is dict:
        _encode_dict(obj, out)
    elif kind is list or kind is tuple:
        _encode_list(obj, out)
    else:
        _encode_other(obj, out)


def _encode_list(obj: list[Any] | tuple[Any, ...], out: list[bytes]) -> None:
    """A list or tuple: its count, then its items, those of the commonest types encoded in line
    (a game's state is mostly lists of short strings, small ints and booleans)."""
    append = out.append
    append(b"l%d:" % len(obj))
    for item in obj:
        kind = type(item)
        if kind is str:
            known = _STRINGS.get(item)
            append(known if known is not None else _string(item))
        elif kind is int:
            known = _INTS.get(item)
            append(known if known is not None else b"i%d;" % item)
        elif kind is bool:
            append(b"T" if item else b"F")
        elif kind is list or kind is tuple:
            _encode_list(item, out)
        else:
            _encode(item, out)


def _encode_dict(obj: dict[Any, Any], out: list[bytes]) -> None:
    """A dict: its pairs sorted by the encoded key. Keys encode to distinct bytes, so sorting by the
    key's bytes alone gives the order of the (key, value) pairs sorted by their encodings.

    A dict whose keys are all exact strs (a game's canonical state) has its layout (the count and
    the keys' encodings, sorted) kept by its keys in their own order, so the next dict with those
    keys is encoded without sorting. Values of the commonest types are encoded in line."""
    keys = tuple(obj)
    layout = _LAYOUTS.get(keys)
    if layout is None:
        layout = _layout(obj, keys)
        if layout is None:  # a key that is not a str: sort this once
            pairs = sorted(((encode(k), k) for k in keys), key=_first)
            out.append(b"d%d:" % len(pairs))
            for data, k in pairs:
                out.append(data)
                _encode(obj[k], out)
            return
    append = out.append
    append(layout[0])
    for data, k in layout[1]:
        append(data)
        v = obj[k]
        kind = type(v)
        if kind is str:
            known = _STRINGS.get(v)
            append(known if known is not None else _string(v))
        elif kind is int:
            known_int = _INTS.get(v)
            append(known_int if known_int is not None else b"i%d;" % v)
        elif v is None:
            append(b"N")
        elif kind is bool:
            append(b"T" if v else b"F")
        elif kind is dict:
            _encode_dict(v, out)
        else:
            _encode(v, out)


def _layout(obj: dict[Any, Any], keys: tuple[Any, ...]) -> tuple[bytes, tuple[tuple[bytes, str], ...]] | None:
    """The count and the sorted (encoded key, key) pairs of a dict whose keys are all exact strs,
    kept for the next dict with the same keys (None for any other dict: it is not kept).

    Only exact strs: a kept layout is found again by equal keys, and no other kind of key equal to
    a str encodes differently (1 == True would: they are never kept)."""
    if not all(type(k) is str for k in keys):
        return None
    layout = (b"d%d:" % len(keys), tuple(sorted(((_STRINGS.get(k) or _string(k), k) for k in keys), key=_first)))
    if len(_LAYOUTS) < 1024:
        _LAYOUTS[keys] = layout
    return layout


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
_blake2b = hashlib.blake2b
_STRINGS: dict[str, bytes] = {}  # short strings met before (keys, names) and their encodings
_INTS: dict[int, bytes] = {i: b"i%d;" % i for i in range(-8, 256)}  # small ints, encoded once
_LAYOUTS: dict[tuple[Any, ...], tuple[bytes, tuple[tuple[bytes, str], ...]]] = {}  # see _encode_dict


def _string(text: str) -> bytes:
    data = text.encode("utf-8")
    encoded = b"s%d:" % len(data) + data
    if len(data) <= 32 and len(_STRINGS) < 4096 and type(text) is str:
        _STRINGS[text] = encoded
    return encoded


def digest(state: Any) -> bytes:
    """The 16-byte digest of a game (anything with ``canonical()``) or a raw structure."""
    canonical = getattr(state, "canonical", None)
    out: list[bytes] = []
    _encode(state if canonical is None else canonical(), out)
    return _blake2b(b"".join(out), digest_size=DIGEST_SIZE).digest()
