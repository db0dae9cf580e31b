"""The generic command line names no game: games come from the registries, and a command line
that plays no Taifa never imports its engine (nor the app)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from core import games as core_games
from tui import games as tui_games

ROOT = Path(__file__).resolve().parents[2]
GENERIC = ["tui/cli.py", "tui/cli_support.py", "tui/console.py", "tui/simulate.py"]
GAMES = sorted(set(core_games.names()) | set(tui_games.names()) | {"hoard"})


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


@pytest.mark.parametrize("module", [*GENERIC, "tui/cli_replay.py"])
def test_no_game_package_is_imported(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text("utf-8"))
    games = "|".join(GAMES)
    bad = re.compile(rf"^(core|tui\.games)\.({games})(\.|$)")
    names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    names += [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module]
    assert not [n for n in names if bad.match(n)]


@pytest.mark.parametrize("module", GENERIC)
def test_no_game_is_named(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text("utf-8"))
    docs = _docstrings(tree)
    words = re.compile(rf"\b({'|'.join(GAMES)})\b", re.I)
    named = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and id(node) not in docs and words.search(node.value)]
    assert not named


def test_the_command_line_starts_without_taifa_or_the_app() -> None:
    """Nor the network stack (asyncio, ssl: only host and join use them): a twentieth of a second
    at every command's start."""
    code = ("import sys, typer, tui.cli; typer.main.get_command(tui.cli.app); "
            "print(' '.join(m for m in sys.modules if m.startswith(('core.taifa', 'textual', 'tui.app', "
            "'asyncio', 'ssl'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == ""
