"""The Take the Kingdom deck (108 cards), loaded from data/cards.toml.

The rulebook names the cards but never lists the deck; the packaged file is a
reconstruction (docs/kingdom-cards.md). The rules engine plays a card by its
``key``, ``type``, ``value``, ``icons``, ``solo`` and ``real``; ``text`` (flavour) and
``effect`` (the exact effect, one or two lines, that every screen shows) are for reading. A user may load their own file with
``load_cards(path)``: it is read with limits, validated field by field, then
held to the facts the rules need (``check_cards``); a bad one raises RulesError
in one line naming the file, the card and the field.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from core.digest import digest
from core.engine import RulesError
from core import toml_files

TYPES: tuple[str, ...] = ("noble", "castle", "defend", "attack", "mercenaries", "action", "penalty", "mercy", "trap")
ICONS: tuple[str, ...] = ("armed", "mechanical", "construction", "out-of-turn", "land", "skull")

# Every kind of card the rules know, and the type it must have.
KEYS: Mapping[str, str] = MappingProxyType({
    **dict.fromkeys(("charles", "simon", "egbert", "maria", "baligant", "anne"), "noble"),
    "castle": "castle", "mercy": "mercy", "trap": "trap", "mercenaries": "mercenaries",
    **dict.fromkeys(("land", "village", "hills", "moat", "archers", "walls", "knights", "battlements"), "defend"),
    **dict.fromkeys(("soldiers", "pikemen", "siege-tower", "trebuchet", "cannon", "dawn-raid"), "attack"),
    **dict.fromkeys(("deny", "sabotage", "gold", "fortune", "freeze", "mutiny", "earthquake", "disrepair",
                     "spread", "morale"), "action"),
    **dict.fromkeys(("famine", "disease", "plague"), "penalty"),
})
NOBLES: tuple[str, ...] = ("charles", "simon", "egbert", "maria", "baligant", "anne")  # numbers 1..6

MAX_BYTES = 1_000_000  # a larger file is refused before it is parsed
MAX_CARDS = 1000
MAX_TEXT = toml_files.MAX_TEXT  # characters in a name, text or effect
PLAYERS_MAX = 4  # the published game is for 1-4 players: a Castle and a Mercy each
DEFENCE_RANGE = range(1, 6)  # Defend cards +1..+5 (rulebook, Multiplayer Setup)
ATTACK_RANGE = range(1, 5)  # Attack cards 1..4
MERCENARIES = 3
TRAPS, REAL_TRAPS = 4, 2  # "four Traps in the game, two real and two decoys"
# Solo mode: three decks of 18 (rulebook, Solo rules), by type.
SOLO_DECKS: Mapping[str, tuple[tuple[str, ...], int]] = MappingProxyType({
    "attack": (("attack",), 18),
    "defend": (("defend", "trap"), 15),
    "mercenaries": (("mercenaries",), 3),
    "action": (("action", "mercy"), 15),
    "penalty": (("penalty",), 3),
})
# Non-solo cards the solo setup takes (most of each over the four difficulty levels), and the
# swaps for Charles and Anne (docs/kingdom-cards.md, "The solo setup").
SOLO_SETUP: Mapping[str, int] = MappingProxyType({
    "land": 7, "moat": 3, "hills": 3, "castle": 3, "village": 1, "gold": 1, "dawn-raid": 1,
})


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    key: str
    name: str
    type: str
    value: int
    icons: tuple[str, ...]
    solo: bool
    text: str
    effect: str
    real: bool = False  # traps only: a real Trap, else a decoy

    def has(self, icon: str) -> bool:
        return icon in self.icons


class _Ids(dict[str, Card]):
    """Cards by id; an unknown id is a RulesError. Looked up in C (``cards.by_id[cid]``), the
    rules' hot paths call no method of their own for a card."""

    def __missing__(self, card_id: str) -> Card:
        raise RulesError(f"no card {card_id!r}")


@dataclass(frozen=True)
class CardSet:
    """A whole deck in file order (the packaged 108 cards, or a user's file)."""

    cards: tuple[Card, ...]
    by_id: Mapping[str, Card] = field(init=False, repr=False, compare=False)
    # each card as people read it: its name, and what tells it from another card of that name
    labels: Mapping[str, str] = field(init=False, repr=False, compare=False)
    first: Mapping[str, Card] = field(init=False, repr=False, compare=False)  # key -> its first card in file order

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        by_id = _Ids()
        for c in cards:
            if c.id in by_id:
                raise RulesError(f"card {c.id!r} ({c.name}): id is used by two cards")
            by_id[c.id] = c
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "by_id", MappingProxyType(by_id))
        object.__setattr__(self, "labels", MappingProxyType(_labels(cards)))
        first: dict[str, Card] = {}
        for c in cards:
            first.setdefault(c.key, c)
        object.__setattr__(self, "first", MappingProxyType(first))

    def __getitem__(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def of_key(self, key: str) -> list[Card]:
        return [c for c in self.cards if c.key == key]

    def solo(self) -> list[Card]:
        return [c for c in self.cards if c.solo]

    def fingerprint(self) -> str:
        """A short hex digest (blake2b) of everything the rules read: not the prose (text, effect)."""
        return digest([[c.id, c.key, c.name, c.type, c.value, list(c.icons), c.solo, c.real]
                       for c in self.cards]).hex()[:16]


def value_text(card: Card) -> str:
    """A card's value as printed on it: ``+4`` defence, ``-4`` attack, ``+/-2`` Mercenaries,
    ``(6)`` a Noble's number; nothing for a card without one."""
    if card.type in ("castle", "defend"):
        return f"+{card.value}"
    if card.type == "attack":
        return f"-{card.value}"
    if card.type == "mercenaries":
        return f"+/-{card.value}"
    if card.type == "noble":
        return f"({card.value})"
    return ""


def _face(c: Card) -> tuple[Any, ...]:
    """What the rules read of a card: two cards of one face are copies, alike in play."""
    return (c.name, c.key, c.type, c.value, c.icons, c.real)


def _labels(cards: tuple[Card, ...]) -> dict[str, str]:
    """Each card's label: its name; where cards of that name differ, what tells them apart (the
    value, ``(real)`` or ``(decoy)`` for a Trap), and the id only when nothing else does. The
    label of a Trap says what it is: word a face-down Trap to others without it."""
    groups: dict[str, list[Card]] = {}
    for c in cards:
        groups.setdefault(c.name, []).append(c)
    out: dict[str, str] = {}
    for name, group in groups.items():
        values, reals = {c.value for c in group}, {c.real for c in group}
        words = {c.id: " ".join(w for w in (
            name, (value_text(c) or f"({c.value})") if len(values) > 1 else "",
            ("(real)" if c.real else "(decoy)") if len(reals) > 1 else "") if w) for c in group}
        faces: dict[str, set[tuple[Any, ...]]] = {}
        for c in group:
            faces.setdefault(words[c.id], set()).add(_face(c))
        for c in group:
            out[c.id] = words[c.id] if len(faces[words[c.id]]) == 1 else f"{words[c.id]} ({c.id})"
    return out


# --- loading and validation ---------------------------------------------------

_FIELDS: Mapping[str, type] = MappingProxyType({
    "id": str, "key": str, "name": str, "type": str, "value": int, "icons": list, "solo": bool,
    "text": str, "effect": str, "real": bool,
})
_REQUIRED = ("id", "key", "name", "type", "value", "icons", "solo", "text", "effect")
_NO_VALUE = frozenset({"action", "penalty", "mercy", "trap"})
_WORDS = {str: "text", int: "a whole number", bool: "true or false", list: "a list"}
_ID = re.compile(r"[a-z][a-z-]{0,30}-[1-9][0-9]{0,2}")
_PACKAGED = Path(__file__).resolve().parent / "data" / "cards.toml"


def load_cards(path: str | Path) -> CardSet:
    """Read, validate and check the deck in the TOML file at ``path``; RulesError in one line."""
    source = str(path)
    data = toml_files.parse(toml_files.read_text(path, "cards", MAX_BYTES), source, "cards")
    try:
        cards = CardSet(tuple(_card(row, i) for i, row in enumerate(_rows(data), 1)))
        check_cards(cards)
    except RulesError as exc:
        raise RulesError(f"{source}: {exc}") from None
    return cards


@lru_cache(maxsize=1)
def packaged_cards() -> CardSet:
    """The reconstructed deck shipped with the game (core/kingdom/data/cards.toml)."""
    return load_cards(_PACKAGED)


def _rows(data: Mapping[str, Any]) -> list[Any]:
    unknown = sorted(set(data) - {"card"})
    if unknown:
        raise RulesError(f"unknown top-level entries: {toml_files.short(', '.join(unknown))} (a cards file holds [[card]] tables only)")
    rows = data.get("card")
    if not isinstance(rows, list) or not rows:
        raise RulesError("no [[card]] entries")
    if len(rows) > MAX_CARDS:
        raise RulesError(f"{len(rows)} cards, more than the {MAX_CARDS} a cards file may hold")
    return rows


def _card(row: Any, index: int) -> Card:
    if not isinstance(row, dict):
        raise RulesError(f"[[card]] entry {index} is not a table")
    cid = row.get("id")
    where = toml_files.label(f"card {cid!r}" if isinstance(cid, str) and len(cid) <= 40 else f"[[card]] entry {index}",
                             row.get("name"))
    for f in row:
        if f not in _FIELDS:
            raise RulesError(f"{where}: unknown field {toml_files.short(f)}")
    for f in _REQUIRED:
        if f not in row:
            raise RulesError(f"{where}: {f} is missing")
    for f, value in row.items():
        kind = _FIELDS[f]
        if (type(value) is not int) if kind is int else not isinstance(value, kind):
            raise RulesError(f"{where}: {f} must be {_WORDS[kind]}, not {toml_files.short(value)}")
    cid, key, kind = row["id"], row["key"], row["type"]
    if not _ID.fullmatch(cid):
        raise RulesError(f"{where}: id must be the key, a dash and a copy number, like soldiers-1")
    for f in ("name", "text", "effect"):
        toml_files.check_line(row[f], where, f, MAX_TEXT)
    if kind not in TYPES:
        raise RulesError(f"{where}: type {toml_files.short(kind)} is not one of {', '.join(TYPES)}")
    if key not in KEYS:
        raise RulesError(f"{where}: key {toml_files.short(key)} is not a card the rules know (docs/kingdom-cards.md)")
    if KEYS[key] != kind:
        raise RulesError(f"{where}: type must be {KEYS[key]} for key {key}, not {kind}")
    if cid.rsplit("-", 1)[0] != key:
        raise RulesError(f"{where}: id must start with its key {key!r}, like {key}-1")
    if kind in _NO_VALUE and row["value"] != 0:
        raise RulesError(f"{where}: value must be 0 ({kind} cards have none)")
    if not 0 <= row["value"] <= 99:
        raise RulesError(f"{where}: value {row['value']} is outside 0..99 (attacks are stored as their damage)")
    icons = row["icons"]
    for icon in icons:
        if icon not in ICONS:
            raise RulesError(f"{where}: icons lists {toml_files.short(icon)}, which is not one of {', '.join(ICONS)}")
    if len(set(icons)) != len(icons):
        raise RulesError(f"{where}: icons lists an icon twice")
    if ("real" in row) != (kind == "trap"):
        raise RulesError(f"{where}: real " + ("is missing (a trap needs it)" if kind == "trap" else "belongs on traps only"))
    return Card(id=cid, key=key, name=row["name"].strip(), type=kind, value=row["value"], icons=tuple(icons),
                solo=row["solo"], text=row["text"].strip(), effect=row["effect"].strip(), real=row.get("real", False))


def check_cards(cs: CardSet) -> None:
    """The facts the rules rely on (not the reconstruction's own counts); RulesError in one line."""
    for key, kind in KEYS.items():
        if not any(c.key == key for c in cs):
            raise RulesError(f"key: no {key} card ({kind}), which the rules use")
    for c in cs:  # a CardSet built in code has not been through the loader
        if KEYS.get(c.key) != c.type:
            raise RulesError(f"card {c.id!r} ({c.name}): key {c.key!r} is not a {c.type} card the rules know")
    for key in NOBLES:
        if len(cs.of_key(key)) != 1:
            raise RulesError(f"noble: the deck must hold one {key}, found {len(cs.of_key(key))}")
    numbers = sorted(c.value for c in cs if c.type == "noble")
    if numbers != list(range(1, len(NOBLES) + 1)):
        raise RulesError(f"noble: the six nobles must be numbered 1 to 6, one each, found {numbers}")
    _at_least(cs, "castle", PLAYERS_MAX, "one per player, up to 4 players")
    for c in cs.of_key("castle"):
        _value(c, range(3, 4), "a Castle scores +3")
    _at_least(cs, "mercy", PLAYERS_MAX, "one per player at setup, up to 4 players")
    traps = cs.of_key("trap")
    if len(traps) != TRAPS or sum(t.real for t in traps) != REAL_TRAPS:
        raise RulesError(f"trap: the deck must hold {TRAPS} Traps, {REAL_TRAPS} of them real, "
                         f"found {len(traps)} with {sum(t.real for t in traps)} real")
    merc = cs.of_key("mercenaries")
    if len(merc) != MERCENARIES:
        raise RulesError(f"mercenaries: the deck must hold {MERCENARIES} Mercenaries, found {len(merc)}")
    if not {1, 2} <= {c.value for c in merc}:
        raise RulesError("mercenaries: survival mode needs a Mercenaries worth 1 and one worth 2")
    for c in cs:
        if c.type == "defend":
            _value(c, DEFENCE_RANGE, "a Defend card is +1 to +5")
        elif c.type == "attack":
            _value(c, ATTACK_RANGE, "an Attack card is 1 to 4")
        elif c.type == "mercenaries":
            _value(c, ATTACK_RANGE, "Mercenaries attack as well as defend")
    solo = Counter(c.type for c in cs.solo())
    for deck, (kinds, want) in SOLO_DECKS.items():
        have = sum(solo[k] for k in kinds)
        if have != want:
            raise RulesError(f"solo: the solo {deck} cards ({', '.join(kinds)}) must number {want}, found {have}")
    for key, want in SOLO_SETUP.items():
        have = sum(not c.solo for c in cs.of_key(key))
        if have < want:
            raise RulesError(f"solo: the solo setup needs {want} non-solo {key} card(s), found {have}")


def _at_least(cs: CardSet, key: str, n: int, why: str) -> None:
    have = len(cs.of_key(key))
    if have < n:
        raise RulesError(f"{key}: the deck must hold at least {n} ({why}), found {have}")


def _value(c: Card, allowed: range, why: str) -> None:
    if c.value not in allowed:
        want = f"must be {allowed.start}" if len(allowed) == 1 else f"must be {allowed.start} to {allowed.stop - 1}"
        raise RulesError(f"card {c.id!r} ({c.name}): value {c.value} {want} ({why})")
