"""The generic options pane, and the message every way of choosing sends.

Any game plays through :class:`OptionsPane`: it lists the current Decision's options
as the game words them (``describe``) and sends the chosen code as :class:`OptionChosen`.
A game's board widget (its plugin's ``board``) offers the same choices by cursor and
mouse and posts the same message, so the play screen never knows which was used.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from rich.markup import escape
from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from core.engine import Code, Decision, Game
from notation.wording import visible


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


class OptionsPane(OptionList):
    """The current Decision's options, one a line; Enter or a click sends OptionChosen."""

    DEFAULT_CSS = "OptionsPane { height: 1fr; min-height: 3; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.codes: tuple[Code, ...] = ()

    def show(self, game: Game, decision: Decision | None, idle: str = "") -> None:
        """List ``decision``'s options (None: nothing to choose; ``idle`` says why)."""
        codes = decision.options if decision is not None else ()
        self.codes = codes
        if codes:
            self.set_options(Option(Text(visible(game.describe(code))), id=str(i)) for i, code in enumerate(codes))
            self.highlighted = 0
        else:
            self.set_options([Option(escape(idle) or "(nothing to choose)", disabled=True)])

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        message.stop()
        if message.option.id is not None and self.codes:
            self.post_message(OptionChosen(self.codes[int(message.option.id)]))
