"""`fiefdom tournament GAME --seat-kinds ...` (issue 32): every pairing and seat position, the table,
the ratings and their chart, JSON; the same for any --jobs; records that verify; Ctrl-C keeps whole
games; bad arguments in one line."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from core.engine import Result
from notation.reader import read_record_file
from notation.verify import verify
from tui.cli import app, main
from tui.tournament import Ratings, arrangements, shares, wilson

from tests.cli.test_simulate import finish_or_say_where, interruptible

STAMP = "1800000000"  # SOURCE_DATE_EPOCH: the records of two runs carry the same creation time
FIEFDOM = Path(sys.executable).parent / "fiefdom"
# Quick: Brandubh, a random mover against the AI's beginner searching one ply
TAFL = ["tafl", "--variant", "brandubh", "--seat-kinds", "random,ai:beginner", "--ai-depth", "1"]


def invoke(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["tournament", *map(str, args)], env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def but_time(out: str) -> list[str]:
    return [line for line in out.splitlines() if not line.startswith(("time: ", "records: "))]


def summary_of(out: str) -> list[str]:
    lines = out.splitlines()
    return lines[next(n for n, line in enumerate(lines) if line.startswith("tournament of ")):]


# -- the schedule ------------------------------------------------------------------------------


@pytest.mark.parametrize(("kinds", "seats", "count"), [(4, 2, 12), (2, 2, 2), (3, 2, 6), (4, 3, 24), (4, 4, 24),
                                                      (3, 6, 3), (2, 3, 2), (3, 4, 3)])
def test_the_schedule_seats_every_kind_in_every_seat_equally(kinds: int, seats: int, count: int) -> None:
    schedule = arrangements(kinds, seats)
    assert len(schedule) == count == len(set(schedule))
    per_seat = Counter((seat, kind) for arrangement in schedule for seat, kind in enumerate(arrangement))
    assert set(per_seat) == {(s, k) for s in range(seats) for k in range(kinds)}
    assert len(set(per_seat.values())) == 1  # each kind takes each seat as often as any other
    if kinds >= seats:  # every pairing (every ordered choice of distinct kinds), each once
        assert all(len(set(a)) == seats for a in schedule)
        pairs = Counter((a[i], a[j], i, j) for a in schedule for i in range(seats) for j in range(seats) if i != j)
        assert len(pairs) == kinds * (kinds - 1) * seats * (seats - 1) and len(set(pairs.values())) == 1
    else:  # every kind in every game
        assert all(set(a) == set(range(kinds)) for a in schedule)


def test_the_kingdom_schedule_in_json_is_every_pairing_in_both_seats_and_every_game_is_counted() -> None:
    code, out, err = invoke("kingdom", "--seat-kinds", "greedy,random,ai:casual", "--games", "2", "--json")
    assert code == 0 and err == "", err
    data = json.loads(out)
    assert list(data)[:6] == ["game", "variant", "seed", "options", "kinds", "seats"]
    assert data["kinds"] == ["greedy", "random", "ai:casual"] and data["variant"] == "multi-2"
    assert [a["kinds"] for a in data["arrangements"]] == [
        ["greedy", "random"], ["greedy", "ai:casual"], ["random", "greedy"], ["random", "ai:casual"],
        ["ai:casual", "greedy"], ["ai:casual", "random"]]
    assert data["games"] == data["scheduled"] == 12 and data["complete"] is True
    for kind in data["results"]:
        assert kind["games"] == 8 == kind["wins"] + kind["shared"] + kind["draws"] + kind["losses"]
        assert [s["games"] for s in kind["by_seat"]] == [4, 4]
        lo, hi = kind["interval"]
        assert 0 <= lo <= kind["mean"] <= hi <= 1
        rating = kind["rating"]
        assert rating["interval"][0] < rating["mu"] < rating["interval"][1]
        assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=1e-5)
    assert sum(k["score"] for k in data["results"]) == pytest.approx(12)  # one point a game
    mus = [k["rating"]["mu"] for k in data["results"]]
    assert mus == sorted(mus, reverse=True)  # best first


def test_scores_split_a_shared_win_or_a_draw_and_the_intervals_stay_within_0_and_1() -> None:
    assert shares(Result(winners=(1,), reason="r", rule="x"), 2) == [0, 1]
    assert shares(Result(winners=(), reason="draw", rule="x"), 2) == [Fraction(1, 2)] * 2
    assert shares(Result(winners=(0, 2), reason="r", rule="x"), 4) == [Fraction(1, 2), 0, Fraction(1, 2), 0]
    assert shares(Result(winners=(), reason="r", rule="x"), 3) == [Fraction(1, 3)] * 3
    assert wilson(0.0, 10)[0] == 0.0 and 0.25 < wilson(0.0, 10)[1] < 0.35
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(1 - hi) and lo == pytest.approx(0.4038, abs=1e-3)
    ratings = Ratings(3)
    for _ in range(5):
        ratings.add(Result(winners=(0,), reason="r", rule="x"), [(0, 2), (1, 0)])  # kind 2 beats kind 0
    assert ratings.kinds[2].mu > ratings.kinds[1].mu == 25 > ratings.kinds[0].mu
    assert ratings.kinds[2].sigma < ratings.kinds[1].sigma


# -- the command -------------------------------------------------------------------------------


def test_four_kingdom_kinds_print_their_table_and_chart() -> None:
    code, out, err = invoke("kingdom", "--seat-kinds", "ai,casual,greedy,random", "--games", "1")
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:12]] == [f"game {n}" for n in range(1, 13)]
    assert lines[0].startswith("game 1: ai, casual: ")
    summary = summary_of(out)
    assert summary[0] == "tournament of kingdom multi-2, seed 1: 12 arrangements x 1 round = 12 games"
    assert all(len(line) <= 80 for line in summary), [line for line in summary if len(line) > 80]
    table = summary[summary.index(next(line for line in summary if line.startswith("kind    games"))):]
    rows = {line.split()[0]: line.split() for line in table[1:5]}
    assert sorted(rows) == ["ai", "casual", "greedy", "random"]
    for kind, row in rows.items():
        games, wins, draws, losses = map(int, row[1:5])
        assert games == 6 == wins + draws + losses
        assert float(row[6]) == pytest.approx(float(row[5]) / 6, abs=1e-3)
    assert rows["random"][2] == "0"  # a random mover beats none of the AIs
    ratings = summary.index(next(line for line in summary if line.startswith("ratings (openskill Plackett-Luce)")))
    rated = [line.split()[0] for line in summary[ratings + 2:ratings + 6]]
    chart = summary[ratings + 7:ratings + 11]
    assert [line.split()[0] for line in chart] == rated and rated[-1] == "random"
    for line in chart:  # a bar on one scale, the mean marked, mu at the end
        bar = line[7:-8]
        assert bar.count("[") == 1 and bar.count("]") == 1 and bar.count("|") == 1
        assert bar.index("[") < bar.index("|") < bar.index("]")
    assert set(summary[ratings + 11].strip()) == {"+", "-"}  # the scale
    assert summary[-1].startswith("time: ")


def test_the_same_table_json_and_records_for_any_jobs(tmp_path: Path) -> None:
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        code, text, err = invoke(*TAFL, "--games", "3", "--seed", "7", "--jobs", jobs, "--out", out,
                                 env={"SOURCE_DATE_EPOCH": STAMP})
        assert code == 0 and err == "", err
        code, raw, err = invoke("kingdom", "-k", "greedy,random", "--games", "3", "--json", "--jobs", jobs)
        assert code == 0 and err == "", err
        data = json.loads(raw)
        assert data.pop("seconds") >= 0
        runs[jobs] = (but_time(text), data, {p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert runs["1"] == runs["2"]
    lines, _, records = runs["1"]
    assert len(records) == 6 and [line.split(":")[0] for line in lines[:6]] == [f"game {n}" for n in range(1, 7)]


def test_records_are_named_by_arrangement_and_round_verify_and_are_not_replaced_unasked(tmp_path: Path) -> None:
    code, out, _ = invoke(*TAFL, "--games", "2", "--seed", "3", "--out", tmp_path, "--quiet")
    assert code == 0 and out.splitlines()[-1] == f"records: {tmp_path}"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"tafl-brandubh-3-{a:03d}-{r:04d}.fief" for a in (1, 2) for r in (1, 2)]
    for name in names:
        recording = read_record_file(tmp_path / name)
        assert verify(recording).ok
        kinds = [seat.kind for seat in recording.header.seats]
        assert kinds == (["random", "ai"] if "-001-" in name else ["ai", "random"])
    result = CliRunner().invoke(app, ["replay", "verify", str(tmp_path / names[0])])
    assert result.exit_code == 0 and result.stdout.startswith("ok:")
    before = {name: (tmp_path / name).read_bytes() for name in names}
    code, out, err = invoke(*TAFL, "--games", "2", "--seed", "3", "--out", tmp_path, "--quiet")
    assert code == 2 and out == "" and err.count("\n") == 1 and "give --force" in err
    assert {name: (tmp_path / name).read_bytes() for name in names} == before
    code, _, _ = invoke(*TAFL, "--games", "2", "--seed", "3", "--out", tmp_path, "--quiet", "--force")
    assert code == 0


def test_taifa_seats_three_kinds_round_its_six_seats() -> None:
    code, out, err = invoke("taifa", "--seat-kinds", "bot,ai,random", "--games", "1", "--json")
    assert code == 0 and err == "", err
    data = json.loads(out)
    assert [a["kinds"] for a in data["arrangements"]] == [
        ["bot", "ai", "random"] * 2, ["ai", "random", "bot"] * 2, ["random", "bot", "ai"] * 2]
    for kind in data["results"]:
        assert kind["games"] == 6 and [s["games"] for s in kind["by_seat"]] == [1] * 6


def test_ctrl_c_keeps_whole_games_and_prints_what_they_make(tmp_path: Path) -> None:
    out = tmp_path / "games"
    process = interruptible("tournament", "kingdom", "-k", "greedy,random", "--games", "100000", "--out", str(out),
                            "--quiet", env={**os.environ, "FIEFDOM_JOBS": "2"})
    deadline = time.monotonic() + 120
    while (not out.is_dir() or len(list(out.glob("*.fief"))) < 4) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    text, err = finish_or_say_where(process, 60)
    assert process.returncode == 130 and "Traceback" not in err and err.endswith("interrupted\n")
    names = sorted(p.name for p in out.iterdir())
    lines = text.splitlines()
    assert lines[1] == f"interrupted: {len(names)} of the 200000 games played (whole games only)"
    # the schedule's first games, each whole: arrangement 1 and 2 in turn, round by round
    assert names == sorted(f"kingdom-multi-2-1-{n % 2 + 1:03d}-{n // 2 + 1:04d}.fief" for n in range(len(names)))
    for name in names:
        assert verify(read_record_file(out / name)).ok
    table = lines.index(next(line for line in lines if line.startswith("kind ")))
    games = sum(int(line.split()[1]) for line in lines[table + 1:table + 3])
    assert games == 2 * len(names)  # each game counted for both its kinds


@pytest.mark.parametrize(("args", "words"), [
    (["kingdom", "-k", "ai"], "at least two seat kinds"),
    (["kingdom", "-k", "ai,ai"], "ai is given twice"),
    (["kingdom", "-k", "ai:casual,casual"], "casual is given twice (ai:casual is the same kind)"),
    (["kingdom", "-k", "ai,bot"], "Player 1 may be ai, random, not bot"),
    (["kingdom", "-k", "ai,robot"], "unknown seat kind 'robot'"),
    (["kingdom", "-k", "ai:strong,random"], "no AI level 'strong'"),
    (["kingdom", "-k", "human,random"], "no person in it"),
    (["kingdom", "-k", "ai,,random"], "none empty"),
    (["kingdom", "-v", "solo", "-k", "ai,random"], "a tournament needs two"),
    (["kingdom", "-v", "nope", "-k", "ai,random"], "unknown kingdom variant"),
    (["kingdom", "-k", "ai,random", "--games", "0"], "--games"),
    (["kingdom", "-k", "ai,random", "-o", "nobles=maybe"], "nobles"),
    (["kingdom", "-k", "ai,random", "--jobs", "2", "--cluster", "tcp://127.0.0.1:9"], "--jobs is for"),
    (["chess", "-k", "ai,random"], "unknown game"),
    (["kingdom"], "--seat-kinds"),
])
def test_bad_arguments_are_one_line(args: list[str], words: str, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["fiefdom", "tournament", *args])  # as a user runs it: main words usage errors
    with pytest.raises(SystemExit) as end:
        main()
    out, err = capsys.readouterr()
    assert end.value.code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ")
    assert words in err and "Traceback" not in err, err
