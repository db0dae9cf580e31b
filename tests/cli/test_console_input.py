"""The text prompt asks once before a choice the game warns about (one that cannot be taken back):
y plays it, anything else plays nothing and the question is asked again (issue 25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.taifa.game import TaifaGame
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from tui.console import play

QUESTION = "Pass and end your turn with cards in hand?"


def _taifa(path: Path, seed: int = 3) -> Runner:
    kinds = ("human", "bot", "bot", "bot", "bot", "bot")
    return Runner.start(GameSetup("taifa", "standard", tuple(SeatPlan(k) for k in kinds), seed), path)


class Person:
    """Answers the prompts from a list, then quits; keeps every prompt and line, in order."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = iter(answers)
        self.lines: list[str] = []

    def read(self, prompt: str) -> str:
        self.lines.append(f"<{prompt}>")
        return next(self.answers, "quit")

    def write(self, text: str) -> None:
        self.lines.extend(text.split("\n"))


@pytest.fixture
def warned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TaifaGame, "warning", lambda self, code: QUESTION if code == ("pass",) else None,
                        raising=False)


def test_a_warned_choice_asks_once_and_no_plays_nothing(tmp_path: Path, warned: None) -> None:
    path = tmp_path / "t.fief"
    runner = _taifa(path)
    person = Person(["pass", "n", "", "pass", "y"])
    play(runner, person.read, person.write)
    prompts = [line for line in person.lines if line.startswith("<")]
    ask = f"<  {QUESTION} (y/n) >"
    # pass, asked, no: nothing played, the same question again; Enter: the options again;
    # pass, asked once, yes: played (the next prompt is the game's, not the question again).
    assert prompts[:6] == ["<Castile> >", ask, "<Castile> >", "<Castile> >", ask, prompts[5]]
    assert prompts[5] != ask and prompts.count(ask) == 2
    said_no = person.lines.index(ask)
    assert person.lines[said_no + 1] == "  nothing played"
    assert verify(read_record_file(path)).ok
    decisions = [s for s in runner.history if s.kind == "decision" and s.seat == 0]
    assert decisions and decisions[0].value == ("pass",)
    assert sum(1 for s in decisions if s.value == ("pass",)) == 1


def test_a_choice_by_number_asks_too_and_one_without_a_warning_never_does(tmp_path: Path, warned: None) -> None:
    path = tmp_path / "t.fief"
    runner = _taifa(path)
    person = Person([])
    play(_taifa(tmp_path / "probe.fief"), person.read, person.write)  # quits at once: the options listed
    options = [line.strip() for line in person.lines if line.strip()[:1].isdigit()]
    last = options[-1].split(".")[0]
    assert options[-1].endswith("pass")

    person = Person([last, "no", "1"])
    play(runner, person.read, person.write)
    prompts = [line for line in person.lines if line.startswith("<")]
    ask = f"<  {QUESTION} (y/n) >"
    assert prompts[:3] == ["<Castile> >", ask, "<Castile> >"]
    assert prompts.count(ask) == 1  # option 1 (an attack) is played without a question
    decisions = [s for s in runner.history if s.kind == "decision" and s.seat == 0]
    assert decisions and decisions[0].value != ("pass",)
