"""Which map and decks a Taifa game is played with: the packaged reconstruction,
or a user's own files (``--map`` / ``--cards``), and their fingerprints.

A record made on a user's own map or decks names their fingerprints in its
setup, so it replays only with the same files and says so clearly otherwise.
The files themselves travel with the game (``GAME.with_data``): nothing here is
process-wide, so two records on different decks can be open at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from core.digest import digest
from core.engine import RulesError
from core.taifa.cards import Decks, load_cards
from core.taifa.map import TaifaMap, load_map

@lru_cache(maxsize=1)
def packaged_map() -> TaifaMap:
    return load_map()


@lru_cache(maxsize=1)
def packaged_cards() -> Decks:
    return load_cards()


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


def setup_fields(data: Mapping[str, Any]) -> dict[str, str]:
    """What a new record's setup says about the data: the fingerprint of each file
    the user brought (``data``: "map" -> TaifaMap, "cards" -> Decks), nothing for the packaged ones."""
    out = {}
    if data.get("map") is not None:
        out["map"] = map_fingerprint(data["map"])
    if data.get("cards") is not None:
        out["cards"] = cards_fingerprint(data["cards"])
    return out


def resolve(setup: Mapping[str, Any], data: Mapping[str, Any]) -> tuple[TaifaMap, Decks]:
    """The map and decks a game is played on: the user's own files where ``setup`` names
    their fingerprints, else the packaged ones. Refuses, in one line, to build a record's
    game on other data than it was played with."""
    found = []
    for key, flag, fingerprint, packaged in (("map", "--map", map_fingerprint, packaged_map),
                                             ("cards", "--cards", cards_fingerprint, packaged_cards)):
        wanted = setup.get(key)
        if wanted is not None and not isinstance(wanted, str):
            raise RulesError(f"taifa setup {key!r} must be a fingerprint string")
        own = data.get(key)
        have = fingerprint(own) if own is not None else None
        if wanted != have:
            if wanted is None:
                raise RulesError(f"this record was played with the packaged {key}; leave out {flag}")
            raise RulesError(f"this record was played with its own {key} (fingerprint {wanted}); "
                             f"give that file with {flag}" + (f" (this one is {have})" if have else ""))
        found.append(own if own is not None else packaged())
    the_map, decks = found
    assert isinstance(the_map, TaifaMap) and isinstance(decks, Decks)
    return the_map, decks
