"""Small modal dialogs: save as, game over (save, rematch, review), hot seat's hand-over, confirm,
go to step, a note, pick from a list, open a record."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from rich.text import Text
from textual import getters, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from core.engine import Result
from notation.wording import visible, winners_text
from tui.widgets.keys_footer import KeysFooter
from tui.app import FiefdomApp
from tui.session import save_as


class Dialog(ModalScreen):
    BINDINGS = [Binding("escape", "dismiss_none", "Close", id="dialog.close")]

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


class SaveDialog(Dialog):
    """A name to save the record under (in the data folder's saved/, the autosave's name offered);
    dismisses with the path saved, or None."""

    app = getters.app(FiefdomApp)  # the app this dialog saves into the data folder of
    error_id = "save-error"  # where a refused name is explained

    def __init__(self, record: Path) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield from self.name_field()
            yield Static("", id="save-error")
            with Horizontal(classes="buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Close", id="close")

    def name_field(self) -> ComposeResult:
        yield Label("Save the record as:")
        yield Input(self.record.stem, placeholder="name (saved under your data folder)", id="save-name")

    def on_mount(self) -> None:
        # None when the app is closing as the dialog opens (its children are never mounted then).
        for name in self.query("#save-name").results(Input):
            name.focus()

    @on(Button.Pressed, "#close")
    def close(self) -> None:
        self.dismiss(None)

    def refuse(self, markup: str) -> None:
        self.query_one(f"#{self.error_id}", Static).update(markup)

    @on(Button.Pressed, "#save")
    @on(Input.Submitted, "#save-name")
    def save(self) -> None:
        name = self.query_one("#save-name", Input).value.strip()
        if not name or "/" in name or name.startswith("."):
            self.refuse("[red]give a plain file name, like my-game[/red]")
            return
        target = self.app.data_dir / "saved" / name
        try:
            path = save_as(self.record, target)
        except FileExistsError:
            self.refuse("[red]a saved record has that name: choose another[/red]")
            return
        except OSError as err:
            self.refuse(f"[red]cannot save: {escape(str(err.strerror))}[/red]")
            return
        self.app.notify(escape(visible(f"saved {path}")))
        self.dismiss(path)


REMATCH, REVIEW = "rematch", "review"  # what GameOverDialog may dismiss with, besides a saved path


class GameOverDialog(SaveDialog):
    """The result with its reason and rule (a tie-break is part of the reason), the scores in the
    game's word for them (castles), and a name to save the record under (the autosave's name
    offered). Dismisses with the saved path, REMATCH (the same game again, a fresh seed), REVIEW
    (the record in the viewer) or None."""

    DEFAULT_CSS = "#game-over-buttons Button { min-width: 10; margin-right: 1; }"
    error_id = "result-reason"

    def __init__(self, result: Result, seats: tuple[str, ...], record: Path, score_word: str = "scores") -> None:
        super().__init__(record)
        self.result = result
        self.seats = seats
        self.score_word = score_word

    def compose(self) -> ComposeResult:
        r = self.result
        title = winners_text(r, self.seats)
        with Vertical(classes="dialog"):
            # A record's or a game's text: made visible, and given as Text, never read as markup.
            yield Label(Text(title[:1].upper() + title[1:], style="bold"), id="result-title")
            yield Static(Text(visible(f"{r.reason} [{r.rule}]")), id="result-reason")
            scores = score_lines(r, self.seats, self.score_word)
            if scores:
                yield Static(scores, id="result-scores")
            yield from self.name_field()
            with Horizontal(classes="buttons", id="game-over-buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Rematch", id="rematch")
                yield Button("Review", id="review")
                yield Button("Close", id="close")

    @on(Button.Pressed, "#rematch")
    def rematch(self) -> None:
        self.dismiss(REMATCH)

    @on(Button.Pressed, "#review")
    def review(self) -> None:
        self.dismiss(REVIEW)


def score_lines(result: Result, seats: tuple[str, ...], word: str) -> Text:
    """``castles: Castile 9, León 11, ...`` in seat order; empty when the result has no scores."""
    if not result.scores:
        return Text()
    return Text(visible(f"{word}: " + ", ".join(f"{name} {score}" for name, score in zip(seats, result.scores))))


class HandOverScreen(ModalScreen[bool]):
    """Hot seat: the table covered (opaque, nothing of it shows) until the next person says they are
    at the keyboard. Dismisses with True (Enter) or False (leave the game)."""

    BINDINGS = [Binding("enter", "ready", "Ready", id="handover.ready"),
                Binding("q", "leave", "Home", id="handover.home")]

    def __init__(self, seat: str) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="handover"):
            yield Label(Text(visible(f"Pass to {self.seat}"), style="bold"), id="handover-title")
            yield Static(Text(visible(f"press Enter when {self.seat} is at the keyboard")), id="handover-text")
            with Horizontal(classes="buttons"):
                yield Button("Ready (Enter)", id="ready", variant="primary")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#ready", Button).focus()

    @on(Button.Pressed, "#ready")
    def action_ready(self) -> None:
        self.dismiss(True)

    def action_leave(self) -> None:
        self.dismiss(False)


class ConfirmDialog(Dialog):
    """A question with Yes and No (y / n, or Escape for no); dismisses with True or None."""

    BINDINGS = [Binding("y", "yes", "Yes", id="confirm.yes"), Binding("n", "dismiss_none", "No", id="confirm.no")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(escape(self.question), id="question")
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="error")
                yield Button("No (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def no(self) -> None:
        self.dismiss(None)


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


class NoteDialog(Dialog):
    """A note on a step of a finished record (the viewer's ``w``); dismisses with its text, or None."""

    def __init__(self, step: int, most: int) -> None:
        super().__init__()
        self.step = step
        self.most = most  # bytes of UTF-8 a note may take (notation.annex.AnnexLimits.NOTE_BYTES)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(f"A note on step {self.step} (Enter keeps it in the record, Escape drops it):")
            yield Input(placeholder="what happened here, or what should have", id="note")
            yield Static("", id="note-error")

    @on(Input.Submitted, "#note")
    def submitted(self, message: Input.Submitted) -> None:
        text = message.value.strip()
        if not text:
            self.dismiss(None)
        elif len(text.encode("utf-8")) > self.most:
            self.query_one("#note-error", Static).update(f"[red]a note takes at most {self.most} bytes[/red]")
        else:
            self.dismiss(text)


class PickDialog(Dialog):
    """A question and a list of lines (a record's text: shown visibly, never as markup); dismisses
    with the index picked, or None."""

    def __init__(self, question: str, lines: list[str]) -> None:
        super().__init__()
        self.question = question
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(self.question)
            yield OptionList(*[Option(Text(visible(line)), id=str(i)) for i, line in enumerate(self.lines)],
                             id="picks")

    @on(OptionList.OptionSelected, "#picks")
    def picked(self, message: OptionList.OptionSelected) -> None:
        self.dismiss(self.chosen(int(message.option.id or 0)))

    def chosen(self, index: int) -> object:
        """What the dialog dismisses with for line ``index``."""
        return index


class OpenDialog(Dialog):
    """Pick a record from the data folder, or type any path."""

    def __init__(self, records: list[Path]) -> None:
        super().__init__()
        self.records = records

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("Open a record (.fief): pick one or type a path")
            yield Input(placeholder="path/to/game.fief", id="path")
            # A file name is anyone's text: shown visibly, and never read as markup.
            yield OptionList(*[Option(Text(visible(str(p))), id=str(i)) for i, p in enumerate(self.records)],
                             id="records")

    @on(Input.Submitted, "#path")
    def typed(self, message: Input.Submitted) -> None:
        if message.value.strip():
            self.dismiss(Path(message.value.strip()).expanduser())

    @on(OptionList.OptionSelected, "#records")
    def picked(self, message: OptionList.OptionSelected) -> None:
        self.dismiss(self.records[int(message.option.id or 0)])


class ViewDialog(PickDialog):
    """Whose view the viewer shows: each seat's, a spectator's, or the full table (every hand and
    every deck's order). Dismisses with the chosen item of ``views`` (a point of view and its title),
    or None (Escape: the view stays as it is)."""

    def __init__(self, views: list[tuple[int | None, str]], question: str = "Whose view of the game?") -> None:
        super().__init__(question, [title for _, title in views])  # seat names: a record's text
        self.views = views

    def chosen(self, index: int) -> object:
        return self.views[index]


class JoinDialog(Dialog):
    """An invitation to a hosted game, pasted (``fief://HOST:PORT/SEAT?t=TOKEN``); dismisses with
    it read (notation.protocol.Invitation), or None. A text that is not one is said in one line."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Join a hosted game: paste the invitation its host gave you")
            yield Input(placeholder="fief://HOST:PORT/SEAT?t=TOKEN", id="join-url")
            yield Static("", id="join-error")
            with Horizontal(classes="buttons"):
                yield Button("Join", id="join", variant="primary")
                yield Button("Close", id="close")

    def on_mount(self) -> None:
        for box in self.query("#join-url").results(Input):
            box.focus()

    @on(Button.Pressed, "#close")
    def close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#join")
    @on(Input.Submitted, "#join-url")
    def join(self) -> None:
        from notation.protocol import Invitation, ProtocolError

        try:
            invitation = Invitation.parse(self.query_one("#join-url", Input).value)
        except ProtocolError as err:
            self.query_one("#join-error", Static).update(Text(visible(str(err)), style="red"))
            return
        self.dismiss(invitation)
