"""`fiefdom play` and `fiefdom replay view` refuse what they cannot use, in one line."""

from __future__ import annotations

from typer.testing import CliRunner

from tui.cli import app

runner = CliRunner()


def test_an_unusable_data_folder_is_one_line(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = runner.invoke(app, ["play", "--data-dir", str(blocker / "sub")])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: cannot use the data folder")


def test_play_help_names_the_data_folder_it_would_use() -> None:
    from tui.session import default_data_dir

    r = runner.invoke(app, ["play", "--help"], terminal_width=400)
    assert r.exit_code == 0
    assert str(default_data_dir()) in r.stdout


def test_a_seat_named_chooses_the_variant_that_has_it(tmp_path) -> None:
    """`--seat "Player 3=ai"` with no --variant is a game of three (the first variant with that
    seat); a seat no variant has is still one line."""
    from core import games as core_games
    from tui.cli_support import seated_variant

    kingdom, taifa = core_games.info("kingdom"), core_games.info("taifa")
    assert seated_variant(kingdom, ["Player 1=human", "Player 3=ai"]) == "multi-3"
    assert seated_variant(kingdom, ["4=human"]) == "multi-4"
    assert seated_variant(kingdom, []) == "multi-2"
    assert seated_variant(taifa, ["El Cid=human"]) == "el-cid"
    assert seated_variant(taifa, ["Castile=human"]) == "standard"
    r = runner.invoke(app, ["play", "kingdom", "--seat", "Player 3=random", "--seat", "Player 2=random",
                            "--seat", "Player 1=random", "--prompt", "--data-dir", str(tmp_path)])
    assert r.exit_code == 0 and "multi-3" not in r.stderr, r.stderr
    assert "Take the Kingdom, multi-3" in r.stdout
    r = runner.invoke(app, ["play", "kingdom", "--seat", "Player 9=ai", "--data-dir", str(tmp_path)])
    assert r.exit_code == 2 and r.stderr.startswith("error: no seat 'Player 9'")


def test_fiefdom_alone_says_the_commands_people_start_with() -> None:
    """Issue 30: a short usage and the few commands people begin with, not the whole help."""
    import subprocess
    import sys

    code = "import sys; from tui.cli import main; sys.argv = ['fiefdom']; main()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stderr == ""
    lines = r.stdout.splitlines()
    assert lines[0].startswith("usage: fiefdom COMMAND") and "fiefdom --help" in lines[0]
    assert any(line.strip().startswith("fiefdom play ") for line in lines)
    assert len(lines) <= 8
