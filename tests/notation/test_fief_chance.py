"""Chance records: seeded outcomes derived again from the seed, recorded and manual ones checked.

Tafl has no chance points, so this module defines a tiny dice game. It is not
registered in core.games: reading, replay and verify take a ``games`` lookup.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from core import games as core_games
from core.chance import SeededChance, TableDice, draw, typed
from core.rng import SplitMix64
from core.engine import Chance, Code, Decision, Event, Outcome, Over, Result, RulesError
from core.games import GameDescriptor, SeatSpec
from core.match import Match, RandomController
from notation.catalog import new_header
from notation import games as notation_games
from notation.export import ExportError, export, export_formats, export_json, export_text
from notation.format import ChanceRecord, DecisionRecord, RecordError, Seat, encode_header
from notation.games import ExportFormat, NotationPlugin
from notation.games.tafl import export_otg
from notation.reader import Recording, read_record_file
from notation.replay import Replay, StepInfo
from notation.verify import verify
from notation.visitor import BaseVisitor
from notation.writer import Journal, encode_game


class DiceRace:
    """Two seats race to ``target`` points. On its turn a seat rolls (a dice Chance
    point) or holds; a 1 ends the turn, a 6 earns a bonus pick of 0..2 more points."""

    game = "dice"
    variant = "race"
    seats = ("red", "blue")

    def __init__(self, target: int = 12) -> None:
        self.target = target
        self.scores = [0, 0]
        self.turn = 0
        self.pending: str | None = None  # "roll" or "bonus": the chance point due
        self.result: Result | None = None

    @property
    def options(self) -> dict[str, Any]:
        return {"target": self.target}

    @property
    def bot_seats(self) -> frozenset[int]:
        return frozenset()

    def point(self) -> Decision | Chance | Over:
        if self.result is not None:
            return Over(self.result)
        if self.pending == "roll":
            return Chance("dice", (1, 6), "roll")
        if self.pending == "bonus":
            return Chance("pick", (3,), "bonus")
        return Decision(self.turn, f"{self.seats[self.turn]} to play", (("roll",), ("hold",)))

    def apply(self, code: Code) -> list[Event]:
        if code == ("roll",):
            self.pending = "roll"
            return [Event("roll", f"{self.seats[self.turn]} rolls", "dice 1")]
        self.turn = 1 - self.turn
        return [Event("hold", "holds", "dice 2")]

    def resolve(self, outcome: Outcome) -> list[Event]:
        assert isinstance(outcome, (int, tuple))
        gained = outcome if isinstance(outcome, int) else (0 if outcome[0] == 1 else outcome[0])
        if self.pending == "roll" and gained == 0:
            self.pending, self.turn = None, 1 - self.turn
            return [Event("bust", "a 1: the turn ends", "dice 3")]
        self.pending = "bonus" if self.pending == "roll" and gained == 6 else None
        self.scores[self.turn] += gained
        if self.scores[self.turn] >= self.target:
            self.result = Result((self.turn,), f"{self.target} points", "dice 4")
            return [Event("result", f"{self.seats[self.turn]} wins", "dice 4")]
        return []

    def clone(self) -> "DiceRace":
        c = DiceRace(self.target)
        c.scores, c.turn, c.pending, c.result = list(self.scores), self.turn, self.pending, self.result
        return c

    def canonical(self) -> Any:
        result = None if self.result is None else [list(self.result.winners), self.result.reason]
        return [self.target, self.scores, self.turn, self.pending, result]

    def view(self, seat: int | None) -> Any:
        return {"scores": tuple(self.scores), "turn": self.turn}

    def describe(self, code: Code) -> str:
        return str(code[0])

    def parse(self, text: str) -> Code:
        if text not in ("roll", "hold"):
            raise RulesError("type roll or hold")
        return (text,)


DICE = GameDescriptor("dice", "Dice race", 1, (("race", "Race"),), lambda variant: (),
                      lambda variant: (SeatSpec("red", ("random",), "random"), SeatSpec("blue", ("random",), "random")),
                      lambda variant, options, setup, data: DiceRace(**options))


def games(name: str) -> GameDescriptor:
    return DICE if name == "dice" else core_games.info(name)


class TypedDice:
    """A table's dice, typed (here from another generator), and the rest from the seed: a manual game."""

    def __init__(self, seed: int) -> None:
        self.seeded = TableDice(seed)
        self.hand = SplitMix64(seed + 100)

    def outcome(self, chance: Chance) -> Outcome:
        return draw(self.hand, chance) if typed(self.seeded, chance) else self.seeded.outcome(chance)


def play_dice(path: Path, seed: int, *, chance: str = "seeded", header_seed: int | None = -1,
              target: int = 12) -> bytes:
    """A dice race recorded through the Journal; outcomes come from SeededChance(seed) (with
    ``chance="manual"``, the dice from another generator, as if typed: TypedDice)."""
    header = new_header("dice", "race", [Seat("r", "random"), Seat("b", "random")], chance=chance,
                        seed=seed if header_seed == -1 else header_seed, options={"target": target},
                        games=games, app="test", created="2025-01-31T12:00:00Z")
    game = DiceRace(target)
    source = TypedDice(seed) if chance == "manual" else SeededChance(seed)
    with Journal.create(path, header, game=game, games=games) as journal:
        result = Match(game, [RandomController(seed), RandomController(seed + 7)], source,
                       [journal]).run()
        assert result is not None
        journal.finish(result, game)
    return path.read_bytes()


def _read(data: bytes) -> Recording:
    return read_record_file(data, games=games)


def _with_outcome(recording: Recording, index: int, outcome: Outcome) -> Recording:
    """The recording with one chance outcome replaced and every hash sealed again."""
    records = list(recording.records)
    records[index] = ChanceRecord(outcome)
    return _read(encode_game(recording.header, records, reseal=True))


def _chance_indexes(recording: Recording, kind: type = ChanceRecord) -> list[int]:
    return [i for i, r in enumerate(recording.records) if isinstance(r, kind)]


def test_a_seeded_record_verifies(tmp_path: Path) -> None:
    for seed in range(5):
        rec = _read(play_dice(tmp_path / f"d{seed}.fief", seed))
        report = verify(rec, games=games)
        assert report.ok, report.message
        assert report.message.startswith(("red won: 12 points", "blue won: 12 points"))


def test_without_the_lookup_the_game_is_unknown(tmp_path: Path) -> None:
    data = play_dice(tmp_path / "d.fief", 1)
    with pytest.raises(RecordError, match=r"^header at byte 5: unknown game 'dice'"):
        read_record_file(data)


def test_a_changed_outcome_is_found_at_its_step_by_the_seed(tmp_path: Path) -> None:
    rec = _read(play_dice(tmp_path / "d.fief", 3))
    replay = Replay(rec, games=games)
    for index in _chance_indexes(rec)[:6]:
        old = rec.records[index].outcome  # type: ignore[union-attr]
        new: Outcome = (1 + old[0] % 6,) if isinstance(old, tuple) else (old + 1) % 3
        report = verify(_with_outcome(rec, index, new), games=games)
        step = next(n for n in range(1, len(replay) + 1) if replay.step_record(n).record_index == index)
        assert not report.ok and report.first_bad_step == step
        assert "is not what seed 3 gives" in report.message


def _kinds(rec: Recording) -> list[str]:
    """The kind of every chance outcome in ``rec``: ``dice`` (an array) or ``pick`` (an int)."""
    return ["dice" if isinstance(r.outcome, tuple) else "pick" for r in rec.records if isinstance(r, ChanceRecord)]


def test_recorded_or_manual_outcomes_are_not_derived_and_said_to_be_given(tmp_path: Path) -> None:
    # Dice thrown at a table (manual) need not match the seed, which still deals the picks.
    rec = _read(play_dice(tmp_path / "m.fief", 4, chance="manual"))
    report = verify(rec, games=games)
    dice = _kinds(rec).count("dice")
    assert report.ok and report.given == dice == Replay(rec, games=games).given > 0
    assert report.note == f"dice typed at the table: {dice} outcomes taken as given"
    assert "pick" in _kinds(rec)  # ... and the picks are derived: a forged one is found
    index = next(i for i in _chance_indexes(rec) if not isinstance(rec.records[i].outcome, tuple))  # type: ignore[union-attr]
    forged = verify(_with_outcome(rec, index, (rec.records[index].outcome + 1) % 3), games=games)  # type: ignore[union-attr]
    assert not forged.ok and "is not what seed 4 gives" in forged.message
    # Recorded with a seed that did not make these outcomes: only seeded mode derives them.
    rec = _read(play_dice(tmp_path / "r.fief", 4, chance="recorded", header_seed=99))
    report = verify(rec, games=games)
    assert report.ok and report.given == len(_kinds(rec))
    assert report.note == f"chance recorded, not derived from a seed: {len(_kinds(rec))} outcomes taken as given"
    seeded = replace(rec.header, chance="seeded")
    report = verify(_read(encode_game(seeded, rec.records, reseal=True)), games=games)
    assert not report.ok and "is not what seed 99 gives" in report.message
    assert verify(_read(play_dice(tmp_path / "s.fief", 4)), games=games).note == ""  # seeded: all checked


def test_manual_chance_needs_its_seed(tmp_path: Path) -> None:
    rec = _read(play_dice(tmp_path / "m.fief", 4, chance="manual"))
    data = encode_game(replace(rec.header, seed=None), rec.records, reseal=True)
    with pytest.raises(RecordError, match="^header at byte 5: chance is manual but the header has no seed$"):
        _read(data)


def test_a_record_without_chance_that_reaches_a_chance_point_is_refused(tmp_path: Path) -> None:
    rec = _read(play_dice(tmp_path / "d.fief", 2))
    none = replace(rec.header, chance="none")
    first = _chance_indexes(rec)[0]
    shift = len(encode_header(none)) - len(encode_header(rec.header))  # "none" is shorter than "seeded"
    # A chance record: the reader refuses it, naming the record and its byte (verify, show, export, view alike).
    with pytest.raises(RecordError, match=rf'^record {first} at byte {rec.offsets[first] + shift}: a chance outcome, '
                                          r'but the header says chance "none", a game without chance points$'):
        _read(encode_game(none, rec.records, reseal=True))
    # No chance record, but the game asks for chance next (an autosave cut there): it does not verify.
    cut = _read(encode_game(none, rec.records[:first], reseal=True))
    report = verify(cut, games=games)
    assert not report.ok and report.first_bad_step == cut.steps + 1
    assert report.message == (f"after step {cut.steps} (record {first - 1} at byte {rec.offsets[first - 1] + shift}): "
                              'the rules ask for chance (roll), but the header says chance "none", '
                              "a game without chance points")
    assert Replay(cut, games=games).verify() == report  # the viewer opens it, and says so


def test_an_impossible_outcome_fails_at_its_step(tmp_path: Path) -> None:
    rec = _read(play_dice(tmp_path / "d.fief", 5, chance="manual"))
    index = next(i for i in _chance_indexes(rec) if isinstance(rec.records[i].outcome, tuple))  # type: ignore[union-attr]
    report = verify(_with_outcome(rec, index, (7,)), games=games)
    assert not report.ok and report.message.endswith("dice outcome must be 1 values in 1..6")
    replay = Replay(_with_outcome(rec, index, (7,)), games=games)
    assert replay.failure is not None and replay.failure.step == len(replay) + 1


def test_chance_steps_in_replay_and_export(tmp_path: Path) -> None:
    rec = _read(play_dice(tmp_path / "d.fief", 6))
    replay = Replay(rec, games=games)
    kinds = {replay.step_record(n).kind for n in range(1, len(replay) + 1)}
    assert kinds == {"decision", "chance"}
    first = next(replay.step_record(n) for n in range(1, len(replay) + 1) if replay.step_record(n).kind == "chance")
    assert first.seat is None and first.seat_name == "chance" and first.text.startswith(("roll: ", "bonus: "))
    text = export_text(rec, games=games)
    assert "\n1. red: roll {red rolls [dice 1]}\n2. chance: roll: " in text
    assert '"outcome": [' in export_json(rec, games=games)
    with pytest.raises(ExportError, match="OpenTafl records .otg. hold tafl games; this record is dice") as info:
        export_otg(rec, games=games)
    assert not info.value.differs  # the format's limit, not a record that replays differently


class Tally(BaseVisitor[str]):
    """A visitor for the dice game's own notation: how many steps of each kind."""

    def begin_game(self, replay: Replay) -> None:
        self.kinds: dict[str, int] = {}

    def visit_step(self, info: StepInfo) -> None:
        self.kinds[info.kind] = self.kinds.get(info.kind, 0) + 1

    def result(self) -> str:
        return " ".join(f"{kind} {n}" for kind, n in sorted(self.kinds.items())) + "\n"


def test_a_game_gets_the_generic_notation_until_it_registers_its_own(
    tmp_path: Path, samples: dict[str, bytes]
) -> None:
    rec = _read(play_dice(tmp_path / "d.fief", 6))
    assert notation_games.plugin("dice") is notation_games.GENERIC
    generic = export_text(rec, games=games)
    assert export(rec, "text", games=games) == generic and "tally" not in export_formats()
    with pytest.raises(ExportError, match="^OpenTafl records .otg. hold tafl games; this record is dice$"):
        export(rec, "otg", games=games)  # refused by the registry before any visitor runs
    replay = Replay(rec, games=games)
    decisions = sum(replay.step_record(n).kind == "decision" for n in range(1, len(replay) + 1))
    tally = f"chance {len(replay) - decisions} decision {decisions}\n"
    notation_games.register("dice", NotationPlugin(text=Tally, formats=(ExportFormat("tally", "Step count", Tally),)))
    try:
        assert export_text(rec, games=games) == tally
        assert export(rec, "tally", games=games) == tally and export_formats()["tally"] == "Step count"
        assert export(rec, "json", games=games) == export_json(rec, games=games)  # no JSON of its own: the generic
        with pytest.raises(ExportError, match="^Step count records .tally. hold dice games; this record is tafl$"):
            export(read_record_file(samples["short"]), "tally")
    finally:
        notation_games.unregister("dice")
    assert export_text(rec, games=games) == generic
    with pytest.raises(ExportError, match="^unknown export format 'tally' .known: text, json, otg.$"):
        export(rec, "tally", games=games)


def test_every_bit_flip_in_a_dice_record_is_noticed(tmp_path: Path, every_bit_flip_noticed) -> None:
    every_bit_flip_noticed(play_dice(tmp_path / "d.fief", 0, target=4), games=games)


def test_a_refused_code_whose_wording_reads_as_a_legal_one_is_shown_as_stored(tmp_path: Path) -> None:
    """('roll', 'x') is worded "roll", which is legal: the message shows the code as stored."""
    rec = _read(play_dice(tmp_path / "d.fief", 2))
    index = _chance_indexes(rec, DecisionRecord)[0]
    records = list(rec.records)
    records[index] = DecisionRecord(rec.records[index].seat, ("roll", "x"))  # type: ignore[union-attr]
    report = verify(_read(encode_game(rec.header, records, reseal=True)), games=games)
    assert not report.ok and report.first_bad_step == 1
    assert report.message == (
        f"step 1 (record {index} at byte {rec.offsets[index]}): "
        "['roll', 'x'] (which reads as roll): not a legal option here"
    )
