"""Taifa options as people write them: ``attack Toledo``, ``play Razzia``, ``add Champion``.

``describe`` turns an option code into words; ``parse`` reads what a person
typed, and reads back everything ``describe`` writes. Areas go by name or id,
kingdoms by key or name, cards by name (the copy among the current options)
or by id. A card is worded by what its face shows, ``Mesnada (3)``; its id
only when another option differs in that card alone and reads the same
(``Mesnada (C05, 3)``). A trailing note in brackets ("Oviedo (2)",
"Mesnada (C05, 3)") names the area or card by its id.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.engine import Code, Decision, RulesError
from core.taifa.map import KINGDOM_NAMES
from core.taifa.rows import fold_name

if TYPE_CHECKING:
    from core.taifa.game import TaifaGame

# verb -> the kind of its argument(s)
VERBS: dict[str, tuple[str, ...]] = {
    "pass": (), "done": (), "bonus": (),
    "attack": ("area",), "garrison": ("area",), "area": ("area",),
    "incursion": ("kingdom",), "target": ("kingdom",), "truce": ("kingdom",),
    "event": ("card",), "discard": ("card",), "add": ("card",), "troop": ("card",), "take": ("card",),
    "respond": ("side", "card"),
}
ALIASES = {"play": "event", "raid": "incursion", "p": "pass", "d": "done"}
NOTE = re.compile(r"^(?P<text>.*?)\s*\((?P<note>[^()]*)\)$")  # "Mesnada (C05, 3)"


def describe(g: "TaifaGame", code: Code) -> str:
    try:
        verb, args = code[0], code[1:]
        if verb == "pass":
            return "pass"
        if verb == "done":
            return "done"
        if verb == "bonus":
            return "bonus (+1 Card Bonus)"
        if verb == "garrison" and not args:
            return "garrison (in the area taken, instead of the bonus)"
        if verb in ("attack", "garrison", "area"):
            a = int(args[0])
            return f"{verb} {g.area_name(a)} ({a})"
        if verb in ("incursion", "target", "truce"):
            return f"{verb} {KINGDOM_NAMES[str(args[0])]}"
        if verb == "event":
            return f"play {_card_words(g, code)}"
        if verb in ("discard", "add", "troop", "take"):
            return f"{verb} {_card_words(g, code)}"
        if verb == "respond":
            return f"respond {args[0]} {_card_words(g, code)}"
    except (KeyError, IndexError, ValueError, TypeError):
        pass
    return " ".join(map(str, code))


def _card_words(g: "TaifaGame", code: Code) -> str:
    """The card of ``code`` by its words, with its id only when another option of the decision
    at hand differs from ``code`` in its card alone and reads the same (two Mesnadas in a hand)."""
    p = g.point()
    among = [str(o[-1]) for o in p.options if len(o) == len(code) and o[:-1] == code[:-1]] \
        if isinstance(p, Decision) else []
    return g.label(str(code[-1]), among)


def parse(g: "TaifaGame", text: str) -> Code:
    words = text.strip().split()
    if not words:
        raise RulesError("type an action, like 'attack Toledo', 'play Razzia' or 'pass'")
    verb = ALIASES.get(words[0].lower(), words[0].lower())
    if verb not in VERBS:
        raise RulesError(f"{words[0]!r} is not an action (try {', '.join(sorted(VERBS))})")
    kinds = VERBS[verb]
    rest = words[1:]
    noted = bool(rest) and rest[0].startswith("(")  # only a note, as in "bonus (+1 Card Bonus)"
    if not kinds or (verb == "garrison" and (not rest or noted)):  # a bare garrison: the capture reward (5.1)
        if rest and not noted:
            raise RulesError(f"{verb} takes nothing after it")
        return (verb,)
    if not rest:
        raise RulesError(f"{verb} needs {' and '.join(('an ' if k[0] in 'aeiou' else 'a ') + k for k in kinds)}")
    if kinds == ("side", "card"):
        side = rest[0].lower()
        if side not in ("attack", "defence", "defense"):
            raise RulesError("respond takes a side (attack or defence) and a card")
        side = "defence" if side == "defense" else side
        return (verb, side, _card(g, verb, " ".join(rest[1:]), side))
    arg = " ".join(rest)
    if kinds[0] == "area":
        return (verb, _area(g, arg))
    if kinds[0] == "kingdom":
        return (verb, _kingdom(g, arg))
    return (verb, _card(g, verb, arg))


def _noted(text: str) -> tuple[str, str]:
    """Split "Mesnada (C05, 3)" into the text and the note's first item ("C05"); no note: ""."""
    m = NOTE.match(text)
    if not m:
        return text, ""
    return m["text"], m["note"].split(",")[0].strip()


def _area(g: "TaifaGame", text: str) -> int:
    text, note = _noted(text)
    if _number(note):
        text = note
    if _number(text):
        if len(text) > 6:  # never convert thousands of digits: no map has that many areas
            raise RulesError(f"no area {text[:6]}... (areas are 1..{len(g.m.areas)})")
        a = int(text)
        g.m.area(a)  # raises with the valid range
        return a
    return g.m.by_name(text).id


def _number(text: str) -> bool:
    """Plain ASCII digits: "²" and "٣" are digits to ``isdigit``, but no area id is written so."""
    return text.isascii() and text.isdigit()


def _kingdom(g: "TaifaGame", text: str) -> str:
    key = fold_name(text)
    for k in g.s.kingdoms:
        if key in (fold_name(k), fold_name(KINGDOM_NAMES[k])) or fold_name(KINGDOM_NAMES[k]).endswith(" " + key):
            return k
    raise RulesError(f"no kingdom {text!r} in this game ({', '.join(g.s.kingdoms)})")


def _card(g: "TaifaGame", verb: str, text: str, side: str | None = None) -> str:
    """A card by id, by its words as ``describe`` writes them (``Mesnada (C05, 3)``, ``Cavalry
    Charge (offensive)``), or by its name: the copy among the current options that reads the
    same, else the first copy among them, else the first in the decks."""
    name, note = _noted(text)
    if note.upper() in g._cards:
        name = note
    if not name:
        raise RulesError(f"{verb} needs a card, by id (C21) or name")
    upper = name.upper()
    if upper in g._cards:
        return upper
    key = fold_name(name)
    copies = [c.id for d in g.decks for c in d if fold_name(c.name) == key]
    if not copies:
        raise RulesError(f"no card {name!r} (give its id, like C21, or its name)")
    p = g.point()
    if isinstance(p, Decision):
        fits = [str(o[-1]) for o in p.options
                if o[0] == verb and o[-1] in copies and (side is None or o[1] == side)]
        typed = _squeeze(text)
        return next((c for c in fits if _squeeze(g.label(c)) == typed), fits[0] if fits else copies[0])
    return copies[0]


def _squeeze(text: str) -> str:
    return "".join(fold_name(text).split())
