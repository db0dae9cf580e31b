"""`fiefdom tafl analyse`: the tool that settles "was that a capture?"."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tui.cli import app

runner = CliRunner()


def analyse(*args: str):
    return runner.invoke(app, ["tafl", "analyse", *args])


def test_json_reports_records_result_and_legal_moves() -> None:
    r = analyse("--variant", "gild-9", "--position", "/9/9/1tK6/9/9/9/3t5/9/9/", "d7-d3", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["records"] == ["d7-d3xKc3"]
    assert out["position"] == "/9/9/1t1t5/9/9/9/9/9/9/"
    assert out["to_move"] == "defenders"
    assert out["result"]["winner"] == "attackers"
    assert out["legal"] == []


def test_text_output_cites_rules() -> None:
    r = analyse("--variant", "traditional", "--position",
                "/6t4/11/4tT5/11/11/10K/11/11/11/11/11/", "g1-g3")
    assert r.exit_code == 0, r.output
    assert "1. g1-g3xf3" in r.stdout
    assert "[trad play.3]" in r.stdout
    assert "to move: defenders" in r.stdout
    assert "result: none" in r.stdout


def test_start_position_legal_moves_and_side() -> None:
    r = analyse("--json")
    out = json.loads(r.stdout)
    assert out["to_move"] == "attackers" and out["result"] is None
    assert len(out["legal"]) == 116 and "d1-d3" in out["legal"]


def test_moves_without_capture_part_and_with_it_agree() -> None:
    pos = "/6t4/11/4tT5/11/11/10K/11/11/11/11/11/"
    a = json.loads(analyse("--position", pos, "g1g3", "--json").stdout)
    b = json.loads(analyse("--position", pos, "g1-g3xf3", "--json").stdout)
    assert a == b


def test_illegal_move_exits_2_with_one_line() -> None:
    r = analyse("d1-d3", "f6-f7")
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: move 2: f6-f7: f7 is occupied"


def test_wrong_capture_claim_is_refused() -> None:
    r = analyse("d1-d3xd4")
    assert r.exit_code == 2
    assert "captures nothing" in r.stderr


def test_bad_arguments_are_one_line_errors() -> None:
    for args in (["--variant", "chess"], ["--position", "/3/"], ["--to-move", "vikings"], ["-o", "quiet_moves=x"],
                 ["-o", "nonsense=1"], ["-o", "novalue"]):
        r = analyse(*args)
        assert r.exit_code == 2, args
        assert len(r.stderr.strip().splitlines()) == 1, args
        assert "Traceback" not in r.output


def test_options_change_the_rules() -> None:
    # Three attackers around a king beside the throne: captured only if the throne counts (TF-3).
    pos = "/11/11/11/11/11/11/4tKt4/11/5t5/11/11/"
    on = json.loads(analyse("--position", pos, "f9-f8", "--json").stdout)
    off = json.loads(analyse("--position", pos, "f9-f8", "-o", "throne_counts_for_king=false", "--json").stdout)
    assert on["records"] == ["f9-f8xKf7"] and on["result"]["winner"] == "attackers"
    assert off["records"] == ["f9-f8"] and off["result"] is None


def test_analyse_reads_back_the_records_it_prints() -> None:
    # A captured king is written xKf7; typed back in, it must be accepted as is.
    pos = "/11/T10/11/11/11/11/4tKt4/11/11/5t5/11/"
    first = json.loads(analyse("--position", pos, "f10-f8", "--json").stdout)
    assert first["records"] == ["f10-f8xKf7"]
    again = analyse("--position", pos, "f10-f8xKf7", "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout) == first


def test_odd_characters_and_kingless_positions_are_one_line_errors() -> None:
    for args in (["--variant", "gild-9", "--position", "/\u00b27/9/9/9/4K4/9/9/9/9/"],
                 ["--variant", "gild-9", "--position", "/9/9/9/9/9/9/9/9/9/"],
                 ["e\u0665-e4"], ["z1-z2"]):
        r = analyse(*args)
        assert r.exit_code == 2, args
        assert len(r.stderr.strip().splitlines()) == 1 and "internal error" not in r.stderr, args
    assert "z1-z2: z1 is off" in analyse("z1-z2").stderr



def test_best_adds_the_ais_lines_from_the_final_position() -> None:
    out = json.loads(analyse("--variant", "gild-9", "d1-d3", "--best", "2", "--seconds", "0.1", "--json").stdout)
    assert len(out["best"]) == 2 and out["best"][0]["score"] >= out["best"][1]["score"]
    for line in out["best"]:
        assert line["moves"][0] in out["legal"]  # each line starts from the position shown
    text = analyse("--variant", "gild-9", "--best", "1", "--seconds", "0.1").stdout
    assert "best (1):\n1. " in text
    over = analyse("--variant", "gild-9", "--position", "/9/9/1tK6/9/9/9/3t5/9/9/", "d7-d3", "--best", "2")
    assert over.exit_code == 0 and "best: none (the game is over)" in over.stdout
    assert "best" not in json.loads(analyse("--json").stdout)  # only when asked
