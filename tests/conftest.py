"""Makes tests/ importable from every test folder (plugin_game: the test-only game)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from plugin_game import hoard  # noqa: E402,F401  (a fixture every test folder may use)
