"""The copies the app keeps of a user's own data files (tui/own_files.py): a game started on
its own cards resumes from the copy, named by the fingerprint its record's setup gives; a
fingerprint that is not one, or a copy damaged since, is never used."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import games as core_games
from core.kingdom.cards import load_cards
from notation.format import RecordError
from notation.runner import GameSetup, Runner
from tui.own_files import games_for, keep
from tui_support import BOT, HUMAN, ROOT, autosave_path

PACKAGED = ROOT / "core" / "kingdom" / "data" / "cards.toml"


def own_cards(folder: Path) -> Path:
    path = folder / "keeps.toml"
    path.write_text(PACKAGED.read_text("utf-8").replace('name = "Castle"', 'name = "Keep"'), "utf-8")
    return path


def started(data: Path, cards: Path) -> Path:
    """A solo game begun on ``cards``, its copy kept as the app keeps it: the record's path."""
    games = core_games.lookup({"kingdom": {"cards": load_cards(cards)}})
    runner = Runner.start(GameSetup("kingdom", "solo", (HUMAN, BOT, BOT), 1, {}, {}),
                          autosave_path(data, "kingdom", "solo"), games=games)
    keep(data, "kingdom", {"cards": cards}, runner.header.setup)
    runner.close()
    return runner.path


def test_a_game_on_ones_own_cards_resumes_from_the_copy_kept(tmp_path: Path) -> None:
    cards = own_cards(tmp_path)
    record = started(tmp_path / "data", cards)
    cards.unlink()
    with pytest.raises(RecordError, match="give that file with --cards"):
        Runner.resume(record, games=core_games.info)
    runner = Runner.resume(record, games=games_for(tmp_path / "data", record, core_games.info))
    assert [runner.game.card(r.slots[0].card).name for r in runner.game.s.realms] == ["Keep"] * 3


def test_a_damaged_copy_is_not_used_and_the_record_says_which_file_it_needs(tmp_path: Path) -> None:
    record = started(tmp_path / "data", own_cards(tmp_path))
    (copy,) = (tmp_path / "data" / "own" / "kingdom" / "cards").iterdir()
    copy.write_text("not = [toml", "utf-8")
    assert games_for(tmp_path / "data", record, core_games.info) is core_games.info
    with pytest.raises(RecordError, match="give that file with --cards"):
        Runner.resume(record, games=games_for(tmp_path / "data", record, core_games.info))


@pytest.mark.parametrize("fingerprint", ["../../../etc/passwd", "", "A" * 10, 7])
def test_a_setup_field_that_is_no_fingerprint_keeps_no_copy(tmp_path: Path, fingerprint: object) -> None:
    keep(tmp_path, "kingdom", {"cards": own_cards(tmp_path)}, {"cards": fingerprint})
    assert not (tmp_path / "own").exists()


def test_a_record_that_cannot_be_read_gets_the_registry_as_it_was(tmp_path: Path) -> None:
    broken = tmp_path / "broken.fief"
    broken.write_bytes(b"not a record")
    assert games_for(tmp_path, broken, core_games.info) is core_games.info
    assert games_for(tmp_path, tmp_path / "missing.fief", core_games.info) is core_games.info
