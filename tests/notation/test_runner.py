"""The runner (notation/runner.py): one driver for every game, with journal, resume and takeback.

Resume must add nothing but the steps that follow: a seeded game of bots and
random movers cut anywhere (at every record boundary and inside every record)
and resumed is the uncut file byte for byte, and so is a seeded game with AI
seats, of every game that has an AI, cut where an AI is to decide (issue 26).
Hoard, the test-only game, shows that the runner plays a game it has never
heard of.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine import Chance, Decision, RulesError
from core.match import Limit
from notation.format import CommentRecord, DecisionRecord, RecordError, ResultRecord
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan, seat_seeds
from notation.verify import verify
from notation.writer import encode_game

BOT, RANDOM, HUMAN, AI = SeatPlan("bot"), SeatPlan("random"), SeatPlan("human"), SeatPlan("ai")

GAMES = {
    "tafl-gild-9": GameSetup("tafl", "gild-9", (RANDOM, RANDOM), seed=3),
    "tafl-traditional": GameSetup("tafl", "traditional", (RANDOM, RANDOM), seed=11),
    "taifa-el-cid": GameSetup("taifa", "el-cid", (BOT, RANDOM, BOT, RANDOM), seed=4),
    "taifa-standard": GameSetup("taifa", "standard", (BOT,) * 6, seed=7),
}

# Seeded games with AI seats, for every game that has an AI. An AI thinking against the clock would
# make even the uncut game differ from run to run: Tafl's plays to a depth (depth 1, the beginner's,
# is always searched whole) and the others never look at the clock.
KINGDOM_GREEDY = SeatPlan("ai", Limit(level="greedy"))
TAFL_BEGINNER = SeatPlan("ai", Limit(level="beginner"))
TAFL_DEPTH_2 = SeatPlan("ai", Limit(seconds=600.0, depth=2))
AI_GAMES = {
    # Issue 26's game: cut at byte 2315 (records 140-143), the AI built afresh on resume had forgotten
    # the event it was playing (its attack's bonus dice) and added a card where it had said done.
    "taifa-el-cid": GameSetup("taifa", "el-cid", (RANDOM, BOT, AI, BOT), seed=27, options={"almoravid_hand": 14}),
    "taifa-standard": GameSetup("taifa", "standard", (AI, BOT, BOT, BOT, BOT, BOT), seed=1),
    "kingdom-multi-3": GameSetup("kingdom", "multi-3", (AI, KINGDOM_GREEDY, RANDOM), seed=1),
    "kingdom-solo": GameSetup("kingdom", "solo", (AI, BOT, BOT), seed=1),
    "tafl-gild-9": GameSetup("tafl", "gild-9", (TAFL_BEGINNER, TAFL_DEPTH_2), seed=1),
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


def resumes_to_the_same_bytes(whole_path: Path, cut: Path, places: list[int] | None = None) -> None:
    """The record at ``whole_path`` cut at every place in ``places`` (default: every place :func:`cuts`
    names), resumed and played on, is the same file byte for byte."""
    whole = whole_path.read_bytes()
    for at in cuts(whole_path) if places is None else places:
        cut.write_bytes(whole[:at])
        runner = Runner.resume(cut)
        runner.run()
        runner.close()
        assert cut.read_bytes() == whole, f"{whole_path.name} cut at byte {at}"


@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_game_cut_anywhere_resumes_to_the_same_bytes(name: str, tmp_path: Path) -> None:
    played(GAMES[name], tmp_path / "whole.fief")
    resumes_to_the_same_bytes(tmp_path / "whole.fief", tmp_path / "cut.fief")


def ai_cuts(path: Path, within: int, between: int) -> list[int]:
    """Record boundaries where an AI seat is to decide next: every ``within``-th of those where the
    same AI seat took the decision before (the middle of its own conversation: an event's target,
    an attack's cards, where an AI that remembered its earlier answers forgot them on resume) and
    every ``between``-th of the others."""
    rec = read_record_file(path)
    ai = {seat for seat, s in enumerate(rec.header.seats) if s.kind == "ai"}
    found, counts, last = [], [0, 0], None
    for offset, record in zip(rec.offsets, rec.records):
        if isinstance(record, DecisionRecord):
            if record.seat in ai:
                same = record.seat == last
                counts[same] += 1
                if (counts[same] - 1) % (within if same else between) == 0:
                    found.append(offset)
            last = record.seat
        elif not isinstance(record, CommentRecord):
            last = None  # a chance outcome, a checkpoint: the seat's conversation is broken
    return found


@pytest.mark.parametrize("name, within, between", [
    ("taifa-el-cid", 1, 6), ("taifa-standard", 3, 8),  # the AI that forgot: every place it did, or many
    ("kingdom-multi-3", 6, 6), ("kingdom-solo", 6, 1), ("tafl-gild-9", 1, 4),
])
def test_a_seeded_game_with_ai_seats_cut_where_an_ai_decides_resumes_to_the_same_bytes(
        name: str, within: int, between: int, tmp_path: Path) -> None:
    played(AI_GAMES[name], tmp_path / "whole.fief")
    places = ai_cuts(tmp_path / "whole.fief", within, between)
    assert len(places) >= 10
    resumes_to_the_same_bytes(tmp_path / "whole.fief", tmp_path / "cut.fief", places)


def test_an_ai_seat_answers_from_the_game_alone() -> None:
    """What makes resume honest for AI seats: at every decision of an AI seat, an AI built afresh
    (as resume builds one) answers what the seat's AI, which has played from the start, answers.
    Taifa's AI with rollouts too, whose seeds come from the position, not from its earlier choices."""
    rollouts = SeatPlan("ai", Limit(rollouts=2))
    games = {**AI_GAMES, "taifa-rollouts": GameSetup("taifa", "el-cid", (BOT, BOT, BOT, rollouts), seed=1)}
    for name, setup in games.items():
        runner = Runner.start(setup)
        seeds = seat_seeds(runner.seed, len(runner.plans))
        asked = 0
        while runner.result is None:
            point = runner.point
            if isinstance(point, Decision) and runner.seat_kind(point.seat) == "ai":
                code = runner.think()
                fresh = runner.gi.make_ai(seeds[point.seat], runner.plans[point.seat].limit)
                assert fresh.choose(runner.game.clone(), point) == code, f"{name}, step {len(runner.history) + 1}"
                runner.decide(code)
                asked += 1
            else:
                assert runner.step() is not None
        assert asked >= 10, name


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
    resumed = runner.takeback()
    assert resumed is not None
    assert len(runner.history) - len(resumed.history) == 5
    runner = resumed
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
