"""core/procedure.py: a tiny dice game written as generator procedures.

Two seats take rounds: each either passes or throws two dice, adds them to
its score and draws one of three bonus tokens at random (a pick), nested in
a procedure of its own. The first to 20 wins at once (a GameEnded raised in
the middle of a round); after two passes in a row the end unit scores the
game. Every question and throw is a point, so a clone must replay them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from core.digest import digest
from core.engine import Chance, Decision, Over, Result, RulesError
from core.procedure import GameEnded, Proc, ProcedureGame, Unit

TARGET = 20


@dataclass
class Race:
    scores: list[int] = field(default_factory=lambda: [0, 0])
    tokens: list[list[int]] = field(default_factory=lambda: [[], []])
    passes: int = 0

    def copy(self) -> "Race":
        return Race(self.scores[:], [t[:] for t in self.tokens], self.passes)

    def canonical(self) -> list[Any]:
        return [self.scores, self.tokens, self.passes]


class Reached(GameEnded):
    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


class RaceGame(ProcedureGame):
    game = "race"
    variant = "short"
    seats = ("North", "South")

    def __init__(self, start: int = 0) -> None:
        super().__init__(Race())
        self._start(("round", start))

    @property
    def options(self) -> dict[str, Any]:
        return {"target": TARGET}

    def _unit_proc(self, unit: Unit) -> Proc:
        return self._round(unit[1]) if unit[0] == "round" else self._end()

    def _next_unit(self, returned: Any) -> Unit | None:
        if self._unit[0] == "end":
            return None
        self.s.passes = self.s.passes + 1 if returned else 0
        return ("end",) if self.s.passes >= 2 else ("round", 1 - self._unit[1])

    def _ended(self, end: GameEnded) -> Result:
        assert isinstance(end, Reached)
        return Result((end.seat,), f"{self.seats[end.seat]} reaches {TARGET}", "race 2", tuple(self.s.scores))

    def _round(self, seat: int) -> Proc:
        code = yield from self.ask(seat, "throw or pass", [("throw",), ("pass",)], "action")
        if code == ("pass",):
            self.emit("pass", f"{self.seats[seat]} passes", "race 1", seat)
            return True
        dice = yield from self.roll(2, 6, f"{self.seats[seat]} throws")
        self.s.scores[seat] += sum(dice)
        self.emit("throw", f"{self.seats[seat]} throws {dice}", "race 1", seat, *dice)
        if self.s.scores[seat] >= TARGET:
            raise Reached(seat)
        yield from self._token(seat)
        return False

    def _token(self, seat: int) -> Proc:
        i = yield from self.pick(3, "a bonus token")
        self.s.tokens[seat].append(i)

    def _end(self) -> Proc:
        yield from ()  # no question: the end unit only scores
        a, b = self.s.scores
        winners = (0,) if a > b else (1,) if b > a else ()
        self._finish(Result(winners, "higher score", "race 3", (a, b)))


def answer(g: RaceGame, value: Any) -> list:
    return g.apply(value) if isinstance(g.point(), Decision) else g.resolve(value)


# A game to the end by two passes: North throws 3+4 and draws token 2, South passes, North
# throws 1+1 and draws token 0, then both pass.
SCRIPT = [("throw",), (3, 4), 2, ("pass",), ("throw",), (1, 1), 0, ("pass",), ("pass",)]


def test_a_fresh_game_asks_the_first_seat_its_action() -> None:
    g = RaceGame()
    assert g.point() == Decision(0, "throw or pass", (("throw",), ("pass",)), "action")
    assert g.result is None


def test_the_script_plays_to_the_end_unit() -> None:
    g = RaceGame()
    kinds = []
    for value in SCRIPT:
        kinds += [e.kind for e in answer(g, value)]
    assert g.s.scores == [9, 0] and g.s.tokens == [[2, 0], []]
    assert g.point() == Over(Result((0,), "higher score", "race 3", (9, 0)))
    assert kinds == ["throw", "pass", "throw", "pass", "pass"]


def test_points_are_the_questions_the_procedures_yield() -> None:
    g = RaceGame()
    g.apply(("throw",))
    assert g.point() == Chance("dice", (2, 6), "North throws")
    g.resolve((3, 4))
    assert g.point() == Chance("pick", (3,), "a bonus token")  # from the nested procedure
    g.resolve(2)
    assert g.point() == Decision(1, "throw or pass", (("throw",), ("pass",)), "action")


def test_a_clone_at_every_point_equals_the_original_and_goes_on_alike() -> None:
    g = RaceGame()
    for n, value in enumerate(SCRIPT):
        c = g.clone()
        assert c.canonical() == g.canonical() and digest(c) == digest(g)
        assert c.point() == g.point()
        assert c.s == g.s and c.s is not g.s
        assert answer(c, value) == answer(g, value)
        assert c.canonical() == g.canonical()
        assert c.point() == g.point()


def test_a_clone_is_independent() -> None:
    g = RaceGame()
    for value in SCRIPT[:2]:
        answer(g, value)  # mid-unit: the dice are thrown, the token is not drawn yet
    before = g.canonical()
    c = g.clone()
    c.resolve(1)
    c.apply(("throw",))
    assert g.canonical() == before and g.point() == Chance("pick", (3,), "a bonus token")
    assert c.canonical() != before


def test_the_canonical_form_is_the_unit_its_starting_state_and_its_answers() -> None:
    g = RaceGame()
    for value in SCRIPT[:5]:
        answer(g, value)
    assert g.canonical() == {
        "game": "race", "variant": "short", "options": {"target": TARGET},
        "unit": ["round", 0], "state": [[7, 0], [[2], []], 1],
        "inputs": [["throw"]], "result": None,
    }


def test_the_canonical_form_is_stable() -> None:
    a, b = RaceGame(), RaceGame()
    for value in SCRIPT[:6]:
        answer(a, value)
        answer(b, value)
        assert a.canonical() == b.canonical() and digest(a) == digest(b)
    assert digest(a) == digest(a.clone()) == digest(a)


def test_a_game_ended_in_a_procedure_becomes_its_result() -> None:
    g = RaceGame()
    events = []
    for value in [("throw",), (6, 6), 1, ("pass",), ("throw",), (5, 4)]:
        events += answer(g, value)
    assert g.point() == Over(Result((0,), "North reaches 20", "race 2", (21, 0)))
    assert g.result is not None and g.s.tokens == [[1], []]  # no token after the winning throw
    assert events[-1].kind == "throw"
    c = g.clone()
    assert c.canonical() == g.canonical() and c.point() == g.point()
    assert g.canonical()["state"] == [[21, 0], [[1], []], 1] and g.canonical()["result"] is not None
    with pytest.raises(RulesError, match="no decision"):
        g.apply(("throw",))


def test_restart_begins_a_unit_afresh_from_the_state_as_set() -> None:
    g = RaceGame()
    for value in SCRIPT[:2]:
        answer(g, value)
    g.s.scores = [18, 3]
    assert g.restart(("round", 1)) == []
    assert g.point() == Decision(1, "throw or pass", (("throw",), ("pass",)), "action")
    assert g.canonical()["unit"] == ["round", 1] and g.canonical()["inputs"] == []
    assert g.canonical()["state"] == [[18, 3], [[], []], 0]
    assert g.clone().canonical() == g.canonical()
    g.restart(("end",))
    assert g.result == Result((0,), "higher score", "race 3", (18, 3))


def test_wrong_answers_are_refused() -> None:
    g = RaceGame()
    with pytest.raises(RulesError, match="not a legal option"):
        g.apply(("bet",))
    with pytest.raises(RulesError, match="no chance point"):
        g.resolve((1, 1))
    g.apply(("throw",))
    with pytest.raises(RulesError, match="dice outcome"):
        g.resolve((7, 1))
    assert g.canonical()["inputs"] == [["throw"]]


def test_a_question_must_say_a_known_kind() -> None:
    g = RaceGame()
    with pytest.raises(ValueError, match="decision kind"):
        next(g.ask(0, "?", [("x",)], "guess"))


def test_no_dice_is_no_chance_point() -> None:
    g = RaceGame()
    proc = g.roll(0, 6, "nothing")
    with pytest.raises(StopIteration) as stop:
        next(proc)
    assert stop.value.value == ()


def test_a_unit_ending_with_no_next_unit_and_no_result_is_a_bug() -> None:
    class Stuck(RaceGame):
        def _next_unit(self, returned: Any) -> Unit | None:
            return None

    g = Stuck()
    with pytest.raises(RuntimeError, match="no next unit"):
        g.apply(("pass",))


# -- frames: the units a step began ----------------------------------------------------


class Sleepy(RaceGame):
    """South is a rulebook bot of sorts: its round asks nothing, it only sleeps."""

    def _round(self, seat: int) -> Proc:
        if seat == 1:
            self.emit("sleep", "South sleeps", "race 4", seat)
            return False
        result = yield from super()._round(seat)
        return result


def test_a_step_within_one_unit_has_no_frames() -> None:
    g = RaceGame()
    assert g.frames() == []
    g.apply(("throw",))
    assert g.frames() == []


def test_a_step_gives_a_frame_per_unit_begun_with_the_events_before_it() -> None:
    g = Sleepy()
    for value in [("throw",), (3, 4)]:
        answer(g, value)
    events = g.resolve(2)  # North's round ends; South sleeps; North's next round asks
    assert [e.kind for e in events] == ["sleep"]
    (i, south), (j, north) = g.frames()
    assert (i, j) == (0, 1)
    assert south.canonical() == {**g.canonical(), "unit": ["round", 1]}
    assert north.canonical() == g.canonical()
    assert south.s.scores == [7, 0] and south.s is not g.s
    assert south.point() == north.point() == g.point()  # where the step stopped
    events = g.apply(("pass",))
    assert [e.kind for e in events] == ["pass", "sleep"]
    assert [n for n, _ in g.frames()] == [1, 2]  # South's round after the pass, North's after the sleep


def test_a_frame_is_never_played_but_its_clone_is() -> None:
    g = Sleepy()
    for value in [("throw",), (3, 4), 2]:
        answer(g, value)
    (_, south), _ = g.frames()
    before = south.canonical()
    with pytest.raises(RulesError, match="frame"):
        south.apply(("pass",))
    with pytest.raises(RulesError):
        south.resolve((1, 1))  # the point is a Decision: refused before the frame is
    assert south.canonical() == before and south.s.scores == [7, 0]
    c = south.clone()  # replays South's sleep: at North's question, as the game is
    assert c.canonical() == g.canonical() and c.point() == g.point()
    assert c.apply(("pass",)) == g.apply(("pass",))


def test_frames_at_the_end_of_the_game_see_it_over() -> None:
    g = RaceGame()
    for value in SCRIPT[:-1]:
        answer(g, value)
    answer(g, SCRIPT[-1])
    ((n, end),) = g.frames()
    assert n == 1 and end.canonical()["unit"] == ["end"] and end.result is None
    assert isinstance(end.point(), Over)


def test_frames_do_not_change_clones_or_digests() -> None:
    g, plain = Sleepy(), Sleepy()
    for value in [("throw",), (3, 4), 2]:
        answer(g, value)
        answer(plain, value)
    g.frames()
    assert digest(g) == digest(plain) and g.clone().frames() == []


def test_frames_count_the_events_of_building_the_game_that_go_with_step_1() -> None:
    g = Sleepy(start=1)  # South's round, then North's, begin as the game is built: no frames
    events = g.apply(("pass",))  # North passes: South's round, then North's again
    assert [e.kind for e in events] == ["sleep", "pass", "sleep"]
    assert [(n, f.canonical()["unit"]) for n, f in g.frames()] == [(2, ["round", 1]), (3, ["round", 0])]
    g.apply(("throw",))
    assert g.frames() == []
