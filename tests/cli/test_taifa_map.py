"""`fiefdom taifa map`: the reconstructed map, or a user's own."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tui.cli import app

runner = CliRunner()


def test_prints_every_area_with_owner_defence_and_borders() -> None:
    r = runner.invoke(app, ["taifa", "map"])
    assert r.exit_code == 0, r.output
    rows = [line for line in r.stdout.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == 58
    zaragoza = next(line for line in rows if " Zaragoza " in line)
    assert "catalans" in zaragoza and "Tudela" in zaragoza and "Calatayud" in zaragoza
    assert "reconstruction" in r.stdout


def test_el_cid_shows_only_the_east() -> None:
    r = runner.invoke(app, ["taifa", "map", "--scenario", "el-cid"])
    assert r.exit_code == 0, r.output
    rows = [line for line in r.stdout.splitlines() if line[:3].strip().isdigit()]
    assert len(rows) == 31
    assert any(" Málaga " in line and "almoravids" in line and "C" in line.split()[4] for line in rows)


def test_a_broken_map_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "map.toml"
    bad.write_text("[[area]]\nid = 1\n", encoding="utf-8")
    r = runner.invoke(app, ["taifa", "map", "--map", str(bad)])
    assert r.exit_code == 2
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("error: ")


def test_cards_lists_both_decks_with_the_named_cards() -> None:
    r = runner.invoke(app, ["taifa", "cards"])
    assert r.exit_code == 0, r.output
    assert "== christian deck" in r.stdout and "== muslim deck" in r.stdout
    for name in ("Champion", "Militia", "Surprise Sortie", "Truce", "Razzia", "Judgment of God",
                 "Independent Campaign"):
        assert f" {name} " in r.stdout, name
    assert "reconstruction" in r.stdout


@pytest.mark.parametrize(("command", "option", "package_file", "line", "where"), [
    ("map", "--map", "map.toml", 'name = "Cantabria"', "area 1: name"),
    ("cards", "--cards", "cards.toml", 'text = "Mailed knights on great horses: 4 dice."', "card 'C01' (Heavy Cavalry): text"),
], ids=["an area's name", "a card's text"])
def test_a_name_that_would_steer_the_terminal_is_refused_in_one_line(tmp_path: Path, command: str, option: str,
                                                                     package_file: str, line: str, where: str) -> None:
    """Issue 26: a map naming an area ``Evil`` + ESC ] 0 (the terminal's title) + ESC [ 2 J (a cleared screen)
    + U+202E was listed, and in the app it did both; now the file is refused, exit 2, in one visible line."""
    text = resources.files("core.taifa").joinpath(f"data/{package_file}").read_text("utf-8")
    field = line.split(" = ")[0]
    assert line in text
    own = tmp_path / "own.toml"
    own.write_text(text.replace(line, f'{field} = "Evil\\u001b]0;PWNED\\u0007\\u001b[2J\\u202e"', 1), "utf-8")
    r = runner.invoke(app, ["taifa", command, option, str(own)])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"error: {own}: {where} must be one line of printable characters, "
                        "and holds U+001B, a control character\n")
