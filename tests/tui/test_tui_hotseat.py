"""Pilot tests of people at one table: hot seat (hand-over, hidden hands), dice typed from a real
table, the pace of bots, skipping ahead, and a step played out unit by unit (frames)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Static

from core import games as core_games
from core.chance import TableDice, typed
from core.engine import Chance, Decision, Event
from notation.catalog import build_game
from notation.format import ChanceRecord, DecisionRecord
from notation.reader import read_record_file
from notation.runner import GameSetup, SeatPlan
from notation.verify import verify
from plugin_game import GAME as HOARD, Hoard
from tui.screens.dialogs import GameOverDialog, HandOverScreen
from tui.screens.play import SPEEDS, PlayScreen
from tui_support import BOT, HUMAN, open_continue, screen_lines, start_game, text, wait_until
from wall_support import strings

CASTILE, LEON = 0, 5  # Taifa's standard seats: Castile first, León last


def taifa(*people: int, chance: str = "seeded", seed: int = 1) -> GameSetup:
    seats = tuple(HUMAN if k in people else BOT for k in range(6))
    return GameSetup("taifa", "standard", seats, seed, chance=chance)


def on_screen(app: Any) -> str:
    return "\n".join(screen_lines(app.export_screenshot()))


def hand_ids(screen: PlayScreen, seat: int) -> list[str]:
    """The card ids in ``seat``'s hand."""
    return list(screen.runner.game.view(seat)["kingdoms"][seat]["hand"])


def names(screen: PlayScreen, seat: int) -> set[str]:
    """The names of the cards in ``seat``'s hand (card ids are not names: the screen shows names)."""
    game = screen.runner.game
    return {game.card(cid).name for cid in hand_ids(screen, seat)}  # type: ignore[attr-defined]


def shows_hand(screen_text: str, screen: PlayScreen, seat: int, beside: tuple[int, ...] = ()) -> list[str]:
    """The cards of ``seat``'s hand named on screen, leaving out any whose name a card of the
    ``beside`` seats' hands or of the public table shares (those may be on screen for that reason)."""
    game = screen.runner.game
    public = {game.card(cid).name for cid in strings(game.view(None)) if cid in game._cards}  # type: ignore[attr-defined]
    others = set().union(*(names(screen, k) for k in beside))
    return sorted(name for name in names(screen, seat) - others - public
                  if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", screen_text))


def settled(app: Any, screen: PlayScreen) -> bool:
    """A hand-over screen is up, or a person here may choose on the play screen."""
    return isinstance(app.screen, HandOverScreen) or (
        app.screen is screen and isinstance(screen.runner.waiting, Decision) and screen.driver.frame is None
        and screen.hand_over_due() is None)


# -- hot seat ----------------------------------------------------------------------------


async def test_hot_seat_hands_a_turn_over_and_never_shows_the_other_hand(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa(CASTILE, LEON))
        r = screen.runner
        handed = []
        for _ in range(6):  # six decisions by the two people, bots in between
            await wait_until(pilot, lambda: settled(app, screen), "a person's turn or a hand-over")
            if isinstance(app.screen, HandOverScreen):
                seat = r.waiting.seat
                title = text(app.screen.query_one("#handover-title"))
                handed.append(title)
                assert title == f"Pass to {r.game.seats[seat]}"
                assert f"press Enter when {r.game.seats[seat]} is at the keyboard" in on_screen(app)
                # Under the hand-over, nothing of either person's hand is on the screen.
                assert shows_hand(on_screen(app), screen, CASTILE) == []
                assert shows_hand(on_screen(app), screen, LEON) == []
                assert screen.view_seat() is None
                await pilot.press("enter")
                await wait_until(pilot, lambda: app.screen is screen, "the table again")
            seat = r.waiting.seat
            other = LEON if seat == CASTILE else CASTILE
            assert screen.view_seat() == seat
            shown = on_screen(app)
            assert shows_hand(shown, screen, seat), "the person at the keyboard sees their hand"
            assert shows_hand(shown, screen, other, beside=(seat,)) == []
            # The options and the move box speak only to the seat at the keyboard.
            assert text(screen.query_one("#options-title")) == r.waiting.prompt
            # The last option: pass, decline or done (the bots play on between).
            screen.query_one("#options", OptionList).focus()
            await pilot.press("end", "enter")
            await pilot.pause()
        assert "Pass to Castile" in handed and "Pass to Leon" in handed


async def test_a_single_person_always_sees_their_own_view_and_watchers_none(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa(LEON))
        await wait_until(pilot, lambda: isinstance(screen.runner.waiting, Decision), "León's turn")
        assert app.screen is screen and screen.view_seat() == LEON
        assert shows_hand(on_screen(app), screen, LEON)
        await pilot.press("q")
        await pilot.pause()
        watch = await start_game(app, pilot, taifa())
        assert watch.view_seat() is None and f"speed {SPEEDS[watch.driver.speed]:g}s" in text(watch.query_one("#status"))


async def test_a_hot_seat_game_resumes_from_continue_with_a_hand_over(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa(CASTILE, LEON, seed=2))
        r = screen.runner
        for _ in range(3):
            await wait_until(pilot, lambda: settled(app, screen), "a person's turn or a hand-over")
            if isinstance(app.screen, HandOverScreen):
                await pilot.press("enter")
                await pilot.pause()
            screen.query_one("#options", OptionList).focus()
            await pilot.press("end", "enter")
            await pilot.pause()
        await wait_until(pilot, lambda: settled(app, screen), "a person's turn")
        position, steps = repr(r.game.canonical()), len(r.history)
        records = [e.text for e in screen.driver.entries]

    again = make_app()
    async with again.run_test(size=(120, 40)) as pilot:
        await open_continue(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(again.screen, HandOverScreen), "the hand-over")
        resumed = next(s for s in again.screen_stack if isinstance(s, PlayScreen))
        assert repr(resumed.runner.game.canonical()) == position and len(resumed.runner.history) == steps
        assert [e.text for e in resumed.driver.entries] == records
        await pilot.press("enter")
        await pilot.pause()
        assert again.screen is resumed and resumed.view_seat() == resumed.runner.waiting.seat


# -- dice from a real table -------------------------------------------------------------------


async def test_dice_typed_from_the_table_are_checked_and_recorded_as_typed(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa(CASTILE, chance="manual", seed=3))
        r = screen.runner
        typed_in: dict[int, tuple[int, ...]] = {}  # step index -> the dice typed for a fight
        for _ in range(200):
            await wait_until(pilot, lambda: r.waiting is not None or r.result is not None, "a question")
            waiting = r.waiting
            assert not isinstance(app.screen, HandOverScreen)  # one person: no hand-over
            if isinstance(waiting, Decision):
                # Attack when Castile can, else the last option (add the last card, pass, decline).
                choice = next((i for i, c in enumerate(waiting.options) if c[0] == "attack"), len(waiting.options) - 1)
                options = screen.query_one("#options", OptionList)
                options.focus()
                options.highlighted = choice
                await pilot.press("enter")
                await pilot.pause()
                continue
            assert isinstance(waiting, Chance) and waiting.kind == "dice"
            n, sides = waiting.spec
            assert app.focused is screen.query_one("#move-input", Input)
            prompt = f"{waiting.label}: type {n} number{'s' if n != 1 else ''} 1-{sides}"
            assert text(screen.query_one("#options-title")) == "Dice from the table"
            idle = str(screen.query_one("#options", OptionList).get_option_at_index(0).prompt)
            assert idle == f"{prompt} in the box below, then Enter"
            if "to attack" in waiting.label and not typed_in:
                before = len(r.history)
                await pilot.press(*" ".join(["4"] * (n + 1)), "enter")  # one die too many
                await pilot.pause()
                many = f"type {n} number{'s' if n != 1 else ''}, one per die: {n + 1} typed"
                assert text(screen.query_one("#error")) == many
                await pilot.press(*"9" * n, "enter")  # out of range
                await pilot.pause()
                assert text(screen.query_one("#error")) == "a die shows 1 to 6, not 9"
                assert len(r.history) == before and r.waiting is waiting
                dice = tuple((i % sides) + 1 for i in range(n))
                await pilot.press(*" ".join(map(str, dice)), "enter")
                await pilot.pause()
                assert text(screen.query_one("#error")) == ""
                typed_in[before] = dice
                assert r.history[before].value == dice
                break
            await pilot.press(*("3" * n if n > 1 else "3"), "enter")  # a bot's 9.5 die, another throw
            await pilot.pause()
        assert typed_in, "a fight's dice were typed"
        path = r.path

    rec = read_record_file(path)
    assert rec.header.chance == "manual" and verify(rec).ok
    game, index = build_game(rec.header), 0
    for record in rec.records:
        if isinstance(record, (ChanceRecord, DecisionRecord)):
            point = game.point()
            if index in typed_in:
                assert isinstance(record, ChanceRecord) and record.outcome == typed_in[index]
                assert typed(TableDice(0), point)  # chance "manual": a fight's dice are the table's, as typed
            game.resolve(record.outcome) if isinstance(record, ChanceRecord) else game.apply(record.code)
            index += 1


# -- pace, skipping ahead, frames ---------------------------------------------------------------


class Framed(Hoard):
    """Hoard whose every step plays two units (a test of C2's frames()): each event of a step
    begins one, pictured by the game as it began with the unit's number in its view."""

    game = "framed"

    def __init__(self, variant: str = "short", turns: int = 6) -> None:
        super().__init__(variant, turns)
        self.picture = "after"
        self.shown: tuple[tuple[int, Any], ...] = ()

    def _units(self, before: "Framed", events: list[Event]) -> list[Event]:
        events = events + [Event("echo", "The hall echoes", "hoard 2")]
        self.shown = tuple((i, before._as(f"unit {i}")) for i in range(len(events)))
        return events

    def _as(self, picture: str) -> "Framed":
        c = self.clone()
        c.picture = picture
        return c

    def apply(self, code: Any) -> list[Event]:
        before = self.clone()
        return self._units(before, super().apply(code))

    def resolve(self, outcome: Any) -> list[Event]:
        before = self.clone()
        return self._units(before, super().resolve(outcome))

    def frames(self) -> tuple[tuple[int, Any], ...]:
        return self.shown

    def clone(self) -> "Framed":
        c = Framed(self.variant, self.turns)
        c.deck, c.hoard, c.turn, c.due, c.result = list(self.deck), list(self.hoard), self.turn, self.due, self.result
        c.gems = (list(self.gems[0]), list(self.gems[1]))
        return c

    def view(self, seat: int | None) -> Any:
        return {**super().view(seat), "picture": self.picture}


@pytest.fixture
def framed() -> Any:
    core_games.register(replace(HOARD, name="framed", title="Framed (a test game)",
                                build=lambda variant, options, setup, data: Framed(variant, options.get("turns", 6))))
    yield
    core_games.unregister("framed")


def framed_setup(seed: int = 1) -> GameSetup:
    return GameSetup("framed", "short", (HUMAN, SeatPlan("random"), BOT), seed)


async def test_a_step_of_several_units_is_played_out_unit_by_unit(make_app, framed) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_game(app, pilot, framed_setup())
        r = screen.runner
        screen.driver.speed = SPEEDS.index(0.25)
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and screen.driver.frame is None, "Gold's turn")
        seen: list[tuple[str, int, str]] = []
        log = screen.query_one("#events")
        lines_before = len(log.lines)
        drawn = screen.refresh_all

        def spy() -> None:  # what the screen shows each time it is drawn while a unit is up
            drawn()
            position = str(screen.query_one("#position", Static).render())
            picture = re.search(r"'picture': '([^']*)'", position)
            if screen.driver.frame is not None and picture and (not seen or seen[-1][0] != picture.group(1)):
                seen.append((picture.group(1), len(log.lines) - lines_before, text(screen.query_one("#status"))))

        screen.refresh_all = spy  # type: ignore[method-assign]
        await pilot.press("o", "enter")  # Gold's first option: its step plays two units
        await wait_until(pilot, lambda: len(seen) >= 2, "two units played out")
        # Each unit drawn with its own picture, its share of the events written as it is shown.
        assert [(p, n) for p, n, _ in seen[:2]] == [("unit 0", 1), ("unit 1", 2)]
        assert "following the play" in seen[0][2]
        # A person's choice in the middle of it waits; the skip key shows the rest at once.
        screen.human_decides(("rest",))
        assert text(screen.query_one("#error")).startswith("wait:")
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and screen.driver.frame is None, "Gold's next turn",
                         tries=100)
        assert "'picture': 'after'" in str(screen.query_one("#position", Static).render())
        written = "\n".join(str(line.text) for line in log.lines)
        # Every event as Gold, the one person here, may read it: Silver's gems in their public words.
        told = [e.as_seen(0) for step in r.history for e in step.events]
        assert all(e.text in written for e in told if e is not None)
        assert not any(e.text in written for step in r.history for e in step.events if e.seen == {1})
        assert f"speed {SPEEDS[screen.driver.speed]:g}s" in text(screen.query_one("#status"))  # the pace again


async def test_takeback_in_the_middle_of_the_units_is_safe(make_app, framed) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_game(app, pilot, framed_setup(seed=4))
        r = screen.runner
        screen.driver.speed = SPEEDS.index(0.25)
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and screen.driver.frame is None, "Gold's turn")
        before = repr(r.game.canonical())  # Hoard's canonical holds its live lists
        await pilot.press("o", "enter")
        await wait_until(pilot, lambda: screen.driver.frame is not None, "the units to be played out")
        await pilot.press("u")
        await wait_until(pilot, lambda: screen.runner is not r and isinstance(screen.runner.waiting, Decision)
                         and screen.driver.frame is None, "Gold again")
        assert repr(screen.runner.game.canonical()) == before and not screen.driver.frames_due


async def test_the_skip_key_runs_to_the_next_decision_then_keeps_the_pace(make_app, framed) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_game(app, pilot, framed_setup(seed=5))
        r = screen.runner
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision), "Gold's turn")
        screen.driver.speed = len(SPEEDS) - 1  # 2 s a step: far slower than the test waits
        steps = len(r.history)
        await pilot.press("o", "enter")
        await pilot.pause(0.1)
        assert r.waiting is None and not screen.driver.skipping  # the bots go at the pace set
        await pilot.press("n")  # at speed 0 to Gold's next turn: well within a second, not 2 s a step
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and screen.driver.frame is None,
                         "Gold's next turn at once", tries=50)
        assert len(r.history) > steps + 1 and not screen.driver.skipping
        assert "speed 2s" in text(screen.query_one("#status"))
        await pilot.press("n")
        assert text(screen.query_one("#error")) == "it is for a person here to answer now"


# -- end of game ---------------------------------------------------------------------------


async def test_the_end_of_a_taifa_game_fits_at_80x24_with_castles_and_the_tie_break(make_app, tmp_path) -> None:
    from core.engine import Result

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seats = ("Castile", "Catalan Counties", "Taifa of Valencia", "Taifa of Seville", "Taifa of Badajoz", "Leon")
        result = Result((0,), "9 castles after turn 3; the highest Card Bonus breaks the tie", "taifa 8",
                        (9, 9, 7, 6, 5, 8))
        app.push_screen(GameOverDialog(result, seats, tmp_path / "r.fief", core_games.info("taifa").score_word))
        await pilot.pause()
        assert "Castile won" in on_screen(app)
        assert text(app.screen.query_one("#result-reason")) == \
            "9 castles after turn 3; the highest Card Bonus breaks the tie [taifa 8]"
        assert "castles: Castile 9, Catalan Counties 9" in text(app.screen.query_one("#result-scores"))
        for widget in ("#result-title", "#result-reason", "#result-scores", "#save-name", "#close"):
            region = app.screen.query_one(widget).region
            assert region.height > 0 and region.bottom <= 24, widget


async def test_help_lists_the_skip_key_and_the_hand_over(make_app) -> None:
    from test_tui_keys import help_rows, open_help

    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        rows = help_rows(await open_help(pilot))
        assert rows["play.skip"] == ("n", "Skip")
        assert rows["handover.ready"] == ("enter", "Ready")
