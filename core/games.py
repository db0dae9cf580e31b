"""The registry of games, and the descriptor every game package exports as ``GAME``.

Games are found by entry point: every installed distribution's ``fiefdom.games`` entry points
(``[project.entry-points."fiefdom.games"]`` in its pyproject.toml, ``tafl = "core.tafl"``) name
a game and the module whose ``GAME`` describes it (or ``"module:attr"``, the descriptor itself).
fiefdom's own three games are found that way too, exactly as a game in a package of its own would
be. The entry points are read once, when a game is first asked for, and a game's package is
imported the first time something asks for that game, so a program that never plays Taifa never
imports its engine. Tests add games of their own with :func:`register`. Everything else asks the
registry (DESIGN.md, "Games are plugins, in every layer").
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from core.engine import Game, RulesError
from core.match import Controller, Limit

if TYPE_CHECKING:
    from core.review import Reviewer

# The seat kinds a game may allow: a person, the game's AI (a controller), the
# rulebook's own bot (rules: the engine plays it and it never decides), a uniform random mover.
SEAT_KINDS = ("human", "ai", "bot", "random")

ENTRY_POINTS = "fiefdom.games"  # the entry-point group games are found in
# entry-point group -> name -> the entry point's value ("module" or "module:attr"), each read once.
_DECLARED: dict[str, dict[str, str]] = {}
# Entry points come sorted by name; the games fiefdom has always listed first (the setup form's
# first game is the first here) keep that order, and every other game follows in name order.
# An order only: a game here that no package declares is not a game.
LISTED_FIRST = ("tafl", "taifa", "kingdom")
_LOADED: dict[str, "GameDescriptor"] = {}
_WHOLE = re.compile(r"-?[0-9]{1,12}")  # a whole number as typed for an option


@dataclass(frozen=True)
class OptionSpec:
    """A rule option a player may set: its type, choices, default and the ruling behind it."""

    name: str
    type: str  # "bool", "int" or "choice"
    default: Any
    ruling: str  # the ruling id (docs/rulings/<game>.md) or rule section it comes from
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def coerce(self, value: Any) -> Any:
        """``value`` as this option's type (strings from a command line or a form are read);
        RulesError in one line when it cannot be."""
        if self.type == "bool":
            if isinstance(value, str):
                value = {"1": True, "true": True, "yes": True, "on": True,
                         "0": False, "false": False, "no": False, "off": False}.get(value.strip().lower(), value)
            if not isinstance(value, bool):
                raise RulesError(f"option {self.name} takes true or false")
            return value
        if self.type == "int":
            if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):  # never "²", "--5" or 5,000 digits
                value = int(value.strip())
            lo = -(10 ** 12) if self.minimum is None else self.minimum
            hi = 10 ** 12 if self.maximum is None else self.maximum
            if type(value) is not int or not lo <= value <= hi:
                where = f"{self.minimum}..{self.maximum}" if self.maximum is not None else f">= {lo}"
                shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:36] + "..."
                raise RulesError(f"option {self.name} takes a whole number {where}, not {shown}")
            return value
        if value not in self.choices:
            raise RulesError(f"option {self.name} takes one of: {', '.join(map(str, self.choices))}")
        return value


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a variant: its name and the kinds of player it allows (SEAT_KINDS)."""

    name: str
    kinds: tuple[str, ...]
    default: str  # the kind a new game's setup starts with


@dataclass(frozen=True)
class DataFile:
    """A file of the game's components a user may bring (Taifa's map or decks)."""

    key: str  # the setup field that names it in a record
    help: str
    load: Callable[[str], Any]  # a path -> the loaded data; RulesError in one line when it is unusable


@dataclass(frozen=True)
class GameDescriptor:
    """What a game tells every layer about itself (its package's ``GAME``).

    ``build(variant, options, setup, data)`` makes a game at its start; the
    record's ``setup`` names a user's own data files by fingerprint, and
    ``data`` holds the files themselves (bound with :meth:`with_data`), so a
    game's data travels with it and nothing is process-wide.
    """

    name: str
    title: str
    revision: int  # the rules revision records pin (docs/replay-format.md)
    variants: tuple[tuple[str, str], ...]  # (key, title)
    option_specs: Callable[[str], tuple[OptionSpec, ...]]  # the options of a variant
    seat_specs: Callable[[str], tuple[SeatSpec, ...]]  # the seats of a variant
    build: Callable[[str, dict[str, Any], dict[str, Any], Mapping[str, Any]], Game]
    # (variant, seat kinds, data) -> the setup fields a new record needs: which seats
    # the rulebook bot plays, the fingerprints of a user's data files.
    new_setup: Callable[[str, Sequence[str], Mapping[str, Any]], dict[str, Any]] = \
        lambda variant, kinds, data: {}
    ai: Callable[[int, Limit], Controller] | None = None  # (seed, limit) -> the game's AI
    ai_version: str = ""
    ai_limit: Limit = Limit()  # what an AI seat gets when nobody says otherwise
    # What an AI seat of a batch (simulate, a tournament) gets when nobody names a time: work, not
    # time, so that its records do not depend on the machine or its load. None: ai_limit, when that
    # is work already.
    batch_limit: Limit | None = None
    # (key, title) of the strengths its AI plays, weakest first: the key goes in Limit.level;
    # the last is the full engine. Empty: one strength only.
    ai_levels: tuple[tuple[str, str], ...] = ()
    bot_detail: str = "rulebook bot"  # where the rulebook defines its bots, for record headers
    variant_word: str = "variant"  # "variant" or "scenario", for prompts and forms
    has_chance: bool = True  # whether its rules ever throw dice (the setup then offers dice from a table)
    # Whether every seat sees the whole game (Tafl). A game with hidden information keeps its seed
    # from the people playing it and from a seat's export: the seed deals every card again.
    perfect_information: bool = False
    score_word: str = "scores"  # what a result's scores count, for the end of a game ("castles")
    data_files: tuple[DataFile, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)  # a user's own data files, loaded
    # (older revision, variant) -> the option values that play that revision's rules, or None
    # when this fiefdom cannot play it (docs/replay-format.md, section 8).
    revision_options: Callable[[int, str], dict[str, Any] | None] = lambda revision, variant: None
    # (older revision, variant) -> the defaults that revision had for options it already had and
    # a later one changed (Take the Kingdom's `nobles`): a record that leaves one out gets the old one.
    revision_defaults: Callable[[int, str], dict[str, Any]] = lambda revision, variant: {}
    # (the game at its start, a seat's view of it later, the seat or None) -> a game at that point as
    # far as the view tells (``rebuilt.view(seat) == view``), for a networked client that holds only
    # its seat's view; None: the game needs none (perfect information: the client replays the moves).
    from_view: Callable[[Game, Any, int | None], Game] | None = None
    # () -> the game's reviewer (core/review.py): judges a record's decisions; None: no review.
    reviewer: Callable[[], "Reviewer"] | None = None

    # -- what every layer calls ---------------------------------------------------

    def variant_keys(self) -> list[str]:
        return [key for key, _ in self.variants]

    def check_variant(self, variant: str) -> None:
        if variant not in self.variant_keys():
            raise RulesError(f"unknown {self.name} {self.variant_word} {variant!r} "
                             f"(known: {', '.join(self.variant_keys())})")

    def make(self, variant: str, options: dict[str, Any] | None = None,
             setup: dict[str, Any] | None = None) -> Game:
        """A game at its start (RulesError in one line for an unknown variant or a bad option)."""
        self.check_variant(variant)
        return self.build(variant, dict(options or {}), dict(setup or {}), self.data)

    def make_ai(self, seed: int, limit: Limit | None = None) -> Controller:
        if self.ai is None:
            raise RulesError(f"{self.title} has no AI player in this fiefdom")
        return self.ai(seed, limit or self.ai_limit)

    def setup_for(self, variant: str, kinds: Sequence[str]) -> dict[str, Any]:
        """The setup of a new game whose seats are played by ``kinds``."""
        return self.new_setup(variant, kinds, self.data)

    def with_data(self, data: Mapping[str, Any]) -> "GameDescriptor":
        """This game with a user's own data files (key -> loaded data) in place of the packaged ones."""
        return replace(self, data={**self.data, **data})

    def options_of(self, variant: str, given: Mapping[str, Any]) -> dict[str, Any]:
        """``given`` checked against the variant's option specs (names and values), as typed values."""
        specs = {s.name: s for s in self.option_specs(variant)}
        out = {}
        for name, value in given.items():
            if name not in specs:
                known = ", ".join(specs) or "none"
                raise RulesError(f"option {name!r} does not apply to {self.name} {variant} (options: {known})")
            out[name] = specs[name].coerce(value)
        return out

    def record_options(self, revision: int, variant: str, given: Mapping[str, Any]) -> dict[str, Any]:
        """The options a record of ``revision`` is played with: ``given``, plus, for an older
        revision this fiefdom still plays, the values that reproduce its rules. RulesError
        for a revision it does not play."""
        if revision == self.revision:
            return dict(given)
        old = self.revision_options(revision, variant) if revision < self.revision else None
        if old is None:
            raise RulesError(f"this record uses {self.name} rules revision {revision}; "
                             f"this fiefdom plays revision {self.revision}")
        newer = sorted(set(given) & set(old))
        if newer:
            raise RulesError(f"option {newer[0]!r} did not exist in {self.name} rules revision {revision}")
        return {**self.revision_defaults(revision, variant), **dict(given), **old}

    def check_seats(self, variant: str, kinds: Sequence[str]) -> None:
        """One line saying what is wrong when ``kinds`` is not a seat kind each seat allows."""
        seats = self.seat_specs(variant)
        if len(kinds) != len(seats):
            raise RulesError(f"{self.name} {variant} has {len(seats)} seats ({', '.join(s.name for s in seats)}); "
                             f"{len(kinds)} given")
        for seat, kind in zip(seats, kinds):
            if kind not in seat.kinds:
                raise RulesError(f"{seat.name} may be {', '.join(seat.kinds)}, not {kind!r}")


# -- the registry ------------------------------------------------------------------


def declared(group: str) -> dict[str, str]:
    """What the installed packages declare in an entry-point group, read once a group: game name ->
    the entry point's value, in the order games are listed. When two declare one name, the first
    found keeps it. Games are declared in ``fiefdom.games``; the notation and tui layers find a
    game's plugins in their own groups (``fiefdom.notation``, ``fiefdom.tui``), so a game in a
    package of its own brings its board and its export formats the same way."""
    if group not in _DECLARED:
        from importlib import metadata  # only when a game is first named

        found: dict[str, str] = {}
        for point in metadata.entry_points(group=group):
            found.setdefault(point.name, point.value)
        order = {name: n for n, name in enumerate(LISTED_FIRST)}
        _DECLARED[group] = dict(sorted(found.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))
    return _DECLARED[group]


def _modules() -> dict[str, str]:
    """The games the installed packages declare: name -> "module" or "module:attr"."""
    return declared(ENTRY_POINTS)


def names() -> list[str]:
    return list(_modules())


def _load(ref: str) -> GameDescriptor:
    """The descriptor an entry point names: ``module`` (its GAME) or ``module:attr``."""
    module, _, attr = ref.partition(":")
    try:  # another package's game may be broken: one line, not a traceback
        found: Any = importlib.import_module(module.strip())
        for part in (attr.strip().split(".") if attr.strip() else ["GAME"]):
            found = getattr(found, part)
    except (ImportError, AttributeError) as err:
        raise RulesError(f"the game {ref} cannot be loaded: {err}") from None
    if not isinstance(found, GameDescriptor):
        raise RulesError(f"{ref} is not a fiefdom game (a GameDescriptor)")
    return found


def info(game: str) -> GameDescriptor:
    """The descriptor of ``game``; RulesError for a game this fiefdom does not play."""
    if game not in _LOADED:
        modules = _modules()
        if not isinstance(game, str) or game not in modules:
            known = ", ".join(modules) or "none: is fiefdom installed? (pip install -e .)"
            raise RulesError(f"unknown game {str(game)[:40]!r} (known: {known})")
        _LOADED[game] = _load(modules[game])
    return _LOADED[game]


def register(descriptor: GameDescriptor | str, module: str | None = None) -> None:
    """Add a game beside the installed ones (tests): a descriptor, or a name and the module
    (``module`` or ``module:attr``) that describes it, as an entry point would name it."""
    modules = _modules()
    if isinstance(descriptor, GameDescriptor):
        modules[descriptor.name] = module or f"<registered {descriptor.name}>"
        _LOADED[descriptor.name] = descriptor
    else:
        assert module is not None
        modules[descriptor] = module
        _LOADED.pop(descriptor, None)


def unregister(name: str) -> None:
    _modules().pop(name, None)
    _LOADED.pop(name, None)


@dataclass(frozen=True)
class Lookup:
    """A registry lookup whose games carry a user's data files (game -> key -> loaded data). An
    object rather than a closure: it travels to another process (a batch's workers) with its data."""

    data: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __call__(self, game: str) -> GameDescriptor:
        gi = info(game)
        own = self.data.get(game)
        return gi.with_data(own) if own else gi


def lookup(data: Mapping[str, Mapping[str, Any]] | None = None) -> Callable[[str], GameDescriptor]:
    """A registry lookup whose games carry a user's data files (game -> key -> loaded data)."""
    return Lookup(dict(data or {}))


def new_game(
    game: str,
    variant: str,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    revision: int | None = None,
) -> Game:
    """A fresh game. ``revision`` is the rules revision a record names: an older one the
    game still plays gets the options that reproduce it; any other is refused with a
    clear reason rather than replayed wrongly."""
    gi = info(game)
    if revision is not None:
        options = gi.record_options(revision, variant, options or {})
    return gi.make(variant, options, setup)
