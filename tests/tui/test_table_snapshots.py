"""SVG snapshots of the table at a decision with a long prompt, at 80x24 and 120x40 (issue 30):
Taifa after a fight (the combat pane beside the events, "Oviedo taken: +1 Card Bonus or a
garrison there?") and Take the Kingdom's build ("build your kingdom: take a Defend card ...").
Tafl's table is tests/tui/test_tui_snapshots.py's mid-game snapshot.

Each run_before asserts what the picture must show (the prompt whole in its pane, the pane
keys in the footer, the panes apart) before it is compared, and the test checks it ran to its end.
Regenerate with ``pytest tests/tui/test_table_snapshots.py --snapshot-update`` and look at the SVGs."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from core.engine import Decision
from notation.runner import GameSetup, SeatPlan
from tui.screens.play import PlayScreen
from tui_support import HUMAN, human_to_move, region_rows, screen_lines, start_game, text, wait_until

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


def words(s: str) -> str:
    return " ".join(s.split())


async def choose(pilot: Pilot, screen: PlayScreen, starts: str) -> None:
    """The person's option whose words begin with ``starts``, once the question is on the screen."""
    await wait_until(pilot, lambda: human_to_move(screen), f"the question with {starts!r}")
    decision = screen.runner.waiting
    assert isinstance(decision, Decision)
    code = next(c for c in decision.options if screen.runner.game.describe(c).startswith(starts))
    screen.human_decides(code)
    await pilot.pause()


async def at_prompt(pilot: Pilot, screen: PlayScreen, starts: str) -> str:
    """Wait for the person's question beginning ``starts``; check it is whole in its pane on the screen."""
    def asked() -> bool:
        point = screen.runner.waiting
        return human_to_move(screen) and isinstance(point, Decision) and point.prompt.startswith(starts)

    await wait_until(pilot, asked, f"the question {starts!r}")
    prompt = screen.runner.waiting.prompt  # type: ignore[union-attr]
    title = screen.query_one("#options-title")
    await wait_until(pilot, lambda: words(text(title)) == words(prompt), "the prompt drawn")
    moves = screen.query_one("#moves-scroll")
    await pilot.pause()
    await wait_until(pilot, lambda: moves.scroll_y == moves.max_scroll_y, "the move list at its end")
    svg = pilot.app.export_screenshot()
    assert words(" ".join(region_rows(svg, title.region))) == words(prompt)
    return "\n".join(screen_lines(svg))


@SIZES
def test_taifa_after_a_fight_snapshot(snap_compare, make_app, size) -> None:
    """Castile attacks Oviedo with Heavy Cavalry and Mesnada and takes it: the bonus or the
    garrison, with the fight's result in the combat pane, the events beside it."""
    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        await pilot.pause()
        screen = await start_game(app, pilot, GameSetup("taifa", "standard", (HUMAN,) + (SeatPlan("bot"),) * 5, 5))
        for option in ("attack Oviedo", "add Heavy Cavalry", "add Mesnada", "done"):
            await choose(pilot, screen, option)
        shown = await at_prompt(pilot, screen, "Oviedo taken")
        assert screen.query_one("#board").shown == "combat"  # type: ignore[attr-defined]
        assert "mkhc Panes" in shown.splitlines()[-1]  # the pane keys, wherever the focus is
        assert "outcome: falls" in shown  # the combat pane
        checked.append(True)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    assert checked


@SIZES
def test_kingdom_build_snapshot(snap_compare, make_app, size) -> None:
    """Take the Kingdom for two: a Noble chosen, then the build's long question."""
    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        await pilot.pause()
        screen = await start_game(app, pilot, GameSetup("kingdom", "multi-2", (HUMAN, SeatPlan("random")), 5))
        await choose(pilot, screen, "Baron Charles")
        shown = await at_prompt(pilot, screen, "build your kingdom")
        assert "khr Panes" not in shown and "kh Panes" in shown.splitlines()[-1]  # no round but in solo
        checked.append(True)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    assert checked
