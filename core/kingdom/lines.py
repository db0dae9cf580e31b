"""The lines of defence (take-the-kingdom.txt, "Kingdom Defence"): what may be attacked,
where a card may be placed, and how many defence points a kingdom has.

Pure functions of a :class:`Realm` and the cards, so the rules, the view and the AI
share them. A hidden Trap in a view is the id ``HIDDEN_TRAP``; these functions
never look at whether a Trap is real.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.kingdom.cards import CardSet
from core.kingdom.state import MAX_DEFENCES, MAX_LANDS, Realm, Slot

HIDDEN_TRAP = "trap?"  # a Trap as another kingdom sees it: face down
DEFENCE_KEYS = frozenset({"village", "hills", "moat", "archers", "walls", "knights", "battlements", "mercenaries"})
DRAFT_KEYS = frozenset({"land", "hills", "moat", "archers", "walls", "knights", "battlements"})  # "Multiplayer Setup"
LAND_VALUE_KEY = "land"  # a Mercy played as a Land counts as a Land card does (KD-9)


def standing(realm: Realm) -> bool:
    return not realm.out and bool(realm.slots)


def card_value(cards: CardSet, realm: Realm, cid: str) -> int:
    """The defence points of a card in a kingdom (a Mercy standing as a Land counts as a Land, KD-9)."""
    if cid == HIDDEN_TRAP:
        return 0
    c = cards.by_id[cid]
    if c.key == "mercy":
        return cards.first[LAND_VALUE_KEY].value
    if c.type == "trap":
        return 0
    return c.value


def strength(cards: CardSet, realm: Realm, cid: str, damage_adds_up: bool) -> int:
    """What an attack must reach to destroy ``cid``: its value, less its damage when damage adds up (KD-6)."""
    slot = slot_of(realm, cid)
    taken = slot.damage.get(cid, 0) if slot is not None and damage_adds_up else 0
    return card_value(cards, realm, cid) - taken


def score(cards: CardSet, realm: Realm, less_damage: bool) -> int:
    """The kingdom's defensive points ("Gameplay"): every Castle, Land and Defence, less the
    damage tucked under them when ``less_damage`` (KD-6)."""
    if not standing(realm):
        return 0
    total = 0
    for slot in realm.slots:
        for cid in (slot.card, *slot.defences):
            total += card_value(cards, realm, cid)
            if less_damage:
                total -= slot.damage.get(cid, 0)
    return total


def slot_of(realm: Realm, cid: str) -> Slot | None:
    """The slot ``cid`` is, or stands on (its own card, a Defence or its Trap)."""
    for slot in realm.slots:
        if cid == slot.card or cid in slot.defences or cid == slot.trap:
            return slot
    return None


def attackable(realm: Realm) -> list[Slot]:
    """The Castles and Lands an attack may be made on: every Land (an undefended one too,
    "Note"), and the seat only when no Land is left ("Kingdom Defence")."""
    slots = realm.slots
    if realm.out or not slots:
        return []
    return slots[1:] if len(slots) > 1 else [slots[0]]


def defence_room(realm: Realm) -> list[Slot]:
    """Slots with room for one more Defence (two each)."""
    return [s for s in realm.slots if len(s.defences) < MAX_DEFENCES] if standing(realm) else []


def trap_room(realm: Realm) -> list[Slot]:
    return [s for s in realm.slots if s.trap is None] if standing(realm) else []


def land_room(realm: Realm) -> bool:
    return standing(realm) and len(realm.lands) < MAX_LANDS


def places(cards: CardSet, realm: Realm, cid: str) -> list[str]:
    """Where a Defend card from the hand may go: slot card ids, or "new" for a new Land."""
    c = cards.by_id[cid]
    if c.key == "land":
        return ["new"] if land_room(realm) else []
    if c.type == "trap":
        return [s.card for s in trap_room(realm)]
    if c.key in DEFENCE_KEYS:
        return [s.card for s in defence_room(realm)]
    return []


def has_land(cards: CardSet, realm: Realm) -> bool:
    return standing(realm) and bool(realm.lands)


def armed_defences(cards: CardSet, realm: Realm) -> list[str]:
    """Knights and Archers anywhere in the kingdom: what Mutiny may remove ("Notes on specific cards")."""
    return [cid for s in realm.slots for cid in s.defences
            if cid != HIDDEN_TRAP and cards.by_id[cid].key in ("knights", "archers")]


def is_construction(cards: CardSet, cid: str) -> bool:
    if cid == HIDDEN_TRAP:
        return False
    c = cards.by_id[cid]
    return "construction" in c.icons and c.type == "defend"


def standing_title(cards: CardSet, slots: Sequence[tuple[str, Sequence[str]]], cid: str) -> str:
    """A card standing in one kingdom (its Castle or Lands as ``(card, defences)``, seat first)
    as people call it: ``Castle``, ``Mercy standing as a Land``, or its label; with its id
    (``Land (land-3)``) only when another card standing there has the same label."""
    labels = cards.labels
    label = labels[cid]
    same = 0
    for card, ds in slots:
        same += labels[card] == label
        for d in ds:
            same += labels[d] == label
    key = cards.by_id[cid].key
    title = "Castle" if key == "castle" and slots and slots[0][0] == cid else \
        "Mercy standing as a Land" if key == "mercy" else label
    return f"{title} ({cid})" if same > 1 else title
