"""Home (new game, continue, open a record, help, quit), setup, and continue."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from core.engine import RulesError
from core.tafl.variants import OPTION_SPECS, coerce_option, variants
from tui.session import GameSetup, SeatConfig, Unfinished, unfinished_games

TITLE = """[b]fiefdom[/b]
play, record and review medieval tabletop games"""


class HomeScreen(Screen):
    BINDINGS = [
        Binding("n", "app.new_game", "New game", id="home.new"),
        Binding("c", "app.continue_game", "Continue", id="home.continue"),
        Binding("o", "app.open_record", "Open record", id="home.open"),
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
                Option("Help", id="help"),
                Option("Quit", id="quit"),
                id="home-menu",
            )
        yield Footer()

    def on_mount(self) -> None:
        menu = self.query_one("#home-menu", OptionList)
        menu.highlighted = 0
        menu.focus()

    @on(OptionList.OptionSelected, "#home-menu")
    def chosen(self, message: OptionList.OptionSelected) -> None:
        action = {"new": "new_game", "continue": "continue_game", "open": "open_record",
                  "help": "help", "quit": "quit"}[message.option.id or "quit"]
        self.run_action(f"app.{action}")


SEAT_KINDS = [("Human", "human"), ("AI", "ai")]
AI_TIMES = [("0.2 s", 0.2), ("0.5 s", 0.5), ("1 s", 1.0), ("2 s", 2.0), ("5 s", 5.0)]


class SetupScreen(Screen):
    """Game, variant, seats (human or AI with its time per move), seed and rule options."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="setup.back"),
        Binding("ctrl+s", "start", "Start", id="setup.start"),
    ]

    def compose(self) -> ComposeResult:
        table = variants()
        with VerticalScroll(id="setup"):
            yield Static("[b]New game[/b]", classes="pane-title")
            with Grid(id="setup-grid"):
                yield Label("Game")
                yield Select([("Tafl", "tafl")], value="tafl", allow_blank=False, id="game")
                yield Label("Variant")
                yield Select([(v.title, k) for k, v in table.items()], value="traditional",
                             allow_blank=False, id="variant")
                for seat, kind in (("attackers", "human"), ("defenders", "ai")):
                    yield Label(seat.capitalize())
                    with Horizontal(classes="seat"):
                        yield Select(SEAT_KINDS, value=kind, allow_blank=False, id=f"{seat}-kind")
                        yield Select(AI_TIMES, value=1.0, allow_blank=False, id=f"{seat}-time")
                yield Label("Seed")
                yield Input("1", type="integer", id="seed")
            yield Static("Rule options (docs/rulings/tafl.md)", classes="pane-title")
            yield Vertical(id="options")
            yield Static("", id="setup-error")
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Back", id="back")
        yield Footer()

    options_for: str | None = None  # the variant whose options are shown

    async def on_mount(self) -> None:
        await self.fill_options("traditional")
        self.query_one("#variant", Select).focus()

    @on(Select.Changed, "#variant")
    async def variant_changed(self, message: Select.Changed) -> None:
        await self.fill_options(str(message.value))

    async def fill_options(self, name: str) -> None:
        if name == self.options_for:
            return
        self.options_for = name
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        widgets = []
        for key, default in variants()[name].defaults.items():
            spec = OPTION_SPECS[key]
            # The explanation wraps on its own line; the control keeps a short label.
            widgets.append(Static(f"[b]{key}[/b] ({spec.ruling}): {spec.help}", classes="option-help"))
            if spec.kind is bool:
                widgets.append(Checkbox(key, value=bool(default), id=f"opt-{key}"))
            elif spec.choices:
                widgets.append(Select([(c, c) for c in spec.choices], value=default, allow_blank=False,
                                      id=f"opt-{key}"))
            else:
                widgets.append(Input(str(default), type="integer", id=f"opt-{key}"))
        await box.mount_all(widgets)

    def collect(self) -> GameSetup:
        variant = str(self.query_one("#variant", Select).value)
        seats = tuple(
            SeatConfig(str(self.query_one(f"#{s}-kind", Select).value),
                       float(self.query_one(f"#{s}-time", Select).value))  # type: ignore[arg-type]
            for s in ("attackers", "defenders")
        )
        seed_text = self.query_one("#seed", Input).value.strip() or "1"
        options: dict[str, object] = {}
        for key in variants()[variant].defaults:
            widget = self.query_one(f"#opt-{key}")
            options[key] = coerce_option(key, widget.value)  # type: ignore[attr-defined]
        return GameSetup("tafl", variant, seats, int(seed_text), options)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            setup = self.collect()
            self.app.start_game(setup, replace=True)  # type: ignore[attr-defined]
        except (RulesError, ValueError) as err:
            self.query_one("#setup-error", Static).update(f"[red]{err}[/red]")

    @on(Button.Pressed, "#back")
    def back(self) -> None:
        self.app.pop_screen()


class ContinueScreen(Screen):
    """The unfinished games found in the autosave folder."""

    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back", id="continue.back")]

    def __init__(self) -> None:
        super().__init__()
        self.games: list[Unfinished] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="continue"):
            yield Static("[b]Continue an unfinished game[/b]", classes="pane-title")
            yield OptionList(id="unfinished")
        yield Footer()

    def on_mount(self) -> None:
        self.games = unfinished_games(self.app.data_dir)  # type: ignore[attr-defined]
        menu = self.query_one("#unfinished", OptionList)
        if not self.games:
            menu.add_option(Option("No unfinished games.", disabled=True))
        for i, g in enumerate(self.games):
            menu.add_option(Option(f"{g.title} · {g.moves} moves", id=str(i)))
        if self.games:
            menu.highlighted = 0
        menu.focus()

    @on(OptionList.OptionSelected, "#unfinished")
    def chosen(self, message: OptionList.OptionSelected) -> None:
        self.app.resume_game(self.games[int(message.option.id or 0)].path)  # type: ignore[attr-defined]
