"""The two Taifa decks (Christian and Muslim), loaded from data/cards.toml.

The rulebook (2.1) names a few cards but never lists the decks; the packaged
file is a reconstruction (docs/taifa-cards.md). Every card carries an exact
effect written in a small vocabulary (``OPS`` below) that a rules engine can
execute without reading the card's prose. A user may load their own file
with ``load_cards(path)``; every file is validated and a bad one raises
RulesError naming the file, the card and the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from core.engine import RulesError
from core.taifa.rows import check_row, fold_name, table_rows
from core import toml_files
from core.toml_files import short

DECKS: tuple[str, ...] = ("christian", "muslim")
ID_PREFIX: Mapping[str, str] = MappingProxyType({"christian": "C", "muslim": "M"})
KINDS: tuple[str, ...] = ("troop", "response", "event")  # 2.1
MARKERS: tuple[str, ...] = ("P", "D", "offensive")  # 5.4, 9.3
STRENGTH_RANGE = range(1, 5)  # a Troop card's strength (2.1, 5.2)

# Response cards: where they may be placed (``when``) and by whom (``who``).
WHEN: tuple[str, ...] = ("attack", "defence", "incursion", "incursion_defence", "campaign_defence")
WHO: tuple[str, ...] = ("attacker", "defender", "any")
_ATTACKING_SIDE = frozenset({"attack", "incursion"})
_DEFENDING_SIDE = frozenset({"defence", "incursion_defence", "campaign_defence"})

# Event cards: the kingdom the event is played against, if any.
TARGETS: tuple[str, ...] = ("none", "kingdom", "neighbour")

# The cards the rulebook names (9.6, 10.2, 11.1, 11.2), with their kind.
NAMED: Mapping[str, str] = MappingProxyType({
    "Champion": "response", "Militia": "response", "Surprise Sortie": "response",
    "Truce": "event", "Razzia": "event", "Judgment of God": "event", "Independent Campaign": "event",
})

# Sizing (docs/taifa-cards.md, "Deck sizing").
BASE_DRAW = 8  # 3.1, 7
BONUS_MAX = 2  # 2.4, 7
CARRY_ALLOWANCE = 4  # assumed: most cards a kingdom starts a turn with beyond a full draw
STANDARD_HANDS: Mapping[str, tuple[int, ...]] = MappingProxyType({"christian": (8, 8, 8), "muslim": (8, 8, 8)})
ALMORAVID_HAND_MAX = 16  # 10.1 gives 12; the difficulty tip (10.3) may raise it
EL_CID_HANDS: Mapping[str, tuple[int, ...]] = MappingProxyType({"christian": (5, 5, 7), "muslim": (ALMORAVID_HAND_MAX,)})
EL_CID_SET_ASIDE: Mapping[str, tuple[str, ...]] = MappingProxyType({"christian": ("Truce",), "muslim": ()})


@dataclass(frozen=True, slots=True)
class Param:
    kind: str  # "int", "bool", "choice", "choices"
    low: int = 0
    high: int = 0
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Op:
    """One operation of the effect vocabulary: the card kinds that may use it and its parameters."""

    kinds: frozenset[str]
    params: Mapping[str, Param]
    targeted: bool = False  # acts on the event's target kingdom (needs target kingdom/neighbour)
    when: frozenset[str] | None = None  # a Response using it may only list these moments


def _int(low: int, high: int) -> Param:
    return Param("int", low, high)


_EV, _RE = frozenset({"event"}), frozenset({"response"})
_BOTH = _EV | _RE
OPS: Mapping[str, Op] = MappingProxyType({
    # combat (Responses, 5.1 steps 2-5)
    "add_dice": Op(_RE, {"n": _int(1, 3)}),
    "cut_dice": Op(_RE, {"n": _int(1, 3)}),
    "remove_attacking_troop": Op(_RE, {"n": _int(1, 2)}, when=frozenset({"defence"})),
    "cancel_attack": Op(_RE, {}, when=frozenset({"defence"})),
    "cancel_incursion": Op(_RE, {}, when=frozenset({"incursion_defence"})),
    # cards and Card Bonus
    "draw": Op(_EV, {"n": _int(1, 3)}),
    "target_discards": Op(_EV, {"n": _int(1, 3), "pick": Param("choice", values=("random", "player"))}, targeted=True),
    "gain_bonus": Op(_BOTH, {"n": _int(-2, 2)}),
    "target_bonus": Op(_BOTH, {"n": _int(-2, 2)}, targeted=True),
    # actions on the map
    "attack": Op(_EV, {"bonus_dice": _int(0, 3)}),
    "incursion": Op(_EV, {"dice": _int(1, 3), "troop": Param("bool")}, targeted=True),
    "independent_attack": Op(_EV, {"dice": _int(1, 6)}),
    "place_garrison": Op(_EV, {"n": _int(1, 3)}),
    "truce": Op(_EV, {"forbid": Param("choices", values=("attack", "incursion"))}, targeted=True),
    "duel": Op(_EV, {"dice": _int(1, 4)}, targeted=True),
})


@dataclass(frozen=True, slots=True)
class Effect:
    op: str
    params: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.params[key]


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    deck: str
    name: str
    kind: str
    text: str
    markers: frozenset[str] = frozenset()
    strength: int | None = None  # Troop only
    when: tuple[str, ...] = ()  # Response only
    who: str | None = None  # Response only
    target: str | None = None  # Event only
    effect: tuple[Effect, ...] = ()  # Response and Event
    bot: tuple[Effect, ...] | None = None  # Event only: how a bot plays it instead (9.1)

    @property
    def permanent(self) -> bool:
        return "P" in self.markers

    @property
    def removed_when_played(self) -> bool:
        return "D" in self.markers

    @property
    def offensive(self) -> bool:
        return "offensive" in self.markers

    def ops(self) -> tuple[str, ...]:
        return tuple(e.op for e in self.effect + (self.bot or ()))


@dataclass(frozen=True)
class Deck:
    name: str  # "christian" or "muslim"
    cards: tuple[Card, ...]

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def of_kind(self, kind: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind == kind)

    def by_name(self, name: str) -> tuple[Card, ...]:
        key = fold_name(name)
        return tuple(c for c in self.cards if fold_name(c.name) == key)

    def draw_events_total(self) -> int:
        """Most cards the deck's events can make kingdoms draw in one turn: every ``draw`` played once."""
        return sum(e["n"] for c in self.cards if c.kind == "event" for e in c.effect + (c.bot or ()) if e.op == "draw")

    def removable(self) -> int:
        """Cards that can be out of the game for good (marker D)."""
        return sum(c.removed_when_played for c in self.cards)


@dataclass(frozen=True)
class Decks:
    christian: Deck
    muslim: Deck
    source: str

    def __iter__(self):
        return iter((self.christian, self.muslim))

    def deck(self, name: str) -> Deck:
        if name not in DECKS:
            raise RulesError(f"no deck {name!r} (decks are {', '.join(DECKS)})")
        return getattr(self, name)

    def card(self, card_id: str) -> Card:
        for d in self:
            for c in d:
                if c.id == card_id:
                    return c
        raise RulesError(f"no card {card_id!r}")

    def by_name(self, name: str) -> tuple[Card, ...]:
        """Every copy of the card called ``name`` in both decks (case and accents ignored)."""
        found = self.christian.by_name(name) + self.muslim.by_name(name)
        if not found:
            raise RulesError(f"no card named {name!r}")
        return found


@dataclass(frozen=True)
class Sizing:
    """The worst case of one turn for one deck (docs/taifa-cards.md, "Deck sizing")."""

    deck: str
    scenario: str
    hands: tuple[int, ...]
    set_aside: int  # cards removed before play (Truce in El Cid)
    event_draws: int
    removable: int
    allowance: int
    size: int

    @property
    def drawn(self) -> int:
        return sum(h + BONUS_MAX for h in self.hands)

    @property
    def needed(self) -> int:
        return self.drawn + self.event_draws + self.removable + self.allowance * len(self.hands)

    @property
    def pile(self) -> int:
        return self.size - self.set_aside

    @property
    def spare(self) -> int:
        return self.pile - self.needed


def sizing(deck: Deck, scenario: str, allowance: int = CARRY_ALLOWANCE) -> Sizing:
    """The worst-case demand on ``deck`` in a turn of ``scenario`` ("standard" or "el_cid")."""
    hands = {"standard": STANDARD_HANDS, "el_cid": EL_CID_HANDS}[scenario][deck.name]
    aside = sum(len(deck.by_name(n)) for n in EL_CID_SET_ASIDE[deck.name]) if scenario == "el_cid" else 0
    return Sizing(deck=deck.name, scenario=scenario, hands=hands, set_aside=aside,
                  event_draws=deck.draw_events_total(), removable=deck.removable(), allowance=allowance, size=len(deck))


# --- loading and validation ---------------------------------------------------

def load_cards(path: str | None = None) -> Decks:
    """Load and validate both decks: the packaged reconstruction, or the TOML file at ``path``."""
    if path is None:
        return parse_cards(resources.files("core.taifa").joinpath("data/cards.toml").read_text("utf-8"),
                           "core/taifa/data/cards.toml")
    return parse_cards(toml_files.read_text(path, "cards"), str(path))


def parse_cards(text: str, source: str = "<text>") -> Decks:
    """Validate the cards in TOML ``text``; every error starts with ``source``."""
    raw = toml_files.parse(text, source, "cards")
    try:
        return _build(raw, source)
    except RulesError as exc:
        raise RulesError(f"{source}: {exc}") from None


_FIELDS: dict[str, type] = {
    "id": str, "deck": str, "name": str, "kind": str, "text": str, "markers": list,
    "strength": int, "when": list, "who": str, "target": str, "effect": list, "bot": list,
}
_REQUIRED = ("id", "deck", "name", "kind", "text")
_BY_KIND: Mapping[str, frozenset[str]] = MappingProxyType({
    "troop": frozenset({"strength"}),
    "response": frozenset({"when", "who", "effect"}),
    "event": frozenset({"target", "effect"}),
})
_OPTIONAL: Mapping[str, frozenset[str]] = MappingProxyType({"troop": frozenset(), "response": frozenset(), "event": frozenset({"bot"})})
_ID = re.compile(r"[CM][0-9]{2,3}")


def _label(row: Mapping[str, Any]) -> str:
    return toml_files.label(f"card {short(row.get('id'))}", row.get("name"))


def _build(raw: dict[str, Any], source: str) -> Decks:
    cards = [_card(row, i) for i, row in enumerate(table_rows(raw, "card", {"card"}), 1)]
    seen: dict[str, Card] = {}
    for c in cards:
        if c.id in seen:
            raise RulesError(f"card {c.id!r} ({c.name}): id is also used by {seen[c.id].name}")
        seen[c.id] = c
    by_name = {d: Deck(d, tuple(sorted((c for c in cards if c.deck == d), key=lambda c: c.id))) for d in DECKS}
    decks = Decks(by_name["christian"], by_name["muslim"], source=source)
    for d in decks:
        for kind in KINDS:
            if not d.of_kind(kind):
                raise RulesError(f"deck {d.name}: has no {kind} cards (2.1)")
    for name, kind in NAMED.items():
        copies = decks.christian.by_name(name) + decks.muslim.by_name(name)
        if not copies:
            raise RulesError(f"name: no card is called {name!r}, which the rules name")
        for c in copies:
            if c.kind != kind:
                raise RulesError(f"card {c.id!r} ({c.name}): kind must be {kind}, as the rules use it")
    truces = decks.christian.by_name("Truce")
    if len(truces) != 1:
        raise RulesError(f"deck christian: must hold exactly one Truce (10.2 sets it aside), found {len(truces)}")
    if "truce" not in truces[0].ops():
        raise RulesError(f"card {truces[0].id!r} (Truce): effect must use truce (10.2 applies it each turn)")
    for c in decks.by_name("Independent Campaign"):
        if "independent_attack" not in c.ops():
            raise RulesError(f"card {c.id!r} (Independent Campaign): effect must use independent_attack (9.6)")
    for d in decks:
        for scenario in ("standard", "el_cid"):
            s = sizing(d, scenario)
            if s.spare < 0:
                raise RulesError(f"deck {d.name}: {len(d)} cards cannot cover a {scenario} turn, which needs "
                                 f"{s.needed + s.set_aside} (docs/taifa-cards.md, Deck sizing)")
    return decks


def _card(row: Any, index: int) -> Card:
    if not isinstance(row, dict):
        raise RulesError(f"[[card]] entry {index} is not a table")
    where = _label(row) if "id" in row else f"[[card]] entry {index}"
    check_row(row, where, _FIELDS, _REQUIRED)
    cid, deck, kind = row["id"], row["deck"], row["kind"]
    if deck not in DECKS:
        raise RulesError(f"{where}: deck {short(deck)} is not one of {', '.join(DECKS)}")
    if not _ID.fullmatch(cid) or cid[0] != ID_PREFIX[deck]:
        raise RulesError(f"{where}: id must be {ID_PREFIX[deck]} and 2-3 digits for the {deck} deck, like {ID_PREFIX[deck]}01")
    for key in ("name", "text"):
        toml_files.check_line(row[key], where, key)
    if kind not in KINDS:
        raise RulesError(f"{where}: kind {short(kind)} is not one of {', '.join(KINDS)}")
    allowed = _BY_KIND[kind] | _OPTIONAL[kind]
    for key in row:
        if key not in _REQUIRED and key != "markers" and key not in allowed:
            raise RulesError(f"{where}: {key} is not a field of a {kind} card")
    for key in sorted(_BY_KIND[kind]):
        if key not in row:
            raise RulesError(f"{where}: {key} is missing (a {kind} card needs it)")
    markers = _markers(where, kind, row.get("markers", []))
    card = dict(id=cid, deck=deck, name=row["name"].strip(), kind=kind, text=" ".join(row["text"].split()), markers=markers)
    if kind == "troop":
        if row["strength"] not in STRENGTH_RANGE:
            raise RulesError(f"{where}: strength {row['strength']} is outside {STRENGTH_RANGE.start}..{STRENGTH_RANGE.stop - 1}")
        return Card(**card, strength=row["strength"])
    if kind == "response":
        when = _response_when(where, row["when"], row["who"])
        effect = _effect(where, "effect", row["effect"], kind, when=when)
        return Card(**card, when=when, who=row["who"], effect=effect)
    target = row["target"]
    if target not in TARGETS:
        raise RulesError(f"{where}: target {short(target)} is not one of {', '.join(TARGETS)}")
    effect = _effect(where, "effect", row["effect"], kind, target=target)
    bot = None
    if "bot" in row:
        if "offensive" in markers:
            raise RulesError(f"{where}: bot is pointless on an offensive card, which a bot never plays for its text (9.3)")
        bot = _effect(where, "bot", row["bot"], kind, target=target)
    if "truce" in (e.op for e in effect + (bot or ())) and "P" not in markers:
        raise RulesError(f"{where}: markers must include P, since a truce lasts the turn (5.4)")
    return Card(**card, target=target, effect=effect, bot=bot)




def _markers(where: str, kind: str, markers: list[Any]) -> frozenset[str]:
    for m in markers:
        if m not in MARKERS:
            raise RulesError(f"{where}: markers lists {short(m)}, which is not one of {', '.join(MARKERS)}")
    if len(set(markers)) != len(markers):
        raise RulesError(f"{where}: markers lists a marker twice")
    if kind != "event" and {"P", "D"} & set(markers):
        raise RulesError(f"{where}: markers P and D belong on Event cards only (5.4)")
    if kind == "response" and "offensive" in markers:
        raise RulesError(f"{where}: markers: only Troop and Event cards carry the offensive symbol (9.3)")
    return frozenset(markers)


def _response_when(where: str, when: list[Any], who: str) -> tuple[str, ...]:
    if not when:
        raise RulesError(f"{where}: when is empty")
    for w in when:
        if w not in WHEN:
            raise RulesError(f"{where}: when lists {short(w)}, which is not one of {', '.join(WHEN)}")
    if len(set(when)) != len(when):
        raise RulesError(f"{where}: when lists a moment twice")
    if who not in WHO:
        raise RulesError(f"{where}: who {short(who)} is not one of {', '.join(WHO)}")
    if who == "attacker" and not set(when) <= _ATTACKING_SIDE:
        raise RulesError(f"{where}: who is attacker, so when may only list {', '.join(sorted(_ATTACKING_SIDE))}")
    if who == "defender" and not set(when) <= _DEFENDING_SIDE:
        raise RulesError(f"{where}: who is defender, so when may only list {', '.join(sorted(_DEFENDING_SIDE))}")
    return tuple(when)


def _effect(where: str, field: str, raw: list[Any], kind: str, *, when: tuple[str, ...] = (), target: str = "none") -> tuple[Effect, ...]:
    if not raw:
        raise RulesError(f"{where}: {field} is empty")
    out: list[Effect] = []
    for i, step in enumerate(raw, 1):
        at = f"{where}: {field} step {i}"
        if not isinstance(step, dict):
            raise RulesError(f"{at} must be a table like {{op = \"draw\", n = 1}}, not {short(step)}")
        op = step.get("op")
        if not isinstance(op, str) or op not in OPS:
            raise RulesError(f"{at}: op {short(op)} is not in the vocabulary ({', '.join(OPS)})")
        spec = OPS[op]
        if kind not in spec.kinds:
            raise RulesError(f"{at}: op {op} is not for {kind} cards")
        if spec.when is not None and not set(when) <= spec.when:
            raise RulesError(f"{at}: op {op} only works when {', '.join(sorted(spec.when))}, but when lists {', '.join(when)}")
        if spec.targeted and kind == "event" and target == "none":
            raise RulesError(f"{at}: op {op} acts on a kingdom, but target is none")
        if op == "incursion" and target != "neighbour":
            raise RulesError(f"{at}: op incursion needs target neighbour (5.3)")
        params = {k: v for k, v in step.items() if k != "op"}
        for k in params:
            if k not in spec.params:
                raise RulesError(f"{at}: op {op} has no parameter {short(k)}"
                                 + (f" (it takes {', '.join(spec.params)})" if spec.params else " (it takes none)"))
        for k, p in spec.params.items():
            if k not in params:
                raise RulesError(f"{at}: op {op} needs parameter {short(k)}")
            _check_param(f"{at}: {op}.{k}", params[k], p)
        out.append(Effect(op, MappingProxyType(params)))
    if kind == "event" and target != "none" and not any(OPS[e.op].targeted for e in out):
        raise RulesError(f"{where}: target is {target}, but no step of {field} acts on a kingdom")
    return tuple(out)


def _check_param(at: str, value: Any, p: Param) -> None:
    if p.kind == "int":
        if type(value) is not int:
            raise RulesError(f"{at} must be a whole number, not {short(value)}")
        if not p.low <= value <= p.high or value == 0 and p.low < 0:
            raise RulesError(f"{at} = {value} is outside {p.low}..{p.high}" + (" (and not 0)" if p.low < 0 else ""))
    elif p.kind == "bool":
        if not isinstance(value, bool):
            raise RulesError(f"{at} must be true or false, not {short(value)}")
    elif p.kind == "choice":
        if value not in p.values:
            raise RulesError(f"{at} = {short(value)} is not one of {', '.join(p.values)}")
    else:  # choices: a non-empty list of distinct values
        if not isinstance(value, list) or not value or len(set(map(str, value))) != len(value) \
                or any(v not in p.values for v in value):
            raise RulesError(f"{at} must be a list of distinct values from {', '.join(p.values)}, not {short(value)}")
