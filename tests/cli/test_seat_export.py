"""``fiefdom replay export R --seat NAME`` and ``replay show --seat``: a game as one seat saw it (issue 25)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from notation.reader import read_record_file
from notation.replay import Replay
from tui.cli import app
from wall_support import Wall, leaks, wall_of

REPLAYS = Path(__file__).parents[2] / "replays"
KINGDOM = REPLAYS / "kingdom-multi-3-1-0001.fief"
TAIFA = REPLAYS / "taifa-standard-7-0001.fief"


def invoke(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(map(str, args)))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def walled() -> Callable[[Path], tuple[Replay, Wall]]:
    """``walled(record)``: its replay and what each seat saw of it, worked out once for the module
    (a wall is every position's views, the dearest part of these tests)."""
    return cache(lambda record: (replay := Replay(read_record_file(record)), wall_of(replay)))


@pytest.mark.parametrize("record,seat,index", [(KINGDOM, "Player 2", 1), (TAIFA, "Leon", 5), (KINGDOM, "spectator", None)])
def test_a_seats_export_names_nothing_hidden_from_it(walled: Callable[[Path], tuple[Replay, Wall]], record: Path,
                                                     seat: str, index: int | None) -> None:
    replay, wall = walled(record)
    secrets = wall.secrets(replay.state_at(replay.steps), index)
    assert secrets, "the game hid cards from the seat"
    for fmt in ("text", "json"):
        code, out, err = invoke("replay", "export", "--seat", seat, "--format", fmt, record)
        assert code == 0, err
        assert not leaks(out, secrets), leaks(out, secrets)[:5]
    code, out, _ = invoke("replay", "export", "--seat", seat, record)
    assert f'[View "{seat}"]' in out and '[Seed "hidden"]' in out
    # The full export stays whole, its seed with it.
    code, full, _ = invoke("replay", "export", "--format", "json", record)
    assert code == 0 and json.loads(full)["header"]["seed"] == replay.header.seed


def test_show_as_a_seat_and_a_wrong_seat_in_one_line(walled: Callable[[Path], tuple[Replay, Wall]]) -> None:
    replay, wall = walled(KINGDOM)
    for n in (5, 20, replay.steps):
        code, out, _ = invoke("replay", "show", "--seat", "2", "--step", str(n), KINGDOM)
        assert code == 0 and not leaks(out, wall.secrets(replay.state_at(n), 1))
    code, out, err = invoke("replay", "export", "--seat", "Player 9", KINGDOM)
    assert code == 2 and err.strip().count("\n") == 0 and "--seat: no seat 'Player 9'" in err
