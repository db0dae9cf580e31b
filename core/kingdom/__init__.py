"""Take the Kingdom: the card game of castles and sieges (take-the-kingdom.txt), for 2 to 4
players, or solo against two enemy kingdoms.

``GAME`` describes it to every layer; the engine is imported only when a game is made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from core.engine import Game, RulesError
from core.games import DataFile, GameDescriptor, OptionSpec, SeatSpec
from core.match import Controller, Limit

RULES_REVISION = 4  # 2: KD-30, the questions a hidden hand could answer are asked whether it holds the card;
# 3 and 4: the rulings of issue 27 (docs/rulings/kingdom.md, "Revisions")
AI_VERSION = "kingdom-ai 3"  # core.kingdom.ai checks it is its own
PLAYERS = (2, 3, 4)  # KD-1: a Castle and a Mercy for each of up to four players
VARIANTS = (*((f"multi-{n}", f"{n} players") for n in PLAYERS), ("solo", "Solo against two enemy kingdoms"))
DIFFICULTIES = ("easy", "medium", "difficult", "expert")  # "Solo rules"


@lru_cache(maxsize=8)
def _option_specs(variant: str) -> tuple[OptionSpec, ...]:
    """Made once a variant (frozen specs): every game built reads them."""
    from core.kingdom.game import option_specs

    adds_up, lowers, reversal, gold, raid = (
        next(s for s in option_specs() if s.name == name)
        for name in ("damage_adds_up", "damage_lowers_score", "reversal_springs_no_trap", "gold_counterable",
                     "dawn_raid_unanswerable"))
    if variant != "solo":
        return option_specs()
    return (
        OptionSpec("difficulty", "choice", "easy", "kingdom solo", "the difficulty level (the setup table)",
                   choices=DIFFICULTIES),
        OptionSpec("penalty_to_player", "bool", False, "KD-22",
                   "a revealed Penalty must be given to you (as reviews of the game say), not to an enemy"),
        adds_up,
        lowers,
        reversal,
        gold,
        raid,
        OptionSpec("enemy_mercenaries_defend_only", "bool", False, "KD-25",
                   "an enemy whose kingdom has no room for Mercenaries discards them rather than attacking "
                   "with them (revision 2)"),
        OptionSpec("famine_until_next_play", "bool", False, "KD-23",
                   "a kingdom's Famine lasts until it next plays, not only the round (revision 2)"),
    )


# The option values that play revision 1's rules: a revision-1 record is replayed with these
# (docs/rulings/kingdom.md, "Revisions"), and an option at this value is left out of the
# canonical form, so a revision-1 record's digests still match.
REVISION_1 = {"always_ask": False}
# The same for revision 2: the values that play its rules (a revision-1 record takes these too).
REVISION_2: dict[str, Any] = {"pass_round_ends": True, "famine_own_turn": True, "famine_until_next_play": True,
                              "enemy_mercenaries_defend_only": True, "reversal_springs_no_trap": True,
                              "gold_counterable": True, "dawn_raid_unanswerable": True,
                              "deny_blocks_spread": True}


# The same for revision 3 (revisions 1 and 2 take these too).
REVISION_3: dict[str, Any] = {"draft_may_fall_short": True, "damage_lowers_score": True}
# Options revision 3 had with another default: a record of revision 3 or older that leaves one out
# is played with the old default (its value stays in the canonical form, as it always was).
REVISION_3_DEFAULTS: dict[str, Any] = {"nobles": "deal"}


def old_value(name: str, value: Any) -> bool:
    """Whether option ``name`` at ``value`` plays an older revision's rules: such an option is
    left out of the canonical form, so the older records' digests still match."""
    return any(name in old and old[name] == value for old in (REVISION_1, REVISION_2, REVISION_3))


def _revision_options(revision: int, variant: str) -> dict[str, Any] | None:
    """The options that make this fiefdom play an older ``revision`` (None: it cannot)."""
    if revision not in (1, 2, 3):
        return None
    names = {s.name for s in _option_specs(variant)}
    old = {**REVISION_3, **(REVISION_2 if revision <= 2 else {}), **(REVISION_1 if revision == 1 else {})}
    return {name: value for name, value in old.items() if name in names}


def _revision_defaults(revision: int, variant: str) -> dict[str, Any]:
    names = {s.name for s in _option_specs(variant)}
    return {name: value for name, value in REVISION_3_DEFAULTS.items() if name in names} if revision <= 3 else {}


def _seats(variant: str) -> tuple[SeatSpec, ...]:
    if variant == "solo":
        return (SeatSpec("You", ("human", "ai", "random"), "human"),
                SeatSpec("Enemy 1", ("bot",), "bot"), SeatSpec("Enemy 2", ("bot",), "bot"))
    n = int(variant.removeprefix("multi-"))
    return tuple(SeatSpec(f"Player {i + 1}", ("human", "ai", "random"), "human" if i == 0 else "ai")
                 for i in range(n))


def _new_setup(variant: str, kinds: Sequence[str], data: Mapping[str, Any]) -> dict[str, Any]:
    own = data.get("cards")
    return {"cards": own.fingerprint()} if own is not None else {}


def _cards(setup: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
    """The cards a game is played with: the user's own where the setup names their fingerprint."""
    from core.kingdom.cards import packaged_cards

    unknown = set(setup) - {"cards"}
    if unknown:
        raise RulesError(f"unknown kingdom setup field(s): {', '.join(sorted(map(str, unknown)))}")
    wanted, own = setup.get("cards"), data.get("cards")
    have = own.fingerprint() if own is not None else None
    if wanted is not None and not isinstance(wanted, str):
        raise RulesError("kingdom setup 'cards' must be a fingerprint string")
    if wanted != have:
        if wanted is None:
            raise RulesError("this record was played with the packaged cards; leave out --cards")
        raise RulesError(f"this record was played with its own cards (fingerprint {wanted}); "
                         f"give that file with --cards" + (f" (this one is {have})" if have else ""))
    return own if own is not None else packaged_cards()


def _build(variant: str, options: dict[str, Any], setup: dict[str, Any], data: Mapping[str, Any]) -> Game:
    cards = _cards(setup, data)
    if variant == "solo":
        from core.kingdom.solo import SoloGame

        return SoloGame(options, cards)
    from core.kingdom.game import KingdomGame

    return KingdomGame(variant, options, cards)


def _ai(seed: int, limit: Limit) -> Controller:
    from core.kingdom.ai import KingdomAI

    return KingdomAI(seed, level=limit.level, stop=limit.stop)


def _from_view(start: Game, view: Any, seat: int | None) -> Game:
    from core.kingdom.from_view import from_view

    return from_view(start, view, seat)


def _load_cards(path: str) -> Any:
    from core.kingdom.cards import load_cards

    return load_cards(path)


def _reviewer() -> "Reviewer":
    from core.kingdom.review import reviewer

    return reviewer()


GAME = GameDescriptor(
    name="kingdom",
    title="Take the Kingdom",
    revision=RULES_REVISION,
    revision_options=_revision_options,
    revision_defaults=_revision_defaults,
    variants=VARIANTS,
    option_specs=_option_specs,
    seat_specs=_seats,
    build=_build,
    new_setup=_new_setup,
    ai=_ai,
    reviewer=_reviewer,
    from_view=_from_view,
    ai_version=AI_VERSION,
    # core/kingdom/ai.py LEVELS; strongest last, the form's default (docs/kingdom-ai.md)
    ai_levels=(("greedy", "Greedy (the baseline)"), ("casual", "Casual (Full, a random option one time in 4)"),
               ("full", "Full")),
    bot_detail="enemy kingdom (kingdom solo: enemy rules)",
    score_word="defence points",
    has_chance=False,  # shuffles only: no dice a person could throw on a table
    data_files=(DataFile("cards", "your own cards file (TOML, see docs/kingdom-cards.md)", _load_cards),),
)

# The engine contract, to the type checker (issue 28): see core/tafl/__init__.py. Both games.
if TYPE_CHECKING:
    from core.review import Reviewer
    from core.kingdom.ai import KingdomAI
    from core.kingdom.game import KingdomGame
    from core.kingdom.solo import SoloGame

    _CONTRACT: tuple[type[Game], type[Game], type[Controller]] = (KingdomGame, SoloGame, KingdomAI)
