"""The Taifa map (58 areas) and its two deployments, loaded from data/map.toml.

The printed map is not in the rulebook; the packaged file is a reconstruction
that satisfies every fact the rules give (docs/taifa-map.md). A user may load
their own file with ``load_map(path)``; every file is validated and a bad one
raises RulesError naming the area and the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from core.engine import RulesError
from core.taifa.rows import check_row, fold_name, table_rows
from core import toml_files

# The six kingdoms in the order they play (2.2), with their deck (2.1, 4).
KINGDOMS: tuple[str, ...] = ("castile", "catalans", "valencia", "seville", "badajoz", "leon")
KINGDOM_NAMES: Mapping[str, str] = MappingProxyType({
    "castile": "Castile", "catalans": "Catalan Counties", "valencia": "Taifa of Valencia",
    "seville": "Taifa of Seville", "badajoz": "Taifa of Badajoz", "leon": "Leon",
    "almoravids": "Almoravids", "el_cid": "El Cid",
})
CHRISTIAN: frozenset[str] = frozenset({"castile", "catalans", "leon", "el_cid"})
# The kingdoms of the El Cid scenario, in the order they play (10.1).
EL_CID_KINGDOMS: tuple[str, ...] = ("almoravids", "castile", "catalans", "el_cid")
INDEPENDENT = "independent"

AREA_COUNT = 58  # 2.5
AREAS_PER_KINGDOM = 8  # 3.1
INVASION_ROUTES = 6  # 2.5, 9.6
DEFENCE_RANGE = range(1, 6)  # printed values; a garrison adds 1 on top (5.2)

_AREA_FIELDS: dict[str, type] = {
    "id": int, "name": str, "defence": int, "owner": str, "capital": bool, "garrison": bool,
    "invasion": bool, "east": bool, "x": int, "y": int, "borders": list,
}


@dataclass(frozen=True, slots=True)
class Area:
    id: int
    name: str
    defence: int
    borders: tuple[int, ...]
    owner: str  # at the start of the standard game: a kingdom key or "independent"
    capital: bool
    garrison: bool
    invasion: bool
    east: bool  # east of the white line: played in El Cid (10.1)
    x: int
    y: int


@dataclass(frozen=True)
class Deployment:
    """Who holds what at the start of a game: the standard one (3.1) or El Cid (10.1)."""

    kingdoms: tuple[str, ...]  # in the order they play
    areas: frozenset[int]  # the areas in play
    owners: Mapping[int, str]  # every area in play -> kingdom key or "independent"
    capitals: Mapping[str, int]
    garrisons: frozenset[int]

    def owner(self, area_id: int) -> str:
        return self.owners[area_id]

    def areas_of(self, kingdom: str) -> tuple[int, ...]:
        return tuple(sorted(a for a, k in self.owners.items() if k == kingdom))

    def capital(self, kingdom: str) -> int:
        return self.capitals[kingdom]


@dataclass(frozen=True)
class TaifaMap:
    areas: tuple[Area, ...]  # areas[i].id == i + 1
    standard: Deployment
    el_cid: Deployment
    source: str

    def __len__(self) -> int:
        return len(self.areas)

    def __iter__(self):
        return iter(self.areas)

    def area(self, area_id: int) -> Area:
        if type(area_id) is not int or not 1 <= area_id <= len(self.areas):
            raise RulesError(f"no area {area_id!r} (areas are 1..{len(self.areas)})")
        return self.areas[area_id - 1]

    def by_name(self, name: str) -> Area:
        """The area called ``name``; case and accents do not matter ("malaga" finds Málaga)."""
        key = fold_name(name)
        for a in self.areas:
            if fold_name(a.name) == key:
                return a
        raise RulesError(f"no area named {name!r}")

    def neighbours(self, area_id: int) -> tuple[Area, ...]:
        return tuple(self.areas[b - 1] for b in self.area(area_id).borders)

    def borders(self, a: int, b: int) -> bool:
        return b in self.area(a).borders

    def east_ids(self) -> frozenset[int]:
        return self.el_cid.areas


def load_map(path: str | None = None) -> TaifaMap:
    """Load and validate a map: the packaged reconstruction, or the TOML file at ``path``."""
    if path is None:
        text = resources.files("core.taifa").joinpath("data/map.toml").read_text("utf-8")
        source = "core/taifa/data/map.toml"
    else:
        text, source = toml_files.read_text(path, "map"), str(path)
    return parse_map(text, source)


def parse_map(text: str, source: str = "<text>") -> TaifaMap:
    raw = toml_files.parse(text, source, "map")
    try:
        return _build(raw, source)
    except RulesError as exc:
        raise RulesError(f"{source}: {exc}") from None


def _label(a: Mapping[str, Any] | Area) -> str:
    if isinstance(a, Area):
        return f"area {a.id} ({a.name})"
    return toml_files.label(f"area {toml_files.short(a.get('id'))}", a.get("name"))


def _build(raw: dict[str, Any], source: str) -> TaifaMap:
    areas = [_area(row, i) for i, row in enumerate(table_rows(raw, "area", {"area", "el_cid"}), 1)]
    _check_ids(areas)
    areas.sort(key=lambda a: a.id)
    by_id = {a.id: a for a in areas}
    _check_borders(areas, by_id)
    _check_standard(areas)
    seen: dict[tuple[int, int], Area] = {}
    for a in areas:
        if (a.x, a.y) in seen:
            raise RulesError(f"{_label(a)}: x, y ({a.x}, {a.y}) is the same cell as {_label(seen[a.x, a.y])}")
        seen[a.x, a.y] = a
    _check_connected("the map", [a.id for a in areas], by_id)
    standard = Deployment(
        kingdoms=KINGDOMS, areas=frozenset(by_id),
        owners=MappingProxyType({a.id: a.owner for a in areas}),
        capitals=MappingProxyType({k: next(a.id for a in areas if a.capital and a.owner == k) for k in KINGDOMS}),
        garrisons=frozenset(a.id for a in areas if a.garrison),
    )
    el_cid = _el_cid(raw.get("el_cid"), areas, by_id)
    return TaifaMap(areas=tuple(areas), standard=standard, el_cid=el_cid, source=source)


def _area(row: Any, index: int) -> Area:
    if not isinstance(row, dict):
        raise RulesError(f"[[area]] entry {index} is not a table")
    where = _label(row) if "id" in row else f"[[area]] entry {index}"
    check_row(row, where, _AREA_FIELDS, _AREA_FIELDS)
    toml_files.check_line(row["name"], where, "name")
    if row["defence"] not in DEFENCE_RANGE:
        raise RulesError(f"{where}: defence {row['defence']} is outside {DEFENCE_RANGE.start}..{DEFENCE_RANGE.stop - 1}")
    if row["owner"] not in KINGDOMS and row["owner"] != INDEPENDENT:
        raise RulesError(f"{where}: owner {toml_files.short(row['owner'])} is not one of {', '.join(KINGDOMS)}, {INDEPENDENT}")
    if row["x"] < 0 or row["y"] < 0:
        raise RulesError(f"{where}: x, y ({row['x']}, {row['y']}) must not be negative")
    for b in row["borders"]:
        if type(b) is not int:
            raise RulesError(f"{where}: borders lists {toml_files.short(b)}, which is not an area id")
    return Area(
        id=row["id"], name=row["name"].strip(), defence=row["defence"], borders=tuple(sorted(row["borders"])),
        owner=row["owner"], capital=row["capital"], garrison=row["garrison"], invasion=row["invasion"],
        east=row["east"], x=row["x"], y=row["y"],
    )




def _check_ids(areas: list[Area]) -> None:
    seen: dict[int, Area] = {}
    names: dict[str, Area] = {}
    for a in areas:
        if a.id in seen:
            raise RulesError(f"{_label(a)}: id {a.id} is also used by {_label(seen[a.id])}")
        seen[a.id] = a
        key = fold_name(a.name)
        if key in names:
            raise RulesError(f"{_label(a)}: name {a.name!r} is also used by {_label(names[key])}")
        names[key] = a
    if len(areas) != AREA_COUNT:
        raise RulesError(f"the map has {len(areas)} areas; the rules (2.5) have {AREA_COUNT}")
    for a in areas:
        if not 1 <= a.id <= len(areas):
            raise RulesError(f"{_label(a)}: id {a.id} is outside 1..{len(areas)}")


def _check_borders(areas: list[Area], by_id: dict[int, Area]) -> None:
    for a in areas:
        if len(set(a.borders)) != len(a.borders):
            dup = next(b for b in a.borders if a.borders.count(b) > 1)
            raise RulesError(f"{_label(a)}: borders lists {dup} twice")
        for b in a.borders:
            if b == a.id:
                raise RulesError(f"{_label(a)}: borders lists the area itself")
            if b not in by_id:
                raise RulesError(f"{_label(a)}: borders lists {b}, which is not an area")
            if a.id not in by_id[b].borders:
                raise RulesError(f"{_label(a)}: borders lists {_label(by_id[b])}, whose borders do not list {a.id}")


def _check_standard(areas: list[Area]) -> None:
    for a in areas:
        if a.capital and a.owner == INDEPENDENT:
            raise RulesError(f"{_label(a)}: capital is true but owner is independent")
    for k in KINGDOMS:
        held = [a for a in areas if a.owner == k]
        if len(held) != AREAS_PER_KINGDOM:
            raise RulesError(f"owner: {k} starts with {len(held)} areas; the rules (3.1) give each kingdom {AREAS_PER_KINGDOM}")
        caps = [a for a in held if a.capital]
        if len(caps) != 1:
            listed = ", ".join(_label(a) for a in caps) or "none"
            raise RulesError(f"capital: {k} must have exactly one capital among its areas (2.5), found {listed}")
    routes = [a for a in areas if a.invasion]
    if len(routes) != INVASION_ROUTES:
        raise RulesError(f"invasion: {len(routes)} areas are marked; the rules (2.5, 9.6) have {INVASION_ROUTES}")


def _check_connected(what: str, ids: Iterable[int], by_id: Mapping[int, Area]) -> None:
    ids = set(ids)
    start = min(ids)
    reached = {start}
    todo = [start]
    while todo:
        for b in by_id[todo.pop()].borders:
            if b in ids and b not in reached:
                reached.add(b)
                todo.append(b)
    missing = sorted(ids - reached)
    if missing:
        raise RulesError(f"{what} is not connected: {_label(by_id[missing[0]])} cannot be reached from {_label(by_id[start])}"
                         + (f" (nor {len(missing) - 1} other area(s))" if len(missing) > 1 else ""))


def _el_cid(raw: Any, areas: list[Area], by_id: dict[int, Area]) -> Deployment:
    if not isinstance(raw, dict):
        raise RulesError("[el_cid] table is missing")
    unknown = set(raw) - {"order", "garrisons", "areas", "capitals"}
    if unknown:
        raise RulesError(f"el_cid: unknown field(s) {', '.join(toml_files.short(f) for f in sorted(unknown))}")
    east = [a.id for a in areas if a.east]
    if not east:
        raise RulesError("east: no area is east of the line, so El Cid has no map (10.1)")
    _check_connected("the El Cid map (east areas, 10.1)", east, by_id)
    order = raw.get("order")
    if order != list(EL_CID_KINGDOMS):
        raise RulesError(f"el_cid.order must be {list(EL_CID_KINGDOMS)} (10.1), not {toml_files.short(order)}")
    held = raw.get("areas")
    if not isinstance(held, dict):
        raise RulesError("el_cid.areas table is missing")
    owners: dict[int, str] = {i: INDEPENDENT for i in east}
    claimed: dict[int, str] = {}
    for k, ids in held.items():
        if k not in EL_CID_KINGDOMS:
            raise RulesError(f"el_cid.areas: {toml_files.short(k)} is not one of {', '.join(EL_CID_KINGDOMS)}")
        for i in _ids(f"el_cid.areas.{k}", ids, by_id):
            if not by_id[i].east:
                raise RulesError(f"el_cid.areas.{k}: {_label(by_id[i])} is not east of the line (east = false)")
            if i in claimed:
                raise RulesError(f"el_cid.areas.{k}: {_label(by_id[i])} is also listed for {claimed[i]}")
            claimed[i] = k
            owners[i] = k
    caps = raw.get("capitals")
    if not isinstance(caps, dict):
        raise RulesError("el_cid.capitals table is missing")
    for k in caps:
        if k not in EL_CID_KINGDOMS:
            raise RulesError(f"el_cid.capitals: {toml_files.short(k)} is not one of {', '.join(EL_CID_KINGDOMS)}")
    capitals: dict[str, int] = {}
    for k in EL_CID_KINGDOMS:
        if k not in caps:
            raise RulesError(f"el_cid.capitals: {k} has no capital")
        (cap,) = _ids(f"el_cid.capitals.{k}", [caps[k]], by_id)
        if owners.get(cap) != k:
            raise RulesError(f"el_cid.capitals.{k}: {_label(by_id[cap])} is not listed in el_cid.areas.{k}")
        capitals[k] = cap
    garrisons = _ids("el_cid.garrisons", raw.get("garrisons", []), by_id)
    for i in garrisons:
        if not by_id[i].east:
            raise RulesError(f"el_cid.garrisons: {_label(by_id[i])} is not east of the line (east = false)")
    return Deployment(
        kingdoms=EL_CID_KINGDOMS, areas=frozenset(east), owners=MappingProxyType(owners),
        capitals=MappingProxyType(capitals), garrisons=frozenset(garrisons),
    )


def _ids(where: str, ids: Any, by_id: Mapping[int, Area]) -> list[int]:
    if not isinstance(ids, list):
        raise RulesError(f"{where} must be a list of area ids, not {toml_files.short(ids)}")
    for i in ids:
        if type(i) is not int or i not in by_id:
            raise RulesError(f"{where} lists {toml_files.short(i)}, which is not an area")
    return ids
