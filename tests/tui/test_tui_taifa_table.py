"""Taifa at the table, by key presses: a whole game as one person against five rulebook bots,
and a response window in which the person adds Champion to a defence."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import OptionList

from core.engine import Decision
from notation.reader import read_record_file
from notation.replay import Replay
from notation.wording import visible
from notation.runner import GameSetup
from notation.verify import verify
from tui.screens.dialogs import GameOverDialog
from tui.games.taifa.panes import CombatPane
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen
from tui_support import BOT, HUMAN, TAIFA_GOLDEN, start_game, wait_until





def person_to_choose(app: Any, screen: PlayScreen) -> bool:
    return app.screen is screen and isinstance(screen.runner.waiting, Decision) and screen.driver.frame is None


async def choose(pilot: Any, screen: PlayScreen, index: int) -> None:
    """Choose the option at ``index`` (-1: the last) in the options pane, by keys."""
    await pilot.press("o")
    options = screen.query_one("#options", OptionList)
    assert options.has_focus
    await pilot.press("end" if index < 0 else "home")
    for _ in range(max(0, index)):
        await pilot.press("down")
    await pilot.press("enter")


async def test_one_person_plays_a_whole_game_against_five_bots_by_keys(make_app) -> None:
    """Castile attacks with the first option when it opens a turn, else takes the last option
    (pass, done, or the last card to add), until the game ends after turn 3 (taifa 8)."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        setup = GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, 3)
        screen = await start_game(app, pilot, setup)
        r = screen.runner
        decisions = 0
        while r.result is None:
            await wait_until(pilot, lambda: r.result is not None or person_to_choose(app, screen),
                             "Castile's decision or the end", tries=2000)
            if r.result is not None:
                break
            point = r.waiting
            assert isinstance(point, Decision) and point.seat == 0
            first_of_turn = point.kind == "action" and r.game.view(0)["round"] <= 6
            before = len(r.history)
            await choose(pilot, screen, 0 if first_of_turn and point.options[0][0] == "attack" else -1)
            await wait_until(pilot, lambda: len(r.history) > before, "the choice to be played")
            decisions += 1
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverDialog), "the end-of-game dialog")
        dialog = app.screen
        assert "castles" in str(dialog.query_one("#result-scores").render())
        assert decisions >= 3  # at least one action a turn
        path = r.path
    record = read_record_file(path)
    report = verify(record)
    assert report.ok and report.result is not None and report.result.rule in ("taifa 8", "TA-27")


async def test_a_person_adds_champion_to_the_defence_in_a_response_window(make_app) -> None:
    """5.1 step 3: when a bot attacks, Castile (a person) may place a Response face down on the
    defence, whoever defends ("any kingdom"); Champion adds two dice to it (docs/taifa-cards.md)."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        for seed in range(1, 60):
            setup = GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, seed)
            screen = await start_game(app, pilot, setup)
            r = screen.runner
            found = None
            while r.result is None and found is None:
                await wait_until(pilot, lambda: r.result is not None or person_to_choose(app, screen),
                                 "Castile's decision", tries=2000)
                point = r.waiting
                if r.result is not None or point is None:
                    break
                champion = [i for i, code in enumerate(point.options) if point.kind == "respond"
                            and code[:2] == ("respond", "defence") and r.game.card(code[2]).name == "Champion"]
                if champion:
                    found = champion[0]
                    break
                if point.kind == "action" and r.game.view(0)["turn"] > 1:
                    break  # no window came in the first turn: try the next seed
                await choose(pilot, screen, -1)
            if found is not None:
                break
            await screen.action_leave()
            await pilot.pause()
        assert found is not None, "no seed gave Castile a Champion to place in its defence"
        fight = r.game.view(0)["fight"]
        assert fight is not None and fight["attacker"] != 0
        champion_id = point.options[found][2]
        steps_before = len(r.history)
        await choose(pilot, screen, found)
        await wait_until(pilot, lambda: len(r.history) > steps_before, "Champion placed")
        while r.game.view(0)["fight"] is not None:  # later windows and garrisons: Castile declines
            await wait_until(pilot, lambda: r.game.view(0)["fight"] is None or person_to_choose(app, screen),
                             "the fight to be resolved", tries=2000)
            if r.game.view(0)["fight"] is not None:
                before = len(r.history)
                await choose(pilot, screen, -1)
                await wait_until(pilot, lambda: len(r.history) > before, "the choice to be played")
        events = [e for step in r.history[steps_before:] for e in step.events]
        placed = next(e for e in events if e.kind == "commit")
        assert placed.data[:2] == (0, "defence") and "face down on the defence" in placed.text
        reveal = next(e for e in events if e.kind == "reveal" and e.data[0] == "defence")
        assert champion_id in reveal.data[1:] and "Champion" in reveal.text
        combat = next(e for e in events if e.kind == "combat")
        assert events.index(reveal) < events.index(combat) and combat.rule == "taifa 5.2"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_viewer_jumps_to_a_combat_and_shows_its_dice_and_deciding_line(make_app, size) -> None:
    """The golden six-bot record: `c` lands on a combat; the board's combat pane comes forward with
    every die of the step's last fight, where each side's dice came from, and its rule."""
    replay = Replay(read_record_file(TAIFA_GOLDEN))
    app = make_app(open_path=TAIFA_GOLDEN)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("c")
        await pilot.pause()
        last = replay.state_at(screen.step).view(None)["last_combat"]
        assert last is not None and screen.step > 0
        deciding = replay.events_at(screen.step)[screen.event]
        assert deciding.kind == "combat"
        pane = screen.query_one(CombatPane)
        assert pane.region.height > 0, "the combat pane is on the screen"
        drawn = " ".join(str(pane.render()).split())  # as one line: the pane wraps to its width
        for why, _ in last["attack_dice"] + last["defence_dice"]:
            assert why in drawn
        for die in last["attack_roll"] + last["defence_roll"]:
            assert str(die) in drawn
        assert last["rule"] in drawn and " ".join(visible(last["text"]).split()) in drawn


async def test_escape_gives_the_keys_to_the_board_and_its_pane_keys_work_at_80x24(make_app) -> None:
    """At 80x24 the board shows one pane at a time; Escape takes the keys to the board (its map),
    and k, h, c and m bring the kingdoms, the hand, the combat and the map forward."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, 1))
        await wait_until(pilot, lambda: person_to_choose(app, screen), "Castile's decision")
        assert screen.query_one("#options").has_focus
        await pilot.press("escape")
        assert screen.query_one("#board") in app.focused.ancestors
        for key, pane in (("k", "#kingdoms-scroll"), ("h", "#hand-scroll"), ("c", "#combat-scroll"), ("m", "#map")):
            await pilot.press(key)
            await pilot.pause()
            assert screen.query_one(pane).display and screen.query_one(pane).region.height > 0, pane


async def test_the_new_game_form_takes_a_map_file_of_ones_own(make_app, tmp_path) -> None:
    """Setup: "a custom map or card file". A map file that does not load (here: an area's name would set the
    terminal's title and clear the screen, issue 26) is one visible line in the form; one that does is the
    game's map (its fingerprint in the record's setup)."""
    from pathlib import Path

    from textual.widgets import Input, Select

    import core.taifa as taifa_package
    from tui.screens.setup import SetupScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), "the form")
        app.screen.query_one("#game", Select).value = "taifa"
        await wait_until(pilot, lambda: bool(app.screen.query("#data-map")), "the data file fields")
        packaged = (Path(taifa_package.__file__).parent / "data" / "map.toml").read_text("utf-8")
        broken = tmp_path / "broken.toml"
        broken.write_text(packaged.replace('"Cantabria"', '"Evil\\u001b]0;PWNED\\u0007\\u001b[2J\\u202e"'), "utf-8")
        app.screen.query_one("#data-map", Input).value = str(broken)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)  # not started
        shown = str(app.screen.query_one("#setup-error").render()).strip()
        assert shown.isprintable() and shown.endswith("area 1: name must be one line of printable characters, "
                                                      "and holds U+001B, a control character"), shown
        own = tmp_path / "my-map.toml"
        own.write_text(packaged, "utf-8")
        app.screen.query_one("#data-map", Input).value = str(own)
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen), "the game")
        assert "map" in app.screen.runner.header.setup
