"""Imports point down only: core <- notation <- tui (DESIGN.md, Layers); generic notation
modules import no game, and no game's notation imports another game."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from core import games as core_games
from notation import games as notation_games

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {
    "core": {"notation", "tui", "textual", "rich", "typer", "msgpack", "platformdirs"},
    "notation": {"tui", "textual", "typer"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_imports_point_down(layer: str) -> None:
    bad = {
        f"{p.relative_to(ROOT)} imports {sorted(imported_roots(p) & FORBIDDEN[layer])}"
        for p in (ROOT / layer).rglob("*.py")
        if imported_roots(p) & FORBIDDEN[layer]
    }
    assert not bad


# -- games are plugins: only registries name games (DESIGN.md, "Games are plugins, in every layer")

GAMES = sorted(set(core_games.names()) | set(notation_games.names()))


def game_packages(game: str) -> set[str]:
    """Where a game's code lives, layer by layer."""
    return {f"core.{game}", f"notation.games.{game}", f"tui.games.{game}"}


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, by full dotted name, wherever the import stands (a lazy one in
    a function too): ``from a import b`` gives ``a`` and ``a.b`` (b may be a module)."""
    package = list(path.relative_to(ROOT).parts[:-1])  # what a relative import is relative to
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def games_imported(path: Path, games: Sequence[str]) -> set[str]:
    packages = set().union(*(game_packages(g) for g in games))
    return {m for m in imported_modules(path) if any(m == p or m.startswith(p + ".") for p in packages)}


def test_generic_notation_imports_no_game() -> None:
    """Everything in notation/ but the games' own modules: the registry names games by module path only."""
    generic = [p for p in (ROOT / "notation").rglob("*.py")
               if p.parent != ROOT / "notation" / "games" or p.name == "__init__.py"]
    assert ROOT / "notation" / "export.py" in generic
    bad = {f"{p.relative_to(ROOT)} imports {sorted(games_imported(p, GAMES))}"
           for p in generic if games_imported(p, GAMES)}
    assert not bad


@pytest.mark.parametrize("game", [g for g in GAMES if (ROOT / "notation" / "games" / f"{g}.py").exists()])
def test_a_games_notation_imports_no_other_game(game: str) -> None:
    path = ROOT / "notation" / "games" / f"{game}.py"
    assert not games_imported(path, [g for g in GAMES if g != game])


def test_the_notation_layer_imports_a_game_only_when_asked_for_it() -> None:
    """Plugins are imported by module path on first use: exporting Tafl imports no Taifa."""
    script = (
        "import sys\n"
        "import notation.export\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith(('notation.games.', 'core.tafl', 'core.taifa')))\n"
        "assert loaded() == [], loaded()\n"
        "from notation import games\n"
        "assert games.plugin('tafl').formats\n"
        "assert 'notation.games.tafl' in loaded() and not any('taifa' in m for m in loaded()), loaded()\n"
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
