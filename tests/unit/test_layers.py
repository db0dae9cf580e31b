"""Imports point down only: core <- notation <- tui (DESIGN.md, Layers)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

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
