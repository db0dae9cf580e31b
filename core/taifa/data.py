"""Which map and decks a Taifa game is played with: the packaged reconstruction,
or a user's own files (``--map`` / ``--cards``), and their fingerprints.

A record made on a user's own map or decks names their fingerprints in its
setup, so it replays only with the same files and says so clearly otherwise.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from core.digest import digest
from core.engine import RulesError
from core.taifa.cards import Decks, load_cards
from core.taifa.map import TaifaMap, load_map

_custom: dict[str, Any] = {"map": None, "cards": None}


@lru_cache(maxsize=1)
def packaged_map() -> TaifaMap:
    return load_map()


@lru_cache(maxsize=1)
def packaged_cards() -> Decks:
    return load_cards()


def use_data(taifa_map: TaifaMap | None = None, decks: Decks | None = None) -> None:
    """Play and replay with these (None: the packaged reconstruction)."""
    _custom["map"], _custom["cards"] = taifa_map, decks


def active_map() -> TaifaMap:
    return _custom["map"] or packaged_map()


def active_cards() -> Decks:
    return _custom["cards"] or packaged_cards()


def map_fingerprint(m: TaifaMap) -> str:
    """A short hex digest of everything the rules read from a map."""
    areas = [[a.id, a.name, a.defence, list(a.borders), a.owner, a.capital, a.garrison, a.invasion, a.east]
             for a in m.areas]
    cid = m.el_cid
    el_cid = [list(cid.kingdoms), sorted([a, o] for a, o in cid.owners.items()),
              sorted([k, a] for k, a in cid.capitals.items()), sorted(cid.garrisons)]
    return digest([areas, el_cid]).hex()[:16]


def cards_fingerprint(d: Decks) -> str:
    """A short hex digest of everything the rules read from the decks."""
    rows = [[c.id, c.deck, c.name, c.kind, sorted(c.markers), c.strength, list(c.when), c.who, c.target,
             [[e.op, sorted([k, v if not isinstance(v, list) else list(v)] for k, v in e.params.items())]
              for e in c.effect + (c.bot or ())], c.bot is not None]
            for deck in d for c in deck]
    return digest(rows).hex()[:16]


def setup_fields() -> dict[str, str]:
    """What a new record's setup says about the data: nothing for the packaged files."""
    out = {}
    if _custom["map"] is not None:
        out["map"] = map_fingerprint(_custom["map"])
    if _custom["cards"] is not None:
        out["cards"] = cards_fingerprint(_custom["cards"])
    return out


def check_setup(setup: dict[str, Any]) -> None:
    """Refuse, in one line, to replay a record on other data than it was played with."""
    for key, flag, active, fingerprint in (("map", "--map", active_map(), map_fingerprint),
                                           ("cards", "--cards", active_cards(), cards_fingerprint)):
        wanted = setup.get(key)
        if wanted is not None and not isinstance(wanted, str):
            raise RulesError(f"taifa setup {key!r} must be a fingerprint string")
        have = fingerprint(active) if _custom[key] is not None else None
        if wanted != have:
            if wanted is None:
                raise RulesError(f"this record was played with the packaged {key}; leave out {flag}")
            raise RulesError(f"this record was played with its own {key} (fingerprint {wanted}); "
                             f"give that file with {flag}" + (f" (this one is {have})" if have else ""))
