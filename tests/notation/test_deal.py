"""A deal nobody could choose (notation/deal.py): commitments bound to their party, the seed from
every reveal, the header's ``deal`` read strictly, and ``fiefdom replay verify`` failing in one
line when a reveal or the seed does not hold (docs/replay-format.md, section 3.4)."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

import msgpack
import pytest
from typer.testing import CliRunner

from core.engine import RulesError
from notation.deal import (
    LABEL, SECRET_BYTES, Deal, Reveal, commitment, new_secret, problem, seed_of, shape_problem,
)
from notation.format import HEADER_KEYS, PREAMBLE, Limits, RecordError, encode_header
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.schema import SchemaError
from notation.verify import verify
from notation.writer import encode_game
from tui.cli_replay import replay_app

HOST_SECRET = bytes(range(32))
SEAT_SECRETS = (b"\x11" * 32, b"\x22" * 32)


def reveal(who: str, secret: bytes) -> Reveal:
    return Reveal(who, commitment(secret, who), secret)


def a_deal(*seats: int) -> Deal:
    return Deal(reveal("host", HOST_SECRET), tuple(reveal(f"seat {s}", SEAT_SECRETS[i]) for i, s in enumerate(seats)))


DEAL = a_deal(0, 1)


# -- the hashes ------------------------------------------------------------------------


def test_the_hashes_are_the_ones_the_format_spells_out() -> None:
    """docs/replay-format.md 3.4, byte for byte, and its test vectors."""
    def blake(data: bytes) -> bytes:
        return hashlib.blake2b(data, digest_size=32).digest()

    assert LABEL == b"fiefdom deal v1\x00" and SECRET_BYTES == 32
    assert commitment(HOST_SECRET, "host") == blake(LABEL + b"commit\0" + b"host\0" + HOST_SECRET)
    parties = b"host\0" + HOST_SECRET + b"seat 0\0" + SEAT_SECRETS[0] + b"seat 1\0" + SEAT_SECRETS[1]
    assert seed_of(DEAL) == int.from_bytes(blake(LABEL + b"seed\0" + parties)[:8], "big") >> 1
    assert commitment(HOST_SECRET, "host").hex() == (
        "4fcd8385fbbf497929a0f532a0ec07cc1682f0dbc5d19d373f654e6e99b7808d")
    assert commitment(SEAT_SECRETS[0], "seat 0").hex() == (
        "ea3425892dc24a0c9ae90c92edccb91471b1e6dff68b86dd5f4628e8441fae8a")
    assert seed_of(DEAL) == 561102463848965986


def test_a_commitment_is_bound_to_its_party() -> None:
    """Nobody can send another party's commitment as its own: the label is hashed in."""
    secret = new_secret()
    assert len(secret) == SECRET_BYTES and secret != new_secret()
    assert commitment(secret, "seat 0") != commitment(secret, "seat 1") != commitment(secret, "host")
    copied = Deal(DEAL.host, (DEAL.seats[0], Reveal("seat 1", DEAL.seats[0].commit, DEAL.seats[0].secret)))
    assert problem(copied, seed_of(copied)) == "seat 1's reveal does not match its commitment"


def test_the_seed_depends_on_every_secret_and_fits_the_record() -> None:
    seeds = {seed_of(DEAL)}
    for i in range(3):
        changed = list(DEAL.parties)
        changed[i] = reveal(changed[i].who, bytes(32))
        seeds.add(seed_of(Deal(changed[0], tuple(changed[1:]))))
    assert len(seeds) == 4 and all(0 <= s < 2**63 for s in seeds)
    assert seed_of(a_deal()) != seed_of(a_deal(0))


def test_a_good_deal_has_no_problem() -> None:
    for deal in (DEAL, a_deal(), a_deal(3), a_deal(0, 15)):
        assert problem(deal, seed_of(deal)) is None


@pytest.mark.parametrize("deal, seed, expected", [
    (DEAL, 5, "the seed does not follow from the reveals"),
    (DEAL, None, "the seed does not follow from the reveals"),
    (Deal(Reveal("host", DEAL.host.commit, bytes(32)), DEAL.seats), None,
     "the host's reveal does not match its commitment"),
    (Deal(DEAL.host, (DEAL.seats[0], Reveal("seat 1", DEAL.seats[1].commit, bytes(32)))), None,
     "seat 1's reveal does not match its commitment"),
    (Deal(reveal("seat 0", HOST_SECRET), ()), None, "the host's reveal is labelled 'seat 0', not 'host'"),
    (a_deal(1, 0), None, "seat 0's reveal comes after seat 1's"),
    (a_deal(1, 1), None, "seat 1's reveal comes after seat 1's"),
    (Deal(DEAL.host, (reveal("seat 01", HOST_SECRET),)), None, "a seat's reveal is labelled 'seat 01', not 'seat N'"),
    (Deal(DEAL.host, (reveal("seat 16", HOST_SECRET),)), None, "a seat's reveal is labelled 'seat 16', not 'seat N'"),
    (Deal(DEAL.host, (reveal("seat -1", HOST_SECRET),)), None, "a seat's reveal is labelled 'seat -1'"),
    (Deal(Reveal("host", b"x", HOST_SECRET), ()), None, "the host's commit is not 32 bytes"),
    (Deal(DEAL.host, (reveal("seat 2", b"short"),)), None, "seat 2's secret is not 32 bytes"),
])
def test_what_is_wrong_is_one_line(deal: Deal, seed: int | None, expected: str) -> None:
    seed = seed_of(deal) if seed is None and "seed" not in expected and shape_problem(deal) is None else seed
    found = problem(deal, seed)
    assert found is not None and found.startswith(expected) and "\n" not in found


# -- the header ------------------------------------------------------------------------


def setup(deal: Deal | None = DEAL, seed: int | None = None) -> GameSetup:
    seed = seed_of(deal) if seed is None and deal is not None else (seed or 1)
    return GameSetup("tafl", "gild-9", (SeatPlan("human"), SeatPlan("human")), seed=seed, deal=deal)


def played(path: Path, deal: Deal | None = DEAL, moves: int = 6) -> bytes:
    runner = Runner.start(setup(deal), path)
    for _ in range(moves):
        point = runner.waiting
        assert point is not None
        runner.decide(point.options[0])  # type: ignore[union-attr]  # a Decision: Tafl has no chance
    runner.close()
    return path.read_bytes()


def test_a_deal_is_written_read_and_verified(tmp_path: Path) -> None:
    data = played(tmp_path / "dealt.fief")
    rec = read_record_file(data)
    assert rec.header.deal == DEAL and rec.header.seed == seed_of(DEAL)
    assert list(rec.header.wire()) == [k for k in HEADER_KEYS if k != "parent"]  # the deal last, after created
    assert encode_game(rec.header, rec.records) == data  # byte for byte
    assert Deal.from_wire(DEAL.wire()) == DEAL
    report = verify(rec)
    assert report.ok and report.deal


def test_a_header_without_a_deal_is_as_it_always_was(tmp_path: Path) -> None:
    rec = read_record_file(played(tmp_path / "plain.fief", deal=None))
    assert rec.header.deal is None and "deal" not in rec.header.wire()
    wire = rec.header.wire()
    assert encode_header(rec.header) == PREAMBLE + msgpack.packb(wire, use_bin_type=True)
    assert len(wire) == 11 and not verify(rec).deal


def test_a_game_set_up_with_a_deal_needs_its_seed() -> None:
    with pytest.raises(RulesError) as info:
        Runner.start(setup(seed=12345))
    assert str(info.value) == "the deal: the seed does not follow from the reveals"
    bad = Deal(DEAL.host, (DEAL.seats[1], DEAL.seats[0]))
    with pytest.raises(RulesError, match="^the deal: seat 0's reveal comes after seat 1's"):
        Runner.start(setup(bad, seed=seed_of(bad)))


# -- verify at the command line ------------------------------------------------------------


def _verify(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(replay_app, ["verify", str(path)])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout


def _with_deal(data: bytes, deal: Deal, path: Path) -> Path:
    rec = read_record_file(data)
    path.write_bytes(encode_game(dataclasses.replace(rec.header, deal=deal), rec.records, reseal=True))
    return path


def test_verify_passes_a_good_deal(tmp_path: Path) -> None:
    played(tmp_path / "dealt.fief")
    code, out = _verify(tmp_path / "dealt.fief")
    assert code == 0 and out == "ok: 7 records, unfinished, the deal checked: 3 parties\n"


def test_verify_fails_a_reveal_that_does_not_match_in_one_line(tmp_path: Path) -> None:
    data = played(tmp_path / "dealt.fief")
    other = Deal(DEAL.host, (DEAL.seats[0], Reveal("seat 1", DEAL.seats[1].commit, SEAT_SECRETS[0])))
    path = _with_deal(data, other, tmp_path / "lied.fief")
    assert read_record_file(path).header.deal == other  # it reads: only verify can tell
    code, out = _verify(path)
    assert code == 1 and out == "differs at step 0: deal: seat 1's reveal does not match its commitment\n"


def test_verify_fails_a_seed_that_does_not_follow_in_one_line(tmp_path: Path) -> None:
    """The host dealt from a seed of its own and wrote reveals that do not give it."""
    data = played(tmp_path / "dealt.fief")
    other = a_deal(0)  # a good deal, but not the one the seed came from
    code, out = _verify(_with_deal(data, other, tmp_path / "chosen.fief"))
    assert code == 1 and out == "differs at step 0: deal: the seed does not follow from the reveals\n"


# -- a hostile deal ------------------------------------------------------------------------


def _header_error(samples: dict[str, bytes], deal: Any) -> str:
    header = {**read_record_file(samples["short"]).header.wire(), "deal": deal}
    data = PREAMBLE + msgpack.packb(header, use_bin_type=True)
    with pytest.raises(RecordError) as info:
        read_record_file(data)
    message = str(info.value)
    assert "\n" not in message and message.startswith("header at byte 5: "), message
    return message[len("header at byte 5: "):]


WIRE = DEAL.wire()


def _seat(**change: Any) -> dict[str, Any]:
    return {**WIRE, "seats": [{**WIRE["seats"][0], **change}]}


@pytest.mark.parametrize("deal, expected", [
    (None, "the deal must be a map, not None"),
    ([1, 2], "the deal must be a map"),
    ({"host": WIRE["host"]}, "the deal lacks the field 'seats'"),
    ({**WIRE, "extra": 1}, "the deal has an unknown field 'extra'"),
    ({**WIRE, "host": "me"}, "the deal's host must be a map, not 'me'"),
    ({**WIRE, "seats": {}}, "the deal's seats must be an array"),
    ({**WIRE, "seats": [WIRE["seats"][0]] * 100}, "the deal's seats has more than 16 items"),
    ({**WIRE, "seats": [WIRE["seats"][0]] * 17}, "the deal's seats has more than 16 items"),
    (_seat(who=0), "the deal's seat reveal 0's label must be a string, not 0"),
    (_seat(who=""), "the deal's seat reveal 0's label must not be empty"),
    (_seat(who="seat \x1b[2J"), "the deal's seat reveal 0's label must be printable ASCII"),
    (_seat(who="x" * 17), "the deal's seat reveal 0's label is longer than 16 bytes"),
    (_seat(who="seat 9"), "the deal has a reveal of seat 9, but the header lists 2 seats"),
    (_seat(who="seat x"), "the deal: a seat's reveal is labelled 'seat x', not 'seat N'"),
    (_seat(commit="ab" * 16), "the deal's seat reveal 0's commitment must be 32 bytes (msgpack bin), not 'abab"),
    (_seat(secret=b"x" * 31), "the deal's seat reveal 0's secret must be 32 bytes (msgpack bin)"),
    (_seat(secret=b"x" * 33), "not valid msgpack (a value larger than the format allows"),
    (_seat(secret=b"x" * 10_000_000), "the header is larger than 65536 bytes"),
    (_seat(secret=2**64 - 1), "the deal's seat reveal 0's secret must be 32 bytes (msgpack bin), not 1844"),
    ({**WIRE, "host": {**WIRE["host"], "who": "seat 0"}}, "the deal: the host's reveal is labelled 'seat 0'"),
])
def test_a_hostile_deal_is_one_clear_error(samples: dict[str, bytes], deal: Any, expected: str) -> None:
    assert _header_error(samples, deal).startswith(expected)


def test_a_deal_of_16_seats_reads_where_the_game_has_them() -> None:
    """The reader's bound is the format's seat limit; a deal names only seats the header lists."""
    deal = Deal(DEAL.host, tuple(reveal(f"seat {s}", bytes([s]) * 32) for s in range(Limits.SEATS)))
    assert Deal.from_wire(deal.wire()) == deal
    with pytest.raises(SchemaError, match="the deal's seats has more than 16 items"):
        Deal.from_wire({**deal.wire(), "seats": deal.wire()["seats"] * 2})
