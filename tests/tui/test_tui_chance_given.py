"""The replay viewer says when a record's chance was taken as given rather than derived from its
seed (issue 26): a note when it opens, and its timeline's verdict; a seeded record as before."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from notation.format import ChanceRecord
from notation.reader import read_record_file
from notation.writer import encode_game
from tui.screens.replay import ReplayScreen
from tui_support import TAIFA_GOLDEN, text


async def test_the_viewer_says_how_many_outcomes_were_taken_as_given(make_app, tmp_path: Path) -> None:
    rec = read_record_file(TAIFA_GOLDEN)
    given = sum(isinstance(r, ChanceRecord) for r in rec.records)
    path = tmp_path / "recorded.fief"
    path.write_bytes(encode_game(replace(rec.header, chance="recorded"), rec.records, reseal=True))
    for record, verdict, notes in (
        (path, f"verified, {given} given",
         [f"verified; chance recorded, not derived from a seed: {given} outcomes taken as given"]),
        (TAIFA_GOLDEN, "verified ·", []),
    ):
        app = make_app(open_path=record)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen) and screen.report is not None and screen.report.ok
            assert text(screen.query_one("#timeline")).startswith(f"step 0/{rec.steps} · {verdict}")
            assert [n.message for n in app._notifications if n.severity == "warning"] == notes
            assert not [n for n in app._notifications if n.severity == "error"]
