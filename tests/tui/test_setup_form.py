"""The New game form as a person meets it (issue 30): Esc closes an open dropdown and nothing
more, Tab goes top to bottom with Start and Back last, a checkbox says on or off without colour,
and the form remembers each game's last setup, as the app remembers its theme, across games and
restarts (preferences.json in the data folder), whatever that file holds."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select

from core import games as core_games
from core.tafl import LEVELS
from notation.catalog import new_header
from notation.format import Seat
from test_tui_kingdom_setup import choose, new_game_form, start, tab_to, tick
from tui.preferences import FILE_NAME, Preferences
from tui.screens.home import HomeScreen
from tui.screens.setup import SetupScreen, ai_times
from tui_support import screen_lines, text, wait_until

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
TAFL = core_games.info("tafl")
# What a person set last time for Tafl, as the form keeps it.
BRANDUBH = {"variant": "brandubh",
            "seats": {"attackers": {"kind": "human", "time": 1.0, "level": "full"},
                      "defenders": {"kind": "ai", "time": 0.5, "level": "beginner"}},
            "dice": "seeded", "options": {"quiet_moves": 40, "repetition": "loss", "strong_king_at_throne": True},
            "files": {}}


@pytest.fixture(autouse=True)
def _no_theme_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """TEXTUAL_THEME, when set, wins over the theme kept: these tests are about the one kept."""
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)


def write_preferences(data: Path, content: Any) -> None:
    data.mkdir(parents=True, exist_ok=True)
    text = content if isinstance(content, str) else json.dumps(content)
    (data / FILE_NAME).write_text(text, "utf-8")


def values(setup: SetupScreen, ids: list[str]) -> list[Any]:
    """What the form's controls ``#id`` show (a Select's or Checkbox's value, an Input's text)."""
    return [setup.query_one(f"#{i}", Select | Checkbox | Input).value for i in ids]


TAFL_IDS = ["variant", "attackers-kind", "defenders-kind", "defenders-time", "defenders-level",
            "opt-quiet_moves", "opt-repetition", "opt-throne_counts_for_king"]
BRANDUBH_IDS = [*TAFL_IDS[:-1], "opt-strong_king_at_throne"]
BRANDUBH_SHOWN = ["brandubh", "human", "ai", 0.5, "beginner", "40", "loss", True]


# -- keys -------------------------------------------------------------------------------


async def test_escape_closes_an_open_dropdown_and_only_then_leaves_the_form(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await new_game_form(pilot)
        variant = setup.query_one("#variant", Select)
        await pilot.press("enter")  # opened by keys
        assert variant.expanded
        assert "esc Dismiss menu" in screen_lines(app.export_screenshot())[-1]  # the footer says what Esc does
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is setup and not variant.expanded and app.focused is variant

        kind = setup.query_one("#defenders-kind", Select)
        await pilot.click(kind)  # opened by the mouse
        await pilot.pause()
        assert kind.expanded
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is setup and not kind.expanded

        await pilot.press("escape")  # nothing open: back home
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")


async def tab_order(pilot: Pilot) -> list[str | None]:
    """The focused widget's id at each Tab from the first control (the game) round to it again."""
    setup = pilot.app.screen
    await tab_to(pilot, "game")
    seen: list[str | None] = []
    for _ in range(40):
        seen.append(pilot.app.focused.id if pilot.app.focused else None)
        await pilot.press("tab")
        if pilot.app.focused is setup.query_one("#game"):
            return seen
    raise AssertionError(f"Tab never came back to the game: {seen}")


async def test_tab_goes_top_to_bottom_with_start_and_back_last(make_app) -> None:
    """Every control once, in the order they are drawn, the AI's time and strength before Start,
    and no invisible stop (the scrolling form itself) on the way round."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await new_game_form(pilot)
        assert await tab_order(pilot) == [
            "game", "variant", "attackers-kind", "defenders-kind", "defenders-time", "defenders-level", "seed",
            "opt-quiet_moves", "opt-repetition", "opt-throne_counts_for_king", "start", "back"]
        # The attackers made an AI: their time and strength come right after their kind.
        await choose(pilot, "attackers-kind", "ai", list(TAFL.seat_specs("traditional")[0].kinds))
        await pilot.pause()
        order = await tab_order(pilot)
        assert order[2:6] == ["attackers-kind", "attackers-time", "attackers-level", "defenders-kind"]
        assert order[-2:] == ["start", "back"]
        # As drawn: top to bottom, and left to right along a row (the whole form on a taller screen).
        await pilot.resize_terminal(120, 50)
        await pilot.pause()
        assert setup.query_one("#back").region.bottom < 50
        places = [(setup.query_one(f"#{i}").region.y, setup.query_one(f"#{i}").region.x) for i in order if i]
        assert places == sorted(places)


async def test_a_checkbox_says_on_or_off_without_colour(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        setup = await new_game_form(pilot)
        box = setup.query_one("#opt-throne_counts_for_king", Checkbox)
        assert box.value is True
        on = text(box)
        await tick(pilot, "opt-throne_counts_for_king", False)
        off = text(box)
        assert on != off
        assert on.startswith("▐X▌") and off.startswith("▐ ▌"), (on, off)
        # On the screen too, its colours dropped.
        assert any("▐ ▌ throne_counts_for_king" in line for line in screen_lines(app.export_screenshot()))


# -- the setup remembered ---------------------------------------------------------------


async def set_up_brandubh(pilot: Pilot) -> SetupScreen:
    """Brandubh, the defenders' AI at 0.5 s and Beginner, 40 quiet moves, repetition loses, a strong
    king on the throne: all by keys."""
    setup = await new_game_form(pilot)
    await choose(pilot, "variant", "brandubh", list(TAFL.variant_keys()))
    await wait_until(pilot, lambda: setup.shown == ("tafl", "brandubh"), "the Brandubh form")
    await choose(pilot, "defenders-time", 0.5, [v for _, v in ai_times(TAFL)])
    await choose(pilot, "defenders-level", "beginner", list(LEVELS))
    await tab_to(pilot, "opt-quiet_moves")
    await pilot.press("end", *["backspace"] * 3, "4", "0")  # the old number replaced
    await choose(pilot, "opt-repetition", "loss", ["draw", "loss", "defenders-lose", "off"])
    await tick(pilot, "opt-strong_king_at_throne", True)
    assert values(setup, BRANDUBH_IDS) == BRANDUBH_SHOWN
    return setup


async def test_the_form_remembers_the_last_setup_after_a_game_and_after_a_restart(make_app, data: Path) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await set_up_brandubh(pilot)
        play = await start(pilot)
        assert play.runner.header.variant == "brandubh"
        await pilot.press("q")  # back home from the game
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        setup = await new_game_form(pilot)
        await wait_until(pilot, lambda: setup.shown == ("tafl", "brandubh"), "the Brandubh form")
        assert values(setup, BRANDUBH_IDS) == BRANDUBH_SHOWN
        assert setup.query_one("#defenders-level", Select).disabled is False  # the seat is an AI's

    kept = json.loads((data / FILE_NAME).read_text("utf-8"))
    assert kept["setup"]["tafl"] == BRANDUBH
    assert "seed" not in kept["setup"]["tafl"]  # fresh for each game

    again = make_app()  # a restart: a new app on the same data folder
    async with again.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        await wait_until(pilot, lambda: setup.shown == ("tafl", "brandubh"), "the Brandubh form")
        assert values(setup, BRANDUBH_IDS) == BRANDUBH_SHOWN


async def test_each_game_has_its_own_setup_restored_when_it_is_picked(make_app, data: Path) -> None:
    """Taifa's dice from the table and a map file of one's own, and Leon a person, come back when
    Taifa is picked in the form; Tafl's own setup is untouched."""
    write_preferences(data, {"setup": {"taifa": {
        "variant": "standard", "dice": "manual", "files": {"map": "~/my-map.toml"},
        "seats": {"Leon": {"kind": "human"}}, "options": {"bots_join_fights": False}}}})
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        assert values(setup, ["variant", "defenders-level"]) == ["traditional", "full"]  # Tafl: nothing kept
        await choose(pilot, "game", "taifa", core_games.names())
        await wait_until(pilot, lambda: setup.shown == ("taifa", "standard"), "the Taifa form")
        await pilot.pause()
        assert values(setup, ["dice", "data-map", "leon-kind", "castile-kind", "opt-bots_join_fights"]) == \
            ["manual", "~/my-map.toml", "human", "human", False]
        await choose(pilot, "game", "tafl", core_games.names())  # and back: Tafl's as it was
        await wait_until(pilot, lambda: setup.shown == ("tafl", "traditional"), "the Tafl form")
        assert values(setup, ["variant", "defenders-level"]) == ["traditional", "full"]


async def test_play_from_here_keeps_the_records_setup(make_app, data: Path) -> None:
    """A prefill from a record wins over the setup kept, and starting it does not change what is kept."""
    write_preferences(data, {"setup": {"tafl": BRANDUBH}})
    seats = [Seat("attackers", "ai", "fiefdom-tafl 1, 0.2s per decision, level casual"), Seat("defenders", "human")]
    header = new_header("tafl", "copenhagen", seats, seed=7, options={"quiet_moves": 30}, setup={})
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.setup_from(header, [])
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen.shown is not None, "the form")
        setup = app.screen
        assert values(setup, ["variant", "attackers-kind", "attackers-time", "attackers-level", "defenders-kind",
                              "opt-quiet_moves"]) == ["copenhagen", "ai", 0.2, "casual", "human", "30"]
        play = await start(pilot)
        assert play.runner.header.variant == "copenhagen"
    assert json.loads((data / FILE_NAME).read_text("utf-8")) == {"setup": {"tafl": BRANDUBH}}


HOSTILE_SETUP = {
    "variant": "traditional",
    "seats": {"attackers": {"kind": "wizard", "time": "fast", "level": ["full"]},
              "defenders": {"kind": "random", "time": 1e308, "level": "godlike"},
              "nobody": {"kind": "ai"}},
    "dice": "manual",  # Tafl has no dice
    "options": {"quiet_moves": "many", "repetition": "loss", "throne_counts_for_king": "perhaps", "gone": True},
    "files": {"map": "\x1b[2Jgotcha"},
}


async def test_values_that_no_longer_fit_are_left_out(make_app, data: Path) -> None:
    """A kind, time, strength or option value the form does not offer, an option or seat that is
    gone, a variant that is gone: each left out, and what still fits is used."""
    write_preferences(data, {"setup": {"tafl": HOSTILE_SETUP, "kingdom": {"variant": "multi-9", "options": {
        "survival": True}}}, "theme": {"name": "nord"}})
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        assert values(setup, TAFL_IDS) == ["traditional", "human", "random", 1.0, "full", "50", "loss", True]
        await pilot.pause()
        assert setup.query_one("#defenders-level", Select).disabled  # a random mover has no strength
        await choose(pilot, "game", "kingdom", core_games.names())
        await wait_until(pilot, lambda: setup.shown == ("kingdom", "multi-2"), "the Kingdom form")
        assert setup.query_one("#opt-survival", Checkbox).value is False  # another variant's: not applied
        assert app.theme == "textual-dark"


@pytest.mark.parametrize("content", [
    "{not json", "[1, 2, 3]", "\udcff", "[" * 100_000, "1" * 5000, '{"setup": {"tafl": [1]}, "theme": 3}',
    '{"setup": 7}', "{}",
], ids=["broken", "a list", "not utf-8", "deep", "a huge number", "wrong types", "setup not an object", "empty"])
async def test_a_broken_preferences_file_is_ignored(make_app, data: Path, content: str) -> None:
    """The app starts, says at most one line about the file, and the form shows its defaults; the
    next game started writes a good file in its place."""
    data.mkdir(parents=True, exist_ok=True)
    (data / FILE_NAME).write_bytes(content.encode("utf-8", "surrogateescape"))
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        lines = [str(n.message) for n in app._notifications]
        assert len(lines) <= 1 and all("\n" not in line and FILE_NAME in line for line in lines), lines
        assert values(setup, TAFL_IDS) == ["traditional", "human", "ai", 1.0, "full", "50", "draw", True]
        await start(pilot)
    assert json.loads((data / FILE_NAME).read_text("utf-8"))["setup"]["tafl"]["variant"] == "traditional"


async def test_a_fifo_or_a_folder_in_its_place_never_blocks_nor_crashes(make_app, data: Path) -> None:
    data.mkdir(parents=True, exist_ok=True)
    os.mkfifo(data / FILE_NAME)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game_form(pilot)
        assert any("not a regular file" in str(n.message) for n in app._notifications)
    (data / FILE_NAME).unlink()
    (data / FILE_NAME).mkdir()
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await new_game_form(pilot)
        play = await start(pilot)  # the setup cannot be written: said, and the game starts
        assert play.runner.header.game == "tafl"
        app.theme = "nord"  # nor the theme
        await pilot.pause()
        assert any("not written" in str(n.message) for n in app._notifications)


def test_two_apps_at_once_keep_each_others_setups_and_a_link_is_replaced_not_followed(tmp_path: Path) -> None:
    """Each write reads the file again and changes only its own part; a preferences.json that is a
    link to another file is replaced by a file of its own, the other file untouched."""
    first, second = Preferences(tmp_path), Preferences(tmp_path)
    assert first.keep_setup("tafl", BRANDUBH) is None
    assert second.keep_setup("kingdom", {"variant": "solo"}) is None
    assert second.keep_theme("nord") is None
    assert json.loads((tmp_path / FILE_NAME).read_text("utf-8")) == \
        {"setup": {"tafl": BRANDUBH, "kingdom": {"variant": "solo"}}, "theme": "nord"}

    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("someone else's", "utf-8")
    (tmp_path / FILE_NAME).unlink()
    (tmp_path / FILE_NAME).symlink_to(elsewhere)
    assert Preferences(tmp_path).keep_theme("nord") is None
    assert elsewhere.read_text("utf-8") == "someone else's"
    assert not (tmp_path / FILE_NAME).is_symlink()


# -- the theme ---------------------------------------------------------------------------


def palette_up(app: Any) -> bool:
    return isinstance(app.screen, CommandPalette) and app.screen.has_class("-ready")


def found(app: Any, title: str) -> bool:
    """The command palette is up with ``title`` its first (highlighted) result."""
    if not isinstance(app.screen, CommandPalette):
        return False
    results = app.screen.query_one(CommandList)
    return results.option_count > 0 and results.highlighted == 0 and \
        str(results.get_option_at_index(0).prompt).startswith(title)


async def test_the_theme_is_kept_across_restarts(make_app, data: Path) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"
        await pilot.press("ctrl+p")  # the palette: Theme, then nord
        await wait_until(pilot, lambda: palette_up(app), "the palette")
        await pilot.press(*"theme")
        await wait_until(pilot, lambda: found(app, "Theme"), "the command found")
        await pilot.press("enter")
        await wait_until(pilot, lambda: palette_up(app) and not found(app, "Theme"), "the themes offered")
        await pilot.press(*"nord")
        await wait_until(pilot, lambda: found(app, "nord"), "nord found")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home again")
        assert app.theme == "nord"
    assert json.loads((data / FILE_NAME).read_text("utf-8"))["theme"] == "nord"

    again = make_app()
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"

    write_preferences(data, {"theme": "no-such-theme"})  # a theme since removed: the default
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark" and not app._notifications


# -- snapshots ---------------------------------------------------------------------------


@SIZES
def test_remembered_setup_form_snapshot(snap_compare, make_app, data: Path, size, monkeypatch) -> None:
    """The form as it opens with Brandubh kept, the focus on the strong king's checkbox (on): at 80x24
    the form has scrolled down to it."""
    monkeypatch.setattr("tui.session.new_seed", lambda: 1)
    write_preferences(data, {"setup": {"tafl": BRANDUBH}})
    checked = []

    async def run_before(pilot: Pilot) -> None:
        setup = await new_game_form(pilot)
        await wait_until(pilot, lambda: setup.shown == ("tafl", "brandubh"), "the Brandubh form")
        assert values(setup, BRANDUBH_IDS) == BRANDUBH_SHOWN
        assert setup.query_one("#seed", Input).value == "1"
        await tab_to(pilot, "opt-strong_king_at_throne")
        await pilot.pause()
        assert text(setup.query_one("#opt-strong_king_at_throne")).startswith("▐X▌")
        checked.append(True)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    assert checked
