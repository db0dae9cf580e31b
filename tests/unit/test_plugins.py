"""Games are plugins in every layer (DESIGN.md): generic code imports no game, no game imports another.

A game's code is its folder in each layer: ``core/<game>/``, ``notation/games/<game>.py``,
``tui/games/<game>/``. Everything else in core, notation and tui is generic and may
reach a game only through the registries, which name games as module paths.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def game_names() -> set[str]:
    core = {p.parent.name for p in (ROOT / "core").glob("*/__init__.py")}
    notation = {p.stem for p in (ROOT / "notation" / "games").glob("*.py") if p.stem != "__init__"}
    tui = {p.parent.name for p in (ROOT / "tui" / "games").glob("*/__init__.py")}
    return core | notation | tui


def owner(path: Path, games: set[str]) -> str | None:
    """The game a module belongs to, or None for generic code."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[0] == "core" and len(parts) > 2 and parts[1] in games:
        return parts[1]
    if parts[:2] in (("notation", "games"), ("tui", "games")) and len(parts) > 2 and parts[2] in games:
        return parts[2]
    return None


def imported_game(module: str, games: set[str]) -> str | None:
    """The game a dotted module path belongs to (``core.taifa.map`` -> taifa), if any."""
    parts = module.split(".")
    if parts[0] == "core" and len(parts) > 1 and parts[1] in games:
        return parts[1]
    if parts[:2] in (["notation", "games"], ["tui", "games"]) and len(parts) > 2 and parts[2] in games:
        return parts[2]
    return None


def imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out += [f"{node.module}.{a.name}" for a in node.names]  # from notation.games import tafl
    return out


MODULES = sorted(p for layer in ("core", "notation", "tui") for p in (ROOT / layer).rglob("*.py"))


def test_the_games_are_found() -> None:
    assert {"tafl", "taifa"} <= game_names()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_generic_module_imports_a_game_and_no_game_imports_another(path: Path) -> None:
    games = game_names()
    mine = owner(path, games)
    bad = sorted({m for m in imports(path) if (g := imported_game(m, games)) is not None and g != mine})
    assert not bad, f"{'generic code' if mine is None else 'game ' + mine} imports {bad}"
