"""OpenTafl rules strings (OTN, opentafl-notation-spec section 3) for fiefdom's variants.

``rules_string`` writes one for a variant and its options; ``parse_rules``
reads one back into a variant, options, start position and side to move,
or refuses it in one line (RulesError) when fiefdom cannot play those rules.
How each ruling maps onto OTN keys, and where OTN cannot say it, is TF-17..TF-19
in docs/rulings/tafl.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.engine import RulesError
from core.tafl.board import format_position, parse_position
from core.tafl.variants import Variant, variant as get_variant, variants

ALL = "tcnkTCNK"  # OTN piece letters: attackers lower case, defenders upper case
BUT_KING = "tcnkTCN"

# OpenTafl's defaults for the keys fiefdom's variants depend on (OpenTafl's RulesSerializer).
DEFAULTS: dict[str, str] = {
    "esc": "c", "surf": "y", "atkf": "y", "tfr": "d", "ka": "y", "ks": "s", "kj": "n",
    "cor": "default", "cen": "default", "afor": "", "dfor": "", "spd": "-1",
    "corh": ALL, "cenh": "tcnk", "cenhe": ALL, "aforh": "TCNK", "dforh": "tcnk",
    "corp": "K", "cenp": ALL, "aforp": ALL, "dforp": ALL,
    "cors": "K", "cens": "K", "afors": ALL, "dfors": "TCNK",
    "corre": ALL, "cenre": ALL, "aforre": ALL, "dforre": ALL,
    "sw": "n", "swf": "y", "efe": "n", "ber": "n",
}
# Keys that only matter for pieces fiefdom has none of (knights, commanders): any value will do.
IGNORED = frozenset({"name", "nj", "cj", "swf"})
PIECE_LISTS = frozenset(f"{space}{what}" for space in ("cor", "cen", "afor", "dfor") for what in ("h", "p", "s", "re")) | {"cenhe"}
_SYNONYMS = {"ks": {"y": "s", "n": "w"}}  # older OpenTafl wrote the king's strength as yes/no
_REENTRY = ("cenre", "corre", "dforre")
# TF-18; OTN cannot say "the defenders lose": OpenTafl's own Copenhagen string writes tfr:w (TF-26).
TFR = {"draw": "d", "loss": "l", "defenders-lose": "w", "off": "i"}


@dataclass(frozen=True)
class OtnRules:
    """What a rules string means to fiefdom."""

    variant: str
    options: dict[str, Any]
    position: str  # the start position
    to_move: int  # 0 attackers, 1 defenders (atkf)


def _entries(v: Variant, options: Mapping[str, Any]) -> dict[str, str]:
    """Every OTN key fiefdom's rules for ``v`` give a value (TF-17)."""
    e = dict(DEFAULTS)
    e["surf"] = "y" if v.encirclement else "n"  # TF-24: Copenhagen and Fetlar only
    e["tfr"] = TFR[options["repetition"]]
    if v.shieldwall:
        e["sw"] = "s"  # TF-21: a corner may close it; swf:y, only the bracketing move captures
    if v.edge_fort:
        e["efe"] = "y"  # TF-22
    if v.king_capture == "two":
        # Brandubh (TF-28): OpenTafl's own Brandub string (weak king, the throne hostile to no one),
        # or with the strong king four on and three beside the throne, which is hostile when empty.
        if options.get("strong_king_at_throne", False):
            e.update(ks="c", cenhe=ALL)
        else:
            e.update(ks="w", cenh="", cenhe="")
    elif v.centre == "throne":
        # The empty throne is hostile to all; to the king too when it counts as a side (TF-3, TF-4,
        # always in Copenhagen and Fetlar, TF-20).
        counts = v.king_capture == "four-or-three-by-throne" or options.get("throne_counts_for_king", False)
        e["cenhe"] = ALL if counts else BUT_KING
    else:
        # Gild: the hof and corners never help capture the king (TF-13); OTN's nearest king
        # strength is strong on and beside the centre (TF-17).
        e.update(ks="c", cenhe=BUT_KING, corh=BUT_KING)
    if v.camps:
        # Camps (TF-7, TF-11): attackers only stop there, may not re-enter, hostile to all when empty.
        e.update(afor=",".join(sq for camp in v.camps for sq in camp), aforh=ALL, afors="tcnk", aforre="")
    return e


def rules_string(variant_name: str, options: Mapping[str, Any] | None = None,
                 position: str | None = None, to_move: int = 0) -> str:
    """The OTN rules string of a fiefdom variant: ``dim`` first, ``start`` last, defaults left out.

    With camps the re-entry keys are all written: OpenTafl reads ``aforre`` (and ``corre``,
    ``dforre``, else none may re-enter) only when ``cenre`` is present.
    """
    v = get_variant(variant_name)
    opts = v.options(dict(options or {}))
    entries = _entries(v, opts)
    parts = [f"dim:{v.size}", "name:" + v.title.replace(" ", "_"), f"atkf:{'n' if to_move else 'y'}"]
    for key, value in entries.items():
        if key != "atkf" and (value != DEFAULTS[key] or key in _REENTRY and v.camps):
            parts.append(f"{key}:{value}")
    parts.append("start:" + (position or v.start))
    return " ".join(parts)


def _split(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for word in text.split():
        key, sep, value = word.partition(":")
        if not sep:
            raise RulesError(f"rules string: {word[:40]!r} is not a key:value entry")
        if key in found:
            raise RulesError(f"rules string: {key} is given twice")
        found[key] = value
    return found


def _normal(key: str, value: str) -> str:
    value = _SYNONYMS.get(key, {}).get(value, value)
    if key in PIECE_LISTS:
        return "".join(sorted(set(value) & set("tTK")))  # fiefdom has no knights or commanders
    if key in ("afor", "dfor", "cor", "cen"):
        return ",".join(sorted(sq for sq in value.lower().split(",") if sq))
    return value


def parse_rules(text: str) -> OtnRules:
    """The fiefdom variant an OTN rules string describes; RulesError says in one line why none does."""
    if len(text) > 4096 or not text.isascii():
        raise RulesError("rules string: not a rules string (too long, or not ASCII)")
    given = _split(text.strip())
    for key in ("dim", "start"):
        if key not in given:
            raise RulesError(f"rules string: no {key}: entry")
    unknown = sorted(set(given) - set(DEFAULTS) - IGNORED - {"dim", "start"})
    if unknown:
        raise RulesError(f"rules string: fiefdom does not know the rule {unknown[0]}:{given[unknown[0]]}")
    atkf = given.get("atkf", "y")
    if atkf not in ("y", "n"):
        raise RulesError(f"rules string: atkf:{atkf} is not y or n")
    candidates = [v for v in variants().values() if str(v.size) == given["dim"]]
    if not candidates:
        sizes = ", ".join(map(str, sorted({v.size for v in variants().values()})))
        raise RulesError(f"rules string: fiefdom plays no {given['dim'][:6]}x{given['dim'][:6]} tafl (boards: {sizes})")
    closest: tuple[int, str] = (1 << 30, "")
    for v in candidates:
        for options in _option_choices(v):
            want = _entries(v, options)
            diff = [k for k in want if k != "atkf"
                    and _normal(k, given.get(k, DEFAULTS[k])) != _normal(k, want[k])]
            if not diff:
                try:
                    position = format_position(parse_position(given["start"], v.size), v.size)
                except RulesError as err:
                    raise RulesError(f"rules string: start: {err}") from None
                return OtnRules(v.name, options, position, 0 if atkf == "y" else 1)
            theirs = ", ".join(f"{k}:{given.get(k, DEFAULTS[k])}" for k in diff[:3])
            ours = ", ".join(f"{k}:{want[k]}" for k in diff[:3])
            closest = min(closest, (len(diff), f"{theirs} (fiefdom's {v.name} has {ours})"))
    raise RulesError(f"rules string: fiefdom cannot play these rules: {closest[1]}")


def _option_choices(v: Variant) -> list[dict[str, Any]]:
    """The variant's options for each OTN-visible choice (TF-18: OpenTafl has no quiet-move draw)."""
    out = []
    flags = [key for key in ("throne_counts_for_king", "strong_king_at_throne") if key in v.defaults]
    for rep in TFR:
        for bits in range(1 << len(flags)):
            opts = dict(v.defaults, repetition=rep, quiet_moves=0)
            opts.update((key, bool(bits >> i & 1)) for i, key in enumerate(flags))
            out.append(opts)
    return out
