"""The replay commands as a user types them, for the command-line tests: exit code, stdout and stderr,
never a traceback."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tui.cli_replay import replay_app

runner = CliRunner()


def run_replay(*args: str | Path) -> tuple[int, str, str]:
    """``fiefdom replay ARGS``: (exit code, stdout, stderr); fails on a traceback."""
    result = runner.invoke(replay_app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr
