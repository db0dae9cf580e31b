"""A game rebuilt from one seat's view (``GameDescriptor.from_view``), as a networked client holds
it: it shows that seat exactly the view it was built from, and the prompt draws from it the same
text as from the real game, at every point of seeded random games of every variant and scenario.
The rebuilt game shares nothing mutable with the game it started from or with the view, and is
never played on."""

from __future__ import annotations

import copy
import dataclasses
import io
from collections.abc import Callable, Iterator
from inspect import isfunction
from types import MethodType
from typing import Any

import pytest
from rich.console import Console

from core.chance import draw
from core.engine import TABLE, Chance, Decision, Game, Over, Point, RulesError
from core.games import info
from core.rng import SplitMix64
from core.taifa import kingdoms_of
from tui.console import extras_for
from tui.games import position_text
from tui.games.kingdom import panes as kingdom_panes
from tui.games.taifa import map as taifa_map
from tui.games.taifa import panes as taifa_panes

# (game, variant, options, which seats the rulebook bot plays (Taifa), seeds)
CASES: list[tuple[str, str, dict[str, Any], tuple[int, ...], tuple[int, ...]]] = [
    ("kingdom", "multi-2", {}, (), (1, 2)),
    ("kingdom", "multi-3", {"survival": True}, (), (3, 4)),
    ("kingdom", "multi-4", {"nobles": "deal", "always_ask": False}, (), (5, 6)),
    ("kingdom", "solo", {"difficulty": "expert"}, (), (7, 8)),
    ("kingdom", "solo", {"difficulty": "easy", "penalty_to_player": True}, (), (9,)),
    ("taifa", "standard", {}, (1, 2, 4), (1,)),
    ("taifa", "standard", {}, (0, 3, 5), (2,)),
    ("taifa", "el-cid", {"almoravid_hand": 14}, (0, 2), (3,)),
    ("taifa", "el-cid", {}, (1, 3), (4,)),
]
IDS = [f"{g}-{v}-{n}" for n, (g, v, _, _, _) in enumerate(CASES)]
# The views are compared at every step of every seed's game; in the first seed's, the prompt's texts
# at every 8th step and the screen's at every 40th, and both at the end (drawing is the slow part),
# drawn from a game rebuilt from the view as a client receives it (its arrays read back as tuples).
TEXT_EVERY, SCREEN_EVERY = 8, 40


def start(game: str, variant: str, options: dict[str, Any], bots: tuple[int, ...]) -> Game:
    setup = {"bots": [k for i, k in enumerate(kingdoms_of(variant)) if i in bots]} if game == "taifa" else {}
    return info(game).make(variant, options, setup)


def steps(game: str, variant: str, options: dict[str, Any], bots: tuple[int, ...], seed: int) -> Iterator[Game]:
    """A game of random choices and seeded chance, yielded at its start and after each step."""
    g = start(game, variant, options, bots)
    rng = SplitMix64(seed)
    for _ in range(3000):
        yield g
        p = g.point()
        if isinstance(p, Over):
            return
        g.resolve(draw(rng, p)) if isinstance(p, Chance) else g.apply(p.options[rng.below(len(p.options))])
    raise AssertionError(f"{game} {variant} seed {seed} did not end")


class AtPoint:
    """The rebuilt game as the client holds it: its point is the one the host sends. The game's
    methods run on this wrapper, so a method that reads the point (``describe`` tells two like
    cards among the options apart) reads that one too."""

    def __init__(self, game: Game, point: Point) -> None:
        self._game, self._point = game, point

    def point(self) -> Point:
        return self._point

    def __getattr__(self, name: str) -> Any:
        method = getattr(type(self._game), name, None)
        return MethodType(method, self) if isfunction(method) else getattr(self._game, name)


def prompt_texts(game: Any, seat: int | None) -> dict[str, str]:
    """What the prompt shows ``seat`` (None: a spectator's table): the table, and at its own
    decision the header, each option in words with its note, and every command's text."""
    extras = extras_for(game.game)
    out = {"table": position_text(game, seat)}
    point = game.point()
    if seat is None or not isinstance(point, Decision) or point.seat != seat:
        return out
    if extras.header is not None:
        out["header"] = extras.header(game, seat)
    for code in point.options:
        out[f"option {code}"] = game.describe(code) + (extras.about(game, code) if extras.about else "")
    for command in extras.commands:
        out[command.word] = command.show(game, seat)
    return out


# The panes of each game's play screen, each drawn from a seat's view (tui/games/<game>/panes.py).
PANES = {"kingdom": (kingdom_panes.TurnLine, kingdom_panes.KingdomsPane, kingdom_panes.HandPane,
                     kingdom_panes.RoundPane),
         "taifa": (taifa_panes.TurnLine, taifa_panes.KingdomsPane, taifa_panes.HandPane, taifa_panes.CombatPane)}


def screen_texts(game: Any, seat: int | None) -> dict[str, str]:
    """What the play screen's panes draw for ``seat``, as plain text; for Taifa, the map's
    details of the area fought over too, else of the capital of the kingdom whose round it is."""
    out = {}
    for pane in PANES[game.game]:
        console = Console(file=io.StringIO(), width=100, color_system=None)
        console.print(pane(game, seat).draw(100))
        out[pane.__name__] = console.file.getvalue()  # type: ignore[attr-defined]
    if game.game == "taifa":
        view = game.view(seat)
        fight = view["fight"]
        a = fight["area"] if fight and fight["area"] else view["kingdoms"][view["current"]]["capital"]
        out["area"] = taifa_map.details(game, view, a, {}).plain
    return out


def seats_of(g: Game) -> list[int | None]:
    return [*range(len(g.seats)), None]


def arrays_as_tuples(value: Any) -> Any:
    """A view as a client receives it: msgpack has one kind of array, read back as tuples, where the
    view has lists too (Taifa's ``last_combat``)."""
    if isinstance(value, dict):
        return {k: arrays_as_tuples(v) for k, v in value.items()}
    return tuple(map(arrays_as_tuples, value)) if isinstance(value, (list, tuple)) else value


def rebuilder(game: str) -> Callable[[Game, Any, int | None], Game]:
    rebuild = info(game).from_view
    assert rebuild is not None, f"{game} rebuilds no game from a view"
    return rebuild


@pytest.mark.parametrize("game,variant,options,bots,seeds", CASES, ids=IDS)
def test_a_rebuilt_game_shows_its_seat_the_view_and_the_prompt_it_was_built_from(
        game: str, variant: str, options: dict[str, Any], bots: tuple[int, ...], seeds: tuple[int, ...]) -> None:
    rebuild, first = rebuilder(game), start(game, variant, options, bots)
    for seed in seeds:
        for n, g in enumerate(steps(game, variant, options, bots, seed)):
            for seat in seats_of(g):
                view = g.view(seat)
                rebuilt = rebuild(first, view, seat)
                assert rebuilt.view(seat) == view, f"seed {seed} step {n} seat {seat}"
                if seed != seeds[0]:
                    continue
                last = isinstance(g.point(), Over)
                if n % TEXT_EVERY and not last:
                    continue
                client = AtPoint(rebuild(first, arrays_as_tuples(view), seat), g.point())
                assert prompt_texts(client, seat) == prompt_texts(g, seat), f"seed {seed} step {n} seat {seat}"
                if n % SCREEN_EVERY == 0 or last:
                    assert screen_texts(client, seat) == screen_texts(g, seat), f"seed {seed} step {n} seat {seat}"


def scribble(value: Any, seen: set[int]) -> None:
    """Change every list and dict reachable from ``value`` (a state, its dataclasses, tuples of them)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, list):
        for v in value:
            scribble(v, seen)
        value.append("scribbled")
    elif isinstance(value, dict):
        for v in list(value.values()):
            scribble(v, seen)
        value["scribbled"] = ()
    elif isinstance(value, tuple):
        for v in value:
            scribble(v, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            scribble(getattr(value, f.name), seen)


@pytest.mark.parametrize("game,variant,options,bots,seeds", CASES, ids=IDS)
def test_a_rebuilt_game_shares_nothing_that_changes_and_is_never_played(
        game: str, variant: str, options: dict[str, Any], bots: tuple[int, ...], seeds: tuple[int, ...]) -> None:
    rebuild, first = rebuilder(game), start(game, variant, options, bots)
    before = first.canonical()
    for n, g in enumerate(steps(game, variant, options, bots, seeds[0])):
        if n % 40 or isinstance(g.point(), Over):
            continue
        for seat in [*seats_of(g), TABLE]:  # the full table's view too: every hand and every deck's order
            view = g.view(seat)
            kept = copy.deepcopy(view)
            rebuilt = rebuild(first, view, seat)
            assert rebuilt.view(seat) == view
            scribble(rebuilt.s, set())
            scribble(rebuilt.options, set())
            assert view == kept and g.view(seat) == kept
            with pytest.raises(RulesError, match="a frame"):  # a legal answer, refused: it is a picture
                p = rebuilt.point()
                rebuilt.resolve(draw(SplitMix64(n), p)) if isinstance(p, Chance) else rebuilt.apply(p.options[0])
    assert first.canonical() == before
