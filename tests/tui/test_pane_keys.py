"""A board's pane keys at 80x24 from the state a game starts in (issue 30): no Escape first, the
keys work wherever the focus is (the options pane has it), the footer shows them, a pane that
cannot be shown has no key there; Taifa's `/` opens the area finder on the map, and a bot's move
meanwhile does not take the map away while a name is typed; the moves and the events take turns with `e`."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input

from core.engine import Decision
from notation.runner import GameSetup, SeatPlan
from tui.screens.play import PlayScreen
from tui.widgets.keys_footer import KeysFooter
from tui.widgets.side_panes import SidePanes
from tui_support import HUMAN, drawn_in, human_to_move, start_game, wait_until

BOT = SeatPlan("bot")


def footer(pilot: Pilot) -> str:
    """The footer's lines as drawn (it wraps rather than cut a key off)."""
    return " ".join(drawn_in(pilot.app, pilot.app.screen.query_one(KeysFooter)))


def drawn(screen: PlayScreen, selector: str) -> bool:
    widget = screen.query_one(selector)
    return bool(widget.display) and widget.region.height > 0


async def at_start(pilot: Pilot, setup: GameSetup) -> PlayScreen:
    screen = await start_game(pilot.app, pilot, setup)
    await wait_until(pilot, lambda: human_to_move(screen), "the person's first question")
    await pilot.pause()
    assert screen.query_one("#options").has_focus  # where the keys are when a game starts
    return screen


async def test_taifa_pane_keys_work_from_the_start_and_the_footer_shows_them(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_start(pilot, GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, 1))
        await wait_until(pilot, lambda: "mkhc Panes" in footer(pilot), "the pane keys in the footer")
        assert "/ Find" in footer(pilot) and "e Log" in footer(pilot)
        for key, pane in (("k", "#kingdoms-scroll"), ("h", "#hand-scroll"), ("c", "#combat-scroll"), ("m", "#map")):
            await pilot.press(key)
            await pilot.pause()
            assert drawn(screen, pane), pane
            assert screen.query_one("#options").has_focus  # the keys stay where they were
        await pilot.press("h", "slash")
        await pilot.pause()
        finder = screen.query_one("#map-find", Input)
        assert drawn(screen, "#map") and app.focused is finder
        board = screen.query_one("#board")
        board.context = "map"  # type: ignore[attr-defined]  # as if the last question had brought the map
        screen.refresh_all()  # a question that needs the hand: the map and its finder stay while typing
        await pilot.pause()
        assert drawn(screen, "#map") and app.focused is finder
        await pilot.press(*"toledo", "enter")
        await pilot.pause()
        assert screen.query_one("#map").cursor == 33  # type: ignore[attr-defined]


async def test_kingdom_pane_keys_and_the_round_only_in_solo(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_start(pilot, GameSetup("kingdom", "multi-2", (HUMAN, SeatPlan("random")), 2))
        await wait_until(pilot, lambda: "kh Panes" in footer(pilot), "the pane keys in the footer")
        assert "khr" not in footer(pilot)  # no round outside solo
        for key, pane in (("h", "#hand-scroll"), ("k", "#kingdoms-scroll")):
            await pilot.press(key)
            await pilot.pause()
            assert drawn(screen, pane), pane
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_start(pilot, GameSetup("kingdom", "solo", (HUMAN, BOT, BOT), 2))
        await wait_until(pilot, lambda: "khr Panes" in footer(pilot), "the pane keys in the footer")
        await pilot.press("k", "r")
        await pilot.pause()
        assert drawn(screen, "#round-scroll")


async def test_the_moves_and_events_take_turns_when_the_column_is_low(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_start(pilot, GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, 1))
        side = screen.query_one(SidePanes)
        assert side.one_at_a_time and drawn(screen, "#events") and not drawn(screen, "#moves-scroll")
        await pilot.press("e")
        await pilot.pause()
        assert drawn(screen, "#moves-scroll") and not drawn(screen, "#events")
        assert "Moves · e: events" in side_text(pilot, screen)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await at_start(pilot, GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, 1))
        assert not screen.query_one(SidePanes).one_at_a_time
        assert drawn(screen, "#events") and drawn(screen, "#moves-scroll")
        assert "e Log" not in footer(pilot)  # nothing to switch
        assert isinstance(screen.runner.waiting, Decision)


def side_text(pilot: Pilot, screen: PlayScreen) -> str:
    """The side column's lines as drawn."""
    return "\n".join(drawn_in(pilot.app, screen.query_one(SidePanes)))


async def test_the_footer_says_how_to_leave_the_move_box(make_app) -> None:
    """While the move box has the keys, letters are typed, not keys: the footer says Escape leaves it."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_start(pilot, GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, 1))
        assert "esc Leave the box" not in footer(pilot)
        await pilot.press("t")
        await wait_until(pilot, lambda: "esc Leave the box" in footer(pilot), "the way out of the box in the footer")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.focused, Input) and screen.query_one("#board") in app.focused.ancestors_with_self
        await wait_until(pilot, lambda: "esc Leave the box" not in footer(pilot), "the footer's keys again")
