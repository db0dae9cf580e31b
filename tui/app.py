"""The Textual app: home, setup, play, replay and help, in one frame for every game.

Only the home screen is imported at start; the other screens, the runner and a game's
package are imported when they are first used (docs/performance.md).
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.theme import Theme

from tui.preferences import Preferences
from tui.screens.home import HomeScreen
from tui.session import data_dir

if TYPE_CHECKING:
    from core.match import Step
    from notation.format import Header, Parent
    from notation.catalog import GameLookup
    from notation.runner import GameSetup, Runner
    from tui.screens.help import KeyTables


WARM_UP_AFTER = 1.0  # seconds after the first screen: what help draws with is imported meanwhile


def shown(text: str) -> str:
    """A notification's text: made visible (a record's or a file's name may hold control
    characters), then escaped as markup. The reader's module is imported on first use."""
    from notation.wording import visible

    return escape(visible(text))


def load_keymap(path: Path) -> tuple[dict[str, str], str | None]:
    """The user's keymap.toml (binding id -> keys), and an error line if it is unusable."""
    if not path.exists():
        return {}, None
    if not path.is_file():  # a FIFO would block the app before its first frame
        return {}, f"{path}: not a regular file"
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

    def __init__(self, data: str | Path | None = None, open_path: Path | None = None,
                 resume_path: Path | None = None, games: GameLookup | None = None, join: Any = None) -> None:
        """``open_path``: a record to open in the replay viewer; ``resume_path``: an unfinished
        record to play on at once (``fiefdom resume FILE``); either falls back to home with a note.
        ``games``: the registry with a user's own data files (``--map``), for those records."""
        super().__init__()
        self.data_dir = data_dir(data)
        self.open_path = open_path
        self.resume_path = resume_path
        self.join = join  # an invitation to a hosted game (notation.protocol.Invitation), played at once
        self.launched: Screen | None = None  # the screen a command opened at once: leaving it leaves the app
        self._games = games
        self._help: tuple[KeyTables, list[tuple[str, str]]] | None = None
        self.keymap: dict[str, str] = {}
        self.preferences = Preferences(self.data_dir)  # the theme and the last setup of each game

    def on_mount(self) -> None:
        self.keymap, error = load_keymap(self.data_dir / "keymap.toml")
        if self.keymap:
            self.set_keymap(self.keymap)
        for problem in (error, self.preferences.problem):
            if problem:
                self.notify(shown(problem), severity="warning")
        self.restore_theme()
        self.push_screen(HomeScreen())
        self.set_timer(WARM_UP_AFTER, self.warm_up_help)  # once the first screen is up
        if self.open_path is not None:
            self.launched = self.open_record(self.open_path)
        if self.resume_path is not None:
            self.resume_game(self.resume_path, replace=False)
        if self.join is not None:
            self.launched = self.join_game(self.join)

    def restore_theme(self) -> None:
        """The theme last chosen (a name no longer known is ignored; TEXTUAL_THEME, when set, wins for
        the run); from now on each change of theme is remembered."""
        theme = self.preferences.theme
        if theme is not None and theme in self.available_themes and not os.environ.get("TEXTUAL_THEME"):
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self.keep_theme)

    def keep_theme(self, theme: Theme) -> None:
        problem = self.preferences.keep_theme(theme.name)
        if problem:
            self.notify(shown(problem), severity="warning")

    def warm_up_help(self) -> None:
        """While the first screen is read: Rich's Markdown imported in a thread, and the key tables
        (each game's board loaded) and rules in brief gathered here (our own modules are imported
        on this thread only, never two threads at once)."""
        from tui.screens.help import warm_up

        warm_up()
        self.help_parts()

    def help_parts(self) -> tuple[KeyTables, list[tuple[str, str]]]:
        """Every screen's keys and each game's rules in brief, gathered once."""
        if self._help is None:
            self._help = help_bindings(self.BINDINGS), rules_in_brief()
        return self._help

    # -- the main actions (also in the command palette) -------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield SystemCommand("New game", "Set up and start a new game", self.action_new_game)
        yield SystemCommand("Continue", "Resume an unfinished game", self.action_continue_game)
        yield SystemCommand("Open record", "Open a .fief record in the replay viewer", self.action_open_record)
        yield SystemCommand("Join a hosted game", "Play a seat of a game hosted with fiefdom host, from its "
                            "invitation", self.action_join_game)
        yield SystemCommand("Help", "Keys and the rules in brief", self.action_help)
        commands = getattr(screen, "commands", None)  # the screen's own: a game's resign, takeback, ...
        for title, help_text, callback in commands() if callable(commands) else ():
            yield SystemCommand(title, help_text, callback)
        yield from super().get_system_commands(screen)

    def action_new_game(self) -> None:
        from tui.screens.setup import SetupScreen

        self.push_screen(SetupScreen())

    def action_join_game(self) -> None:
        """A hosted game's seat, from the invitation pasted (``fiefdom join URL`` does it at once)."""
        from tui.screens.dialogs import JoinDialog

        def chosen(invitation: Any) -> None:
            if invitation is not None:
                self.join_game(invitation)

        self.push_screen(JoinDialog(), chosen)

    def join_game(self, invitation: Any) -> Screen:
        from tui.screens.remote_play import RemotePlayScreen

        screen = RemotePlayScreen(invitation, self.games)
        self.push_screen(screen)
        return screen

    def action_continue_game(self) -> None:
        from tui.screens.setup import ContinueScreen

        self.push_screen(ContinueScreen())

    def action_open_record(self) -> None:
        from tui.screens.dialogs import OpenDialog

        folders = [self.data_dir / "saved", self.data_dir / "autosave"]
        records = sorted((p for d in folders if d.is_dir() for p in d.glob("*.fief")),
                         key=lambda p: p.stat().st_mtime, reverse=True)

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_record(path)

        self.push_screen(OpenDialog(records), chosen)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        screens, rules = self.help_parts()
        self.push_screen(HelpScreen(screens, self.keymap, rules, self.data_dir))

    @property
    def games(self) -> GameLookup:
        """How this app finds a game: the registry, with the data files it was given."""
        if self._games is None:
            from core.games import info

            self._games = info
        return self._games

    # -- moving between screens ----------------------------------------------

    def start_game(self, setup: GameSetup, replace: bool = False, games: GameLookup | None = None,
                   files: Mapping[str, Path] | None = None) -> None:
        """A new game from the setup form (which it replaces), journaled in the autosave folder;
        ``games``: the registry with a user's own data files, when the form names some, and
        ``files`` those files (key -> path), of which a copy is kept to continue the game later."""
        from core.engine import RulesError
        from notation.format import RecordError
        from notation.runner import Runner
        from tui.own_files import keep
        from tui.session import new_autosave

        try:
            runner = new_autosave(self.data_dir, setup.game, setup.variant,
                                  lambda path: Runner.start(setup, path, games=games or self.games))
        except (RulesError, RecordError, OSError, ValueError) as err:
            self.notify(shown(f"cannot start: {err}"), severity="error")
            return
        keep(self.data_dir, setup.game, files or {}, runner.header.setup)
        if replace:
            self.pop_screen()
        self.play(runner)

    def resume_game(self, path: Path, replace: bool = True) -> None:
        """Play on an unfinished record (from Continue, which it replaces, or the command line)."""
        from core.engine import RulesError
        from notation.format import RecordError
        from notation.runner import Runner

        from tui.own_files import games_for

        try:
            runner = Runner.resume(path, games=games_for(self.data_dir, path, self.games))
        except (RecordError, RulesError, OSError) as err:
            self.notify(shown(f"cannot resume {path.name}: {err}"), severity="error", timeout=10)
            return
        if replace:
            self.pop_screen()
        self.play(runner)

    def setup_from(self, header: Header, steps: Sequence[Step], games: GameLookup | None = None) -> None:
        """"Play from here": the setup form prefilled from ``header`` (its seats, seed, options), to
        start a new game with ``steps`` already played."""
        from tui.screens.setup import SetupScreen

        self.push_screen(SetupScreen(header.game, prefill=header, steps=steps, games=games))

    def play_from(self, setup: GameSetup, steps: Sequence[Step], games: GameLookup | None = None,
                  replace: bool = False, parent: Parent | None = None) -> None:
        """A new game in the autosave folder with ``steps`` already played (from the setup form,
        which it replaces); ``parent``: the record it was played on from (a variation of it)."""
        from core.engine import RulesError
        from notation.format import RecordError
        from notation.runner import Runner
        from tui.session import new_autosave

        games = games or self.games
        try:
            header, _ = setup.start(games(setup.game), games)
            header = dataclasses.replace(header, parent=parent)
            runner = new_autosave(self.data_dir, header.game, header.variant,
                                  lambda path: Runner.start_from(header, path, games, steps))
        except (RulesError, RecordError, OSError, ValueError) as err:
            self.notify(shown(f"cannot play from here: {err}"), severity="error")
            return
        if replace:
            self.pop_screen()
        self.play(runner)

    def rematch(self, header: Header, games: GameLookup | None = None) -> None:
        """The same game again from its start with a fresh seed, in place of the one just played."""
        from notation.runner import GameSetup, SeatPlan
        from tui.session import new_seed

        setup = GameSetup(header.game, header.variant, tuple(SeatPlan.of(s) for s in header.seats), new_seed(),
                          dict(header.options), dict(header.setup), chance=header.chance)
        self.start_game(setup, replace=True, games=games)

    def play(self, runner: Runner) -> None:
        from tui.screens.play import PlayScreen

        self.push_screen(PlayScreen(runner))

    def leave_screen(self, screen: Screen) -> None:
        """Leave ``screen``: back to the one under it, or, for the screen the command line opened at
        once (``fiefdom replay view FILE``, ``fiefdom join URL``), back to the shell."""
        if screen is self.launched:
            self.exit()
        else:
            self.pop_screen()

    def open_record(self, path: Path) -> Screen | None:
        """The record in the viewer (the screen pushed), or None with the reason told."""
        from notation.format import RecordError
        from tui.screens.replay import ReplayScreen
        from tui.own_files import games_for
        from tui.session import open_replay

        try:
            replay = open_replay(path, games_for(self.data_dir, path, self.games))
        except RecordError as err:
            self.notify(shown(f"{path.name}: {err}"), severity="error", timeout=10)
            return None
        except OSError as err:
            self.notify(shown(f"{path}: {err.strerror or err}"), severity="error", timeout=10)
            return None
        screen = ReplayScreen(replay, path)
        self.push_screen(screen)
        return screen


def help_bindings(app_bindings: list[BindingType]) -> KeyTables:
    """Each screen's keys, and each game board's, for the help screen."""
    from core import games as core_games
    from tui.games import plugin
    from tui.screens.dialogs import ConfirmDialog, Dialog, HandOverScreen
    from tui.screens.help import HelpScreen
    from tui.screens.play import PlayScreen
    from tui.screens.replay import ReplayScreen
    from tui.screens.setup import ContinueScreen, SetupScreen

    screens: KeyTables = [
        ("Home", HomeScreen.BINDINGS), ("New game", SetupScreen.BINDINGS), ("Continue", ContinueScreen.BINDINGS),
        ("Play", PlayScreen.BINDINGS), ("Replay", ReplayScreen.BINDINGS),
    ]
    for name in core_games.names():
        board = plugin(name).load("board")
        if board is not None and board.BINDINGS:
            screens.append((f"Board ({name})", list(board.BINDINGS)))
    screens += [("Dialogs", Dialog.BINDINGS), ("Confirm", ConfirmDialog.BINDINGS),
                ("Hand-over (hot seat)", HandOverScreen.BINDINGS), ("Help", HelpScreen.BINDINGS),
                ("Everywhere", app_bindings)]
    return screens


def rules_in_brief() -> list[tuple[str, str]]:
    """Each registered game's rules in brief (its plugin's rules.md), where it has them: (game, text)."""
    from core import games as core_games
    from tui.games import plugin

    out: list[tuple[str, str]] = []
    for name in core_games.names():
        try:
            text = plugin(name).load("rules")
        except (OSError, ImportError):
            text = None
        if text:
            out.append((name, text))
    return out
