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
