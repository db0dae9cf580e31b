"""Taifa records through `fiefdom replay`: verify (seeded chance derived again), show,
the text export as a game report, JSON, and damaged records as one-line errors."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.rng import SplitMix64
from core.taifa.game import TaifaGame
from notation.export import export_json, export_text
from notation.format import ChanceRecord, DecisionRecord, Header, RecordError
from notation.reader import Recording, read_record_file
from notation.replay import Replay
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from notation.writer import encode_game
from tui.cli import app

runner = CliRunner()
SEED = 11


def _run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def _record(path: Path, variant: str, kinds: list[str], seed: int = SEED, **options: int) -> Path:
    runner = Runner.start(GameSetup("taifa", variant, tuple(SeatPlan(k) for k in kinds), seed, options), path)
    runner.run()
    runner.close()
    return path


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("taifa-records")
    return {
        "bots": _record(d / "bots.fief", "standard", ["bot"] * 6),
        "el-cid": _record(d / "el-cid.fief", "el-cid", ["bot", "bot", "bot", "random"], almoravid_hand=14),
    }


def _rewrite(src: Path, dst: Path, *, header: Header | None = None, edit=None) -> Path:
    rec = read_record_file(src)
    records = list(rec.records)
    if edit is not None:
        edit(records)
    dst.write_bytes(encode_game(header or rec.header, records, reseal=True))
    return dst


def _nth(records: list, kind: type, n: int = 0, where=lambda r: True) -> int:
    return [i for i, r in enumerate(records) if isinstance(r, kind) and where(r)][n]


def test_verify_and_show(records: dict[str, Path]) -> None:
    for path in records.values():
        code, out, _ = _run("replay", "verify", path)
        assert code == 0 and out.startswith("ok: ") and " won: " in out
    code, out, _ = _run("replay", "show", records["el-cid"], "--step", "0")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("step 0 of ")
    assert lines[1] == "turn 1 of 3, round of Almoravids, passes in a row: 0"
    assert "El Cid (player): 4 castles, Card Bonus +0, 0 cards in hand, 0 kept" in lines
    assert lines[-1] == "chance: shuffle the christian deck"
    code, out, _ = _run("replay", "show", records["bots"])
    assert code == 0 and "game over: " in out and "independent: " in out


def test_text_export_reads_as_a_game_report(records: dict[str, Path]) -> None:
    code, out, _ = _run("replay", "export", records["el-cid"])
    assert code == 0
    head, _, body = out.partition("\n\n")
    options = ("almoravid_hand=14, attack_by_response=True, bots_join_fights=True, bots_respond_to_incursions=False, "
               "response_rounds=True, truce_bars_incursion_events=False")
    assert head.splitlines()[:3] == ['[Game "taifa"]', '[Variant "el-cid"]', f'[Options "{options}"]']
    assert '[Seats "Almoravids: Almoravids (bot, rulebook bot (taifa 9)); ' in head
    assert "El Cid: El Cid (random, uniform random mover)" in head
    lines = body.splitlines()
    assert lines[0] == "Turn 1"
    assert lines[1] == "  1. shuffle the christian deck (59 cards)"
    assert "      The christian deck is shuffled (59 cards): the game begins  [taifa 3.1]" in lines
    assert "Turn 1, round 1 -- Almoravids" in lines and "Turn 1, round 4 -- El Cid" in lines
    rounds = [line for line in lines if re.fullmatch(r"Turn [123], round \d+ -- .+", line)]
    assert len(rounds) > 12
    assert {"Turn 1, end", "Turn 2", "Turn 2, end", "Turn 3", "Result"} <= set(lines)
    # every event line cites its rule; every step is numbered once, in order
    events = [line for line in lines if line.startswith("      ") and not line.strip().startswith("{")]
    assert events and all(re.search(r"  \[(taifa \d+(\.\d+)?|TA-\d+)[^\]]*\]$", e) for e in events), \
        [e for e in events if not e.endswith("]")][:3]
    steps = [int(m.group(1)) for line in lines if (m := re.match(r"  (\d+)\. ", line))]
    assert steps == list(range(1, len(steps) + 1)) and len(steps) == read_record_file(records["el-cid"]).steps
    assert any(re.match(r"  \d+\. El Cid: ", line) for line in lines), "El Cid's decisions"
    assert any(re.match(r"  \d+\. .* rolls? \d dice to .*: [1-6]( [1-6])*$", line) for line in lines), "the dice thrown"
    assert lines[-1].startswith(("El Cid won: ", "Almoravids won: "))


def test_json_export(records: dict[str, Path]) -> None:
    code, out, _ = _run("replay", "export", records["bots"], "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["header"]["setup"]["bots"] == list(TaifaGame("standard").s.kingdoms)
    assert doc["verify"] == {"ok": True, "first_bad_step": None, "message": doc["verify"]["message"]}
    assert len(doc["steps"]) == read_record_file(records["bots"]).steps
    assert all(e["rule"] for s in doc["steps"] for e in s["events"])
    assert doc["result"] == doc["recorded_result"] and len(doc["result"]["scores"]) == 6
    code, _, err = _run("replay", "export", records["bots"], "--format", "otg")
    assert code == 2 and err.count("\n") == 1 and "this record is taifa" in err


def _other_dice(records: list) -> None:
    """Change the first die of the first combat roll to another valid value."""
    i = _nth(records, ChanceRecord, where=lambda r: isinstance(r.outcome, tuple) and 1 < len(r.outcome) < 10)
    dice = records[i].outcome
    records[i] = replace(records[i], outcome=(dice[0] % 6 + 1, *dice[1:]))


def test_seeded_chance_is_derived_again(records: dict[str, Path], tmp_path: Path) -> None:
    path = _rewrite(records["bots"], tmp_path / "dice.fief", edit=_other_dice)
    code, out, _ = _run("replay", "verify", path)
    assert code == 1 and out.count("\n") == 1
    assert re.match(r"differs at step \d+: step \d+ \(record \d+ at byte \d+\): the record's outcome .* "
                    r"is not what seed \d+ gives", out), out
    code, out, err = _run("replay", "export", path)
    assert code == 1 and '[Verify "differs at step' in out and err.startswith("note: ")


def test_damaged_records_are_one_line_errors(records: dict[str, Path], tmp_path: Path) -> None:
    src = records["el-cid"]
    rec: Recording = read_record_file(src)

    def illegal(records: list) -> None:
        i = _nth(records, DecisionRecord)
        records[i] = DecisionRecord(records[i].seat, ("attack", 1))  # Cantabria: never El Cid's to attack

    def wrong_seat(records: list) -> None:
        i = _nth(records, DecisionRecord)
        records[i] = DecisionRecord(0, records[i].code)

    cases = {
        "illegal": (_rewrite(src, tmp_path / "illegal.fief", edit=illegal), 1, "not a legal option here"),
        "seat": (_rewrite(src, tmp_path / "seat.fief", edit=wrong_seat), 1, "but the decision is seat 3's"),
        "bots": (_rewrite(src, tmp_path / "bots.fief", header=replace(rec.header, setup={"bots": ["nobody"]})),
                 2, "header at byte 5: no kingdom 'nobody' in el-cid"),
        "option": (_rewrite(src, tmp_path / "option.fief", header=replace(rec.header, options={"almoravid_hand": 20})),
                   2, "option almoravid_hand takes a whole number 12..16, not 20"),
        "seats": (_rewrite(src, tmp_path / "seats.fief", header=replace(rec.header, seats=rec.header.seats[:3])),
                  2, "taifa has 4 seats; the header lists 3"),
        "variant": (_rewrite(src, tmp_path / "variant.fief", header=replace(rec.header, variant="reconquista")),
                    2, "unknown taifa scenario 'reconquista'"),
    }
    cut = tmp_path / "cut.fief"
    cut.write_bytes(rec.data[: rec.offsets[_nth(list(rec.records), ChanceRecord, 5)] + 3])
    cases["cut"] = (cut, 1, "is incomplete")
    for name, (path, status, expected) in cases.items():
        code, out, err = _run("replay", "verify", path)
        text = out if status == 1 else err
        assert code == status and expected in text and text.count("\n") == 1, (name, code, out, err)
        for command in (("show",), ("export",), ("export", "-f", "json")):
            code, out, err = _run("replay", *command, path)
            shown = command == ("show",) and status == 1  # show shows what replays, and says where it stops
            assert code == (0 if shown else status), (name, command, code)
            assert not shown or name == "cut" or "note: the replay stops at step " in out, (name, out[-200:])
            assert status == 1 or (err.count("\n") == 1 and err.startswith("error: ")), (name, command, err)


def test_random_damage_is_refused_or_differs(records: dict[str, Path]) -> None:
    """Bit flips anywhere in (the first 40 steps of) a Taifa record: the reader refuses it in one
    line, or it replays but does not verify; the export and show never fail with a traceback."""
    rec = read_record_file(records["el-cid"])
    step40 = [i for i, r in enumerate(rec.records) if isinstance(r, (DecisionRecord, ChanceRecord))][40]
    data = rec.data[: rec.offsets[step40]]
    assert verify(read_record_file(data)).ok
    rng = SplitMix64(5)
    for _ in range(150):
        damaged = bytearray(data)
        pos, bit = rng.below(len(data)), rng.below(8)
        damaged[pos] ^= 1 << bit
        try:
            recording = read_record_file(bytes(damaged))
        except RecordError as err:
            assert "\n" not in str(err)
            continue
        assert not verify(recording).ok, f"a flip of bit {bit} at byte {pos} went unnoticed"
        try:
            replay = Replay(recording)
        except RecordError:
            continue
        export_text(replay), export_json(replay)
        replay.state_at(len(replay))
