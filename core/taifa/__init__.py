"""Taifa: the card-driven map wargame of 11th-century Iberia (taifa-en.txt), and its El Cid scenario.

``GAME`` describes it to every layer; the engine is imported only when a game is made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from core.engine import Game, RulesError
from core.games import DataFile, GameDescriptor, OptionSpec, SeatSpec
from core.match import Controller, Limit
from core.taifa.map import EL_CID_KINGDOMS, KINGDOM_NAMES, KINGDOMS

RULES_REVISION = 2  # core.taifa.game checks it is its own; 2: the rulings of issue 10 (docs/rulings/taifa.md)
SCENARIOS = (("standard", "Standard game (six kingdoms)"), ("el-cid", "El Cid (solitaire, four kingdoms)"))
AI_VERSION = "taifa-ai 2"  # core.taifa.ai checks it is its own


def kingdoms_of(scenario: str) -> tuple[str, ...]:
    return EL_CID_KINGDOMS if scenario == "el-cid" else KINGDOMS


def _option_specs(scenario: str) -> tuple[OptionSpec, ...]:
    """The rule options: El Cid's hand size, and the disputed rulings (defaults: the most faithful reading)."""
    specs = (
        OptionSpec("response_rounds", "bool", True, "TA-18",
                   "response windows go round until every kingdom declines in a row (off: one window each)"),
        OptionSpec("attack_by_response", "bool", True, "TA-19",
                   "an attack may be carried by a Response that adds dice, without a Troop card"),
        OptionSpec("bots_respond_to_incursions", "bool", False, "TA-22",
                   "a bot spends a Response against an incursion (9.4 counts attacking troops: off)"),
        OptionSpec("bots_join_fights", "bool", True, "TA-30",
                   "bots add Responses to other kingdoms' fights, against the leader"),
        OptionSpec("truce_bars_incursion_events", "bool", False, "TA-15",
                   "a truce that forbids incursions (El Cid's) also bars incursion events such as Cabalgada"),
    )
    if scenario != "el-cid":
        return specs
    hand = OptionSpec("almoravid_hand", "int", 12, "taifa 10.3",
                      "cards the Almoravids draw each turn: 12, or more for a harder game", minimum=12, maximum=16)
    return (hand, *specs)


# The option values that play revision 1's rules: a revision-1 record is replayed with these
# (docs/rulings/taifa.md, "Revisions"), and an option at this value is left out of the
# canonical form, so a revision-1 record's digests still match.
REVISION_1 = {"response_rounds": False, "attack_by_response": False, "bots_respond_to_incursions": True,
              "bots_join_fights": False, "truce_bars_incursion_events": True}


def _revision_options(revision: int, scenario: str) -> dict[str, Any] | None:
    """The options that make this fiefdom play an older ``revision`` (None: it cannot)."""
    if revision != 1:
        return None
    names = {s.name for s in _option_specs(scenario)}
    return {name: value for name, value in REVISION_1.items() if name in names}


def _seats(scenario: str) -> tuple[SeatSpec, ...]:
    you = "el_cid" if scenario == "el-cid" else "castile"
    return tuple(SeatSpec(KINGDOM_NAMES[k], ("human", "bot", "ai", "random"), "human" if k == you else "bot")
                 for k in kingdoms_of(scenario))


def _new_setup(scenario: str, kinds: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
    """Which kingdoms the rulebook bot plays (section 9), and the fingerprints of the user's own data."""
    from core.taifa.data import setup_fields

    bots = [k for k, kind in zip(kingdoms_of(scenario), kinds) if kind == "bot"]
    return {"bots": bots, **setup_fields(data)}


def _build(scenario: str, options: dict[str, Any], setup: dict[str, Any], data: Mapping[str, Any]) -> Game:
    from core.taifa.data import resolve
    from core.taifa.game import TaifaGame

    unknown = set(setup) - {"bots", "map", "cards"}
    if unknown:
        raise RulesError(f"unknown taifa setup field(s): {', '.join(sorted(map(str, unknown)))}")
    bots = setup.get("bots")
    if bots is not None and (not isinstance(bots, list) or not all(isinstance(b, str) for b in bots)):
        raise RulesError("taifa setup 'bots' must be a list of kingdom keys")
    taifa_map, decks = resolve(setup, data)
    return TaifaGame(scenario, options, bots, taifa_map, decks)


def _ai(seed: int, limit: Limit) -> Controller:
    from core.taifa.ai import TaifaAI

    return TaifaAI(seed, rollouts=limit.rollouts, stop=limit.stop)


def _load_map(path: str) -> Any:
    from core.taifa.map import load_map

    return load_map(path)


def _from_view(start: Game, view: Any, seat: int | None) -> Game:
    from core.taifa.from_view import from_view

    return from_view(start, view, seat)


def _load_cards(path: str) -> Any:
    from core.taifa.cards import load_cards

    return load_cards(path)


def _reviewer() -> "Reviewer":
    from core.taifa.review import reviewer

    return reviewer()


GAME = GameDescriptor(
    name="taifa",
    title="Taifa",
    revision=RULES_REVISION,
    variants=SCENARIOS,
    option_specs=_option_specs,
    revision_options=_revision_options,
    seat_specs=_seats,
    build=_build,
    new_setup=_new_setup,
    ai=_ai,
    reviewer=_reviewer,
    from_view=_from_view,
    ai_version=AI_VERSION,
    bot_detail="rulebook bot (taifa 9)",
    variant_word="scenario",
    score_word="castles",
    data_files=(DataFile("map", "your own map file (TOML, see docs/taifa-map.md)", _load_map),
                DataFile("cards", "your own decks file (TOML, see docs/taifa-cards.md)", _load_cards)),
)

# The engine contract, to the type checker (issue 28): see core/tafl/__init__.py.
if TYPE_CHECKING:
    from core.review import Reviewer
    from core.taifa.ai import TaifaAI
    from core.taifa.game import TaifaGame

    _CONTRACT: tuple[type[Game], type[Controller]] = (TaifaGame, TaifaAI)
