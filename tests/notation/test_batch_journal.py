"""A batch's records (``fiefdom simulate --out``): each game kept in memory and its file written whole
when it ends (``Journal.create(..., whole=True)``), the bytes the per-record autosave writes.

An interrupted batch leaves the games it finished, whole, and nothing of the game it was playing.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import islice
from pathlib import Path

import pytest

from core import games as core_games
from core.digest import digest
from core.engine import Game, Result
from core.match import Step
from notation.catalog import build_game
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from notation.writer import Journal
from tui.simulate import Batch, game_seeds, run

BOT, RANDOM = SeatPlan("bot"), SeatPlan("random")
CREATED = "2026-11-24T12:00:00Z"

BATCHES = {
    "tafl-traditional": GameSetup("tafl", "traditional", (RANDOM, RANDOM), seed=11),
    "tafl-brandubh": GameSetup("tafl", "brandubh", (RANDOM, RANDOM), seed=2),
    "taifa-el-cid": GameSetup("taifa", "el-cid", (BOT, RANDOM, BOT, RANDOM), seed=4),
    "kingdom-multi-3": GameSetup("kingdom", "multi-3", (RANDOM, RANDOM, RANDOM), seed=1),
    "kingdom-solo": GameSetup("kingdom", "solo", (RANDOM, BOT, BOT), seed=3),
}


def autosaved(setup: GameSetup, games: int, folder: Path) -> dict[str, bytes]:
    """The batch's games played through the per-record journal (the autosave), as simulate names them."""
    folder.mkdir()
    header, _ = setup.start(core_games.info(setup.game), core_games.info)
    batch = Batch(setup, games, folder)
    files = {}
    for number, seed in zip(range(1, games + 1), game_seeds(setup.seed)):
        this = replace(header, seed=seed, created=CREATED)
        path = batch.record_path(number)
        assert path is not None
        runner = Runner(this, core_games.info, Journal.create(path, this))
        assert runner.run() is not None
        runner.close()
        files[path.name] = path.read_bytes()
    return files


@pytest.fixture
def fixed_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.simulate.utc_now", lambda: CREATED)


@pytest.mark.parametrize("name", BATCHES)
def test_a_batch_writes_the_autosave_bytes(name: str, tmp_path: Path, fixed_time: None) -> None:
    setup = BATCHES[name]
    want = autosaved(setup, 3, tmp_path / "autosave")
    run(Batch(setup, 3, tmp_path / "batch"))
    got = {path.name: path.read_bytes() for path in (tmp_path / "batch").iterdir()}
    assert got == want  # every file, and nothing else (no file left aside)


def test_a_journal_created_whole_writes_nothing_until_the_game_ends(tmp_path: Path) -> None:
    setup = BATCHES["tafl-brandubh"]
    header, _ = setup.start(core_games.info("tafl"), core_games.info)
    path = tmp_path / "game.fief"
    runner = Runner(header, core_games.info, Journal.create(path, header, whole=True))
    runner.run(max_steps=20)
    assert runner.result is None and list(tmp_path.iterdir()) == []
    assert runner.run() is not None
    assert [p.name for p in tmp_path.iterdir()] == ["game.fief"]
    runner.close()
    assert verify(read_record_file(path)).ok
    unfinished = Runner(header, core_games.info, Journal.create(tmp_path / "cut.fief", header, whole=True))
    unfinished.run(max_steps=20)
    unfinished.close()  # closed before the game ends: no file
    assert [p.name for p in tmp_path.iterdir()] == ["game.fief"]


def test_a_journal_created_whole_still_refuses_a_file_there(tmp_path: Path) -> None:
    setup = BATCHES["tafl-brandubh"]
    header, _ = setup.start(core_games.info("tafl"), core_games.info)
    path = tmp_path / "game.fief"
    path.write_bytes(b"mine")
    runner = Runner(header, core_games.info, Journal.create(path, header, whole=True))
    with pytest.raises(FileExistsError):
        runner.run()
    runner.close()
    assert path.read_bytes() == b"mine" and [p.name for p in tmp_path.iterdir()] == ["game.fief"]
    runner = Runner(header, core_games.info, Journal.create(path, header, whole=True, replace=True))
    runner.run()
    runner.close()
    assert verify(read_record_file(path)).ok


class Interrupted(Exception):
    pass


@pytest.mark.parametrize("stop", [KeyboardInterrupt, Interrupted])
def test_an_interrupted_batch_leaves_whole_games_only(stop: type[BaseException], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch, fixed_time: None) -> None:
    """Stopped in the middle of its third game (as a Ctrl-C or a crash would): the first two games'
    files, whole and verified, the autosave's bytes, and nothing of the third."""
    setup = BATCHES["tafl-traditional"]
    want = autosaved(setup, 2, tmp_path / "autosave")
    record = Journal.__call__
    third = list(islice(game_seeds(setup.seed), 3))[2]  # a batch's journal has no path: its game by its seed

    def stopping(journal: Journal, step: Step, game: Game) -> None:
        if journal.header.seed == third and journal.steps == 25:
            raise stop("stopped")
        record(journal, step, game)

    monkeypatch.setattr(Journal, "__call__", stopping)
    out = tmp_path / "batch"
    with pytest.raises(stop):
        run(Batch(setup, 5, out))
    got = {path.name: path.read_bytes() for path in out.iterdir()}
    assert got == want
    for name in got:
        assert verify(read_record_file(out / name)).ok


def test_the_next_game_of_a_batch_has_its_own_seed_and_time_checked(tmp_path: Path) -> None:
    """A header that shares every field with the last one but its seed and creation time has only
    those checked, and its start's digest is the one a header checked whole gives; anything else
    in it, even equal, is checked whole."""
    setup = BATCHES["tafl-brandubh"]
    header, _ = setup.start(core_games.info("tafl"), core_games.info)
    first = Journal.create(tmp_path / "1.fief", header)
    first.close()
    start = read_record_file(tmp_path / "1.fief").records[0]
    second = Journal.create(tmp_path / "2.fief", replace(header, seed=99, created=CREATED))
    second.close()
    assert read_record_file(tmp_path / "2.fief").records[0].digest == start.digest  # type: ignore[union-attr]
    for bad, why in (({"seed": -1}, "seed must be an integer"), ({"seed": 2 ** 64}, "seed must be an integer"),
                     ({"created": "yesterday"}, "created must be a UTC time"),
                     ({"created": "2026-02-30T00:00:00Z"}, "created must be a UTC time")):
        with pytest.raises(ValueError, match=why):
            Journal.create(tmp_path / "bad.fief", replace(header, **bad))  # type: ignore[arg-type]
        assert not (tmp_path / "bad.fief").exists()
    # The same options, as another map holding a value the format does not allow: checked whole.
    options = {**header.options, "quiet_moves": 50.0}
    with pytest.raises(ValueError, match="header: "):
        Journal.create(tmp_path / "bad.fief", replace(header, options=options, seed=5))


def test_a_journal_created_whole_refuses_a_bad_step_before_any_file(tmp_path: Path) -> None:
    """Its steps are written at the next checkpoint: a code the schema refuses raises there, and no
    file is made."""
    setup = BATCHES["tafl-brandubh"]
    header, _ = setup.start(core_games.info("tafl"), core_games.info)
    journal = Journal.create(tmp_path / "game.fief", header, whole=True, checkpoint_every=4)
    game = journal.take_start()
    assert game is not None
    journal(Step(1, "decision", 0, ("d1", 2.5), ()), game)  # type: ignore[arg-type]
    for index in (2, 3):
        journal(Step(index, "decision", 0, ("d1", "d2"), ()), game)
    with pytest.raises(ValueError, match="cannot record DecisionRecord"):
        journal(Step(4, "decision", 0, ("d1", "d2"), ()), game)
    # The steps counted after it were never written: the journal takes nothing more, a result neither.
    with pytest.raises(ValueError, match="the record cannot go on: cannot record DecisionRecord"):
        journal(Step(5, "decision", 0, ("d1", "d2"), ()), game)
    with pytest.raises(ValueError, match="the record cannot go on"):
        journal.finish(Result((1,), "test", "TF-1"), game)
    journal.close()
    assert list(tmp_path.iterdir()) == []


def test_a_map_changed_in_place_or_another_lookup_is_a_new_header(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch's reuse holds only while the header's maps are as they were and the games come from
    the same lookup: else the header is checked whole and its start digested again."""
    setup = BATCHES["tafl-brandubh"]
    header, _ = setup.start(core_games.info("tafl"), core_games.info)

    def start_digest(path: Path) -> bytes:
        return read_record_file(path).records[0].digest  # type: ignore[union-attr]

    Journal.create(tmp_path / "1.fief", header).close()
    header.options["quiet_moves"] = 40  # in place: the same map object, another start
    Journal.create(tmp_path / "2.fief", replace(header, seed=2)).close()
    assert start_digest(tmp_path / "2.fief") == digest(build_game(replace(header, seed=2)))
    assert start_digest(tmp_path / "2.fief") != start_digest(tmp_path / "1.fief")
    header.options["quiet_moves"] = 40.5  # a value no header may hold
    with pytest.raises(ValueError, match="header: options.quiet_moves holds a value of a kind"):
        Journal.create(tmp_path / "3.fief", replace(header, seed=3))
    header.options["quiet_moves"] = 40
    digested = []
    monkeypatch.setattr("notation.writer.digest", lambda game: digested.append(game) or digest(game))
    Journal.create(tmp_path / "4.fief", replace(header, seed=4)).close()
    assert digested == []  # the batch's next game: its start is the last one's
    Journal.create(tmp_path / "5.fief", replace(header, seed=5), games=lambda name: core_games.info(name)).close()
    assert len(digested) == 1 and start_digest(tmp_path / "5.fief") == start_digest(tmp_path / "2.fief")
