"""A record's deal (a networked game's seed, dealt by commit and reveal: notation/deal.py) in what
``fiefdom replay verify`` and ``replay export`` print; a record without one prints as it always did."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from core import games as core_games
from notation.deal import Deal, Reveal, commitment, seed_of
from notation.runner import GameSetup, Runner, SeatPlan
from tui.cli import app

HOST_SECRET = bytes(range(32))
SEAT_SECRETS = (b"\x11" * 32, b"\x22" * 32, b"\x33" * 32)


def a_deal(seats: int) -> Deal:
    def reveal(who: str, secret: bytes) -> Reveal:
        return Reveal(who, commitment(secret, who), secret)

    return Deal(reveal("host", HOST_SECRET), tuple(reveal(f"seat {s}", SEAT_SECRETS[s]) for s in range(seats)))


def tafl(path: Path, deal: Deal | None, moves: int = 6) -> Path:
    """Six moves of a Gild-9 game between two people, its seed dealt by ``deal`` (or seed 1)."""
    setup = GameSetup("tafl", "gild-9", (SeatPlan("human"), SeatPlan("human")),
                      seed=seed_of(deal) if deal is not None else 1, deal=deal)
    runner = Runner.start(setup, path)
    for _ in range(moves):
        runner.decide(runner.waiting.options[0])  # type: ignore[union-attr]  # a Decision: Tafl has no chance
    runner.close()
    return path


def kingdom(path: Path, deal: Deal) -> Path:
    """A whole Take the Kingdom game of three random seats, its seed dealt by ``deal``."""
    kinds = ["random"] * 3
    setup = GameSetup("kingdom", "multi-3", tuple(SeatPlan(k) for k in kinds), seed=seed_of(deal), deal=deal,
                      setup=core_games.info("kingdom").setup_for("multi-3", kinds))
    runner = Runner.start(setup, path)
    while runner.result is None:
        assert runner.step() is not None
    runner.close()
    return path


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(map(str, args)))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_verify_says_the_deal_was_checked(tmp_path: Path) -> None:
    dealt = tafl(tmp_path / "dealt.fief", a_deal(2))
    assert invoke("replay", "verify", dealt)[:2] == (0, "ok: 7 records, unfinished, the deal checked: 3 parties\n")
    plain = tafl(tmp_path / "plain.fief", None)
    assert invoke("replay", "verify", plain)[:2] == (0, "ok: 7 records, unfinished\n")
    code, out, _ = invoke("replay", "verify", dealt, plain)
    assert code == 0 and out.splitlines() == [f"{dealt}: ok: 7 records, unfinished, the deal checked: 3 parties",
                                              f"{plain}: ok: 7 records, unfinished", "2 records: 2 ok"]


def test_the_json_export_writes_the_deal_in_hex(tmp_path: Path) -> None:
    deal = a_deal(2)
    code, out, err = invoke("replay", "export", "--format", "json", tafl(tmp_path / "dealt.fief", deal))
    assert code == 0, err
    header = json.loads(out)["header"]
    assert header["seed"] == seed_of(deal)
    assert header["deal"] == {
        "host": {"who": "host", "commit": deal.host.commit.hex(), "secret": HOST_SECRET.hex()},
        "seats": [{"who": r.who, "commit": r.commit.hex(), "secret": r.secret.hex()} for r in deal.seats]}
    assert header["deal"]["host"]["commit"] == "4fcd8385fbbf497929a0f532a0ec07cc1682f0dbc5d19d373f654e6e99b7808d"
    code, out, _ = invoke("replay", "export", "--format", "json", tafl(tmp_path / "plain.fief", None))
    assert code == 0 and "deal" not in json.loads(out)["header"]


def test_the_text_export_has_a_deal_tag_after_the_seed(tmp_path: Path) -> None:
    deal = a_deal(2)
    code, out, err = invoke("replay", "export", tafl(tmp_path / "dealt.fief", deal))
    assert code == 0, err
    lines = out.splitlines()
    at = lines.index(f'[Seed "{seed_of(deal)}"]')
    assert lines[at + 1] == '[Deal "3 parties, checked by verify"]'
    code, out, _ = invoke("replay", "export", tafl(tmp_path / "plain.fief", None))
    assert code == 0 and "[Deal " not in out and '[Seed "1"]' in out


def test_a_seats_export_keeps_the_deals_secrets_out(tmp_path: Path) -> None:
    """The secrets give the seed, and the seed deals every card again: a seat's export of a game with
    hidden cards has neither; the commitments, which give nothing away, stay."""
    deal = a_deal(3)
    record = kingdom(tmp_path / "dealt.fief", deal)
    code, out, err = invoke("replay", "verify", record)
    assert code == 0 and out.endswith(", the deal checked: 4 parties\n"), err
    code, out, err = invoke("replay", "export", "--seat", "Player 2", "--format", "json", record)
    assert code == 0, err
    header = json.loads(out)["header"]
    assert header["seed"] is None and str(seed_of(deal)) not in out
    assert all(secret.hex() not in out for secret in (HOST_SECRET, *SEAT_SECRETS))
    assert [r["commit"] for r in [header["deal"]["host"], *header["deal"]["seats"]]] == [
        r.commit.hex() for r in deal.parties]
    assert all(r["secret"] is None for r in [header["deal"]["host"], *header["deal"]["seats"]])
    code, out, err = invoke("replay", "export", "--seat", "Player 2", record)
    assert code == 0, err
    assert '[Seed "hidden"]' in out and '[Deal "4 parties, checked by verify"]' in out
    code, out, _ = invoke("replay", "export", "--format", "json", record)
    assert code == 0 and json.loads(out)["header"]["deal"]["host"]["secret"] == HOST_SECRET.hex()
