"""Golden Take the Kingdom records: a three-player game and a solo game (random seats until the
Take the Kingdom AI plays them).

Each replays, verifies, and matches its reviewed snapshot: every step's state digest, a
summary of the table, and the events with their rules. A rules change that alters any of it
shows up as a snapshot diff to review. Regenerate the records and their snapshot with one
command: `make goldens-kingdom`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.digest import digest
from notation.export import export_text, step_text
from notation.reader import read_record_file
from notation.replay import Replay
from notation.wording import result_text

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
GOLDENS = sorted(REPLAYS.glob("kingdom-*.fief"))


def test_multiplayer_and_solo_have_a_golden_game_under_each_revision_kept() -> None:
    from core.kingdom import RULES_REVISION

    games = sorted((read_record_file(p).header.revision, read_record_file(p).header.variant) for p in GOLDENS)
    assert games == [(1, "multi-3"), (1, "solo"), (3, "multi-3"), (3, "solo"),
                     (RULES_REVISION, "multi-3"), (RULES_REVISION, "solo")]


def table(game: Any) -> str:
    """One line: the turn or round, whose turn, the piles, and each kingdom's points/hand/slots (x: out)."""
    v = game.view(None)
    realms = " ".join(f"{r['score']}/{r['hand_count']}/{len(r['slots'])}{'x' if r['out'] else ''}"
                      for r in v["realms"])
    return f"turn {v['turn']} current {v['current']} deck {v['deck']} discard {len(v['discard'])}: {realms}"


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.name)
def test_golden_record_verifies_and_matches_snapshot(path: Path, snapshot: Any) -> None:
    recording = read_record_file(path)
    replay = Replay(recording)
    report = replay.verify()
    assert report.ok, report.message
    assert report.result is not None, "golden records are whole games"
    steps = []
    for n in range(1, replay.steps + 1):
        info = replay.step_record(n)
        state = replay.state_at(n)
        steps.append({
            "step": n,
            "did": step_text(info),
            "digest": digest(state).hex(),
            "table": table(state),
            "events": [f"{e.kind}: {e.text} [{e.rule}]" for e in info.events],
        })
    assert {"header": _header(recording), "steps": steps, "result": str(report.result)} == snapshot


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.name)
def test_golden_report_numbers_every_step_under_a_heading(path: Path) -> None:
    """The text export numbers every step in order, under Setup and the turns or rounds, and ends with the result."""
    replay = Replay(read_record_file(path))
    lines = export_text(replay).splitlines()
    assert lines[-1] == result_text(replay.result, replay.seat_names)
    assert "Setup" in lines and "Result" in lines
    first = "Round 1 of 18: " if replay.header.variant == "solo" else "Turn 1: "
    assert any(line.startswith(first) for line in lines)
    numbered = [int(line.split(".")[0]) for line in lines
                if line.startswith("  ") and line.split(".")[0].strip().isdigit()]
    assert numbered == list(range(1, replay.steps + 1))


def _header(recording: Any) -> dict[str, Any]:
    h = recording.header
    # app version and creation time change on every regeneration; the rest is the game.
    return {"game": h.game, "variant": h.variant, "revision": h.revision, "options": h.options,
            "setup": h.setup, "seats": [(s.name, s.kind, s.detail) for s in h.seats], "seed": h.seed}
