"""Which games a record may name, and how a header becomes a game.

Reading, replay and verify take a ``games`` lookup (``core.games.info`` unless
told otherwise), so a test can replay a game that is not registered in core.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from functools import cache
from importlib import metadata
from typing import Any

from core import games as core_games
from core.engine import Game, RulesError
from notation.deal import Deal
from notation.format import Header, Seat
from notation.wording import count, visible

# name -> GameDescriptor; raises RulesError for a game it does not know.
GameLookup = Callable[[str], core_games.GameDescriptor]


def build_game(header: Header, games: GameLookup = core_games.info) -> Game:
    """The game at step 0 of a record; RulesError says in one line why it cannot be built."""
    gi = games(header.game)
    options = gi.record_options(header.revision, header.variant, header.options)  # an older revision's filled in
    try:
        gi.check_variant(header.variant)
        game = gi.make(header.variant, options, dict(header.setup))
    except RulesError:
        raise
    except Exception as err:  # hostile options or setup must not escape as a traceback
        raise RulesError(f"the options or setup cannot start a {header.game} game ({type(err).__name__})") from None
    if len(game.seats) != len(header.seats):
        raise RulesError(f"{header.game} has {count(len(game.seats), 'seat')}; the header lists {len(header.seats)}")
    bots = game.bot_seats  # the seats the rulebook's own bot plays (Taifa 9)
    for i, seat in enumerate(header.seats):
        if (seat.kind == "bot") != (i in bots):
            raise RulesError(f"seat {i + 1} ({visible(seat.name)}) is listed as {seat.kind}, but the setup "
                             f"{'gives it to' if i in bots else 'does not give it to'} the rulebook bot")
    return game


@cache  # the installed version does not change while the process runs (and reading it costs ~0.3 ms)
def app_version() -> str:
    try:
        return "fiefdom " + metadata.version("fiefdom")
    except metadata.PackageNotFoundError:
        return "fiefdom (unknown version)"


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_header(
    game: str,
    variant: str,
    seats: Sequence[Seat],
    *,
    chance: str = "seeded",
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    games: GameLookup = core_games.info,
    app: str | None = None,
    created: str | None = None,
    deal: Deal | None = None,
) -> Header:
    """A header for a new record: the rules revision comes from the game's registry entry.
    ``deal``: the commitments and reveals ``seed`` came from (notation/deal.py)."""
    return Header(
        game=game,
        variant=variant,
        revision=games(game).revision,
        options=dict(options or {}),
        setup=dict(setup or {}),
        seats=tuple(seats),
        chance=chance,
        seed=seed,
        app=app if app is not None else app_version(),
        created=created if created is not None else utc_now(),
        deal=deal,
    )
