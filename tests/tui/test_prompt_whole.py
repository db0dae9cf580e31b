"""Every prompt shown whole (issue 30): the question above the options is wrapped in its pane,
never cut, at 80x24 and at 120x40, in each game; and the longest questions each game asks in
a seeded game fit that pane at 80x24 too.

What is checked is what a person reads: the characters of the screen (an SVG screenshot) in
the prompt's pane, whose words must be the prompt's words, all of them, in order."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widget import Widget

from core.engine import Decision, Over
from core.rng import SplitMix64
from notation.runner import GameSetup, Runner, SeatPlan
from notation.wording import visible
from tui.screens.play import PlayScreen
from tui.widgets.redraw import set_content
from tui_support import drawn_in, human_to_move, start_game, wait_until

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
# (game, variant, seats, seed): one person, the other seats playing by themselves.
GAMES = [
    ("taifa", "standard", ("human", "bot", "bot", "bot", "bot", "bot"), 4),
    ("kingdom", "multi-3", ("human", "random", "random"), 6),
    ("kingdom", "solo", ("human", "bot", "bot"), 8),
    ("tafl", "traditional", ("human", "random"), 3),
]
DECISIONS = 6  # the person's decisions looked at in each game


def words(text: str) -> str:
    return " ".join(text.split())


async def shown_in(pilot: Pilot, widget: Widget) -> str:
    """The words on the screen inside ``widget``'s region, line after line."""
    return words(" ".join(drawn_in(pilot.app, widget)))


@SIZES
@pytest.mark.parametrize("game, variant, seats, seed", GAMES, ids=[f"{g}-{v}" for g, v, _, _ in GAMES])
async def test_every_prompt_is_shown_whole(make_app, size, game, variant, seats, seed) -> None:
    app = make_app()
    rng = SplitMix64(seed)
    async with app.run_test(size=size) as pilot:
        screen = await start_game(app, pilot, GameSetup(game, variant, tuple(SeatPlan(k) for k in seats), seed))
        assert isinstance(screen, PlayScreen)
        title = screen.query_one("#options-title")
        for _ in range(DECISIONS):
            await wait_until(pilot, lambda: human_to_move(screen) or screen.runner.result is not None,
                             "the person's question")
            if screen.runner.result is not None:
                break
            decision = screen.runner.waiting
            assert isinstance(decision, Decision)
            prompt = words(visible(decision.prompt))
            await wait_until(pilot, lambda: words(str(title.render())) == prompt, "the prompt in its pane")
            assert await shown_in(pilot, title) == prompt
            screen.human_decides(decision.options[rng.below(len(decision.options))])
            await pilot.pause()


def asked(game: str, variant: str, seats: tuple[str, ...], seed: int, path: Path, most: int = 3000) -> set[str]:
    """Every question a seeded game asks its people (answering at random)."""
    runner = Runner.start(GameSetup(game, variant, tuple(SeatPlan(k) for k in seats), seed), path)
    rng = SplitMix64(seed)
    prompts: set[str] = set()
    try:
        for _ in range(most):
            point = runner.point
            if isinstance(point, Over):
                break
            if isinstance(point, Decision) and runner.waiting is not None:
                prompts.add(point.prompt)
                runner.decide(point.options[rng.below(len(point.options))])
            else:
                runner.step()
    finally:
        runner.close()
    return prompts


PEOPLE = [
    ("taifa", "standard", ("human",) * 6, 4),
    ("taifa", "el-cid", ("bot", "human", "bot", "human"), 5),
    ("kingdom", "multi-3", ("human",) * 3, 6),
    ("kingdom", "solo", ("human", "bot", "bot"), 8),
]


@pytest.mark.parametrize("game, variant, seats, seed", PEOPLE, ids=[f"{g}-{v}" for g, v, _, _ in PEOPLE])
async def test_the_longest_questions_fit_at_80x24(make_app, tmp_path, game, variant, seats, seed) -> None:
    """The three longest questions of a whole seeded game, each in the prompt's pane of that
    game's play screen at 80x24 (the narrowest it is), read whole off the screen."""
    longest = sorted(asked(game, variant, seats, seed, tmp_path / "asked.fief"), key=len)[-3:]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        person = seats.index("human")
        others = "random" if variant.startswith("multi") else "bot"  # Take the Kingdom's players have no bot
        plans = tuple(SeatPlan(kind if kind != "human" or i == person else others) for i, kind in enumerate(seats))
        screen = await start_game(app, pilot, GameSetup(game, variant, plans, seed))
        await wait_until(pilot, lambda: human_to_move(screen), "the person's question")
        title = screen.query_one("#options-title")
        for prompt in longest:
            set_content(title, Text(visible(prompt)))  # as the screen sets it (PlayScreen.refresh_all)
            await pilot.pause()
            assert await shown_in(pilot, title) == words(visible(prompt)), prompt
