"""The Tafl rulesets, loaded from data/variants.toml, and their options."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from core.engine import RulesError
from core.tafl.board import Geometry


@dataclass(frozen=True)
class OptionSpec:
    name: str
    kind: type
    choices: tuple[Any, ...] | None
    help: str
    ruling: str


# Contested rulings that players may set (docs/rulings/tafl.md).
OPTION_SPECS: dict[str, OptionSpec] = {
    spec.name: spec
    for spec in (
        OptionSpec("quiet_moves", int, None,
                   "draw after this many moves in a row (both sides' moves count) without a capture; 0 = off",
                   "TF-5"),
        OptionSpec("repetition", str, ("draw", "loss", "defenders-lose", "off"),
                   "third occurrence of a position: draw, loss for the side that repeats, "
                   "loss for the defenders whoever repeats (Copenhagen, TF-23), or no rule",
                   "TF-6"),
        OptionSpec("throne_counts_for_king", bool, None,
                   "the empty throne counts as one of the four sides that capture the king",
                   "TF-3"),
        OptionSpec("strong_king_at_throne", bool, None,
                   "Brandubh: the king needs four attackers on the throne and three beside it "
                   "(setupgroup.com), else two anywhere (dragonheelslair.com)",
                   "TF-28"),
    )
}


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    cite: str
    size: int
    start: str
    centre: str  # "throne" or "hof"
    # "four-sides" (TF-3 option), "hof-four-else-two" (gild), "four-or-three-by-throne"
    # (Copenhagen, Fetlar) or "two" (Brandubh; strong_king_at_throne, TF-28)
    king_capture: str
    camps: tuple[tuple[str, ...], ...]
    defaults: dict[str, Any] = field(hash=False)
    geometry: Geometry = field(hash=False, compare=False)
    # The published rulesets' extra rules (TF-20 onwards); off in the older variants.
    shieldwall: bool = False  # TF-21
    edge_fort: bool = False  # TF-22
    encirclement: bool = False  # TF-24
    throne_hostile: bool = True  # TF-4; Brandubh TF-28
    no_moves: str = "loss"  # "loss" (TF-9) or "draw" (Brandubh, TF-29)

    def options(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        """The defaults overridden by ``given``, validated; RulesError names the bad option."""
        opts = dict(self.defaults)
        for key, value in (given or {}).items():
            if key not in self.defaults:
                known = ", ".join(sorted(self.defaults)) or "none"
                raise RulesError(f"option {key!r} does not apply to {self.name} (options: {known})")
            opts[key] = coerce_option(key, value)
        return opts


def coerce_option(key: str, value: Any) -> Any:
    spec = OPTION_SPECS[key]
    if spec.kind is bool:
        if isinstance(value, str):
            low = value.strip().lower()
            if low in ("1", "true", "yes", "on"):
                value = True
            elif low in ("0", "false", "no", "off"):
                value = False
        if not isinstance(value, bool):
            raise RulesError(f"option {key} takes true or false")
    elif spec.kind is int:
        text = value.strip() if isinstance(value, str) else ""
        if text.isascii() and text.isdigit() and len(text) <= 18:  # ASCII: "²" is a digit only to isdigit
            value = int(text)
        if type(value) is not int or value < 0:
            raise RulesError(f"option {key} takes a whole number >= 0")
    else:
        if not isinstance(value, str) or (spec.choices and value not in spec.choices):
            raise RulesError(f"option {key} takes one of: {', '.join(spec.choices or ())}")
    return value


EXTRA_RULES = ("shieldwall", "edge_fort", "encirclement", "throne_hostile", "no_moves")


@cache
def variants() -> dict[str, Variant]:
    raw = tomllib.loads(resources.files("core.tafl").joinpath("data/variants.toml").read_text("utf-8"))
    out = {}
    for name, v in raw.items():
        camps = tuple(tuple(c) for c in v["camps"])
        out[name] = Variant(
            name=name, title=v["title"], cite=v["cite"], size=v["size"], start=v["start"],
            centre=v["centre"], king_capture=v["king_capture"], camps=camps,
            defaults={k: coerce_option(k, val) for k, val in v["options"].items()},
            geometry=Geometry.build(v["size"], [list(c) for c in camps]),
            **{key: v[key] for key in EXTRA_RULES if key in v},
        )
    return out


def variant(name: str) -> Variant:
    table = variants()
    if name not in table:
        raise RulesError(f"unknown tafl variant {name!r} (choose from: {', '.join(table)})")
    return table[name]
