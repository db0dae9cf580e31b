"""Makes tests/ importable from every test folder (plugin_game: the test-only game)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# A command's --jobs defaults to every core: in the suite, which already keeps both cores busy, to
# one process, unless a test asks for more (tests/cli/test_jobs.py does, and checks the default).
os.environ["FIEFDOM_JOBS"] = "1"

from plugin_game import hoard  # noqa: E402,F401  (a fixture every test folder may use)
