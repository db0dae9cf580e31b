"""Golden Taifa records: a six-bot standard game and an El Cid game (the AI as El Cid).

Each replays, verifies, and matches its reviewed snapshot: every step's
state digest, a summary of the table, and the events with their rules. A
rules change that alters any of it shows up as a snapshot diff to review
(`pytest --snapshot-update` after checking it). Regenerate the records with
`make goldens` (or `make goldens-taifa snapshots-golden`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.digest import digest
from core.taifa.game import TaifaGame
from notation.export import export_text
from notation.reader import read_record_file
from notation.replay import Replay
from notation.games.taifa import step_text
from notation.wording import result_text

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
GOLDENS = sorted(REPLAYS.glob("taifa-*.fief"))


def test_both_scenarios_have_a_golden_game() -> None:
    headers = [read_record_file(p).header for p in GOLDENS]
    standard = [h for h in headers if h.variant == "standard"]
    el_cid = [h for h in headers if h.variant == "el-cid"]
    assert standard and all(s.kind == "bot" for s in standard[0].seats), "a six-bot standard game"
    assert el_cid and any(s.kind in ("bot", "ai") and s.name == "El Cid" for s in el_cid[0].seats)


def table(game: TaifaGame) -> str:
    """One line: the turn, whose round, and each kingdom's castles / Card Bonus / hand size."""
    v = game.view(None)
    kingdoms = " ".join(f"{k['key']} {k['castles']}/{k['bonus']:+d}/{k['hand_count']}" for k in v["kingdoms"])
    return f"turn {v['turn']} round {v['kingdoms'][v['current']]['key']} passes {v['passes']}: {kingdoms}"


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.name)
def test_golden_record_verifies_and_matches_snapshot(path: Path, snapshot: Any) -> None:
    recording = read_record_file(path)
    replay = Replay(recording)
    report = replay.verify()
    assert report.ok, report.message
    assert report.result is not None, "golden records are whole games"
    steps = []
    for n in range(1, replay.steps + 1):
        state = replay.state_at(n)
        assert isinstance(state, TaifaGame)
        info = replay.step_record(n)
        steps.append({
            "step": n,
            "did": step_text(info),
            "digest": digest(state).hex(),
            "table": table(state),
            "events": [f"{e.kind}: {e.text} [{e.rule}]" for e in replay.events_at(n)],
        })
    assert {"header": _header(recording), "steps": steps, "result": str(report.result)} == snapshot


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.name)
def test_golden_report_numbers_every_step_under_a_round(path: Path) -> None:
    """The text export puts every step, in order, under a turn or round heading, and ends with the result."""
    replay = Replay(read_record_file(path))
    lines = export_text(replay).splitlines()
    assert lines[-1] == result_text(replay.result, replay.seat_names)
    assert "Turn 1, round 1 -- " + replay.seat_names[0] in lines and "Result" in lines
    numbered = [int(line.split(".")[0]) for line in lines if line.startswith("  ") and line.split(".")[0].strip().isdigit()]
    assert numbered == list(range(1, replay.steps + 1))


def _header(recording: Any) -> dict[str, Any]:
    h = recording.header
    # app version and creation time change on every regeneration; the rest is the game.
    return {"game": h.game, "variant": h.variant, "revision": h.revision, "options": h.options,
            "setup": h.setup, "seats": [(s.name, s.kind, s.detail) for s in h.seats], "seed": h.seed}
