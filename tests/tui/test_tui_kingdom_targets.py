"""Take the Kingdom: a target chosen on the table (issue 12, "prompts for targets, following the
lines-of-defence rule; only legal targets can be picked"). The decision's targets, and only
they, are marked; the arrows walk them, Enter or a click chooses, a Spread's share is a digit."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.style import Style
from textual.pilot import Pilot

from core.engine import Decision
from core.kingdom.lines import attackable
from test_tui_kingdom_play import GREEDY, choose, multi, next_decision, person_plays, shown, verified
from tui.games.kingdom.panes import SLOT_META, KingdomsPane
from tui.games.kingdom.targets import CURSOR, TARGET, KingdomsScroll, table_targets
from tui.screens.play import PlayScreen
from tui_support import HUMAN, start_game, wait_until


async def until_target(pilot: Pilot, app: Any, screen: PlayScreen, spread: bool = False) -> Decision:
    """Play on (attacking when it can) until the person must choose a target; ``spread``: its
    attacks add a Spread when they can, until one shares its damage (the seed is one where that
    comes, found off screen: nothing is put into a hand, so the record stays true)."""
    for _ in range(200):
        point = await next_decision(pilot, app, screen)
        assert point is not None, "the game ended before the person chose a target"
        if point.kind == "target" and (not spread or len(point.options[0]) == 4):
            return point
        code = person_plays(point)
        if spread and point.kind == "commit":
            code = next((c for c in point.options if c[0] == "spread"), ("go",))
        await choose(pilot, screen, point.options.index(code))
    raise AssertionError("the person never had a target to choose")


def slot_of(style: Style | None) -> str | None:
    """The Castle or Land a piece of the table draws (panes.py marks each title), or None."""
    meta = style.meta.get(SLOT_META) if style is not None else None
    return meta[1] if meta else None


def marked(screen: PlayScreen, slot: str) -> str:
    """The mark before a Castle or Land's line on the table, scrolled into view or not ('' when
    it has none)."""
    pane = screen.query_one(KingdomsPane)
    console = Console(file=io.StringIO(), width=pane.size.width, color_system=None)
    for line in console.render_lines(pane.draw(pane.size.width), pad=False):
        before = ""
        for segment in line:
            if slot_of(segment.style) == slot:
                before = before.rstrip().split("  ")[-1].strip()
                return before[0] if before[:1] in (TARGET, CURSOR) else ""
            before += segment.text
    raise AssertionError(f"{slot} is not on screen")


def where_on_screen(app: Any, slot: str) -> tuple[int, int]:
    """Where a Castle or Land's title is on the screen."""
    width, height = app.screen.size
    for y in range(height):
        for x in range(width):
            if slot_of(app.screen.get_style_at(x, y)) == slot:
                return x + 1, y
    raise AssertionError(f"{slot} is not on screen")


async def test_only_the_legal_targets_are_marked_and_the_arrows_and_enter_choose_one(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        point = await until_target(pilot, app, screen)
        game, r = screen.runner.game, screen.runner
        targets = list(table_targets(point))
        # The lines-of-defence rule: a kingdom's Castle is a target only once it has no Land.
        legal = [(o, sl.card) for o in (1, 2) for sl in attackable(game.s.realms[o])]
        assert targets == legal
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.focused, KingdomsScroll)
        assert "a target: Esc, arrows, Enter" in shown(app)
        assert marked(screen, targets[0][1]) == CURSOR
        for seat, slot in targets[1:]:
            assert marked(screen, slot) == TARGET
        for o in range(3):
            for sl in game.s.realms[o].slots:
                if (o, sl.card) not in targets:
                    assert marked(screen, sl.card) == "", sl.card
        await pilot.press("down")
        await pilot.pause()
        assert marked(screen, targets[1][1]) == CURSOR and marked(screen, targets[0][1]) == TARGET
        before = len(r.history)
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(r.history) > before, "the target to be chosen")
        assert r.history[before].value == ("at", *targets[1])
        verified(screen)


async def test_a_click_chooses_a_target_and_a_click_elsewhere_chooses_nothing(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        point = await until_target(pilot, app, screen)
        r = screen.runner
        own_castle = r.game.s.realms[0].slots[0].card
        before = len(r.history)
        await pilot.click(offset=where_on_screen(app, own_castle))
        await pilot.pause()
        assert r.waiting == point and len(r.history) == before
        seat, slot = list(table_targets(point))[1]  # not the cursor's: the click moves it
        await pilot.click(offset=where_on_screen(app, slot))
        await wait_until(pilot, lambda: len(r.history) > before, "the clicked target to be chosen")
        assert r.history[before].value == ("at", seat, slot)


async def test_a_spread_shares_its_damage_by_digits_and_enter_gives_the_rest(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY, seed=3))
        point = await until_target(pilot, app, screen, spread=True)
        r = screen.runner
        left = max(code[3] for code in point.options if code[0] == "at")
        first, second = list(table_targets(point))[:2]
        await pilot.press("escape")
        await pilot.press("9" if left < 9 else "0")  # more than there is: refused, and said why
        await pilot.pause()
        assert f"this target takes 1 to {left} points" in shown(app)
        before = len(r.history)
        await pilot.press("1")
        await wait_until(pilot, lambda: len(r.history) > before, "the share to be chosen")
        assert r.history[before].value == ("at", *first, 1)
        assert left > 1  # this game's attack has damage left to share
        point = await next_decision(pilot, app, screen)
        assert point.kind == "target" and first not in table_targets(point)
        assert screen.query_one(KingdomsScroll).cursor == second
        before = len(r.history)
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(r.history) > before, "the rest to be given")
        assert r.history[before].value == ("at", *second, left - 1)
        verified(screen)
