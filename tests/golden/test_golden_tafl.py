"""Golden Tafl records: each replays, verifies, and matches its reviewed snapshot.

A rules change that alters any position or event along these games shows up
as a snapshot diff to review (`pytest --snapshot-update` after checking it).
Regenerate the records themselves with `make goldens`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from core.tafl import TaflGame
from notation.reader import read_record_file
from notation.replay import Replay

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
GOLDENS = sorted(REPLAYS.glob("tafl-*.fief"))
VARIANTS = ("traditional", "gild-9", "gild-11")


def test_every_variant_has_a_golden_game() -> None:
    for variant in VARIANTS:
        assert any(read_record_file(p).header.variant == variant for p in GOLDENS), variant


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.name)
def test_golden_record_verifies_and_matches_snapshot(path: Path, snapshot: Any) -> None:
    recording = read_record_file(path)
    report = Replay(recording).verify()
    assert report.ok, report.message
    assert report.result is not None, "golden records are whole games"
    replay = Replay(recording)
    steps = []
    for n in range(1, replay.steps + 1):
        state = replay.state_at(n)
        assert isinstance(state, TaflGame)
        steps.append({
            "step": n,
            "position": state.position(),
            "to_move": state.seats[state.to_move],
            "events": [f"{e.kind}: {e.text} [{e.rule}]" for e in replay.events_at(n)],
        })
    assert {"header": _header(recording), "steps": steps, "result": str(report.result)} == snapshot


def _header(recording: Any) -> dict[str, Any]:
    h = recording.header
    # app version and creation time change on every regeneration; the rest is the game.
    return {"game": h.game, "variant": h.variant, "revision": h.revision, "options": h.options,
            "seats": [(s.name, s.kind) for s in h.seats], "seed": h.seed}
