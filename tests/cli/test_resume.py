"""`fiefdom resume FILE [--prompt]`: a record cut anywhere, AI seats and all, carries on to the very bytes
of the uncut one; a finished or damaged record is one line, exit 2, the file untouched; no input with a
person to move stops in one line and leaves the record as it was."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core import games as core_games
from notation.format import CheckpointRecord, DecisionRecord
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from notation.writer import encode_game
from tui.cli import app
from tui.cli_support import resume_at_prompt

cli = CliRunner()


def invoke(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
    result = cli.invoke(app, list(map(str, args)), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def _played(path: Path, game: str, variant: str, kinds: tuple[str, ...], seed: int) -> bytes:
    runner = Runner.start(GameSetup(game, variant, tuple(SeatPlan(k) for k in kinds), seed), path)
    assert runner.run() is not None
    runner.close()
    return path.read_bytes()


def _cuts(data: bytes, inside_every: int, every: int = 1) -> list[int]:
    """Every ``every``-th record boundary from the end of the header on, and points inside some records."""
    rec = read_record_file(data)
    bounds = [*rec.offsets, len(data)]
    inside = [b + d for i, (b, e) in enumerate(zip(bounds, bounds[1:])) if i % inside_every == 0
              for d in sorted({1, (e - b) // 2}) if b + d < e]
    return sorted(set(bounds[:-1:every]) | set(inside))


@pytest.mark.parametrize("game, variant, kinds, seed, inside_every, every", [
    ("tafl", "gild-9", ("random", "random"), 75, 1, 1),  # 31 moves, a king captured
    ("taifa", "el-cid", ("bot", "bot", "bot", "random"), 47, 9, 1),
    # AI seats (issue 26); the AI thinks longer than a bot: some of the boundaries
    ("kingdom", "multi-2", ("ai", "random"), 1, 12, 3),
    ("kingdom", "solo", ("ai", "bot", "bot"), 1, 12, 2),
], ids=["tafl", "taifa", "kingdom-multi", "kingdom-solo"])
def test_a_record_cut_anywhere_resumes_to_the_same_bytes(tmp_path: Path, game: str, variant: str,
                                                          kinds: tuple[str, ...], seed: int, inside_every: int,
                                                          every: int) -> None:
    whole = _played(tmp_path / "whole.fief", game, variant, kinds, seed)
    cut = tmp_path / "cut.fief"
    cuts = _cuts(whole, inside_every, every)
    assert len(cuts) > 40
    for n, at in enumerate(cuts):
        cut.write_bytes(whole[:at])
        if n % 8 == 0:  # the whole command line now and then (building it takes longer than the game)
            code, out, err = invoke("resume", cut, "--prompt")
            assert code == 0 and out.rstrip().endswith(f"record: {cut}"), (at, out[-300:], err)
        else:  # what `fiefdom resume --prompt` runs
            resume_at_prompt(cut, core_games.info)
        assert cut.read_bytes() == whole, f"cut at byte {at} of {len(whole)} resumed to other bytes"


def test_issue_26s_el_cid_game_with_an_ai_seat_resumes_to_the_same_game(tmp_path: Path) -> None:
    """Issue 26: this game cut at byte 2315 and resumed had the AI add a card (add C32) where the
    uncut game said done: the AI built afresh had forgotten the event it was playing. Cut there, and
    wherever the AI is in the middle of its own answers (an event's target, an attack's cards)."""
    path, cut = tmp_path / "whole.fief", tmp_path / "cut.fief"
    code, _, err = invoke("play", "taifa", "--prompt", "--variant", "el-cid", "--seat", "1=random", "--seat", "3=ai",
                          "--seat", "4=bot",
                          "-o", "almoravid_hand=14", "--seed", "27", "--out", path)
    assert code == 0, err
    whole = path.read_bytes()
    rec = read_record_file(whole)
    records = rec.records
    within = [rec.offsets[i] for i in range(1, len(records)) if isinstance(records[i], DecisionRecord)
              and isinstance(records[i - 1], DecisionRecord) and records[i].seat == records[i - 1].seat == 2]
    assert len(within) >= 10
    for at in sorted({2315, *within}):
        cut.write_bytes(whole[:at])
        if at == 2315:  # the command line, as the issue ran it
            code, out, err = invoke("resume", cut, "--prompt")
            assert code == 0 and out.rstrip().endswith(f"record: {cut}"), (out[-300:], err)
        else:
            resume_at_prompt(cut, core_games.info)
        assert cut.read_bytes() == whole, f"cut at byte {at} of {len(whole)} resumed to other bytes"


@pytest.fixture
def waiting(tmp_path: Path) -> Path:
    """A Taifa record whose next step is a person's: Castile quit at its first question."""
    path = tmp_path / "castile.fief"
    code, out, _ = invoke("play", "taifa", "--prompt", "--seed", "3", "--out", path, stdin="quit\n")
    assert code == 0 and out.rstrip().endswith(f"stopped; the record so far is {path}")
    return path


def test_no_input_with_a_person_to_move_stops_in_one_line(waiting: Path) -> None:
    before = waiting.read_bytes()
    code, out, err = invoke("resume", waiting, "--prompt")
    assert code == 2 and err.count("\n") == 1
    assert err == f"error: no input to read, and Castile is to decide; the record so far is {waiting}\n"
    assert "Resuming after step " in out and "Castile: your action" in out
    assert waiting.read_bytes() == before


def test_a_person_plays_on_and_quits_again(waiting: Path) -> None:
    code, out, _ = invoke("resume", waiting, "--prompt", stdin="pass\n\nquit\n")
    assert code == 0 and "Castile passes" in out
    assert out.rstrip().endswith(f"stopped; the record so far is {waiting}")
    rec = read_record_file(waiting)
    assert any(isinstance(r, DecisionRecord) and r.code == ("pass",) for r in rec.records)
    assert verify(rec).ok


def _refused(path: Path, *args: str) -> str:
    before = path.read_bytes()
    code, out, err = invoke("resume", path, *args)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, (code, out, err)
    assert path.read_bytes() == before
    return err


@pytest.mark.parametrize("prompt", [["--prompt"], []], ids=["prompt", "app"])
def test_a_finished_record_is_refused_and_untouched(tmp_path: Path, prompt: list[str]) -> None:
    path = tmp_path / "done.fief"
    _played(path, "tafl", "gild-9", ("random", "random"), 114)
    assert _refused(path, *prompt).startswith(f"error: {path}: the game is over; a finished record cannot be continued")


def test_damaged_records_are_refused_and_untouched(tmp_path: Path, waiting: Path) -> None:
    garbage = tmp_path / "garbage.fief"
    garbage.write_bytes(b"not a record at all")
    assert _refused(garbage, "--prompt").startswith(f"error: {garbage}: byte 0: not a fiefdom record")

    code, _, _ = invoke("resume", waiting, "--prompt", stdin="pass\n\nquit\n")  # a decision to damage
    assert code == 0
    rec = read_record_file(waiting)
    records = list(rec.records)
    first = next(i for i, r in enumerate(records) if isinstance(r, DecisionRecord))
    illegal = tmp_path / "illegal.fief"  # an illegal decision, and a torn last record resume would cut off
    records[first] = DecisionRecord(records[first].seat, ("attack", 58))
    illegal.write_bytes(encode_game(rec.header, records, reseal=True) + b"\x92\x01")
    assert _refused(illegal, "--prompt").startswith(f"error: {illegal}: record ")

    changed = tmp_path / "changed.fief"  # a checkpoint whose position is not the one replayed
    records = list(rec.records)
    last = max(i for i, r in enumerate(records) if isinstance(r, CheckpointRecord))
    records[last] = replace(records[last], digest=bytes(16))
    changed.write_bytes(encode_game(rec.header, records, reseal=True))
    assert "cannot resume: differs at step" in _refused(changed, "--prompt")
    assert "cannot resume: differs at step" in _refused(changed)  # before the app opens


def test_without_prompt_the_app_resumes_it(waiting: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    opened: list[tuple[object, object]] = []

    class App:
        def __init__(self, data: object, open_path: object = None, resume_path: object = None,
                     games: object = None) -> None:
            opened.append((data, resume_path))

        def run(self) -> None:
            pass

    monkeypatch.setattr("tui.app.FiefdomApp", App)
    code, _, err = invoke("resume", waiting, "--data-dir", tmp_path)
    assert code == 0, err
    assert opened == [(tmp_path, waiting)]


def test_a_record_on_its_own_map_resumes_with_that_map(tmp_path: Path, own_map: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "own.fief"
    code, _, _ = invoke("play", "taifa", "--prompt", "--map", own_map, "--out", path, stdin="quit\n")
    assert code == 0
    err = _refused(path, "--prompt")
    assert "its own map" in err and "--map" in err
    for given in (["--map", str(own_map)], ["--data", f"map={own_map}"]):
        code, out, err = invoke("resume", path, "--prompt", *given)  # the map is taken: it gets as far as asking
        assert code == 2 and err.startswith("error: no input to read, and Castile is to decide"), (given, err)
    assert "Taifa has no data file 'deck' (it takes map, cards)" in _refused(path, "--prompt", "--data", "deck=x")
    assert "--data takes KEY=FILE" in _refused(path, "--prompt", "--data", "map")
    # In the app too: it is given the registry with that map, which builds the record's game.
    built: list[object] = []

    class App:
        def __init__(self, data: object, open_path: object = None, resume_path: object = None,
                     games: object = None) -> None:
            built.append(Runner.resume(path, games=games).game.m.area(1).defence)  # type: ignore[arg-type]

        def run(self) -> None:
            pass

    monkeypatch.setattr("tui.app.FiefdomApp", App)
    code, _, err = invoke("resume", path, "--map", own_map)
    assert code == 0 and built == [3], err  # Cantabria's defence on the own map
    tafl = tmp_path / "tafl.fief"
    code, _, _ = invoke("play", "tafl", "--prompt", "--out", tafl, stdin="quit\n")
    assert code == 0
    assert "Tafl has no data file 'map' (it takes none)" in _refused(tafl, "--prompt", "--map", str(own_map))
