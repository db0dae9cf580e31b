"""The Textual app: home, setup, play, replay and help, in one frame that later
games (Taifa's map, Take the Kingdom's tables) slot into as more screens."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path

from rich.markup import escape
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from core.engine import RulesError
from notation.format import RecordError
from tui.screens.dialogs import Dialog, OpenDialog
from tui.screens.help import HelpScreen
from tui.screens.home import ContinueScreen, HomeScreen, SetupScreen
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen
from tui.session import GameSetup, Session, data_dir, open_replay
from tui.widgets.tafl_board import TaflBoard


def load_keymap(path: Path) -> tuple[dict[str, str], str | None]:
    """The user's keymap.toml (binding id -> keys), and an error line if it is unusable."""
    if not path.exists():
        return {}, None
    try:
        raw = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        return {}, f"{path}: not read ({err})"
    bad = [k for k, v in raw.items() if not isinstance(v, str)]
    if bad:
        return {}, f"{path}: values must be key strings (see {', '.join(bad)})"
    return raw, None


class FiefdomApp(App):
    TITLE = "fiefdom"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", id="app.quit", show=False)]

    def __init__(self, data: str | Path | None = None, open_path: Path | None = None) -> None:
        super().__init__()
        self.data_dir = data_dir(data)
        self.open_path = open_path
        self.keymap: dict[str, str] = {}

    def on_mount(self) -> None:
        self.keymap, error = load_keymap(self.data_dir / "keymap.toml")
        if self.keymap:
            self.set_keymap(self.keymap)
        if error:
            self.notify(escape(error), severity="warning")
        self.push_screen(HomeScreen())
        if self.open_path is not None:
            self.open_record(self.open_path)

    # -- the main actions (also in the command palette) -------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield SystemCommand("New game", "Set up and start a new game", self.action_new_game)
        yield SystemCommand("Continue", "Resume an unfinished game", self.action_continue_game)
        yield SystemCommand("Open record", "Open a .fief record in the replay viewer", self.action_open_record)
        yield SystemCommand("Help", "Keys and the rules in brief", self.action_help)
        yield from super().get_system_commands(screen)

    def action_new_game(self) -> None:
        self.push_screen(SetupScreen())

    def action_continue_game(self) -> None:
        self.push_screen(ContinueScreen())

    def action_open_record(self) -> None:
        folders = [self.data_dir / "saved", self.data_dir / "autosave"]
        records = sorted((p for d in folders if d.is_dir() for p in d.glob("*.fief")),
                         key=lambda p: p.stat().st_mtime, reverse=True)
        self.push_screen(OpenDialog(records), lambda path: path and self.open_record(path))

    def action_help(self) -> None:
        screens = [
            ("Home", HomeScreen.BINDINGS), ("New game", SetupScreen.BINDINGS),
            ("Continue", ContinueScreen.BINDINGS), ("Board", TaflBoard.BINDINGS),
            ("Play", PlayScreen.BINDINGS), ("Replay", ReplayScreen.BINDINGS),
            ("Dialogs", Dialog.BINDINGS), ("Help", HelpScreen.BINDINGS), ("Everywhere", self.BINDINGS),
        ]
        self.push_screen(HelpScreen(screens, self.keymap))

    # -- moving between screens ----------------------------------------------

    def start_game(self, setup: GameSetup, replace: bool = False) -> None:
        try:
            session = Session.new(setup, self.data_dir)
        except (RulesError, OSError, ValueError) as err:
            self.notify(escape(f"cannot start: {err}"), severity="error")
            return
        if replace:
            self.pop_screen()
        self.push_screen(PlayScreen(session))

    def resume_game(self, path: Path) -> None:
        try:
            session = Session.resume(path)
        except (RecordError, RulesError, OSError) as err:
            self.notify(escape(f"cannot resume {path.name}: {err}"), severity="error")
            return
        self.pop_screen()
        self.push_screen(PlayScreen(session))

    def open_record(self, path: Path) -> None:
        try:
            replay = open_replay(path)
        except RecordError as err:
            self.notify(escape(f"{path.name}: {err}"), severity="error", timeout=10)
            return
        except OSError as err:
            self.notify(escape(f"{path}: {err.strerror or err}"), severity="error", timeout=10)
            return
        self.push_screen(ReplayScreen(replay, path))
