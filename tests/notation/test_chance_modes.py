"""Chance is checked or said to be unchecked (issue 26, docs/replay-format.md sections 3 and 11).

For every game whose rules shuffle or throw dice, the golden records rewritten (every running
hash sealed again) to ``chance: "none"`` are refused, and to ``"recorded"`` verify with their line
saying how many outcomes were taken as given, as ``show`` and every export's header say it. A
Taifa game with its dice typed at the table (``"manual"``) says the dice were taken as given and
still derives its shuffles from the seed.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.chance import TableDice
from core.engine import Chance
from core.rng import SplitMix64
from notation.format import ChanceRecord, RecordError, encode_header
from notation.reader import Recording, read_record_file
from notation.replay import Replay
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import chance_note, verify
from notation.writer import encode_game
from tui.cli_replay import replay_app

ROOT = Path(__file__).parents[2]
GOLDEN = sorted([*(ROOT / "replays").glob("*.fief"), *(ROOT / "tests").rglob("*.fief")])
cli = CliRunner()


def _read(path: Path) -> Recording:
    return read_record_file(path.read_bytes())


def _chances(rec: Recording) -> list[int]:
    return [i for i, r in enumerate(rec.records) if isinstance(r, ChanceRecord)]


WITH_CHANCE = [p for p in GOLDEN if p.parent.name == "replays" and _chances(_read(p))]
WITHOUT = [p for p in GOLDEN if p.parent.name == "replays" and not _chances(_read(p))]


def _run(*args: str | Path) -> tuple[int, str, str]:
    result = cli.invoke(replay_app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def _rewritten(rec: Recording, path: Path, chance: str) -> Path:
    """``rec`` with its header's chance mode changed and every hash sealed again."""
    path.write_bytes(encode_game(replace(rec.header, chance=chance), rec.records, reseal=True))
    return path


def test_the_golden_records_are_seeded_and_check_every_outcome() -> None:
    """No record fiefdom wrote claims less chance than it has: each golden verifies with nothing
    taken as given, and the games with chance points are all among them."""
    assert {_read(p).header.game for p in WITH_CHANCE} == {"taifa", "kingdom"}
    assert {_read(p).header.game for p in WITHOUT} == {"tafl"}
    for path in GOLDEN:
        rec = _read(path)
        report = verify(rec)
        assert report.ok and rec.header.chance == "seeded", (path, report.verdict)
        assert report.given == 0 and report.note == "" and Replay(rec).chance_note == ""


@pytest.mark.parametrize("golden", WITH_CHANCE, ids=lambda p: p.stem)
def test_a_game_with_chance_claiming_none_is_refused(golden: Path, tmp_path: Path) -> None:
    rec = _read(golden)
    forged = _rewritten(rec, tmp_path / "none.fief", "none")
    first = _chances(rec)[0]
    shift = len(encode_header(replace(rec.header, chance="none"))) - len(encode_header(rec.header))
    message = (f"record {first} at byte {rec.offsets[first] + shift}: a chance outcome, but the header "
               'says chance "none", a game without chance points')
    with pytest.raises(RecordError) as err:
        read_record_file(forged.read_bytes())
    assert str(err.value) == message
    for command in (["verify"], ["show"], ["export"], ["export", "-f", "json"], ["export", "--seat", "1"]):
        code, out, err_text = _run(*command, forged)
        assert (code, out, err_text) == (2, "", f"error: {forged}: {message}\n"), command


@pytest.mark.parametrize("golden", WITH_CHANCE, ids=lambda p: p.stem)
def test_a_game_with_chance_recorded_verifies_saying_what_was_taken_as_given(golden: Path, tmp_path: Path) -> None:
    rec = _read(golden)
    path = _rewritten(rec, tmp_path / "recorded.fief", "recorded")
    given = len(_chances(rec))
    note = f"chance recorded, not derived from a seed: {given} outcome{'s' * (given != 1)} taken as given"
    report = verify(_read(path))
    assert report.ok and report.given == given and report.note == note
    assert chance_note("recorded", given) == note and Replay(_read(path)).chance_note == note
    code, out, _ = _run("verify", path)
    assert code == 0 and out.startswith(f"ok ({note}): {len(rec.records)} records, result ")
    code, out, _ = _run("show", path, "--step", "1")
    assert code == 0 and out.splitlines()[1] == f"note: {note}"
    for seat in ([], ["--seat", "1"]):  # the full table's and a seat's, text and JSON
        code, out, _ = _run("export", path, *seat)
        assert code == 0 and f'[Chance "recorded"]\n[Chance note "{note}"]\n' in out, seat
        code, out, _ = _run("export", path, "-f", "json", *(seat and ["--seat", "spectator"]))
        header = json.loads(out)["header"]
        assert code == 0 and (header["chance"], header["chance_note"], header["taken_as_given"]) == (
            "recorded", note, given), seat
        assert list(header).index("chance_note") == list(header).index("chance") + 1


@pytest.mark.parametrize("golden", WITHOUT[:2], ids=lambda p: p.stem)
def test_a_game_without_chance_points_takes_nothing_as_given(golden: Path, tmp_path: Path) -> None:
    rec = _read(golden)
    for mode in ("none", "recorded", "manual"):
        path = _rewritten(rec, tmp_path / f"{mode}.fief", mode)
        report = verify(_read(path))
        assert report.ok and report.given == 0 and report.note == "", mode
        code, out, _ = _run("verify", path)
        assert code == 0 and out.startswith("ok: "), mode
        code, out, _ = _run("export", path)
        assert f'[Chance "{mode}"]\n[Seed ' in out
        assert "chance_note" not in json.loads(_run("export", path, "-f", "json")[1])["header"]


def test_kingdom_has_no_dice_to_type_and_derives_every_shuffle(tmp_path: Path) -> None:
    """Take the Kingdom shuffles and never throws dice: a manual record takes nothing as given."""
    rec = _read(next(p for p in WITH_CHANCE if p.stem.startswith("kingdom-solo")))
    manual = _read(_rewritten(rec, tmp_path / "manual.fief", "manual"))
    report = verify(manual)
    assert report.ok and report.given == 0 and report.note == ""
    records = list(manual.records)
    first = _chances(manual)[0]
    records[first] = ChanceRecord(tuple(reversed(records[first].outcome)))  # type: ignore[union-attr, arg-type]
    forged = verify(read_record_file(encode_game(manual.header, records, reseal=True)))
    assert not forged.ok and "is not what seed" in forged.message


@pytest.fixture(scope="module")
def typed_at_the_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An El Cid game whose dice were typed at the table (from another generator than the seed)."""
    path = tmp_path_factory.mktemp("manual") / "taifa-manual.fief"
    seats = tuple(SeatPlan(kind) for kind in ("random", "bot", "bot", "random"))
    runner = Runner.start(GameSetup("taifa", "el-cid", seats, 5, chance="manual"), path)
    table = SplitMix64(99)
    while runner.run() is None:
        wait = runner.waiting
        assert isinstance(wait, Chance) and wait.kind == "dice"  # the shuffles and picks stay seeded
        n, sides = wait.spec
        runner.type_outcome(tuple(table.die(sides) for _ in range(n)))
    runner.close()
    return path


def test_taifa_dice_typed_at_the_table_are_said_to_be_taken_as_given(typed_at_the_table: Path,
                                                                      tmp_path: Path) -> None:
    rec = _read(typed_at_the_table)
    replay = Replay(rec)
    kinds = [info.before.kind for info in replay.step_infos() if isinstance(info.before, Chance)]
    dice = kinds.count("dice")
    assert dice and len(kinds) > dice  # dice typed, shuffles (and picks) derived
    assert all(kind in TableDice.TYPED or kind != "dice" for kind in kinds)
    note = f"dice typed at the table: {dice} outcomes taken as given"
    report = verify(rec)
    assert report.ok and report.given == dice == replay.given and report.note == note
    code, out, _ = _run("verify", typed_at_the_table)
    assert code == 0 and out.startswith(f"ok ({note}): ")
    code, out, _ = _run("export", typed_at_the_table, "--seat", "El Cid")
    assert code == 0 and f'[Chance "manual"]\n[Chance note "{note}"]\n[Seed "hidden"]' in out
    # The same outcomes as recorded: every one taken as given; as seeded: the typed dice are not the seed's.
    recorded = verify(_read(_rewritten(rec, tmp_path / "recorded.fief", "recorded")))
    assert recorded.ok and recorded.given == len(kinds)
    seeded = verify(_read(_rewritten(rec, tmp_path / "seeded.fief", "seeded")))
    assert not seeded.ok and "is not what seed 5 gives" in seeded.message
    with pytest.raises(RecordError, match='chance "none"'):
        _read(_rewritten(rec, tmp_path / "none.fief", "none"))


def test_a_taifa_record_claiming_none_at_its_start_does_not_verify(tmp_path: Path) -> None:
    """No step yet, and the deal's shuffle comes next: nothing for the reader to refuse, but the
    game asks for chance the header says it has none of."""
    rec = _read(next(p for p in WITH_CHANCE if p.stem.startswith("taifa")))
    path = tmp_path / "start.fief"
    path.write_bytes(encode_game(replace(rec.header, chance="none"), rec.records[:1], reseal=True))
    report = verify(_read(path))
    assert not report.ok and report.first_bad_step == 1
    assert report.message.startswith('at the start: the rules ask for chance (') and report.message.endswith(
        'but the header says chance "none", a game without chance points')
    code, out, _ = _run("verify", path)
    assert code == 1 and out.startswith("differs at step 1: at the start: ")


@pytest.mark.parametrize("prompt", [True, False], ids=["prompt", "app"])
def test_a_record_of_recorded_chance_is_not_played_on(prompt: bool, tmp_path: Path) -> None:
    """Its outcomes came from elsewhere: none would be drawn for the steps to come, so resume refuses
    it in one line (before the app opens), and the file is left as it was."""
    from tui.cli import app

    rec = _read(WITH_CHANCE[0])
    path = tmp_path / "r.fief"
    path.write_bytes(encode_game(replace(rec.header, chance="recorded"), rec.records[:30], reseal=True))
    before = path.read_bytes()
    result = cli.invoke(app, ["resume", str(path), *(["--prompt"] if prompt else [])])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and '"recorded"' in result.stderr, result.stderr
    assert path.read_bytes() == before
    with pytest.raises(RecordError, match="recorded"):
        Runner.resume(path)
