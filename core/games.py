"""The registry of games: how the notation layer and the UI make a game from a
record header or a setup screen without knowing each game's module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from core.engine import Game, RulesError


@dataclass(frozen=True)
class GameInfo:
    name: str
    revision: int  # the rules revision records pin (see docs/replay-format.md)
    variants: Callable[[], list[str]]
    make: Callable[[str, dict[str, Any], dict[str, Any]], Game]  # variant, options, setup


def _tafl() -> GameInfo:
    from core.tafl import RULES_REVISION, TaflGame, variants

    def make(variant: str, options: dict[str, Any], setup: dict[str, Any]) -> Game:
        unknown = set(setup) - {"position", "to_move"}
        if unknown:
            raise RulesError(f"unknown tafl setup field(s): {', '.join(sorted(unknown))}")
        return TaflGame(variant, options, setup.get("position"), setup.get("to_move", 0))

    return GameInfo("tafl", RULES_REVISION, lambda: list(variants()), make)


def _taifa() -> GameInfo:
    from core.taifa.game import RULES_REVISION, VARIANTS, TaifaGame

    def make(variant: str, options: dict[str, Any], setup: dict[str, Any]) -> Game:
        from core.taifa.data import check_setup

        unknown = set(setup) - {"bots", "map", "cards"}
        if unknown:
            raise RulesError(f"unknown taifa setup field(s): {', '.join(sorted(unknown))}")
        check_setup(setup)
        bots = setup.get("bots")
        if bots is not None and (not isinstance(bots, list) or not all(isinstance(b, str) for b in bots)):
            raise RulesError("taifa setup 'bots' must be a list of kingdom keys")
        return TaifaGame(variant, options, bots)

    return GameInfo("taifa", RULES_REVISION, lambda: list(VARIANTS), make)


_GAMES: dict[str, Callable[[], GameInfo]] = {"tafl": _tafl, "taifa": _taifa}


def names() -> list[str]:
    return list(_GAMES)


def info(game: str) -> GameInfo:
    if game not in _GAMES:
        raise RulesError(f"unknown game {game!r} (known: {', '.join(_GAMES)})")
    return _GAMES[game]()


def new_game(
    game: str,
    variant: str,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    revision: int | None = None,
) -> Game:
    """A fresh game. ``revision`` is the rules revision a record names: an
    unknown one is refused with a clear reason rather than replayed wrongly."""
    gi = info(game)
    if revision is not None and revision != gi.revision:
        raise RulesError(
            f"the record uses {game} rules revision {revision}; this fiefdom plays revision {gi.revision}"
        )
    return gi.make(variant, dict(options or {}), dict(setup or {}))
