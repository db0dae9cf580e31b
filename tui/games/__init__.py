"""The registry of the app's and the command line's game plugins. No tui module names a game:
a game's package declares its plugin by entry point (``[project.entry-points."fiefdom.tui"]``,
``tafl = "tui.games.tafl"``), fiefdom's own three as any other package would, and it is
imported when the game is first used.

A plugin module (``tui/games/<game>/__init__.py``) exports ``PLUGIN``, a
:class:`TuiGame` whose fields are "module:attribute" references, so that
naming a game imports nothing until a screen or a command needs it. A game
with no plugin, or one whose plugin cannot be imported, still plays everywhere
through the generic parts: the options pane, the plain text of its view, no
rules in brief.
"""

from __future__ import annotations

import importlib
import importlib.resources
from dataclasses import dataclass
from pprint import pformat
from typing import Any

from core import games as core_games
from core.engine import Game

ENTRY_POINTS = "fiefdom.tui"  # the entry-point group: game name -> the module whose PLUGIN describes it
_LOADED: dict[str, "TuiGame"] = {}


@dataclass(frozen=True)
class TuiGame:
    """What the app and the command line need of a game, each as a "module:attribute" reference.

    * ``board``: a Widget class: ``Board(game, seat, interactive)``; it offers the current
      Decision's options by cursor and mouse and posts ``OptionChosen(code)`` (tui/widgets/options.py).
    * ``text``: ``text(game, seat) -> str``: the position as plain text for that seat (None: a
      spectator), for ``replay show`` and the prompt.
    * ``rules``: a package resource "module:file.md": the rules in brief, for the help screen.
    * ``cli``: ``register(app: typer.Typer) -> None``: the game's own commands.
    * ``console``: an object with the prompt's extras for this game (tui/console.py says which).
    * ``landmarks``: a tuple of ``(key, title, event_kinds)``: the replay viewer's ``key`` jumps to the
      next event of one of those kinds (``shift+key`` to the previous one), e.g. ``("c", "combat", ("combat",))``.
    """

    name: str
    board: str = ""
    text: str = ""
    rules: str = ""
    cli: str = ""
    console: str = ""
    landmarks: str = ""

    def load(self, field: str) -> Any:
        """The object a field names, imported now; None for a field the game leaves empty."""
        ref = getattr(self, field)
        if not ref:
            return None
        module, _, attr = ref.partition(":")
        if field == "rules":
            return importlib.resources.files(module).joinpath(attr).read_text("utf-8")
        return getattr(importlib.import_module(module), attr)


def names() -> list[str]:
    return list(_modules())


def _modules() -> dict[str, str]:
    return core_games.declared(ENTRY_POINTS)


def plugin(game: str) -> TuiGame:
    """The game's plugin; a bare one (every field empty) for a game registered only in core."""
    if game not in _LOADED:
        module = _modules().get(game)
        try:  # another package's plugin may be broken: its game plays through the generic parts
            _LOADED[game] = importlib.import_module(module).PLUGIN if module else TuiGame(game)
        except (ImportError, AttributeError):
            _LOADED[game] = TuiGame(game)
    return _LOADED[game]


def register(name: str, plugin_or_module: TuiGame | str) -> None:
    """Add a game's plugin (tests): the TuiGame itself, or the module that exports it as PLUGIN."""
    _LOADED.pop(name, None)
    if isinstance(plugin_or_module, TuiGame):
        _LOADED[name] = plugin_or_module
    else:
        _modules()[name] = plugin_or_module


def unregister(name: str) -> None:
    _modules().pop(name, None)
    _LOADED.pop(name, None)


def position_text(game: Game, seat: int | None = None) -> str:
    """The position as plain text: the game's own view if it has one, else its view as data."""
    text = plugin(game.game).load("text")
    return text(game, seat) if text is not None else pformat(game.view(seat), width=100)


