"""Take the Kingdom at the command line: `fiefdom kingdom cards`, `fiefdom play|simulate kingdom`,
records that verify and export as a report, --cards on replay, and bad arguments in one line.

Seats are random here (the Take the Kingdom AI is another issue's): the ai and greedy seats
are tried only where core.kingdom.ai exists."""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.reader import read_record_file
from notation.verify import verify
from tui import cli_replay
from seat_args import seats
from tui.cli import app

runner = CliRunner()
CARD_LINE = re.compile(r"^[a-z-]+-\d+ ")


@pytest.fixture(autouse=True)
def packaged_data() -> Iterator[None]:
    yield
    cli_replay._DATA.clear()  # one command's --cards: CliRunner runs many in one process


@pytest.fixture
def own_cards(tmp_path: Path) -> Path:
    """The packaged cards with one Soldiers renamed: a deck of one's own (another fingerprint)."""
    text = resources.files("core.kingdom").joinpath("data/cards.toml").read_text("utf-8")
    path = tmp_path / "own-cards.toml"
    path.write_text(text.replace('id = "soldiers-1"\nkey = "soldiers"\nname = "Soldiers"',
                                 'id = "soldiers-1"\nkey = "soldiers"\nname = "Footmen"', 1), "utf-8")
    return path


def invoke(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
    result = runner.invoke(app, list(map(str, args)), input=stdin)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    for word in words:
        assert word in err, err


# -- fiefdom kingdom cards --------------------------------------------------------------------


def test_cards_lists_every_card_and_the_solo_ones() -> None:
    code, out, _ = invoke("kingdom", "cards")
    assert code == 0
    lines = [line for line in out.splitlines() if CARD_LINE.match(line)]
    assert len(lines) == 108
    soldiers = next(line for line in lines if line.startswith("soldiers-1 "))
    assert soldiers.split()[1:5] == ["Soldiers", "attack", "-2", "armed"] and " S  Attack 2 on one Castle or Land" in soldiers
    code, out, _ = invoke("kingdom", "cards", "--flavour")
    assert code == 0 and '\n                 "Foot soldiers' in out  # the flavour text, under its card
    assert out.splitlines()[-1].startswith("108 cards, 54 with the solo mark S.")
    code, out, _ = invoke("kingdom", "cards", "--solo")
    assert code == 0
    solo = [line for line in out.splitlines() if CARD_LINE.match(line)]
    assert len(solo) == 54 and all(" S  " in line for line in solo)


def test_cards_of_ones_own(own_cards: Path, tmp_path: Path) -> None:
    code, out, _ = invoke("kingdom", "cards", "--cards", own_cards)
    assert code == 0 and "soldiers-1       Footmen" in out and out.rstrip().endswith("Your own cards file.")
    bad = tmp_path / "bad.toml"
    bad.write_text(own_cards.read_text("utf-8").replace("value = 4", "value = 40", 1), "utf-8")
    code, _, err = invoke("kingdom", "cards", "--cards", bad)
    one_line_error(code, err, str(bad))


# -- fiefdom play kingdom ----------------------------------------------------------------------


def test_a_person_builds_a_kingdom_by_number_and_by_words(tmp_path: Path) -> None:
    out = tmp_path / "game.fief"
    # The draft: option 1, then words; a word no option has (refused in one line, nothing lost),
    # the hand and the table, then quit.
    typed = "1\nland as a new land\nattack nowhere\nhand\ntable\nquit\n"
    code, text, _ = invoke("play", "kingdom", "--prompt", "-v", "multi-3", *seats("human", "random", "random"),
                           "--seed", "4",
                           "--out", out,
                           stdin=typed)
    assert code == 0, text
    assert "Player 1 (human), Player 2 (random), Player 3 (random)" in text
    assert "build your kingdom: take a Defend card (9 points to go)" in text
    assert "'attack nowhere' is not one of the" in text
    assert "Defences are listed topmost first" in text and "Noble: " in text  # the table
    assert text.rstrip().endswith(f"stopped; the record so far is {out}")
    recording = read_record_file(out)
    decisions = [r for r in recording.records if type(r).__name__ == "DecisionRecord" and r.seat == 0]
    assert len(decisions) == 2 and decisions[1].code[0] == "draft" and decisions[1].code[2] == "new"
    assert verify(recording).first_bad_step is None  # unfinished, but every step replays
    code, text, _ = invoke("replay", "export", out)
    assert code == 0 and "Land as a new Land" in text


def test_a_solo_round_at_the_prompt(tmp_path: Path) -> None:
    out = tmp_path / "solo.fief"
    code, text, _ = invoke("play", "kingdom", "--prompt", "-v", "solo", "--seat", "you=human", "-o",
                           "difficulty=medium",
                           "--seed", "4", "--out", out, stdin="keep freeze\n1\nnobles\nquit\n")
    assert code == 0, text
    assert "solo, medium: round 1 of 18" in text and "revealed: Soldiers -2, " in text
    assert "Freeze goes to Simon (you)" in text
    assert "Lord Simon de Longbow (2)" in text  # nobles
    recording = read_record_file(out)
    assert recording.header.options["difficulty"] == "medium"
    assert [s.kind for s in recording.header.seats] == ["human", "bot", "bot"]
    assert verify(recording).first_bad_step is None


def test_a_whole_game_with_no_person_finishes_and_verifies(tmp_path: Path) -> None:
    out = tmp_path / "random.fief"
    code, text, _ = invoke("play", "kingdom", "--prompt", "-v", "multi-2", *seats("random", "random"), "--seed", "2",
                           "--out", out)
    assert code == 0, text
    assert re.search(r"^defence points: Player 1 \(\w+\) \d+, Player 2 \(\w+\) \d+ \(\d+ steps, seed 2\)$", text, re.M), text
    assert verify(read_record_file(out)).ok


# -- fiefdom simulate kingdom ------------------------------------------------------------------


def test_simulate_multi_prints_the_tallies_and_games_per_second() -> None:
    code, out, _ = invoke("simulate", "kingdom", "-v", "multi-4", "--games", "3", "--seed", "5",
                          *seats("random", "random", "random", "random"))
    assert code == 0, out
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["game 1", "game 2", "game 3"]
    summary = lines[3:]
    assert summary[0] == "3 games of kingdom multi-4, seed 5, seats random,random,random,random"
    wins = dict(re.findall(r"(Player \d) (\d+)", summary[1]))
    assert list(wins) == ["Player 1", "Player 2", "Player 3", "Player 4"] and sum(map(int, wins.values())) == 3
    shares = re.fullmatch(r"win share by place in the turn order: 1st (\d+)%, 2nd (\d+)%, 3rd (\d+)%, 4th (\d+)%",
                          summary[2])
    assert shares and 99 <= sum(map(int, shares.groups())) <= 101
    assert summary[3].startswith("wins by Noble: ") and summary[4].startswith("reasons: ")
    assert re.fullmatch(r"time: [\d.]+s, [\d.]+ games/s, \d+ steps/s", summary[6])


def test_simulate_solo_writes_records_that_verify_and_export_as_a_report(tmp_path: Path) -> None:
    code, out, _ = invoke("simulate", "kingdom", "-v", "solo", "--games", "2", "--seed", "3",
                          *seats("random", "bot", "bot"), "-o", "difficulty=expert", "--out", tmp_path)
    assert code == 0, out
    assert "2 games of kingdom solo, seed 3, seats random,bot,bot" in out and "games/s" in out
    assert re.search(r"^wins: You \d+, Enemy 1 \d+, Enemy 2 \d+$", out, re.M)
    paths = sorted(tmp_path.glob("*.fief"))
    assert [p.name for p in paths] == ["kingdom-solo-3-0001.fief", "kingdom-solo-3-0002.fief"]
    code, text, _ = invoke("replay", "verify", paths[0])
    assert code == 0 and text.startswith("ok:")
    code, report, _ = invoke("replay", "export", paths[0])
    assert code == 0
    lines = report.splitlines()
    options = next(line for line in lines if line.startswith("[Options "))  # the rules engineer adds options
    assert options.startswith('[Options "damage_adds_up=True, ') and all(
        o in options for o in ("difficulty=expert", "penalty_to_player=False"))
    assert "Setup" in lines and any(line.startswith("Round 1 of 18: ") for line in lines) and "Result" in lines
    assert "  1. the Attack deck is shuffled (18 cards)" in lines
    assert "      Simon (you): Castle, Land + Moat, Land  [kingdom solo]" in lines  # the kingdoms as set up
    numbered = [int(m.group(1)) for m in map(re.compile(r"^  (\d+)\. ").match, lines) if m]
    assert numbered == list(range(1, len(numbered) + 1)) and len(numbered) == len(read_record_file(paths[0]).records) - \
        sum(type(r).__name__ not in ("DecisionRecord", "ChanceRecord") for r in read_record_file(paths[0]).records)
    assert re.match(r"  defence points: Simon \(you\) \d+, Enemy 1 \(Egbert\) \d+, Enemy 2 \(Charles\) \d+$",
                    lines[-2]), lines[-2]


def test_a_multi_report_has_a_heading_a_turn(tmp_path: Path) -> None:
    code, out, _ = invoke("simulate", "kingdom", "-v", "multi-3", "--games", "1", "--seed", "3",
                          *seats("random", "random", "random"), "-o", "survival=true", "-o", "nobles=deal",
                          "--out", tmp_path)
    assert code == 0, out
    (path,) = tmp_path.glob("*.fief")
    code, report, _ = invoke("replay", "export", path)
    assert code == 0
    assert "survival=True" in report and "\nSetup\n  1. the Nobles are dealt (6 cards)\n" in report
    assert re.search(r"^Turn 1: Player \d \(\w+\)  \[kingdom gameplay\]$", report, re.M)
    assert re.search(r"^  \d+\. Player \d \(\w+\): ", report, re.M)  # a seat with its Noble


def test_records_on_ones_own_cards_replay_only_with_them(tmp_path: Path, own_cards: Path) -> None:
    code, out, _ = invoke("simulate", "kingdom", "-v", "multi-2", "--games", "1", "--seed", "9",
                          *seats("random", "random"), "--cards", own_cards, "--out", tmp_path)
    assert code == 0, out
    (record,) = tmp_path.glob("*.fief")
    code, _, err = invoke("replay", "verify", record)
    one_line_error(code, err, "its own cards", "--cards")
    code, text, _ = invoke("replay", "--cards", own_cards, "verify", record)
    assert code == 0 and text.startswith("ok:")


def test_ai_and_greedy_seats(tmp_path: Path) -> None:
    pytest.importorskip("core.kingdom.ai")
    code, out, _ = invoke("simulate", "kingdom", "-v", "multi-2", "--games", "1", *seats("greedy", "ai"),
                          "--out", tmp_path)
    assert code == 0, out
    (path,) = tmp_path.glob("*.fief")
    played = read_record_file(path).header.seats
    assert [s.kind for s in played] == ["ai", "ai"] and "level greedy" in played[0].detail
    assert verify(read_record_file(path)).ok


# -- bad arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (("-v", "multi-7"), ["unknown kingdom variant 'multi-7'", "multi-2"]),
    (("-v", "x"), ["variant", "'x'"]),
    (("-v", "solo", "-o", "difficulty=x"), ["difficulty", "easy"]),
    (("-o", "difficulty=easy"), ["option 'difficulty' does not apply to kingdom multi-3"]),
    (("--cards", "/nonexistent/cards.toml"), ["cannot read cards"]),
    (("--data", "cards=/nonexistent/cards.toml"), ["cannot read cards"]),
    (("--data", "map=x.toml"), ["Take the Kingdom has no data file 'map' (it takes cards)"]),
    (("--seat", "4=random"), ["no seat '4'", "Player 1, Player 2, Player 3"]),
    (("--seat", "2=robot"), ["Player 2 may be human, ai, random, greedy, casual, full, not 'robot'"]),
    (("-v", "solo", "--seat", "Enemy 1=random"), ["Enemy 1 may be bot, not 'random'"]),
    (("--seat", "random"), ["--seat takes NAME=KIND"]),
    (("--option", "survival=maybe"), ["survival"]),
    (("--option", "nobles"), ["name=value"]),
    (("--seed", "-1"), ["seed"]),
])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_bad_arguments_are_one_line(command: str, args: tuple[str, ...], words: list[str], tmp_path: Path) -> None:
    if command == "play":
        argv = ["play", "kingdom", "--prompt", "--out", tmp_path / "x.fief"]
    else:
        argv = ["simulate", "kingdom", "-n", "1"]
    if "-v" not in args:
        argv += ["-v", "multi-3"]
    code, _, err = invoke(*argv, *args)
    one_line_error(code, err, *words)
    assert not (tmp_path / "x.fief").exists()


def test_a_simulated_game_has_no_person_in_it() -> None:
    code, _, err = invoke("simulate", "kingdom", "-n", "1", "--seat", "Player 1=human")
    one_line_error(code, err, "no person")
