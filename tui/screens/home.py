"""Home: new game, continue, open a record, join a hosted game, help, quit. It imports no game and no runner,
so the first frame comes quickly (docs/performance.md)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.widgets.keys_footer import KeysFooter

TITLE = """[b]fiefdom[/b]
play, record and review medieval tabletop games"""


class HomeScreen(Screen):
    BINDINGS = [
        Binding("n", "app.new_game", "New game", id="home.new"),
        Binding("c", "app.continue_game", "Continue", id="home.continue"),
        Binding("o", "app.open_record", "Open record", id="home.open"),
        Binding("j", "app.join_game", "Join", id="home.join"),
        Binding("question_mark,f1", "app.help", "Help", id="home.help"),
        Binding("q", "app.quit", "Quit", id="home.quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="home"):
            yield Static(TITLE, id="title")
            yield OptionList(
                Option("New game", id="new"),
                Option("Continue an unfinished game", id="continue"),
                Option("Open a record", id="open"),
                Option("Join a hosted game", id="join"),
                Option("Help", id="help"),
                Option("Quit", id="quit"),
                id="home-menu",
            )
        yield KeysFooter()

    def on_mount(self) -> None:
        menu = self.query_one("#home-menu", OptionList)
        menu.highlighted = 0
        menu.focus()

    @on(OptionList.OptionSelected, "#home-menu")
    async def chosen(self, message: OptionList.OptionSelected) -> None:
        action = {"new": "new_game", "continue": "continue_game", "open": "open_record",
                  "join": "join_game", "help": "help", "quit": "quit"}[message.option.id or "quit"]
        await self.run_action(f"app.{action}")


