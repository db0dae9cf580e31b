"""Fixtures for the TUI tests: a temporary data folder per app, a steady cursor."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Input

from tui.app import FiefdomApp

MakeApp = Callable[..., FiefdomApp]


@pytest.fixture(autouse=True)
def _steady_input_cursor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inputs start with cursor_blink off, so a screenshot never catches half a blink."""
    monkeypatch.setattr(Input.__dict__["cursor_blink"], "_default", False)


@pytest.fixture(autouse=True)
def _bots_at_once_beside_people(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games with people start at speed 0 in tests (a person's pace is 0.5 s): a test that follows
    the pace sets ``screen.driver.speed`` itself."""
    monkeypatch.setattr("notation.driver.PLAY_SPEED", 0)


@pytest.fixture(autouse=True)
def _never_the_real_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """An app built without a data folder would fall back to the user's: make that fail loudly."""
    def refuse(*args: object, **kwargs: object) -> str:
        raise AssertionError("a TUI test reached for the user's real data folder")

    monkeypatch.setattr("tui.session.platformdirs.user_data_dir", refuse)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """The app's data folder for one test (autosave/, saved/, keymap.toml go here)."""
    return tmp_path / "data"


@pytest.fixture
def make_app(data: Path) -> MakeApp:
    """``make_app(open_path=None, resume_path=None)``: a FiefdomApp on the test's temporary data folder."""
    def make(open_path: Path | None = None, resume_path: Path | None = None) -> FiefdomApp:
        return FiefdomApp(data=data, open_path=open_path, resume_path=resume_path)

    return make
