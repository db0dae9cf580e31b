from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.digest import digest, encode
from core.tafl import TaflGame


def test_encoding_is_canonical() -> None:
    assert encode({"b": 1, "a": [True, None, "x"]}) == encode({"a": (True, None, "x"), "b": 1})
    assert encode(1) != encode("1") != encode(b"1")
    assert encode(-12) == b"i-12;"


def test_digest_of_a_known_state_is_stable() -> None:
    # A fixed value: if this changes, every checkpoint in every record changes.
    assert digest(TaflGame("traditional")).hex() == "4115119dc766c909b283c34fef03715c"
    assert digest(TaflGame("gild-9")).hex() == "2bd4a4e29db64aa73b4fe0008c35f609"


def test_digest_tracks_the_state() -> None:
    g = TaflGame("traditional")
    before = digest(g)
    clone = g.clone()
    g.apply(("d1", "d3"))
    assert digest(g) != before
    assert digest(clone) == before


# -- the encoder against the spec, written plainly (docs/replay-format.md, section 6) ---------------


def spec_encode(obj: Any) -> bytes:
    """The canonical encoding as the spec words it, with no shortcut."""
    if obj is None:
        return b"N"
    if obj is True or obj is False:
        return b"T" if obj else b"F"
    if isinstance(obj, int):
        return b"i%d;" % obj
    if isinstance(obj, str):
        data = obj.encode("utf-8")
        return b"s%d:" % len(data) + data
    if isinstance(obj, (bytes, bytearray)):
        return b"b%d:" % len(obj) + bytes(obj)
    if isinstance(obj, (list, tuple)):
        return b"l%d:" % len(obj) + b"".join(spec_encode(item) for item in obj)
    pairs = sorted((spec_encode(k), spec_encode(v)) for k, v in obj.items())
    return b"d%d:" % len(pairs) + b"".join(k + v for k, v in pairs)


class _Str(str):
    pass


class _Int(int):
    pass


class _Dict(dict):  # type: ignore[type-arg]
    pass


_KEYS = st.one_of(st.text(max_size=5), st.integers(-3, 3), st.booleans(), st.none(), st.binary(max_size=3),
                  st.builds(_Str, st.text(max_size=3)))
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-2**130, 2**130), st.text(max_size=40),
                    st.binary(max_size=5), st.builds(_Str, st.text(max_size=3)), st.builds(_Int, st.integers(-5, 5)))
_VALUES = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.tuples(inner, inner), st.dictionaries(_KEYS, inner, max_size=6),
    st.dictionaries(st.sampled_from(["a", "b", "game", "ply", "x"]), inner, max_size=5),  # layouts met again
    st.builds(_Dict, st.dictionaries(st.text(max_size=3), inner, max_size=3))), max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_the_encoder_gives_the_specs_bytes(value: Any) -> None:
    """Kept dict layouts and the in-line cases change nothing: a key of another kind equal to a str
    key's (True and 1 are equal, never a str) or a str subclass gives the spec's bytes, again and again."""
    assert encode(value) == spec_encode(value)
    assert encode(value) == spec_encode(value)  # its layouts now kept
    assert encode({"a": 1, "b": value}) == spec_encode({"a": 1, "b": value})
