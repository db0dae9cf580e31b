"""The prompt (tui/console.py) never lets a name or an event steer the terminal, and no typed
line ends in an internal error: "²" is a digit to ``str.isdigit`` but not to ``int``, and
5,000 digits are more than ``int`` converts (issue 9)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

import plugin_game
from notation.runner import GameSetup, Runner, SeatPlan
from core.engine import Chance
from test_console import Script  # a person at the prompt, with a transcript
from tui.console import Console, Quit, play

STEERING = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")
MANY = "9" * 5000


def _steers(lines: list[str]) -> list[str]:
    return [line for line in lines if any(unicodedata.category(ch) in STEERING for ch in line)]


def test_names_and_events_are_shown_visibly(hoard: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = ("Go\x1b[2Jld\nforged line", "Sil\u202ever", "Dragon\x07")
    monkeypatch.setattr(plugin_game, "SEATS", names)
    monkeypatch.setattr(plugin_game.Hoard, "seats", names)
    seats = (SeatPlan("human"), SeatPlan("random"), SeatPlan("bot"))
    runner = Runner.start(GameSetup("hoard", "short", seats, 5), tmp_path / "names.fief")
    script = Script(["take", "", "rest", "quit"])
    closing = play(runner, script.read, script.write)
    assert not _steers(script.lines + [closing])
    assert not [line for line in script.lines if line.startswith("forged")]  # no forged line
    assert "Go\\x1b[2Jld\\nforged line: Go\\x1b[2Jld\\nforged line: take, roll or rest" in script.lines
    assert any("Go\\x1b[2Jld\\nforged line takes " in line for line in script.lines)


@pytest.mark.parametrize("typed", ["²", "٣", MANY, "0" * 12 + "1", "-1"])
def test_a_typed_number_is_an_option_or_one_line(hoard: object, tmp_path: Path, typed: str) -> None:
    seats = (SeatPlan("human"), SeatPlan("random"), SeatPlan("bot"))
    script = Script([typed, "quit"])
    play(Runner.start(GameSetup("hoard", "short", seats, 5), tmp_path / "typed.fief"), script.read, script.write)
    answer = script.lines[script.lines.index(next(line for line in script.lines if line.startswith("<Gold>"))) + 1]
    assert answer.startswith("  ") and len(answer) < 80, answer  # a refusal in one short line


@pytest.mark.parametrize("typed, said", [("²", "type 1 number from 1 to 6"), (MANY, "type 1 number from 1 to 6"),
                                         ("1 " + MANY, "type 1 number from 1 to 6"),
                                         ("9" * 7, "a die shows 1 to 6, not 9999999")])
def test_dice_typed_from_the_table_are_dice_or_one_line(hoard: object, tmp_path: Path, typed: str,
                                                        said: str) -> None:
    seats = (SeatPlan("human"), SeatPlan("random"), SeatPlan("bot"))
    runner = Runner.start(GameSetup("hoard", "short", seats, 5, chance="manual"), tmp_path / "dice.fief")
    script = Script(["roll", typed, "quit"])
    play(runner, script.read, script.write)
    assert f"  {said}" in script.lines


@pytest.mark.parametrize("typed", ["3²", "3x", "3" + MANY, "²²"])
def test_several_dice_typed_together_are_ascii_digits(hoard: object, tmp_path: Path, typed: str) -> None:
    """``35`` is two dice typed together; ``3²`` and ``3x`` are not (they used to end in an internal error)."""
    seats = (SeatPlan("human"), SeatPlan("random"), SeatPlan("bot"))
    console = Console(Runner.start(GameSetup("hoard", "short", seats, 5, chance="manual"), tmp_path / "two.fief"))
    script = Script([typed, "quit"])
    console.read_line, console.write = script.read, script.write
    with pytest.raises(Quit):
        console._dice(Chance("dice", (2, 6), "two dice"))
    assert script.lines[1:] == ["  type 2 numbers from 1 to 6", "<two dice: type the 2 dice thrown (1-6 each)> >"]

