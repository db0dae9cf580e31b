"""The runner (notation/runner.py): one driver for every game, with journal, resume and takeback.

Resume must add nothing but the steps that follow: a seeded game of bots and
random movers cut anywhere (at every record boundary and inside every record)
and resumed is the uncut file byte for byte. Hoard, the test-only game, shows
that the runner plays a game it has never heard of.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine import Chance, Decision, RulesError
from notation.format import CommentRecord, RecordError, ResultRecord
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from notation.writer import encode_game

BOT, RANDOM, HUMAN, AI = SeatPlan("bot"), SeatPlan("random"), SeatPlan("human"), SeatPlan("ai")

GAMES = {
    "tafl-gild-9": GameSetup("tafl", "gild-9", (RANDOM, RANDOM), seed=3),
    "tafl-traditional": GameSetup("tafl", "traditional", (RANDOM, RANDOM), seed=11),
    "taifa-el-cid": GameSetup("taifa", "el-cid", (BOT, RANDOM, BOT, RANDOM), seed=4),
    "taifa-standard": GameSetup("taifa", "standard", (BOT,) * 6, seed=7),
}


def played(setup: GameSetup, path: Path) -> bytes:
    runner = Runner.start(setup, path)
    assert runner.run() is not None
    runner.close()
    return path.read_bytes()


def cuts(path: Path) -> list[int]:
    """Every record boundary after the header, one byte into every record, and one byte short."""
    rec = read_record_file(path)
    ends = list(rec.offsets) + [len(rec.data)]
    return sorted({*ends[:-1], *(o + 1 for o in rec.offsets), len(rec.data) - 1})


def resumes_to_the_same_bytes(whole_path: Path, cut: Path) -> None:
    """The record at ``whole_path`` cut at every place :func:`cuts` names, resumed and played on,
    is the same file byte for byte."""
    whole = whole_path.read_bytes()
    for at in cuts(whole_path):
        cut.write_bytes(whole[:at])
        runner = Runner.resume(cut)
        runner.run()
        runner.close()
        assert cut.read_bytes() == whole, f"{whole_path.name} cut at byte {at}"


@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_game_cut_anywhere_resumes_to_the_same_bytes(name: str, tmp_path: Path) -> None:
    played(GAMES[name], tmp_path / "whole.fief")
    resumes_to_the_same_bytes(tmp_path / "whole.fief", tmp_path / "cut.fief")


def test_the_test_game_plays_journals_and_resumes_unknown_to_the_runner(hoard, tmp_path: Path) -> None:
    setup = GameSetup("hoard", "short", (RANDOM, AI, BOT), seed=5, options={"turns": 4})
    played(setup, tmp_path / "whole.fief")
    report = verify(read_record_file(tmp_path / "whole.fief"))
    assert report.ok and report.result is not None
    header = read_record_file(tmp_path / "whole.fief").header
    assert [s.kind for s in header.seats] == ["random", "ai", "bot"]
    assert header.seats[1].detail.startswith("hoard-greedy 1") and header.options == {"turns": 4}
    resumes_to_the_same_bytes(tmp_path / "whole.fief", tmp_path / "cut.fief")


def test_a_record_cut_before_its_result_gets_it_on_resume(tmp_path: Path) -> None:
    path = tmp_path / "game.fief"
    whole = played(GAMES["tafl-gild-9"], path)
    rec = read_record_file(path)
    assert isinstance(rec.records[-1], ResultRecord)
    path.write_bytes(whole[:rec.offsets[-1]])  # the last move and its checkpoint are there, the result is not
    assert not verify(read_record_file(path)).ok  # a finished game with no result: not an autosave
    runner = Runner.resume(path)
    assert runner.result is not None  # nothing left to play: the result is written at once
    runner.close()
    assert path.read_bytes() == whole and verify(read_record_file(path)).ok


def test_resume_refuses_a_finished_record_and_a_forged_outcome(tmp_path: Path) -> None:
    path = tmp_path / "game.fief"
    played(GAMES["taifa-el-cid"], path)
    before = path.read_bytes()
    with pytest.raises(RecordError, match="finished record cannot be continued"):
        Runner.resume(path)
    assert path.read_bytes() == before
    rec = read_record_file(path)
    records = list(rec.records[:-1])
    first = next(i for i, r in enumerate(records) if type(r).__name__ == "ChanceRecord" and len(r.outcome) == 1)
    die = records[first].outcome[0]
    records[first] = type(records[first])((die % 6 + 1,))
    forged = tmp_path / "forged.fief"
    forged.write_bytes(encode_game(rec.header, records[:first + 1], reseal=True))
    with pytest.raises(RecordError, match=r"record \d+ at byte \d+: cannot resume: the outcome is not what seed 4"):
        Runner.resume(forged)


def test_takeback_goes_back_across_chance_to_the_last_human_decision(hoard, tmp_path: Path) -> None:
    path = tmp_path / "game.fief"
    runner = Runner.start(GameSetup("hoard", "short", (HUMAN, AI, BOT), seed=2), path)
    assert runner.run() is None and runner.waiting == runner.point  # the shuffle, then Gold decides
    start = path.read_bytes()
    runner.decide(("roll",))
    runner.run()  # Gold's die, the Dragon's, Silver (AI) takes, the Dragon again: Gold decides
    first = [s.value for s in runner.history[1:]]
    assert [s.kind for s in runner.history[1:]] == ["decision", "chance", "chance", "decision", "chance"]
    assert runner.takeback() == 5
    assert len(runner.history) == 1 and isinstance(runner.waiting, Decision) and runner.waiting.seat == 0
    # The record is what it was before Gold's roll, and then says a takeback happened.
    taken = read_record_file(path).records
    assert path.read_bytes().startswith(start) and list(taken[:-1]) == list(read_record_file(start).records)
    assert taken[-1] == CommentRecord("takeback: Gold took back 5 steps (steps 2-6)", 1)
    runner.decide(("roll",))
    runner.run()
    assert [s.value for s in runner.history[1:]] == first  # the seeded dice come again, as before
    runner.close()
    assert verify(read_record_file(path)).ok


def test_dice_from_the_table_are_typed_checked_and_verified_as_typed(hoard, tmp_path: Path) -> None:
    path = tmp_path / "game.fief"
    runner = Runner.start(GameSetup("hoard", "short", (RANDOM, RANDOM, BOT), seed=9, chance="manual",
                                    options={"turns": 2}), path)
    typed = 0
    while runner.run() is None:
        wait = runner.waiting
        assert isinstance(wait, Chance) and wait.kind == "dice"  # the shuffle stays seeded
        with pytest.raises(RulesError, match="1 values in 1..6"):
            runner.type_outcome((7,))
        runner.type_outcome((6,))
        typed += 1
    runner.close()
    rec = read_record_file(path)
    dice = [r for r in rec.records if type(r).__name__ == "ChanceRecord" and isinstance(r.outcome, tuple)
            and len(r.outcome) == 1]
    assert typed == len(dice) >= 4  # every die was typed; the Dragon rolls after each of the 4 turns
    assert all(r.outcome == (6,) for r in dice)
    assert rec.header.chance == "manual" and verify(rec).ok
    # The shuffle is still the seed's: a forged shuffle fails verify, typed dice do not.
    records = list(rec.records)
    shuffle = next(i for i, r in enumerate(records) if type(r).__name__ == "ChanceRecord" and len(r.outcome) == 6)
    records[shuffle] = type(records[shuffle])(tuple(reversed(records[shuffle].outcome)))
    forged = tmp_path / "forged.fief"
    forged.write_bytes(encode_game(rec.header, records, reseal=True))
    assert "is not what seed 9 gives" in verify(read_record_file(forged)).message
