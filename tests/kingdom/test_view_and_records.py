"""What a seat sees of a Take the Kingdom table, and records made through the runner: they
verify (seeded chance derived again) and replay to the game's final position."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.digest import digest
from notation.reader import read_record_file
from notation.replay import Replay
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify

from .support import realm, start_turn, table


def test_a_seat_sees_its_own_hand_and_traps_and_only_counts_of_others() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", castle_trap="trap-1", hand=["deny-1", "soldiers-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], "trap-2")], hand=["gold-1"], mercy=["mercy-2"])
    start_turn(g, 0)
    mine, theirs = g.view(0)["realms"]
    assert mine["hand"] == ("deny-1", "soldiers-1") and mine["slots"][0]["trap"] == "trap-1"
    assert theirs["hand"] is None and theirs["hand_count"] == 1
    assert theirs["slots"][1]["trap"] == "trap?"  # face down: real or decoy is not shown
    assert theirs["mercy"] == ("mercy-2",)  # Mercy beside a Castle is on the table
    spectator = g.view(None)["realms"]
    assert all(r["hand"] is None for r in spectator)
    assert all(sl["trap"] in (None, "trap?") for r in spectator for sl in r["slots"])
    assert "deck" in g.view(0) and isinstance(g.view(0)["deck"], int)  # the deck only as a count


def _record(path: Path, variant: str, kinds: list[str], seed: int, **options) -> tuple[Path, bytes]:
    """Play a game into ``path``; the file and the digest of the game's last position."""
    run = Runner.start(GameSetup("kingdom", variant, tuple(SeatPlan(k) for k in kinds), seed, options), path)
    run.run()
    final = digest(run.game.canonical())
    run.close()
    return path, final


@pytest.mark.parametrize("variant,kinds,options", [
    ("multi-3", ["random"] * 3, {"survival": True}),
    ("multi-4", ["random"] * 4, {"nobles": "choose"}),
    ("solo", ["random", "bot", "bot"], {"difficulty": "expert"}),
])
def test_records_verify_and_replay_to_the_final_position(tmp_path: Path, variant: str, kinds: list[str],
                                                         options: dict) -> None:
    path, final = _record(tmp_path / "g.fief", variant, kinds, 5, **options)
    rec = read_record_file(path)
    report = verify(rec)
    assert report.ok, report
    replay = Replay(rec)
    assert digest(replay.state_at(len(replay)).canonical()) == final
    assert replay.result is not None and rec.header.game == "kingdom" and rec.header.variant == variant


def test_looking_at_the_start_keeps_the_setup_events_of_step_one(tmp_path: Path) -> None:
    path, _ = _record(tmp_path / "g.fief", "multi-2", ["random", "random"], 3)
    fresh = Replay(read_record_file(path)).events_at(1)
    replay = Replay(read_record_file(path))
    replay.state_at(0)
    assert replay.events_at(1) == fresh and any(e.kind == "noble" for e in fresh)
