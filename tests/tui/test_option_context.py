"""The options pane says what each choice means where it is chosen, and why a kind of action is
missing (issue 30), as the text prompt does: Taifa's areas with their defence, holder and dice,
Take the Kingdom's attack with its damage and a target with its line and what it needs; the
reasons dimmed and not to be chosen, after the options. Read from the pane's rendered lines."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from core.engine import Decision
from notation.runner import GameSetup
from test_tui_kingdom_play import GREEDY, choose, multi, next_decision
from tui.console import extras_for, option_notes
from tui.screens.play import PlayScreen
from tui.widgets.options import OptionsPane
from tui_support import BOT, HUMAN, region_rows, start_game, wait_until


def pane_text(app: Any, screen: PlayScreen, end: bool = False) -> str:
    """The options pane's lines as drawn on the screen (``end``: scrolled to its last line), their
    words joined by single spaces: an option wrapped onto two lines reads whole."""
    pane = screen.query_one("#options", OptionsPane)
    if end:
        pane.scroll_end(animate=False, immediate=True)
    return " ".join(" ".join(region_rows(app.export_screenshot(), pane.scrollable_content_region)).split())


async def castile_asked(pilot: Pilot, app: Any, seed: int) -> tuple[PlayScreen, Decision]:
    screen = await start_game(app, pilot, GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, seed))
    r = screen.runner
    await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and screen.driver.frame is None
                     and screen.query_one("#options", OptionsPane).codes == r.waiting.options, "Castile's action")
    await pilot.pause()
    assert r.waiting.kind == "action" and r.waiting.seat == 0
    return screen, r.waiting


async def test_taifa_an_area_to_attack_shows_its_defence_holder_and_dice_in_the_pane(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen, point = await castile_asked(pilot, app, 1)
        g = screen.runner.game
        code = point.options[0]
        assert code[0] == "attack"
        a = code[1]
        owner = g.s.owner[a]
        holder = "independent" if owner < 0 else g.seats[owner]
        shown = pane_text(app, screen)
        # The first option's words, then its note: the printed defence and who holds the area (5.2).
        assert f"{g.describe(code)} defence {g.m.areas[a - 1].defence}, {holder}: " in shown
        notes, _ = option_notes(extras_for("taifa"), g, point)
        assert f"{g.describe(code)} {notes[0]}" in shown  # the prompt's own note, wrapped in the pane


async def test_taifa_a_kind_of_action_missing_is_said_after_the_options_and_cannot_be_chosen(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen, point = await castile_asked(pilot, app, 10)
        g = screen.runner.game
        assert not any(g.card(c).kind == "troop" for c in g.s.hands[0])  # this seed deals Castile none
        shown = pane_text(app, screen, end=True)
        assert shown.endswith("pass no Troop cards, nor a Response that adds dice: no attack (TA-19) "
                              "no Troop cards: no incursion (5.3)")
        pane = screen.query_one("#options", OptionsPane)
        assert pane.option_count == len(point.options) + 2
        assert all(pane.get_option_at_index(i).disabled for i in range(len(point.options), pane.option_count))
        await pilot.press("o", "end")
        assert pane.highlighted == len(point.options) - 1  # the last option, pass, never a reason


async def test_kingdom_an_attack_and_a_target_show_their_damage_line_and_need(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        r = screen.runner
        for _ in range(200):  # the Noble, the draft, then the turns: until the person may attack
            point = await next_decision(pilot, app, screen)
            assert point is not None, "the game ended before the person could attack"
            if point.kind == "action" and any(code[0] == "attack" for code in point.options):
                break
            await choose(pilot, screen, 0)
        g = r.game
        attack = next(code for code in point.options if code[0] == "attack")
        await pilot.pause()
        assert f"{g.describe(attack)} {g.attack_value(0, attack[1])} damage" in pane_text(app, screen)
        missing = option_notes(extras_for("kingdom"), g, point)[1]
        assert missing, "this seed's hand holds cards with no play now"  # Deny and Gold (KD-18)
        assert pane_text(app, screen, end=True).endswith(" ".join(missing))  # said after the options
        await choose(pilot, screen, point.options.index(attack))
        while (point := await next_decision(pilot, app, screen)) is not None and point.kind == "commit":
            await choose(pilot, screen, point.options.index(("go",)))
        assert point is not None and point.kind == "target"
        await pilot.pause()
        code = point.options[0]
        realm = g.view(0)["realms"][code[1]]
        slot = next(s for s in realm["slots"] if s["card"] == code[2])
        top = slot["defences"][-1] if slot["defences"] else slot["card"]
        shown = pane_text(app, screen)
        # "If a Castle or Land has more than one Defence, the topmost card will always be attacked first."
        assert f"{g.describe(code)} " in shown and f": hits {g.card(top).name} first, needs " in shown
