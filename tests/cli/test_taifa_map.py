"""`fiefdom taifa map`: the reconstructed map, or a user's own."""

from __future__ import annotations

from pathlib import Path

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
