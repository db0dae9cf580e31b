"""A deal nobody could choose: the game's seed from every party's secret, by commit and reveal.

Each party (the host, and every person's seat at a networked table) draws a secret of
``SECRET_BYTES`` random bytes and sends first only its commitment, a hash of the secret bound to
the party's label (``"host"``, ``"seat N"``); once every commitment is in, each reveals its
secret. The seed is a hash of every secret (:func:`seed_of`), so nobody, the host included,
could choose it without knowing the others' secrets first, and the record keeps every
commitment and reveal in its header (``deal``) for ``fiefdom replay verify`` to check
(:func:`problem`). docs/replay-format.md, section 3.4, gives the bytes.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from notation.format import Limits, short

SECRET_BYTES = 32  # a secret, and a commitment (blake2b-256)
LABEL = b"fiefdom deal v1\0"  # every hash of the deal starts with it: nothing else hashes these bytes
HOST = "host"  # the host's label; a seat's is "seat N", N its 0-based index
WHO_BYTES = 16  # the longest label a record may hold ("seat 15" takes 7)


def new_secret() -> bytes:
    """A party's secret: SECRET_BYTES bytes from the system's cryptographic source."""
    return secrets.token_bytes(SECRET_BYTES)


def seat_label(seat: int) -> str:
    """The label of the party who plays ``seat`` (0-based): ``"seat 2"``."""
    return f"seat {seat}"


def _hash(*parts: bytes) -> bytes:
    return hashlib.blake2b(LABEL + b"".join(parts), digest_size=SECRET_BYTES).digest()


def _party(who: str, secret: bytes) -> bytes:
    """A party's label and secret as hashed: the label's ASCII, a zero byte, the secret."""
    return who.encode("utf-8") + b"\0" + secret


def commitment(secret: bytes, who: str) -> bytes:
    """What ``who`` sends before anyone reveals: blake2b-256 of LABEL, ``commit\\0``, the label,
    a zero byte and the secret. The label is bound in, so nobody can send another's as its own."""
    return _hash(b"commit\0", _party(who, secret))


@dataclass(frozen=True)
class Reveal:
    """One party's part of the deal: its label, the commitment it sent first, the secret it revealed."""

    who: str
    commit: bytes
    secret: bytes

    def wire(self) -> dict[str, Any]:
        return {"who": self.who, "commit": self.commit, "secret": self.secret}


@dataclass(frozen=True)
class Deal:
    """Every party's reveal: the host's, then the people's seats' in seat order."""

    host: Reveal
    seats: tuple[Reveal, ...]

    @property
    def parties(self) -> tuple[Reveal, ...]:
        return (self.host, *self.seats)

    def wire(self) -> dict[str, Any]:
        """The header's ``deal`` map (bytes stay bytes: msgpack bin)."""
        return {"host": self.host.wire(), "seats": [s.wire() for s in self.seats]}

    @classmethod
    def from_wire(cls, value: Any) -> "Deal":
        """The deal a header map holds, checked as the reader checks it (SchemaError says what is wrong)."""
        from notation.schema import deal_from_wire

        return deal_from_wire(value)


def seed_of(deal: Deal) -> int:
    """The game's seed: blake2b-256 of LABEL, ``seed\\0`` and every party's label, a zero byte and
    secret (the host first, then the seats in order); its first 8 bytes big-endian, shifted right by
    one, so it is in 0..2**63-1."""
    digest = _hash(b"seed\0", *(_party(r.who, r.secret) for r in deal.parties))
    return int.from_bytes(digest[:8], "big") >> 1


def shape_problem(deal: Deal) -> str | None:
    """What is wrong with the deal's form, in one line, or None: the host is labelled ``host``, the
    seats ``seat N`` (N < Limits.SEATS, in increasing order, each once), and every commitment and secret is SECRET_BYTES long."""
    if deal.host.who != HOST:
        return f"the host's reveal is labelled {short(deal.host.who)}, not 'host'"
    last = -1
    for reveal in deal.seats:
        seat = seat_of(reveal.who)
        if seat is None:
            return f"a seat's reveal is labelled {short(reveal.who)}, not 'seat N' (N from 0 to {Limits.SEATS - 1})"
        if seat <= last:
            return f"{reveal.who}'s reveal comes after {seat_label(last)}'s: the seats must be in seat order, each once"
        last = seat
    for reveal in deal.parties:
        for what in ("commit", "secret"):
            value = getattr(reveal, what)
            if type(value) is not bytes or len(value) != SECRET_BYTES:
                return f"{_name(reveal)}'s {what} is not {SECRET_BYTES} bytes"
    return None


def seat_of(who: str) -> int | None:
    """The seat a label ``seat N`` names (N written as ``str(N)``, below Limits.SEATS), else None."""
    number = who[5:] if type(who) is str and who.startswith("seat ") else ""
    if not (number.isascii() and number.isdigit()) or str(int(number)) != number or int(number) >= Limits.SEATS:
        return None
    return int(number)


def _name(reveal: Reveal) -> str:
    return "the host" if reveal.who == HOST else reveal.who


def problem(deal: Deal, seed: int | None) -> str | None:
    """None when the deal holds and ``seed`` follows from it; else one short line saying what is
    wrong: its form (:func:`shape_problem`), a reveal that does not match its commitment, or a seed
    that is not :func:`seed_of` the deal."""
    shape = shape_problem(deal)
    if shape is not None:
        return shape
    for reveal in deal.parties:
        if commitment(reveal.secret, reveal.who) != reveal.commit:
            return f"{_name(reveal)}'s reveal does not match its commitment"
    if seed != seed_of(deal):
        return "the seed does not follow from the reveals"
    return None
