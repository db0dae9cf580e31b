"""Tafl: the traditional 11x11 game, the Tafl-Gild tournament rules (9x9, 11x11), and the
published Copenhagen 11x11, Fetlar 11x11 and Brandubh 7x7 rulesets."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.engine import Game, RulesError
from core.games import GameDescriptor, OptionSpec, SeatSpec
from core.match import Controller, Limit
from core.tafl.rules import ATTACKERS, DEFENDERS, RULES_REVISION, TaflGame
from core.tafl.variants import OPTION_SPECS, variant, variants

__all__ = ["ATTACKERS", "DEFENDERS", "GAME", "LEVELS", "RULES_REVISION", "TaflGame", "level", "variant",
           "variants"]

_TYPES = {bool: "bool", int: "int", str: "choice"}
AI_VERSION = "fiefdom-tafl-ai 5"  # recorded in seat details (core.tafl.ai reads it); bump when play changes
# The AI's reference speed: what a second of its time is in work (a review's, a batch's).
NODES_PER_SECOND = 40_000  # docs/performance.md, "Tafl: the AI", a busy machine


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


@dataclass(frozen=True)
class Level:
    """A named strength: caps on the search and the deliberate error of its root scores."""

    title: str
    depth: int | None  # the deepest search (None: as deep as the time allows)
    seconds: float | None  # the most time per move (None: the limit's)
    noise: int  # each root move's score gets a seeded offset below this (hundredths of an attacker)


# From a beginner who blunders pieces to the whole engine; "full" is the level of no level.
LEVELS: dict[str, Level] = {
    "beginner": Level("Beginner", 1, 0.2, 400),
    "casual": Level("Casual", 2, 0.5, 120),
    "strong": Level("Strong", 4, None, 0),
    "full": Level("Full", None, None, 0),  # the whole engine
}


def level(name: str | None) -> Level:
    """The level a Limit names (None: full); RulesError for an unknown name."""
    if name is None:
        return LEVELS["full"]
    if name not in LEVELS:
        raise RulesError(f"unknown tafl AI level {str(name)[:24]!r} (known: {', '.join(LEVELS)})")
    return LEVELS[name]


def _ai(seed: int, limit: Limit) -> Controller:
    from core.tafl.ai import TaflAI

    lv = level(limit.level)
    depth = limit.depth if lv.depth is None else min(limit.depth or lv.depth, lv.depth)
    if limit.nodes is not None and limit.seconds is None:
        # Work only (a batch's: GAME.batch_limit): no clock; a level's time is its work at the reference speed.
        nodes = limit.nodes if lv.seconds is None else min(limit.nodes, round(lv.seconds * NODES_PER_SECOND))
        return TaflAI(time_budget=math.inf, max_depth=depth, seed=seed, stop=limit.stop, noise=lv.noise,
                      max_nodes=max(1, nodes))
    seconds = 1.0 if limit.seconds is None else limit.seconds
    if lv.seconds is not None:
        seconds = min(seconds, lv.seconds)
    return TaflAI(time_budget=seconds, max_depth=depth, seed=seed, stop=limit.stop, noise=lv.noise,
                  max_nodes=limit.nodes)


def _reviewer() -> "Reviewer":
    from core.tafl.review import reviewer

    return reviewer()


GAME = GameDescriptor(
    name="tafl",
    title="Tafl",
    revision=RULES_REVISION,
    variants=tuple((key, v.title) for key, v in variants().items()),
    option_specs=_option_specs,
    seat_specs=_seats,
    build=_build,
    ai=_ai,
    reviewer=_reviewer,
    ai_version=AI_VERSION,
    ai_limit=Limit(seconds=1.0),
    batch_limit=Limit(nodes=NODES_PER_SECOND),  # the default second, at the reference speed
    ai_levels=tuple((key, lv.title) for key, lv in LEVELS.items()),
    has_chance=False,
    perfect_information=True,
)

# The engine contract, to the type checker (issue 28): mypy fails here, naming the member, when the
# game stops being a Game or its AI a Controller. Nothing of it runs.
if TYPE_CHECKING:
    from core.review import Reviewer
    from core.tafl.ai import TaflAI

    _CONTRACT: tuple[type[Game], type[Controller]] = (TaflGame, TaflAI)
