"""Taifa options as people write them: ``attack Toledo``, ``event C35``, ``add Champion``.

``describe`` turns an option code into words; ``parse`` reads what a person
typed, and reads back everything ``describe`` writes. Areas go by name or id,
kingdoms by key or name, cards by id or by name (the copy among the current
options). A trailing note in brackets, as ``describe`` adds it ("Oviedo (2)",
"Mesnada (C05, 3)"), names the area or card by its id.
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
            return f"play {g.label(str(args[0]))}"
        if verb in ("discard", "add", "troop", "take"):
            return f"{verb} {g.label(str(args[0]))}"
        if verb == "respond":
            return f"respond {args[0]} {g.label(str(args[1]))}"
    except (KeyError, IndexError, ValueError, TypeError):
        pass
    return " ".join(map(str, code))


def parse(g: "TaifaGame", text: str) -> Code:
    words = text.strip().split()
    if not words:
        raise RulesError("type an action, like 'attack Toledo', 'event C35' or 'pass'")
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
        return (verb, "defence" if side == "defense" else side, _card(g, verb, " ".join(rest[1:])))
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


def _card(g: "TaifaGame", verb: str, text: str) -> str:
    text, note = _noted(text)
    if note.upper() in g._cards:
        text = note
    if not text:
        raise RulesError(f"{verb} needs a card, by id (C21) or name")
    upper = text.upper()
    if upper in g._cards:
        return upper
    key = fold_name(text)
    copies = [c.id for d in g.decks for c in d if fold_name(c.name) == key]
    if not copies:
        raise RulesError(f"no card {text!r} (give its id, like C21, or its name)")
    p = g.point()
    if isinstance(p, Decision):
        for code in p.options:
            if code[0] == verb and code[-1] in copies:
                return str(code[-1])
    return copies[0]
