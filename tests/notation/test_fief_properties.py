"""Properties of records (hypothesis): a written record reads back, replays to
the very states that were played, and re-writing it gives the same bytes."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.chance import SeededChance
from core.digest import digest
from core.match import Match, RandomController
from core.tafl import TaflGame
from notation.catalog import new_header
from notation.format import Seat
from notation.reader import read_record_file
from notation.replay import Replay
from notation.writer import Journal, encode_game


@settings(max_examples=15, deadline=None)
@given(variant=st.sampled_from(["traditional", "gild-9", "gild-11"]), seed=st.integers(0, 2**40),
       max_steps=st.one_of(st.none(), st.integers(0, 40)))
@example(variant="gild-9", seed=250565, max_steps=35)  # the king taken on the 35th step: run's last
def test_records_round_trip_and_replay_to_the_same_states(variant: str, seed: int, max_steps: int | None) -> None:
    game = TaflGame(variant)
    played = [digest(game)]
    header = new_header("tafl", variant, [Seat("a", "random"), Seat("b", "random")], seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.fief"
        with Journal.create(path, header) as journal:
            match = Match(game, [RandomController(seed), RandomController(seed + 1)], SeededChance(seed),
                          [journal, lambda step, g: played.append(digest(g))])
            result = match.run(max_steps)
            if result is not None:
                journal.finish(result, game)
        data = path.read_bytes()
    recording = read_record_file(data)
    assert encode_game(recording.header, recording.records) == data
    replay = Replay(recording)
    assert replay.steps == len(played) - 1
    assert [digest(replay.state_at(n)) for n in range(replay.steps + 1)] == played
    report = replay.verify()
    assert report.ok, report.message
