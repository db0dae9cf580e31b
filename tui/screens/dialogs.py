"""Small modal dialogs: game over (save the record), go to step, open a record."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.session import Session


class Dialog(ModalScreen):
    BINDINGS = [Binding("escape", "dismiss_none", "Close", id="dialog.close")]

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class GameOverDialog(Dialog):
    """The result with its reason, and a name to save the record under."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s = self.session
        r = s.over.result if s.over else None
        who = "Draw" if r is None or not r.winners else f"{s.game.seats[r.winners[0]].capitalize()} win"
        with Vertical(classes="dialog"):
            yield Label(f"[b]{who}[/b]", id="result-title")
            yield Static(escape(f"{r.reason} [{r.rule}]") if r else "", id="result-reason")
            yield Label("Save the record as:")
            yield Input(placeholder="name (saved under your data folder)", id="save-name")
            with Horizontal(classes="buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Close", id="close")

    def on_mount(self) -> None:
        self.query_one("#save-name", Input).focus()

    @on(Button.Pressed, "#close")
    def close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#save")
    @on(Input.Submitted, "#save-name")
    def save(self) -> None:
        name = self.query_one("#save-name", Input).value.strip()
        if not name or "/" in name or name.startswith("."):
            self.query_one("#result-reason", Static).update("[red]give a plain file name, like my-game[/red]")
            return
        target = self.app.data_dir / "saved" / name  # type: ignore[attr-defined]
        try:
            path = self.session.save_as(target)
        except OSError as err:
            self.query_one("#result-reason", Static).update(f"[red]cannot save: {escape(str(err.strerror))}[/red]")
            return
        self.app.notify(escape(f"saved {path}"))
        self.dismiss(path)


class StepDialog(Dialog):
    """Ask for a step number (replay's `g`)."""

    def __init__(self, last: int) -> None:
        super().__init__()
        self.last = last

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"Go to step (0..{self.last}):")
            yield Input(id="step", type="integer")
            yield Static("", id="step-error")

    @on(Input.Submitted)
    def submitted(self, message: Input.Submitted) -> None:
        try:
            n = int(message.value)
        except ValueError:
            n = -1
        if not 0 <= n <= self.last:
            self.query_one("#step-error", Static).update(f"[red]a step from 0 to {self.last}[/red]")
            return
        self.dismiss(n)


class OpenDialog(Dialog):
    """Pick a record from the data folder, or type any path."""

    def __init__(self, records: list[Path]) -> None:
        super().__init__()
        self.records = records

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("Open a record (.fief): pick one or type a path")
            yield Input(placeholder="path/to/game.fief", id="path")
            yield OptionList(*[Option(str(p), id=str(i)) for i, p in enumerate(self.records)], id="records")

    @on(Input.Submitted, "#path")
    def typed(self, message: Input.Submitted) -> None:
        if message.value.strip():
            self.dismiss(Path(message.value.strip()).expanduser())

    @on(OptionList.OptionSelected, "#records")
    def picked(self, message: OptionList.OptionSelected) -> None:
        self.dismiss(self.records[int(message.option.id or 0)])
