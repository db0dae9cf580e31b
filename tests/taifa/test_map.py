"""The reconstructed Taifa map (core/taifa/data/map.toml) against every area fact in the rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.engine import RulesError
from core.taifa.map import (
    EL_CID_KINGDOMS, INDEPENDENT, KINGDOMS, TaifaMap, load_map,
)

MAP_TEXT = (Path(__file__).resolve().parents[2] / "core/taifa/data/map.toml").read_text("utf-8")


@pytest.fixture(scope="module")
def m() -> TaifaMap:
    return load_map()


def reach(m: TaifaMap, ids: set[int], start: int | None = None) -> set[int]:
    start = min(ids) if start is None else start
    seen, todo = {start}, [start]
    while todo:
        for b in m.area(todo.pop()).borders:
            if b in ids and b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def effective(m: TaifaMap, area_id: int) -> int:
    """Defence the bot reckons with (9.2): printed value plus a starting garrison."""
    a = m.area(area_id)
    return a.defence + (1 if a.garrison else 0)


# --- shape (2.5, 3.1) -------------------------------------------------------

def test_58_areas_with_ids_1_to_58(m: TaifaMap) -> None:
    assert len(m) == 58
    assert [a.id for a in m] == list(range(1, 59))
    assert len({a.name for a in m}) == 58


def test_borders_symmetric_and_not_self(m: TaifaMap) -> None:
    for a in m:
        assert a.id not in a.borders
        assert a.borders, a.name
        for b in a.borders:
            assert a.id in m.area(b).borders, (a.name, b)


def test_every_area_reachable_from_every_other(m: TaifaMap) -> None:
    ids = {a.id for a in m}
    for a in m:
        assert reach(m, ids, a.id) == ids, a.name


def test_coordinates_are_distinct_and_follow_geography(m: TaifaMap) -> None:
    assert len({(a.x, a.y) for a in m}) == 58
    west, east = m.by_name("Lisboa"), m.by_name("Barcelona")
    north, south = m.by_name("Oviedo"), m.by_name("Algeciras")
    assert west.x < east.x and north.y < south.y
    assert m.by_name("Mallorca").x == max(a.x for a in m)
    # ids run in reading order over the grid
    assert [a.id for a in sorted(m, key=lambda a: (a.y, a.x))] == list(range(1, 59))


def test_each_kingdom_starts_with_8_areas_and_one_capital(m: TaifaMap) -> None:
    for k in KINGDOMS:
        held = m.standard.areas_of(k)
        assert len(held) == 8, k
        caps = [i for i in held if m.area(i).capital]
        assert caps == [m.standard.capital(k)]
    assert len(m.standard.areas_of(INDEPENDENT)) == 10
    assert sum(a.capital for a in m) == 6


def test_kingdom_order_and_capitals(m: TaifaMap) -> None:
    assert m.standard.kingdoms == ("castile", "catalans", "valencia", "seville", "badajoz", "leon")  # 2.2
    names = {k: m.area(m.standard.capital(k)).name for k in KINGDOMS}
    assert names == {"castile": "Burgos", "catalans": "Barcelona", "valencia": "Valencia",
                     "seville": "Sevilla", "badajoz": "Badajoz", "leon": "León"}


def test_faq_independent_garrisons(m: TaifaMap) -> None:
    for name in ("Coimbra", "Navarra", "Granada"):
        a = m.by_name(name)
        assert a.owner == INDEPENDENT and a.garrison, name
    assert {m.area(i).name for i in m.standard.garrisons} == {"Coimbra", "Navarra", "Granada"}


def test_six_invasion_routes(m: TaifaMap) -> None:
    assert sum(a.invasion for a in m) == 6  # 2.5, 9.6


def test_defence_values_in_range(m: TaifaMap) -> None:
    assert all(1 <= a.defence <= 5 for a in m)


# --- Mallorca (2.5) ---------------------------------------------------------

def test_mallorca_sea_links(m: TaifaMap) -> None:
    mallorca = m.by_name("Mallorca")
    assert {m.area(b).name for b in mallorca.borders} == {"Denia", "Tarragona"}
    assert mallorca.id in m.by_name("Denia").borders and mallorca.id in m.by_name("Tarragona").borders


# --- example 11.1: Catalans attack Denia from Valencia, Murcia's garrison helps

def test_example_11_1_denia(m: TaifaMap) -> None:
    denia, valencia, murcia = m.by_name("Denia"), m.by_name("Valencia"), m.by_name("Murcia")
    assert m.borders(denia.id, valencia.id) and m.borders(denia.id, murcia.id)
    assert denia.defence == 2  # "2 for the intrinsic defence of the area"
    assert denia.owner == "valencia" and murcia.owner == "valencia"


# --- example 11.2: the Catalan bot's targets from Zaragoza -------------------

def test_example_11_2_areas(m: TaifaMap) -> None:
    zaragoza = m.by_name("Zaragoza")
    tudela, calatayud = m.by_name("Tudela"), m.by_name("Calatayud")
    navarra, tortosa = m.by_name("Navarra"), m.by_name("Tortosa")
    assert zaragoza.owner == "catalans"
    for a in (tudela, calatayud, navarra, tortosa):
        assert a.id in zaragoza.borders, a.name
    assert calatayud.id == 23 and tudela.id < 23
    assert tudela.owner == INDEPENDENT and calatayud.owner == "valencia"
    assert navarra.owner != "catalans" and tortosa.owner != "catalans"
    assert tudela.defence == calatayud.defence == 2
    assert not tudela.garrison and not calatayud.garrison
    assert effective(m, navarra.id) == effective(m, tortosa.id) == 4


def catalan_frontier(m: TaifaMap) -> set[int]:
    held = set(m.standard.areas_of("catalans"))
    return {b for a in held for b in m.area(a).borders} - held


def bot_targets(m: TaifaMap, strength: int) -> set[str]:
    """9.2: the areas of highest defence (garrison included) below the army's strength."""
    frontier = [i for i in catalan_frontier(m) if effective(m, i) < strength]
    best = max(effective(m, i) for i in frontier)
    return {m.area(i).name for i in frontier if effective(m, i) == best}


def test_example_11_2_bot_choices(m: TaifaMap) -> None:
    assert bot_targets(m, 3) == {"Tudela", "Calatayud"}
    assert bot_targets(m, 5) == {"Navarra", "Tortosa"}


def test_example_11_2_incursion_neighbours(m: TaifaMap) -> None:
    kingdoms = {m.standard.owner(i) for i in catalan_frontier(m)} - {INDEPENDENT}
    assert kingdoms == {"castile", "valencia"}


# --- El Cid (10) ------------------------------------------------------------

def test_el_cid_subset_connected(m: TaifaMap) -> None:
    east = set(m.el_cid.areas)
    assert east == {a.id for a in m if a.east}
    assert reach(m, east) == east


def test_el_cid_deployment(m: TaifaMap) -> None:
    d = m.el_cid
    assert d.kingdoms == EL_CID_KINGDOMS == ("almoravids", "castile", "catalans", "el_cid")
    assert m.area(d.capital("almoravids")).name == "Málaga"  # 10.2
    for k in EL_CID_KINGDOMS:
        assert d.areas_of(k), k
        assert d.owner(d.capital(k)) == k
    assert set(d.owners) == set(d.areas)
    assert all(m.area(i).east for i in d.garrisons)
    assert len(d.areas_of("almoravids")) < 10  # the player can still win (10.3)


def test_malaga_exists_and_is_east(m: TaifaMap) -> None:
    assert m.by_name("Málaga").east


# --- lookups ----------------------------------------------------------------

def test_lookups(m: TaifaMap) -> None:
    assert m.area(23).name == "Calatayud"
    assert m.by_name("malaga") is m.by_name("Málaga") is m.by_name(" MÁLAGA ")
    assert {a.name for a in m.neighbours(m.by_name("Denia").id)} >= {"Valencia", "Murcia", "Mallorca"}
    with pytest.raises(RulesError, match="no area 99"):
        m.area(99)
    with pytest.raises(RulesError, match="no area named"):
        m.by_name("Atlantis")


def test_load_own_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(MAP_TEXT.replace('name = "Tudela"', 'name = "Tutila"'), "utf-8")
    own = load_map(str(path))
    assert own.area(14).name == "Tutila" and own.source == str(path)


# --- validation: broken files name the field and the area -------------------

def set_field(text: str, area_id: int, field: str, value: str) -> str:
    """Replace ``field = ...`` inside the [[area]] block whose id is ``area_id``."""
    block = re.compile(rf"(\[\[area\]\](?=\nid = {area_id}\n)(?:(?!\n\n).)*?\n{field} = )[^\n]*", re.S)
    new, n = block.subn(lambda mt: mt.group(1) + value, text)
    assert n == 1, (area_id, field)
    return new


def broken(tmp_path: Path, text: str) -> str:
    path = tmp_path / "broken.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(RulesError) as info:
        load_map(str(path))
    return str(info.value)


@pytest.mark.parametrize(("area", "field", "value", "expect"), [
    (23, "borders", "[14, 17, 19, 29, 32, 99]", "area 23 (Calatayud): borders lists 99, which is not an area"),
    (23, "borders", "[14, 17, 19, 23, 29, 32]", "area 23 (Calatayud): borders lists the area itself"),
    (23, "borders", "[14, 17, 19, 29]", "area 32 (Cuenca): borders lists area 23 (Calatayud), whose borders do not list 32"),
    (23, "borders", "[14, 14, 17, 19, 29, 32]", "area 23 (Calatayud): borders lists 14 twice"),
    (23, "defence", "0", "area 23 (Calatayud): defence 0 is outside 1..5"),
    (23, "defence", '"two"', "area 23 (Calatayud): defence must be a whole number"),
    (23, "owner", '"aragon"', "area 23 (Calatayud): owner 'aragon' is not one of"),
    (23, "capital", '"yes"', "area 23 (Calatayud): capital must be true or false"),
    (23, "id", "22", "area 22 (Calatayud): id 22 is also used by area 22 (Porto)"),
    (23, "name", '"Porto"', "area 23 (Porto): name 'Porto' is also used by area 22 (Porto)"),
    (23, "y", "6", "area 23 (Calatayud): x, y (28, 6) is the same cell as area 14 (Tudela)"),
    (23, "owner", '"catalans"', "owner: catalans starts with 9 areas"),
    (14, "capital", "true", "area 14 (Tudela): capital is true but owner is independent"),
    (19, "capital", "true", "capital: catalans must have exactly one capital"),
    (19, "invasion", "true", "invasion: 7 areas are marked"),
    (51, "east", "true", "the El Cid map (east areas, 10.1) is not connected: area 51 (Silves) cannot be reached"),
])
def test_broken_area_field(tmp_path: Path, area: int, field: str, value: str, expect: str) -> None:
    msg = broken(tmp_path, set_field(MAP_TEXT, area, field, value))
    assert expect in msg
    assert msg.startswith(str(tmp_path / "broken.toml"))


def test_disconnected_map(tmp_path: Path) -> None:
    text = set_field(MAP_TEXT, 36, "borders", "[]")  # Mallorca cut off at sea
    text = set_field(text, 24, "borders", "[20, 21, 27]")
    text = set_field(text, 41, "borders", "[35, 40, 45]")
    msg = broken(tmp_path, text)
    assert "the map is not connected: area 36 (Mallorca) cannot be reached" in msg


def test_missing_and_unknown_fields(tmp_path: Path) -> None:
    assert "area 5 (Álava): defence is missing" in broken(tmp_path, MAP_TEXT.replace("id = 5\nname = \"Álava\"\ndefence = 2\n", "id = 5\nname = \"Álava\"\n"))
    assert "area 5 (Álava): unknown field 'defense'" in broken(tmp_path, MAP_TEXT.replace("id = 5\nname = \"Álava\"\ndefence = 2\n", "id = 5\nname = \"Álava\"\ndefense = 2\n"))


def test_not_toml(tmp_path: Path) -> None:
    assert "not valid TOML" in broken(tmp_path, "[[area]\n")


def test_wrong_area_count(tmp_path: Path) -> None:
    last = MAP_TEXT.index("[[area]]\nid = 58\n")
    text = MAP_TEXT[:last] + MAP_TEXT[MAP_TEXT.index("# El Cid solitaire"):]
    assert "the map has 57 areas; the rules (2.5) have 58" in broken(tmp_path, text)


@pytest.mark.parametrize(("old", "new", "expect"), [
    ("almoravids = 57", "almoravids = 53", None),  # Granada: another Almoravid area, still valid
    ("el_cid = [23, 27, 29, 35]", "el_cid = [23, 27, 29, 35, 49]", "el_cid.areas.el_cid: area 49 (Sevilla) is not east of the line"),
    ("el_cid = [23, 27, 29, 35]", "el_cid = [23, 27, 29, 35, 57]", "el_cid.areas.el_cid: area 57 (Málaga) is also listed for almoravids"),
    ("el_cid = [23, 27, 29, 35]", "el_cid = [23, 27, 29, 35, 99]", "el_cid.areas.el_cid lists 99, which is not an area"),
    ("el_cid = 35  # Valencia", "el_cid = 23", None),
    ("catalans = 21  # Barcelona", "catalans = 10", "el_cid.capitals.catalans: area 10 (Burgos) is not listed in el_cid.areas.catalans"),
    ("catalans = 21  # Barcelona\n", "", "el_cid.capitals: catalans has no capital"),
    ("garrisons = [6]", "garrisons = [49]", "el_cid.garrisons: area 49 (Sevilla) is not east of the line"),
    ('"el_cid"]', '"leon"]', "el_cid.order must be"),
])
def test_broken_el_cid(tmp_path: Path, old: str, new: str, expect: str | None) -> None:
    assert old in MAP_TEXT
    text = MAP_TEXT.replace(old, new)
    if expect is None:  # still a valid (if different) scenario
        path = tmp_path / "ok.toml"
        path.write_text(text, "utf-8")
        load_map(str(path))
        return
    assert expect in broken(tmp_path, text)


def test_el_cid_area_moved_west_is_reported(tmp_path: Path) -> None:
    msg = broken(tmp_path, set_field(MAP_TEXT, 47, "east", "false"))  # Jaén is Almoravid in El Cid
    assert "el_cid.areas.almoravids: area 47 (Jaén) is not east of the line (east = false)" in msg
