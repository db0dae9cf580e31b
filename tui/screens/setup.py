"""New game (a form generated from the game's descriptor) and Continue (the unfinished games)."""

from __future__ import annotations

import re
from pathlib import Path
from collections.abc import Mapping, Sequence
from typing import Any

from rich.markup import escape
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, Static
from textual.widgets.select import InvalidSelectValueError
from textual.widgets.option_list import Option

from core import games as core_games
from core.engine import RulesError
from core.games import GameDescriptor, OptionSpec
from core.match import Limit
from core.match import Step
from notation.catalog import GameLookup
from notation.format import Header
from notation.record_lock import in_play
from notation.runner import GameSetup, SeatPlan
from notation.wording import visible
from tui.widgets.keys_footer import KeysFooter
from tui.app import FiefdomApp
from tui.screens.dialogs import ConfirmDialog
from tui import session
from tui.session import Unfinished, read_data_file, unfinished_games


KIND_TITLES = {"human": "Human", "ai": "AI", "bot": "Rulebook bot", "random": "Random"}
AI_TIMES = (0.2, 0.5, 1.0, 2.0, 5.0)  # seconds per decision, for a game whose AI plays by the clock
DICE = [("seeded (the app throws them)", "seeded"), ("from the table (you type them)", "manual")]


def slug(name: str) -> str:
    """A seat name as a widget id: ``Catalan Counties`` -> ``catalan-counties``."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "seat"
    return text if text[0].isalpha() else f"s-{text}"


def timed(gi: GameDescriptor) -> bool:
    """Whether the game's AI plays by the clock: the form then offers its time per decision."""
    return gi.ai_limit.seconds is not None


def ai_times(gi: GameDescriptor) -> list[tuple[str, float]]:
    """The times per decision the form offers a timed AI (with the game's own default)."""
    return [(f"{t:g} s", t) for t in sorted({*AI_TIMES, gi.ai_limit.seconds or AI_TIMES[0]})]


def ai_levels(gi: GameDescriptor) -> list[tuple[str, str]]:
    """The AI strengths the form offers by name (title, key), strongest last (its default); none
    when the game's AI has one strength."""
    return [(title, key) for key, title in gi.ai_levels]


class OnOff(Checkbox):
    """A checkbox whose state shows without colour: ``▐X▌`` on, ``▐ ▌`` off (Textual's draws an X in
    both states and tells them apart by colour only)."""

    def __init__(self, label: str, value: bool, *, id: str) -> None:
        super().__init__(label, value, id=id)
        self.BUTTON_INNER = self.inner()

    def inner(self) -> str:
        return "X" if self.value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = self.inner()
        super().watch_value()


def offer(select: Select[Any], value: object) -> None:
    """``select`` set to ``value`` when it is one of its choices; anything else is left out."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        try:
            select.value = value
        except InvalidSelectValueError:
            pass


class SetupScreen(Screen):
    """A new game, generated from the game's descriptor: game, variant or scenario, each seat's
    kind among those it allows (an AI with its time per decision), the seed, where the dice come
    from (a game with chance), the rule options. It opens as the game last started from it
    (tui/preferences.py), but for the seed, which is fresh for each game."""

    BINDINGS = [
        # An open dropdown has the focus and takes Esc itself: only it closes (test_setup_form.py).
        Binding("escape", "app.pop_screen", "Back", id="setup.back"),
        Binding("ctrl+s", "start", "Start", id="setup.start"),
    ]
    app = getters.app(FiefdomApp)  # the app a game starts in

    def __init__(self, game: str | None = None, *, prefill: Header | None = None,
                 steps: Sequence[Step] | None = None, games: GameLookup | None = None) -> None:
        """``prefill``: a record's header whose variant, seats, seed and options the form starts
        with; with ``steps``, Start plays a new game with those steps already played ("play from
        here", on ``games``: the registry with the record's own data files)."""
        super().__init__()
        self.game = game or core_games.names()[0]
        self.shown: tuple[str, str] | None = None  # the (game, variant) whose seats and options are shown
        self.prefill = prefill
        self.steps = list(steps) if steps is not None else None
        self.games = games

    @property
    def gi(self) -> GameDescriptor:
        return core_games.info(self.game)

    def compose(self) -> ComposeResult:
        gi = self.gi
        # Not a focus stop of its own: Tab goes from control to control, top to bottom.
        with VerticalScroll(id="setup", can_focus=False):
            title = "New game" if self.steps is None else f"Play from here: a new game after step {len(self.steps)}"
            yield Static(f"[b]{title}[/b]", classes="pane-title")
            with Grid(classes="setup-grid"):
                yield Label("Game")
                yield Select([(core_games.info(n).title, n) for n in core_games.names()], value=self.game,
                             allow_blank=False, id="game")
                yield Label(gi.variant_word.capitalize(), id="variant-label")
                yield Select([(title, key) for key, title in gi.variants], value=self.first_variant(),
                             allow_blank=False, id="variant")
            yield Grid(id="seats", classes="setup-grid")
            with Grid(classes="setup-grid"):
                yield Label("Seed")
                # Fresh for each game; the same seed with the same moves replays the same game.
                seed = self.prefill.seed if self.prefill is not None and self.prefill.seed is not None \
                    else session.new_seed()
                yield Input(str(seed), type="integer", id="seed")
            # Dice thrown on a real table and typed; shuffles and random picks stay seeded.
            with Grid(classes="setup-grid", id="dice-row"):
                yield Label("Dice")
                yield Select(DICE, value="seeded", allow_blank=False, id="dice")
            # A game's own data files (Taifa's map and decks): empty keeps the packaged ones.
            yield Vertical(id="data-files")
            yield Static("", id="options-title", classes="pane-title")
            yield Vertical(id="rule-options")
            yield Static("", id="setup-error")
            with Horizontal(classes="buttons"):
                yield Button("Start", id="start", variant="primary")
                yield Button("Back", id="back")
        yield KeysFooter()

    def first_variant(self) -> str:
        """The record's variant ("play from here"), else the one last started, else the game's first."""
        if self.prefill is not None and self.prefill.game == self.game:
            return self.prefill.variant
        variant = self.remembered().get("variant")
        return next((key for key, _ in self.gi.variants if key == variant), self.gi.variants[0][0])

    def remembered(self) -> dict[str, Any]:
        """The form as it was when this game last started from it; nothing for "play from here"
        (the record's setup is the one to play on)."""
        return self.app.preferences.setup(self.game) if self.prefill is None else {}

    async def on_mount(self) -> None:
        await self.fill(self.game, self.first_variant())
        if self.prefill is not None:
            self.fill_from(self.prefill)
        else:
            self.restore(self.remembered())
        self.query_one("#variant", Select).focus()

    def fill_from(self, header: Header) -> None:
        """The seats' kinds and AI times, the dice and the rule options as ``header`` has them."""
        for seat, spec in zip(header.seats, self.gi.seat_specs(header.variant)):
            plan = SeatPlan.of(seat)
            limit = plan.limit or Limit()
            self.set_seat(spec.name, {"kind": plan.kind, "time": limit.seconds, "level": limit.level})
        self.set_choices(header.chance, header.options)

    def set_seat(self, name: str, parts: Mapping[str, object]) -> None:
        """Seat ``name``'s kind, AI time and AI strength, each that fits its control (the rest are left)."""
        for part, value in parts.items():
            for select in self.query(f"#{slug(name)}-{part}").results(Select):
                offer(select, value)

    def set_choices(self, dice: object, options: Mapping[str, object]) -> None:
        """The dice and the rule options, each that is still offered (a value out of range, or an
        option the variant no longer has, is left out)."""
        if self.gi.has_chance:
            offer(self.query_one("#dice", Select), dice)
        for spec in self.gi.option_specs(self.shown[1] if self.shown else self.first_variant()):
            if spec.name in options:
                self.set_option(spec, options[spec.name])

    def set_option(self, spec: OptionSpec, value: object) -> None:
        try:
            coerced = spec.coerce(value)
        except RulesError:
            return
        control = self.option_control(spec.name)
        if isinstance(control, Input):
            control.value = str(coerced)
        elif isinstance(control, Select):
            offer(control, coerced)
        else:
            control.value = coerced

    def restore(self, memory: Mapping[str, Any]) -> None:
        """The form as :meth:`memory` kept it, for what still fits (preferences.json is the user's
        to edit: anything of the wrong shape is left out)."""
        if self.shown is None or memory.get("variant") != self.shown[1]:
            return  # the seats and options kept were another variant's
        seats = memory.get("seats")
        for spec in self.gi.seat_specs(self.shown[1]):
            parts = seats.get(spec.name) if isinstance(seats, dict) else None
            if isinstance(parts, dict):
                self.set_seat(spec.name, {part: parts.get(part) for part in ("kind", "time", "level")})
        options = memory.get("options")
        self.set_choices(memory.get("dice"), options if isinstance(options, dict) else {})
        files = memory.get("files")
        for f in self.gi.data_files:
            path = files.get(f.key) if isinstance(files, dict) else None
            if isinstance(path, str) and len(path) <= 4096 and path.isprintable():
                self.query_one(f"#data-{f.key}", Input).value = path

    def memory(self, setup: GameSetup) -> dict[str, Any]:
        """What the form remembers of ``setup`` for the next game: its variant, each seat's kind, AI
        time and strength (as the form shows them), the dice, the rule options and the data files
        named; not the seed."""
        seats = {spec.name: {part: select.value for part in ("kind", "time", "level")
                             for select in self.query(f"#{slug(spec.name)}-{part}").results(Select)}
                 for spec in self.gi.seat_specs(setup.variant)}
        return {"variant": setup.variant, "seats": seats, "dice": setup.chance, "options": setup.options,
                "files": {key: str(path) for key, path in self.data_paths().items()}}

    def option_control(self, name: str) -> Checkbox | Select[Any] | Input:
        """The control of rule option ``name``, as the form makes it for the option's type."""
        control = self.query_one(f"#opt-{name}")
        assert isinstance(control, (Checkbox, Select, Input)), control
        return control

    @on(Select.Changed, "#game")
    async def game_changed(self, message: Select.Changed) -> None:
        if message.value == self.game or message.value is Select.BLANK:
            return
        self.game = str(message.value)
        gi = self.gi
        self.query_one("#variant-label", Label).update(gi.variant_word.capitalize())
        variant = self.query_one("#variant", Select)
        first = self.first_variant()
        with variant.prevent(Select.Changed):
            variant.set_options([(title, key) for key, title in gi.variants])
            variant.value = first
        await self.fill(self.game, first)
        self.restore(self.remembered())

    @on(Select.Changed, "#variant")
    async def variant_changed(self, message: Select.Changed) -> None:
        if message.value is not Select.BLANK:
            await self.fill(self.game, str(message.value))

    @on(Select.Changed, ".seat Select")
    def seat_kind_changed(self, message: Select.Changed) -> None:
        """An AI's time and strength are for an AI seat only: offered when the seat is one."""
        if message.select.id and message.select.id.endswith("-kind") and message.select.parent is not None:
            for limit in message.select.parent.query(".ai-only"):
                limit.disabled = message.value != "ai"

    async def fill(self, game: str, variant: str) -> None:
        """Show the seats and the rule options of ``game``'s ``variant``."""
        if (game, variant) == self.shown:
            return
        self.shown = (game, variant)
        gi = core_games.info(game)
        self.query_one("#dice-row", Grid).display = gi.has_chance
        seats = self.query_one("#seats", Grid)
        await seats.remove_children()
        rows: list[Widget] = []
        levels = ai_levels(gi)
        for seat in gi.seat_specs(variant):
            rows.append(Label(seat.name[:1].upper() + seat.name[1:]))
            rows.append(Horizontal(
                Select([(KIND_TITLES.get(k, k), k) for k in seat.kinds], value=seat.default, allow_blank=False,
                       id=f"{slug(seat.name)}-kind"),
                *([Select(ai_times(gi), value=gi.ai_limit.seconds, allow_blank=False, id=f"{slug(seat.name)}-time",
                          disabled=seat.default != "ai", classes="ai-only")] if timed(gi) else []),
                *([Select(levels, value=levels[-1][1], allow_blank=False, id=f"{slug(seat.name)}-level",
                          disabled=seat.default != "ai", classes="ai-only")] if levels else []),
                classes="seat"))
        await seats.mount_all(rows)

        files = self.query_one("#data-files", Vertical)
        await files.remove_children()
        await files.mount_all([Grid(Label(f"Your {f.key} file"), Input(placeholder=f.help, id=f"data-{f.key}"),
                                    classes="setup-grid") for f in gi.data_files])

        specs = gi.option_specs(variant)
        self.query_one("#options-title", Static).update(
            f"Rule options (docs/rulings/{game}.md)" if specs else "No rule options")
        box = self.query_one("#rule-options", Vertical)
        await box.remove_children()
        widgets: list[Widget] = []
        for spec in specs:
            # The explanation wraps on its own line; the control keeps a short label.
            widgets.append(Static(f"[b]{escape(spec.name)}[/b] ({escape(spec.ruling)}): {escape(spec.help)}",
                                  classes="option-help"))
            if spec.type == "bool":
                widgets.append(OnOff(spec.name, value=bool(spec.default), id=f"opt-{spec.name}"))
            elif spec.type == "choice":
                widgets.append(Select([(str(c), c) for c in spec.choices], value=spec.default, allow_blank=False,
                                      id=f"opt-{spec.name}"))
            else:
                widgets.append(Input(str(spec.default), type="integer", id=f"opt-{spec.name}"))
        await box.mount_all(widgets)

    def collect(self) -> GameSetup:
        """The form as a GameSetup; RulesError or ValueError in one line when a field is wrong."""
        game, variant = self.shown or (self.game, "")
        gi = core_games.info(game)
        seats = []
        for seat in gi.seat_specs(variant):
            kind = str(self.query_one(f"#{slug(seat.name)}-kind", Select).value)
            # The time's Select allows no blank: it always has a selection
            picked = self.query_one(f"#{slug(seat.name)}-time", Select).selection if timed(gi) else None
            seconds = float(picked) if picked is not None else None
            level = str(self.query_one(f"#{slug(seat.name)}-level", Select).value) if gi.ai_levels else None
            if gi.ai_levels and level == gi.ai_levels[-1][0]:
                level = None  # the full strength is the AI's own: its records say no level, as before levels
            limit = Limit(seconds=seconds, level=level) if kind == "ai" and (seconds or level) else None
            seats.append(SeatPlan(kind, limit))
        seed_text = self.query_one("#seed", Input).value.strip() or str(session.new_seed())
        options = {spec.name: spec.coerce(self.option_control(spec.name).value) for spec in gi.option_specs(variant)}
        if len(seed_text) > 20:  # int() refuses thousands of digits with a message about Python, not the seed
            raise RulesError(f"the seed is a whole number from 0 to {2 ** 63 - 1}")
        chance = str(self.query_one("#dice", Select).value) if gi.has_chance else "seeded"
        setup = dict(self.prefill.setup) if self.prefill is not None and self.steps is not None else {}
        return GameSetup(game, variant, tuple(seats), int(seed_text), options, setup, chance=chance)

    def data_paths(self) -> dict[str, Path]:
        """The game's data files the form names (key -> path)."""
        gi = core_games.info(self.shown[0] if self.shown else self.game)
        paths = {f.key: self.query_one(f"#data-{f.key}", Input).value.strip() for f in gi.data_files}
        return {key: Path(path).expanduser() for key, path in paths.items() if path}

    def data(self) -> dict[str, Any]:
        """The game's data files the form names, loaded (key -> data); RulesError in one line."""
        gi = core_games.info(self.shown[0] if self.shown else self.game)
        files = {f.key: f for f in gi.data_files}
        return {key: read_data_file(path, files[key].load) for key, path in self.data_paths().items()}

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            setup = self.collect()
            data = self.data()
        except (RulesError, ValueError) as err:
            self.query_one("#setup-error", Static).update(f"[red]{escape(visible(str(err)))}[/red]")  # a typed path, written out
            return
        games = core_games.lookup({setup.game: data}) if data else self.games
        if self.steps is not None:
            parent = self.prefill.parent if self.prefill is not None else None  # a variation of that record
            self.app.play_from(setup, self.steps, games=games, replace=True, parent=parent)
            return
        problem = self.app.preferences.keep_setup(setup.game, self.memory(setup))
        if problem:
            self.notify(escape(visible(problem)), severity="warning")
        self.app.start_game(setup, replace=True, games=games, files=self.data_paths())

    @on(Button.Pressed, "#back")
    def back(self) -> None:
        self.app.pop_screen()


class ContinueScreen(Screen):
    """The unfinished games of any game found in the autosave folder; one may be deleted."""

    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "Back", id="continue.back"),
        Binding("d,delete", "delete", "Delete game", id="continue.delete"),
    ]
    app = getters.app(FiefdomApp)  # the app whose autosaves are listed

    def __init__(self) -> None:
        super().__init__()
        self.games: list[Unfinished] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="continue"):
            yield Static("[b]Continue an unfinished game[/b]", classes="pane-title")
            yield OptionList(id="unfinished")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.fill()

    def fill(self) -> None:
        self.games = unfinished_games(self.app.data_dir)
        menu = self.query_one("#unfinished", OptionList)
        menu.clear_options()
        if not self.games:
            menu.add_option(Option("No unfinished games.", disabled=True))
        for i, g in enumerate(self.games):
            where = f" · in play elsewhere ({g.elsewhere})" if g.elsewhere else ""
            steps = f"{g.steps} step{'' if g.steps == 1 else 's'}"
            menu.add_option(Option(escape(visible(f"{g.title} · {steps}{where}")), id=str(i)))
        if self.games:
            menu.highlighted = 0
        menu.focus()

    @on(OptionList.OptionSelected, "#unfinished")
    def chosen(self, message: OptionList.OptionSelected) -> None:
        game = self.games[int(message.option.id or 0)]
        if game.elsewhere:  # a record has one writer: this one is only looked at (issue 26)
            self.notify(escape(visible(f"{game.path.name} is in play elsewhere ({game.elsewhere}): "
                                       "opened in the viewer, to look at only")))
            self.app.pop_screen()
            self.app.open_record(game.path)
            return
        self.app.resume_game(game.path)

    def action_delete(self) -> None:
        """Delete the highlighted game's autosave, after a confirmation."""
        menu = self.query_one("#unfinished", OptionList)
        if not self.games or menu.highlighted is None:
            return
        path = self.games[menu.highlighted].path
        holder = in_play(path)
        if holder is not None:
            self.notify(escape(visible(f"{path.name} is in play elsewhere ({holder}): not deleted")), severity="error")
            return

        def done(yes: bool | None) -> None:
            if not yes:
                return
            if in_play(path) is not None:  # taken up since the question
                self.notify(escape(visible(f"{path.name} is in play elsewhere: not deleted")), severity="error")
                return
            try:
                path.unlink()
            except OSError as err:
                self.notify(escape(visible(f"cannot delete {path.name}: {err.strerror or err}")), severity="error")
            else:
                self.notify(escape(visible(f"deleted {path.name}")))
            self.fill()

        self.app.push_screen(ConfirmDialog(f"Delete the unfinished game {path.name}? It cannot be undone."), done)
