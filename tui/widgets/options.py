"""The generic options pane, and the message every way of choosing sends.

Any game plays through :class:`OptionsPane`: it lists the current Decision's options
as the game words them (``describe``), each with the game's note on what it means, then why a
kind of action is not among them (its plugin's prompt extras, tui/console.py, as the text
prompt shows them), and sends the chosen code as :class:`OptionChosen`.
A game's board widget (its plugin's ``board``) offers the same choices by cursor and
mouse and posts the same message, so the play screen never knows which was used.

Input goes where it was meant. Keys read together (a fast typist, keys typed while the app was
busy) wait in a queue and are each routed to the widget that has the focus when the app reads
them; Textual applies a letter there at once but runs a bound key (Enter, the arrows) only once it
has gone up to the app, after later letters and against whatever has the focus by then. So the
pane and the move box apply their own bound keys as they read them (:class:`KeysInOrder`), and
run none that another widget read. And a key or a click is stamped with the time it was made
(Textual's ``Message.time``): the pane drops an Enter or a click made before its current options
were shown, and :class:`MoveInput` remembers when the move in it began to be typed, for the play
screen to check it against the question shown then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rich.markup import escape
from rich.text import Text
from textual import events
from textual._time import get_time  # the clock Textual stamps every event with (Message.time)
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from core.engine import Code, Decision, Game
from notation.wording import visible
from tui.console import extras_for, option_notes

EARLY = "a key pressed before this question was shown was not applied: choose again"


def now() -> float:
    """The time on the clock events are stamped with: compare it with an event's ``time``."""
    return get_time()


class OptionChosen(Message):
    """A person chose ``code`` for the current Decision (from a list, a board, a map)."""

    def __init__(self, code: Code) -> None:
        super().__init__()
        self.code = tuple(code)


class ChoiceRefused(Message):
    """A board was asked for something it cannot choose (Enter on a square that is no choice):
    ``why`` says so in a line, for the play screen to show."""

    def __init__(self, why: str) -> None:
        super().__init__()
        self.why = why


class BoardWidget(Protocol):
    """What a plugin's ``board`` class offers (tui/games/__init__.py, TuiGame.board).

    ``Board(game, seat, interactive, id=...)`` draws ``game`` as ``seat`` sees it (None: a
    spectator); ``interactive`` boards take focus and post :class:`OptionChosen` (or
    :class:`ChoiceRefused` with the reason). ``wide`` boards take the room the side panes leave;
    others are as wide as they draw. A board may add its own commands to the command palette
    with ``commands() -> [(name, help, callback)]`` (Tafl's flip)."""

    wide: ClassVar[bool]

    def show(self, game: Game, seat: int | None, interactive: bool) -> None:
        """Draw ``game`` now; ``interactive``: a person of ``seat`` is to choose."""


if TYPE_CHECKING:
    _Mixin = Widget  # what the mixin is mixed into, for the checker
else:
    _Mixin = object  # before a Textual class in the bases: not a widget of its own


class KeysInOrder(_Mixin):
    """A widget (mixed in before its Textual class) whose own bound keys are run as it reads them,
    in the order typed, never after letters typed later; and whose bindings run for no key that
    another widget read (when the focus has moved here since)."""

    _reading = False

    def own_bindings(self, event: events.Key) -> list[Binding]:
        bindings = self._bindings.key_to_bindings.get(event.key, ())
        return [b for b in bindings if not b.priority]

    async def on_key(self, event: events.Key) -> None:
        self._reading = True
        try:
            for binding in self.own_bindings(event):
                if await self.app.run_action(binding.action, self):
                    event.prevent_default()  # done: not again as a binding, nor by the widget's handler
                    event.stop()
                    return
        finally:
            self._reading = False
        # Not this widget's: on to the screen's and the app's bindings.

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        own = {b.action.split("(")[0] for _, b in self._bindings}
        if not self._reading and action in own:
            return False  # a key another widget read, come up to the app after the focus moved here
        return super().check_action(action, parameters)


class OptionsPane(KeysInOrder, OptionList):
    """The current Decision's options, one a line; Enter or a click sends OptionChosen."""

    DEFAULT_CSS = "OptionsPane { height: 1fr; min-height: 3; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.codes: tuple[Code, ...] = ()
        self.shown_at = float("inf")  # when the options listed now were shown (inf: none are)
        self.listed: tuple[str, ...] = ()  # the options' words listed, or why there is none
        self.said: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # the options' notes, and why kinds are missing

    def show(self, game: Game, decision: Decision | None, idle: str = "", since: float | None = None) -> None:
        """List ``decision``'s options (None: nothing to choose; ``idle`` says why). ``since``: when
        the question was first shown (the play screen knows; else the pane notes a change itself)."""
        codes = decision.options if decision is not None else ()
        asked_at = self.shown_at
        if not codes:
            self.shown_at = float("inf")
        elif since is not None:
            self.shown_at = since
        elif codes != self.codes or self.shown_at == float("inf"):
            self.shown_at = now()
        self.codes = codes
        said: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
        if decision is not None and codes:
            listed = tuple(visible(game.describe(code)) for code in codes)
            found = option_notes(extras_for(game.game), game, decision)
            said = (tuple(map(visible, found[0])), tuple(map(visible, found[1])))
        else:
            listed = (escape(idle) or "(nothing to choose)",)
        if (listed, said) == (self.listed, self.said) and self.shown_at == asked_at:
            return  # the same question listed: the highlight stays where the person put it
        self.listed, self.said = listed, said
        # The pane's keys where they work (its own Enter is not in the footer: KeysInOrder).
        self.border_subtitle = "↑↓ Enter: choose" if codes else ""
        if codes:
            # An option's note follows its words, dimmed (wrapping in a narrow pane); then, disabled,
            # why a kind of action is not among them.
            self.set_options([*(Option(Text.assemble(words, ("  " + note, "dim") if note else ""), id=str(i))
                                for i, (words, note) in enumerate(zip(listed, said[0]))),
                              *(Option(Text(why, style="dim italic"), disabled=True) for why in said[1])])
            self.highlighted = 0
        else:
            self.set_options([Option(listed[0], disabled=True)])

    def early(self, event: events.InputEvent) -> bool:
        """An Enter or a click made before these options were shown: dropped, and said so."""
        if not self.codes or event.time >= self.shown_at:
            return False
        event.prevent_default()  # neither OptionList's own handler nor a binding sees it
        event.stop()
        self.post_message(ChoiceRefused(EARLY))
        return True

    async def on_key(self, event: events.Key) -> None:  # before KeysInOrder's (Textual calls each class's in turn)
        if event.key == "enter":
            self.early(event)

    def on_click(self, event: events.Click) -> None:
        self.early(event)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        if message.option.id is not None and self.codes:
            self.post_message(OptionChosen(self.codes[int(message.option.id)]))


class MoveInput(KeysInOrder, Input):
    """The move box: an Input that sends exactly what was typed before the Enter, and remembers
    when the move in it began to be typed (``began_at``, on the events' clock), so a move typed
    for one question is never played on another."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.began_at = 0.0

    async def on_key(self, event: events.Key) -> None:  # before KeysInOrder's and Input's own
        if event.is_printable and not self.value:
            self.began_at = event.time

    def on_paste(self, event: events.Paste) -> None:
        if not self.value:
            self.began_at = event.time

    def take(self, sent: str, at: float) -> None:
        """Empty the box of ``sent``, the text just sent with Enter, keeping what was typed after
        the Enter (keys read before the move was handled: the next move's first letters, begun
        at ``at``)."""
        rest = self.value[len(sent):].lstrip() if self.value.startswith(sent) else ""
        self.value = rest
        if rest:
            self.began_at = at

    def hold(self) -> None:
        """The person was told the move was typed for another question: from now on it is for
        the question shown now (Enter again plays it)."""
        self.began_at = now()
