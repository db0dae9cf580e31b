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
