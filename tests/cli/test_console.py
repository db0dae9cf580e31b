"""The generic prompt console (tui/console.py) and simulate's batch, on Hoard (a game only the tests
know, with no tui plugin at all) and on Taifa: typed options and dice, the pauses after a person's
action and before a new turn, and leaving by quit, Ctrl+C or the input ending."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.engine import RulesError
from notation.format import ChanceRecord, DecisionRecord
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from tui.cli import app
from tui.console import play
from tui.simulate import Batch, game_seeds, run

cli = CliRunner()
HOARD_SEATS = (SeatPlan("human"), SeatPlan("ai"), SeatPlan("bot"))


def invoke(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
    result = cli.invoke(app, list(map(str, args)), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


class Script:
    """A person at the prompt: answers from a list (or a function), and a transcript of prompts and output."""

    def __init__(self, answers: list[str] | Callable[[str, list[str]], str]) -> None:
        self.answers = iter(answers) if isinstance(answers, list) else None
        self.answer = answers if callable(answers) else None
        self.lines: list[str] = []

    def read(self, prompt: str) -> str:
        self.lines.append(f"<{prompt}>")
        if self.answer is not None:
            return self.answer(prompt, self.lines)
        try:
            return next(self.answers)  # type: ignore[arg-type]
        except StopIteration:
            raise EOFError from None

    def write(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _hoard(path: Path, seed: int = 5, chance: str = "seeded", seats: tuple[SeatPlan, ...] = HOARD_SEATS) -> Runner:
    return Runner.start(GameSetup("hoard", "short", seats, seed, chance=chance), path)


def test_hoard_at_the_prompt_then_resumed_verified_and_exported(hoard: object, tmp_path: Path) -> None:
    path = tmp_path / "hoard.fief"
    script = Script(["take", "bogus", "9", "", "2", "quit"])
    closing = play(_hoard(path), script.read, script.write)
    assert closing == f"stopped; the record so far is {path}"
    text = script.text
    # The seed would deal the hidden gems again: kept until the game is over.
    assert text.startswith("Hoard (a test game), short: Gold (human), Silver (ai), Dragon (bot)")
    assert "seed 5" not in text
    assert text.count("Gold: Gold: take, roll or rest") == 4 and "   1. take" in text  # 3 questions, Enter: 1 again
    # Gold sees the gem Gold took; of Silver's, only that Silver took one.
    assert re.search(r"  Gold takes [A-Z][a-z]+  \[hoard 2\]", text) and "  Silver takes a gem  [hoard 2]" in text
    assert not re.search(r"Silver takes (?!a gem)", text)
    assert "  type take, roll or rest" in text and "  9: choose 1..3" in text
    assert re.search(r"  Gold rolls [1-6]: [-+][12]  \[hoard 2\]", text)  # option 2, roll, and its die
    rec = read_record_file(path)
    assert rec.result is None and verify(rec).ok
    assert [r.code for r in rec.records if isinstance(r, DecisionRecord) and r.seat == 0] == [("take",), ("roll",)]

    code, out, _ = invoke("resume", path, "--prompt", stdin="roll\n" * 12)
    assert code == 0, out
    assert re.search(r"^Resuming after step \d+\. Since Gold's last decision:\n  Gold rolls", out, re.M)
    assert re.search(r"^(Gold|Silver) wins: hoards -?\d+ to -?\d+ \[hoard 4\]$|^draw: ", out, re.M), out[-400:]
    assert re.search(r"^scores: Gold -?\d+, Silver -?\d+, Dragon 0 \(\d+ steps, seed 5\)$", out, re.M)
    assert out.rstrip().endswith(f"record: {path}")
    code, out, _ = invoke("replay", "verify", path)
    assert code == 0 and out.startswith("ok: ") and "unfinished" not in out
    code, out, _ = invoke("replay", "export", path)
    assert code == 0 and '[Game "hoard"]' in out
    code, out, _ = invoke("replay", "show", path)
    assert code == 0 and "'hoards'" in out  # no text plugin: the view as data


def test_hoard_dice_typed_from_the_table(hoard: object, tmp_path: Path) -> None:
    path = tmp_path / "table.fief"
    script = Script(["roll", "7", "1 2", "", "5", "6", "quit"])
    play(_hoard(path, chance="manual", seats=(SeatPlan("human"), SeatPlan("random"), SeatPlan("bot"))),
         script.read, script.write)
    text = script.text
    assert "<Gold rolls: type the 1 die thrown (1-6 each)> >" in text
    # 7, two dice, nothing: each refused in one line saying what is wrong, as the app says it
    assert "  a die shows 1 to 6, not 7" in text and "  type 1 number, one per die: 2 typed" in text
    assert "  Gold rolls: type 1 number 1-6" in text
    assert "  Gold rolls 5: +2  [hoard 2]" in text and "<the Dragon rolls: type the 1 die thrown (1-6 each)> >" in text
    assert "  The Dragon rolls 6  [hoard 3]" in text
    rec = read_record_file(path)
    assert rec.header.chance == "manual"
    assert [r.outcome for r in rec.records if isinstance(r, ChanceRecord)][1:3] == [(5,), (6,)]
    assert verify(rec).ok


def test_hoard_in_simulate(hoard: object, tmp_path: Path) -> None:
    seats = (SeatPlan("random"), SeatPlan("ai"), SeatPlan("bot"))
    progress: list[str] = []
    tally = run(Batch(GameSetup("hoard", "short", seats, 3), 4, tmp_path, progress.append))
    assert tally.games == 4 and sum(tally.wins.values()) + tally.draws == 4
    assert [p.split(":")[0] for p in progress] == ["game 1", "game 2", "game 3", "game 4"]
    paths = sorted(tmp_path.glob("*.fief"))
    assert [p.name for p in paths] == [f"hoard-short-3-000{n}.fief" for n in range(1, 5)]
    seeds = [read_record_file(p).header.seed for p in paths]
    assert seeds == [s for s, _ in zip(game_seeds(3), range(4))]
    for path in paths:
        rec = read_record_file(path)
        assert verify(rec).ok and rec.result is not None
        assert [(s.kind, s.detail) for s in rec.header.seats] == [
            ("random", "uniform random mover"), ("ai", "hoard-greedy 1"), ("bot", "the Dragon (hoard 3)")]
    with pytest.raises(RulesError, match="no person in it"):
        run(Batch(GameSetup("hoard", "short", HOARD_SEATS, 3), 1))


def test_a_billion_games_start_at_once(hoard: object) -> None:
    """The seeds are drawn as the games are played, not listed up front."""
    class Enough(Exception):
        pass

    def first_only(line: str) -> None:
        raise Enough

    seeds = game_seeds(1)
    assert isinstance(seeds, Iterator)
    started = time.perf_counter()
    with pytest.raises(Enough):
        run(Batch(GameSetup("hoard", "short", (SeatPlan("random"), SeatPlan("random"), SeatPlan("bot")), 1),
                  1_000_000_000, progress=first_only))
    assert time.perf_counter() - started < 2


def _taifa(path: Path, seed: int = 3) -> Runner:
    kinds = ("human", "bot", "bot", "bot", "bot", "bot")
    return Runner.start(GameSetup("taifa", "standard", tuple(SeatPlan(k) for k in kinds), seed), path)


def test_the_outcome_of_your_action_stays_until_you_go_on(tmp_path: Path) -> None:
    # Seed 3: Castile attacks Oviedo (option 1) with Peasant Levy (add option 1), then done.
    script = Script(["1", "1", "done", "", "quit"])
    play(_taifa(tmp_path / "t.fief"), script.read, script.write)
    lines = script.lines
    combat = next(i for i, line in enumerate(lines) if re.match(r"  Castile rolls \[.*: Oviedo (holds|falls)", line))
    assert lines[combat + 1] == "<-- Enter to go on -->"
    assert lines[combat + 2].startswith("  Round 2: Catalan Counties (bot)")  # the bots' rounds after the pause
    assert lines.count("<-- Enter to go on -->") == 1  # once per action, not per bot


def _last_option(prompt: str, lines: list[str]) -> str:
    """Castile answers every question with its last option (pass, or done), Enter at every pause."""
    if prompt.startswith("--"):
        return "quit" if "next turn" in prompt else ""
    numbers = [int(n) for line in lines[-40:] for n in re.findall(r"(?:^|\s)(\d+)\. ", line)]
    return str(numbers[-1])


def test_a_new_turn_waits_for_you(tmp_path: Path) -> None:
    path = tmp_path / "turn.fief"
    script = Script(_last_option)
    closing = play(_taifa(path), script.read, script.write)
    assert closing == f"stopped; the record so far is {path}"
    lines = script.lines
    pause = lines.index("<-- Enter for the next turn -->")
    assert any("turn 1 ends" in line for line in lines[:pause])
    assert not any("Turn 2 of 3 begins" in line for line in lines)  # quit at the pause: turn 2 not shown
    assert not any("Enter for the next turn" in line for line in lines[:pause])  # turn 1 began without one
    assert verify(read_record_file(path)).ok


@pytest.mark.parametrize("leave, line", [
    (KeyboardInterrupt, "stopped; the record so far is {path}"),
    (EOFError, "stopped: the input ended; the record so far is {path}"),
])
def test_ctrl_c_and_the_end_of_input_leave_like_quit(tmp_path: Path, leave: type[BaseException], line: str) -> None:
    path = tmp_path / "leave.fief"
    answers = iter(["1"])

    def read(prompt: str) -> str:
        for answer in answers:
            return answer
        raise leave

    closing = play(_taifa(path), read, lambda text: None)
    assert closing == line.format(path=path)
    rec = read_record_file(path)
    assert rec.result is None and verify(rec).ok and rec.steps > 1
    before = path.read_bytes()
    code, _, err = invoke("resume", path, "--prompt")  # no input at all: nobody is there to play
    assert code == 2 and err == f"error: no input to read, and Castile is to decide; the record so far is {path}\n"
    assert path.read_bytes() == before


def test_ctrl_c_while_the_bots_play_keeps_a_record_that_resumes(tmp_path: Path) -> None:
    path = tmp_path / "busy.fief"
    shown = 0

    def write(text: str) -> None:
        nonlocal shown
        shown += 1
        if shown == 12:  # in the middle of the first steps' events
            raise KeyboardInterrupt

    assert play(_taifa(path), lambda prompt: "quit", write) == f"stopped; the record so far is {path}"
    code, out, _ = invoke("resume", path, "--prompt", stdin="quit\n")
    assert code == 0 and "Castile: your action" in out


def test_undo_at_the_prompt_takes_back_the_persons_move_and_the_reply(tmp_path: Path) -> None:
    """Issue 30: `undo` (or `takeback`) at the prompt takes back the person's last move and what the
    others played since, as the app's `u` does; with nothing to take back it says so; the record
    keeps only the moves that stand, and verifies."""
    path = tmp_path / "u.fief"
    runner = Runner.start(GameSetup("tafl", "brandubh", (SeatPlan("human"), SeatPlan("random")), 5), path)
    lines: list[str] = []
    answers = iter(["undo", "d1-e1", "undo", "d1-c1", "quit"])
    play(runner, lambda prompt: next(answers), lines.append)
    text = "\n".join(lines)
    assert "nothing to take back" in text and "took back 2 move(s)" in text
    recording = read_record_file(path)
    decisions = [r.code for r in recording.records if isinstance(r, DecisionRecord)]
    assert decisions[0] == ("d1", "c1") and ("d1", "e1") not in decisions
    assert verify(recording).ok
