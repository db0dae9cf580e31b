"""Pilot tests of Taifa's map pane (tui/games/taifa/map.py): the drawn peninsula at wide and
compact sizes, the cursor, the finder, the legend, targets, and marks that read without colour."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from core.taifa.game import TaifaGame
from core.taifa.state import INDEPENDENT, OUT_OF_PLAY
from tui.games.taifa.map import (
    LETTERS, MapCanvas, MapPane, find_area, marks_of, owner_letter, small_label, wide_label,
)
from tui.widgets.options import OptionChosen
from tui_support import text

LABEL = re.compile(r"([>! ]?)([A-Zi·])(\d{1,2})(?:·(\d))?")  # ">C10·4" as the wide map draws it


class MapApp(App):
    """One MapPane, as large as the CSS says, and the messages it sent."""

    def __init__(self, game: TaifaGame, seat: int | None, targets: dict[int, Any] | None = None,
                 css: str = "") -> None:
        self.CSS = css
        super().__init__()
        self.game, self.seat, self.targets = game, seat, targets or {}
        self.chosen: list[tuple] = []
        self.selected: list[int] = []

    def compose(self) -> ComposeResult:
        yield MapPane(self.game, self.seat, id="map")

    def on_mount(self) -> None:
        self.query_one(MapPane).show(self.game, self.seat, self.targets)
        self.query_one(MapCanvas).focus()

    def on_option_chosen(self, message: OptionChosen) -> None:
        self.chosen.append(message.code)

    def on_map_pane_area_selected(self, message: MapPane.AreaSelected) -> None:
        self.selected.append(message.area)


COMPACT = "MapPane { width: 45; height: 12; }"  # about the board pane of the play screen at 80x24


def plain(canvas: MapCanvas) -> list[str]:
    return [strip.text for strip in canvas.paint()]


def wide_labels(lines: list[str]) -> dict[int, list[tuple[str, str, str | None]]]:
    """Every wide label drawn: area id -> [(state, letter, defence)] (a list, to catch doubles)."""
    found: dict[int, list[tuple[str, str, str | None]]] = {}
    for line in lines:
        for m in LABEL.finditer(line):
            found.setdefault(int(m.group(3)), []).append((m.group(1), m.group(2), m.group(4)))
    return found


def attack_targets(game: TaifaGame) -> dict[int, tuple]:
    k = game.s.current
    return {a: ("attack", a) for a in game.attackable(k)}


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (70, 25)])
async def test_wide_map_draws_every_area_once_with_owner_and_defence(size: tuple[int, int]) -> None:
    game = TaifaGame("standard", bots=())
    app = MapApp(game, 0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        canvas = app.query_one(MapCanvas)
        assert canvas.layout_.wide
        labels = wide_labels(plain(canvas))
        view = game.view(0)
        assert sorted(labels) == list(range(1, 59))
        for a, found in labels.items():
            assert len(found) == 1, (a, found)  # drawn once: no label overlaps another
            _, letter, defence = found[0]
            assert letter == owner_letter(view, a)
            assert int(defence) == game.m.areas[a - 1].defence
        # marks: capitals, garrisons, invasion routes and Mallorca's sea links
        lines = "\n".join(plain(canvas))
        assert "C10·4*" in lines and "L7·4*" in lines  # Burgos and León, capitals
        assert "i6·3+»" in lines  # Navarra: a garrison (FAQ) and an invasion route
        assert "i36·3~" in lines and "A24·2~" in lines and "V41·2~" in lines  # Mallorca, Tarragona, Denia
        assert "•" in lines  # the sea link drawn across the sea


async def test_compact_map_is_a_schematic_and_a_list() -> None:
    game = TaifaGame("standard", bots=())
    app = MapApp(game, 0, css=COMPACT)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        canvas = app.query_one(MapCanvas)
        lay = canvas.layout_
        assert not lay.wide and len(lay.spots) == 58
        lines = plain(canvas)
        view = game.view(0)
        # The schematic: one owner letter per area, no ids to jumble.
        schematic = [line[:lay.list_col - 1] for line in lines]
        assert not any(ch.isdigit() for line in schematic for ch in line)
        for a, (y, x) in lay.spots.items():
            assert schematic[y][x] == owner_letter(view, a)
        assert sum(ch in LETTERS.values() or ch == "i" for line in schematic for ch in line) == 58
        # The list: id, name, letter and defence of the areas in view, each once.
        listed = [line[lay.list_col:] for line in lines]
        assert listed[0].startswith("  1 Cantabria") and listed[0].rstrip().endswith("C2")
        ids = [int(line[1:3]) for line in listed if line.strip()]
        assert ids == list(range(1, len(ids) + 1)) and len(ids) == lay.height


async def test_cursor_moves_by_direction_and_shows_details() -> None:
    game = TaifaGame("standard", bots=())
    app = MapApp(game, 0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        pane, canvas = app.query_one(MapPane), app.query_one(MapCanvas)
        spots = canvas.layout_.spots
        start = pane.cursor
        await pilot.press("right")
        moved = pane.cursor
        assert moved != start and spots[moved][1] > spots[start][1]
        await pilot.press("down")
        assert spots[pane.cursor][0] > spots[moved][0]
        assert app.selected == [moved, pane.cursor]
        shown = text(app.query_one("#map-details"))
        area = game.m.areas[pane.cursor - 1]
        assert shown.startswith(f"{pane.cursor} {area.name}")
        assert f"defence {area.defence}" in shown
        assert "borders: " + ", ".join(f"{game.m.areas[b - 1].name} {b}" for b in area.borders) in shown


async def test_finder_selects_by_name_or_id_and_says_when_nothing_matches() -> None:
    game = TaifaGame("standard", bots=())
    app = MapApp(game, 0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        pane = app.query_one(MapPane)
        await pilot.press("slash", *"sevilla", "enter")
        assert pane.cursor == 49 and app.selected[-1] == 49
        assert app.focused is app.query_one(MapCanvas)
        shown = text(app.query_one("#map-details"))
        assert shown.startswith("49 Sevilla")
        assert "Taifa of Seville" in shown and "defence 4" in shown and "capital of Taifa of Seville" in shown
        assert "borders: Mérida 39, Carmona 50, Niebla 52, Jerez 55" in shown
        attackers = [game.seats[k] for k in range(6) if k != 3 and 49 in game.attackable(k)]
        assert attackers == ["Taifa of Badajoz"]  # Mérida is Badajoz's; Carmona, Niebla, Jerez are Seville's own
        assert "can attack it: Taifa of Badajoz" in shown
        await pilot.press("slash", *"21", "enter")
        assert pane.cursor == 21
        await pilot.press("slash", *"xyz", "enter")
        assert pane.cursor == 21
        assert text(app.query_one("#map-note")) == "no area is called or numbered 'xyz'"
        await pilot.press("slash")
        pane.query_one("#map-find").value = "[b]x\x1b[2J"  # what is typed is quoted, never read as markup
        await pilot.press("enter")
        assert text(app.query_one("#map-note")) == "no area is called or numbered '[b]x\\x1b[2J'"
        await pilot.press("escape")
        assert app.focused is app.query_one(MapCanvas)
        assert not app.query_one("#map-note").display


def test_find_area_prefix_accents_and_ids() -> None:
    m = TaifaGame("standard").m
    assert find_area(m, "malaga") == 57  # accents ignored
    assert find_area(m, "Val") == 35  # Valencia, the first name it begins
    assert find_area(m, "58") == 58
    assert find_area(m, "59") is None and find_area(m, "") is None and find_area(m, "zz") is None


async def test_targets_are_marked_and_enter_or_click_chooses_one() -> None:
    game = TaifaGame("standard", bots=())
    targets = attack_targets(game)
    first = next(iter(targets))
    app = MapApp(game, game.s.current, targets)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        pane, canvas = app.query_one(MapPane), app.query_one(MapCanvas)
        assert pane.cursor == first  # the cursor jumps to the first target
        labels = wide_labels(plain(canvas))
        assert {a for a, found in labels.items() if found[0][0] == ">"} == set(targets)
        await pilot.press("enter")
        assert app.chosen == [("attack", first)]
        other = sorted(targets)[-1]
        y, x = canvas.layout_.spots[other]
        await pilot.click(MapCanvas, offset=(x + 2, y))
        assert pane.cursor == other and app.chosen[-1] == ("attack", other)
        # Enter on an area that is no target chooses nothing and says so.
        await pilot.press("slash", *str(min(set(range(1, 59)) - set(targets))), "enter", "enter")
        assert len(app.chosen) == 2
        assert "is not a choice now" in text(app.query_one("#map-note"))


async def test_compact_targets_and_list_follow_the_cursor() -> None:
    game = TaifaGame("standard", bots=())
    targets = attack_targets(game)
    app = MapApp(game, game.s.current, targets, css=COMPACT)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        canvas = app.query_one(MapCanvas)
        lay = canvas.layout_
        lines = plain(canvas)
        for a in targets:
            y, x = lay.spots[a]
            assert lines[y][x + 1] == ">"
        await pilot.press("slash", *"algeciras", "enter")
        lines = plain(canvas)
        assert any(line[lay.list_col:].startswith(" 58 Algeciras") for line in lines)
        assert "58 Algeciras" in text(app.query_one("#map-details"))
        # A click on a line of the list selects its area.
        y = next(y for y, line in enumerate(lines) if line[lay.list_col:].startswith(" 55 Jerez"))
        await pilot.click(MapCanvas, offset=(lay.list_col + 4, y))
        assert app.query_one(MapPane).cursor == 55 and app.selected[-1] == 55


async def test_legend_line_and_full_legend_toggle() -> None:
    game = TaifaGame("standard", bots=())
    app = MapApp(game, 0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        legend = app.query_one("#map-legend")
        line = text(legend)
        assert "\n" not in line
        for mark in ("+garrison", "*capital", "»invasion", "~sea link", ">target", "!attacked", "l: legend"):
            assert mark in line
        await pilot.press("l")
        full = text(legend)
        assert "Castile" in full and "Taifa of Seville" in full and "out of play" in full
        assert "a garrison (+1 die)" in full and "the area under attack" in full
        await pilot.press("l")
        assert text(legend) == line


async def test_el_cid_areas_out_of_play_read_without_colour() -> None:
    game = TaifaGame("el-cid", bots=())
    app = MapApp(game, None)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = game.view(None)
        labels = wide_labels(plain(app.query_one(MapCanvas)))
        assert sorted(labels) == list(range(1, 59))
        for a, [(_, letter, defence)] in labels.items():
            assert letter == owner_letter(view, a)
            assert (defence is None) == (view["owner"][a] == OUT_OF_PLAY)
        assert {letter for [(_, letter, _)] in labels.values()} == {"M", "C", "A", "E", "i", "·"}
        await pilot.press("slash", *"lisboa", "enter")
        assert "out of play" in text(app.query_one("#map-details"))


def test_marks_read_without_colour() -> None:
    """Each state the map shows is a character: the fight's area, a target, a garrison, a capital."""
    game = TaifaGame("standard", bots=())
    view = dict(game.view(None))
    view["fight"] = {"area": 10}
    marks = marks_of(view, game.m, frozenset({11}))
    links = frozenset({24, 36, 41})
    assert wide_label(game.m, marks, 10, links).rstrip() == "!C10·4*"
    assert wide_label(game.m, marks, 11, links).rstrip() == ">C11·2"
    assert wide_label(game.m, marks, 6, links).rstrip() == " i6·3+»"
    assert small_label(marks, 10) == "C!" and small_label(marks, 11) == "C>" and small_label(marks, 7) == "L*"
    assert owner_letter(view, 6) == "i" and view["owner"][6] == INDEPENDENT


# -- SVG snapshots (each with the Pilot assertions it was taken after) ------------------------------


def snap_map(snap_compare, app: MapApp, size: tuple[int, int], check) -> None:
    """Snapshot ``app`` after ``check(pilot)`` ran to its end (a crashed pane is never saved)."""
    checked = []

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await check(pilot)
        checked.append(True)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
    assert checked


def test_map_wide_snapshot(snap_compare) -> None:
    game = TaifaGame("standard", bots=())

    async def check(pilot: Pilot) -> None:
        canvas = pilot.app.query_one(MapCanvas)
        assert canvas.layout_.wide and sorted(wide_labels(plain(canvas))) == list(range(1, 59))
        assert pilot.app.query_one(MapPane).cursor == next(iter(attack_targets(game)))

    snap_map(snap_compare, MapApp(game, game.s.current, attack_targets(game)), (120, 40), check)


def test_map_compact_snapshot(snap_compare) -> None:
    game = TaifaGame("standard", bots=())

    async def check(pilot: Pilot) -> None:
        app = pilot.app
        canvas = app.query_one(MapCanvas)
        assert not canvas.layout_.wide and len(canvas.layout_.spots) == 58
        await pilot.press("slash", *"toledo", "enter")
        assert app.query_one(MapPane).cursor == 33
        assert text(app.query_one("#map-details")).startswith("33 Toledo")

    snap_map(snap_compare, MapApp(game, game.s.current, attack_targets(game), css=COMPACT), (80, 24), check)
