"""The one letter-case rule for choices on the command line (issue 26).

A word chosen from a fixed list (a variant or scenario, a mode, a difficulty, a seat kind or
AI level, a side, an export format, a data file's key, a rule option's name and a choice
option's value; a seat's name where one is asked for) is matched whatever its letter case and
the spaces around it, and is used, recorded and shown in the spelling of the list: ``--mode
SOLO`` plays ``solo`` and the record says ``solo``. Flags themselves (``--seats``) are spelled
as ``--help`` shows them, as every command line does. A word that names nothing in its list is
passed on as typed, for the command to refuse in its own one line.

Nothing here names a game: the lists come from each game's descriptor or command.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def canonical(value: str, choices: Iterable[Any]) -> str:
    """``value`` spelled as the choice it names, letter case and surrounding spaces aside; ``value``
    as typed when it names none."""
    word = value.strip().casefold()
    for choice in choices:
        if isinstance(choice, str) and choice.casefold() == word:
            return choice
    return value


def canonical_list(value: str, choices: Iterable[Any]) -> list[str]:
    """A comma-separated list of choices (``--seats AI,ai,Random``), each spelled as in ``choices``."""
    listed = tuple(choices)
    return [canonical(word, listed).strip() for word in value.split(",")]


def variant(game: str, value: str) -> str:
    """A variant or scenario of ``game`` (``--variant GILD-9``, ``--scenario El-Cid``) as the game names it."""
    from core import games as core_games

    return canonical(value, (key for key, _ in core_games.info(game).variants))


def rule_options(game: str, variant_key: str, pairs: Sequence[str]) -> dict[str, Any]:
    """``--option name=value`` pairs, each name and each value of a choice option spelled as the
    variant's option specs spell it (``-o NOBLES=Choose`` is ``nobles=choose``; true/false and
    numbers the game reads itself); names the variant does not have are left for the game to refuse."""
    from core import games as core_games
    from core.engine import RulesError
    from tui.cli_support import parse_options

    given = parse_options(pairs)
    try:
        specs = core_games.info(game).option_specs(variant_key)
    except RulesError:  # an unknown variant: the game says so
        return given
    by_name = {s.name.casefold(): s for s in specs}
    out: dict[str, Any] = {}
    for name, value in given.items():
        spec = by_name.get(name.casefold())  # parse_options strips the name
        if spec is None:
            out[name] = value
            continue
        out[spec.name] = canonical(value, spec.choices) if spec.type == "choice" else value
    return out
