"""Bad arguments are errors, not internal errors (issue 9): each ends in one line on stderr and
exit 2 (or simply works), never in exit 3, a run without end, or a command that blocks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.engine import RulesError
from core.match import Limit
from core.taifa.game import TaifaGame
from tui.cli import app, main

cli = CliRunner()
MANY = "9" * 5000  # more digits than int() converts from text
HUGE = str(2**70)


def invoke(*args: str | Path, stdin: str = "") -> tuple[int, str, str]:
    result = cli.invoke(app, list(map(str, args)), input=stdin)
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert len(err) < 200, err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize("seed", ["-1", HUGE, str(2**63)])
@pytest.mark.parametrize("command", [("play", "taifa", "--prompt", "--seat", "1=bot"),
                                     ("play", "tafl", "--prompt", "--seat", "1=random", "--seat", "2=random"),
                                     ("simulate", "tafl", "--seat", "1=random", "--seat", "2=random", "-n", "1"),
                                     ("simulate", "taifa", "-n", "1")])
def test_a_seed_out_of_range(command: tuple[str, ...], seed: str, tmp_path: Path) -> None:
    out = ["--out", tmp_path / "r.fief"] if command[0] == "play" else []
    code, _, err = invoke(*command, "--seed", seed, *out)
    one_line_error(code, err, "seed")


@pytest.mark.parametrize("value", [MANY, "²", "--5", "1_0"])
@pytest.mark.parametrize("command", [("play", "tafl", "--prompt", "--seat", "1=random", "--seat", "2=random",
                                      "--option"),
                                     ("tafl", "analyse", "--option"),
                                     ("simulate", "tafl", "-n", "1", "--option"),
                                     ("play", "taifa", "--prompt", "--variant", "el-cid", "--option"),
                                     ("simulate", "taifa", "--variant", "el-cid", "-n", "1", "--option")])
def test_an_option_value_of_thousands_of_digits(command: tuple[str, ...], value: str, tmp_path: Path) -> None:
    name = "almoravid_hand" if "taifa" in command else "quiet_moves"
    out = ["--out", tmp_path / "r.fief"] if command[0] == "play" else []
    code, _, err = invoke(*command, f"{name}={value}", *out)
    one_line_error(code, err, name)


@pytest.mark.parametrize("args", [("tafl", "bench", "--seconds", "inf"), ("tafl", "bench", "--seconds", "1e300"),
                                  ("play", "tafl", "--prompt", "--ai-time", "inf"),
                                  ("simulate", "tafl", "--ai-time", "inf"),
                                  ("play", "tafl", "--prompt", "--ai-depth", str(10**300)),
                                  ("simulate", "tafl", "--ai-depth", "1000")])
def test_endless_times_and_depths(args: tuple[str, ...]) -> None:
    code, _, err = invoke(*args)
    one_line_error(code, err, args[-2])


def test_nan_seconds_are_refused() -> None:
    code, _, err = invoke("tafl", "bench", "--seconds", "nan")
    assert code == 2 and "--seconds" in err


def test_a_records_ai_time_cannot_make_the_ai_think_for_ages() -> None:
    assert Limit.parse("fiefdom-tafl-ai 1, " + "9" * 200 + "s per decision, depth <= 3") == Limit(depth=3)
    assert Limit.parse("0.5s per decision").seconds == 0.5


@pytest.mark.parametrize("typed", ["attack ²", "attack " + MANY, "garrison ٣"])
def test_a_typed_taifa_area_is_an_area_or_one_line(typed: str) -> None:
    game = TaifaGame("standard")
    with pytest.raises(RulesError) as err:
        game.parse(typed)
    assert "\n" not in str(err.value) and len(str(err.value)) < 200



def run_main(args: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The installed command's entry point, as a user runs it (CliRunner calls the typer app, whose own
    usage errors ``main`` rewords)."""
    monkeypatch.setattr(sys, "argv", ["fiefdom", *args])
    with pytest.raises(SystemExit) as end:
        main()
    out, err = capsys.readouterr()
    return int(end.value.code or 0), out, err


@pytest.mark.parametrize(("args", "words"), [
    (("tafl", "analyse", "--best", "30", "x.fief"), ("fiefdom tafl analyse:", "--best", "20", "--help")),
    (("tafl", "bench", "--seconds", "0.001"), ("fiefdom tafl bench:", "--seconds", "0.01")),
    (("simulate", "tafl", "--games", "abc"), ("fiefdom simulate:", "--games", "integer")),
    (("simulate", "tafl", "--bogus"), ("No such option: --bogus",)),
    (("replay", "verify"), ("fiefdom replay verify:", "Missing argument")),
    (("nosuch",), ("No such command 'nosuch'", "'fiefdom --help'")),
])
def test_a_wrong_argument_typer_refuses_is_one_line_from_the_command(
        args: tuple[str, ...], words: tuple[str, ...], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(args, monkeypatch, capsys)
    assert out == ""
    one_line_error(code, err, *words)


def test_the_entry_point_keeps_help_and_exit_codes(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(("--help",), monkeypatch, capsys)
    assert code == 0 and out.startswith("Usage: fiefdom")
    code, _, err = run_main(("simulate",), monkeypatch, capsys)  # a group alone: its help, as typer gives it
    assert code == 2 and "Play headless games" in err
    code, _, err = run_main(("replay", "verify", "/nonexistent/x.fief"), monkeypatch, capsys)
    one_line_error(code, err, "/nonexistent/x.fief")
