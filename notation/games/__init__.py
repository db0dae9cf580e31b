"""The registry of notation plugins: what each game adds to export.

A game's package declares its notation plugin by entry point
(``[project.entry-points."fiefdom.notation"]``, ``tafl = "notation.games.tafl"``),
fiefdom's own three as any other package would; a plugin is imported the first
time something asks for it. A plugin module exports ``NOTATION``, a
:class:`NotationPlugin`. A game with no plugin, or one whose plugin cannot be
imported, gets the generic notation everywhere (the text and JSON of
notation/export.py); tests add plugins of their own with :func:`register`
(DESIGN.md, "Games are plugins, in every layer").
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from core import games as core_games
from notation.visitor import BaseVisitor

ENTRY_POINTS = "fiefdom.notation"  # the entry-point group: game name -> the module whose NOTATION is its plugin
_LOADED: dict[str, "NotationPlugin"] = {}

# Makes a fresh visitor for one export (a visitor keeps state while it walks a replay).
VisitorFactory = Callable[[], BaseVisitor[str]]


@dataclass(frozen=True)
class ExportFormat:
    """An export format of a game's own, offered as ``fiefdom replay export --format NAME``."""

    name: str  # "otg"
    title: str  # "OpenTafl": what the format is, for help texts and messages
    visitor: VisitorFactory  # its visitor raises ExportError for a record it cannot write


@dataclass(frozen=True)
class NotationPlugin:
    """What a game adds to the notation layer; every field may be left out."""

    text: VisitorFactory | None = None  # the game's text export; None: the generic one
    formats: tuple[ExportFormat, ...] = ()  # formats beyond text and json


GENERIC = NotationPlugin()


def _modules() -> dict[str, str]:
    return core_games.declared(ENTRY_POINTS)


def names() -> list[str]:
    """The games that have a notation plugin."""
    return list(_modules())


def plugin(game: str) -> NotationPlugin:
    """``game``'s notation plugin, or :data:`GENERIC` when it has none."""
    if game not in _LOADED:
        module = _modules().get(game)
        if module is None:
            return GENERIC
        try:  # another package's plugin may be broken: its game keeps the generic notation
            _LOADED[game] = importlib.import_module(module).NOTATION
        except (ImportError, AttributeError):
            _LOADED[game] = GENERIC
    return _LOADED[game]


def register(name: str, module_or_plugin: NotationPlugin | str) -> None:
    """Give game ``name`` a notation plugin: one made already, or the path of a module that exports
    ``NOTATION`` (imported when first asked for). Replaces any plugin the game had."""
    _LOADED.pop(name, None)
    if isinstance(module_or_plugin, NotationPlugin):
        _modules()[name] = f"<registered {name}>"
        _LOADED[name] = module_or_plugin
    else:
        _modules()[name] = module_or_plugin


def unregister(name: str) -> None:
    _modules().pop(name, None)
    _LOADED.pop(name, None)


def extra_formats() -> dict[str, tuple[ExportFormat, list[str]]]:
    """Every format a plugin adds: name -> (the format, the games that offer it). Imports every plugin."""
    out: dict[str, tuple[ExportFormat, list[str]]] = {}
    for game in names():
        for fmt in plugin(game).formats:
            out.setdefault(fmt.name, (fmt, []))[1].append(game)
    return out
