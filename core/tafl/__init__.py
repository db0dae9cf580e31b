"""Tafl: the traditional 11x11 game and the Tafl-Gild tournament rules (9x9, 11x11)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.engine import Game, RulesError
from core.games import GameDescriptor, OptionSpec, SeatSpec
from core.match import Controller, Limit
from core.tafl.rules import ATTACKERS, DEFENDERS, RULES_REVISION, TaflGame
from core.tafl.variants import OPTION_SPECS, variant, variants

__all__ = ["ATTACKERS", "DEFENDERS", "GAME", "RULES_REVISION", "TaflGame", "variant", "variants"]

_TYPES = {bool: "bool", int: "int", str: "choice"}
AI_VERSION = "fiefdom-tafl-ai 1"  # recorded in seat details (core.tafl.ai reads it); bump when play changes


def _option_specs(name: str) -> tuple[OptionSpec, ...]:
    v = variant(name)
    return tuple(OptionSpec(key, _TYPES[OPTION_SPECS[key].kind], default, OPTION_SPECS[key].ruling,
                            OPTION_SPECS[key].help, OPTION_SPECS[key].choices or (),
                            minimum=0 if OPTION_SPECS[key].kind is int else None)
                 for key, default in v.defaults.items())


def _seats(name: str) -> tuple[SeatSpec, ...]:
    return (SeatSpec("attackers", ("human", "ai", "random"), "human"),
            SeatSpec("defenders", ("human", "ai", "random"), "ai"))


def _build(name: str, options: dict[str, Any], setup: dict[str, Any], data: Mapping[str, Any]) -> Game:
    """A game at the variant's start, or at a set position (``setup``: position, to_move)."""
    unknown = set(setup) - {"position", "to_move"}
    if unknown:
        raise RulesError(f"unknown tafl setup field(s): {', '.join(sorted(map(str, unknown)))}")
    return TaflGame(name, options, setup.get("position"), setup.get("to_move", ATTACKERS))


def _ai(seed: int, limit: Limit) -> Controller:
    from core.tafl.ai import TaflAI

    return TaflAI(time_budget=1.0 if limit.seconds is None else limit.seconds, max_depth=limit.depth,
                  seed=seed, stop=limit.stop)


GAME = GameDescriptor(
    name="tafl",
    title="Tafl",
    revision=RULES_REVISION,
    variants=tuple((key, v.title) for key, v in variants().items()),
    option_specs=_option_specs,
    seat_specs=_seats,
    build=_build,
    ai=_ai,
    ai_version=AI_VERSION,
    ai_limit=Limit(seconds=1.0),
    has_chance=False,
)
