"""What the command-line tests share: a user's own Taifa map (the reconstruction with one defence changed)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest


@pytest.fixture
def own_map(tmp_path: Path) -> Path:
    text = resources.files("core.taifa").joinpath("data/map.toml").read_text("utf-8")
    path = tmp_path / "own-map.toml"
    path.write_text(text.replace('name = "Cantabria"\ndefence = 2', 'name = "Cantabria"\ndefence = 3', 1), "utf-8")
    return path
