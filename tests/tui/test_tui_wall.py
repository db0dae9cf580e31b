"""Pilot tests of the information wall on the play screen (issue 25): the Moves pane shows no deck
order, and a hot-seat takeback never undoes another person's answer."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from core.engine import TABLE, Chance, Decision
from core.visibility import outcome_text
from notation.reader import read_record_file
from notation.runner import GameSetup, SeatPlan
from notation.format import CommentRecord, DecisionRecord
from tui.widgets.side_panes import MoveList
from tui.screens.dialogs import HandOverScreen
from tui.screens.play import PlayScreen
from tui_support import BOT, HUMAN, screen_lines, start_game, text, wait_until


def on_screen(app: Any) -> str:
    return "\n".join(screen_lines(app.export_screenshot()))


def shuffles(screen: PlayScreen) -> list[tuple[str, tuple[int, ...]]]:
    """The label and order of every shuffle played so far."""
    out = []
    for info in screen.driver.entries:
        if isinstance(info.before, Chance) and info.before.kind == "shuffle":
            out.append((info.before.label, tuple(info.value)))  # type: ignore[arg-type]
    return out


async def assert_no_deck_order(app: Any, pilot: Any, setup: GameSetup) -> None:
    screen = await start_game(app, pilot, setup)
    await wait_until(pilot, lambda: isinstance(screen.runner.waiting, Decision) and screen.driver.frame is None
                     and app.screen is screen, "the person's decision", tries=500)
    orders = shuffles(screen)
    assert orders, "the game shuffled a deck before the first decision"
    moves = screen.query_one(MoveList).plain
    status = text(screen.query_one("#status", Static))
    log = "\n".join(line.text for line in screen.query_one("#events").lines)
    for label, perm in orders:
        # Its size is told; not even the start of its order (the first five positions).
        assert f"{label} ({len(perm)} cards)" in moves
        start = outcome_text(perm[:5])
        for shown in (moves, status, log):
            assert start not in shown, (label, start)
    assert f"seed {screen.runner.header.seed}" not in log  # the seed would deal the cards again


async def test_a_kingdom_solo_game_shows_no_deck_order(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await assert_no_deck_order(app, pilot, GameSetup("kingdom", "solo", (HUMAN, BOT, BOT), 11))


async def test_a_taifa_game_shows_no_deck_order(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        seats = (HUMAN, *(BOT,) * 5)
        await assert_no_deck_order(app, pilot, GameSetup("taifa", "standard", seats, 12))


async def test_a_hot_seat_takeback_never_undoes_the_other_persons_answer(make_app, hoard) -> None:
    """Gold rests, the Dragon rolls, Silver answers; Gold's `u` must not undo Silver's answer."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_game(app, pilot, GameSetup("hoard", "short", (HUMAN, HUMAN, BOT), 3))
        r = screen.runner

        async def answer(seat: int, code: tuple[str, ...]) -> None:
            await wait_until(pilot, lambda: isinstance(app.screen, HandOverScreen) or (
                app.screen is screen and isinstance(r.waiting, Decision) and r.waiting.seat == seat
                and screen.view_seat() == seat), f"seat {seat}'s turn")
            if isinstance(app.screen, HandOverScreen):
                await pilot.press("enter")
                await wait_until(pilot, lambda: app.screen is screen and screen.view_seat() == seat, "the hand-over")
            steps = len(r.history)
            screen.human_decides(code)
            assert len(r.history) > steps, text(screen.query_one("#error"))

        await answer(0, ("rest",))
        await answer(1, ("rest",))
        await wait_until(pilot, lambda: isinstance(app.screen, HandOverScreen), "Gold's hand-over")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen and screen.view_seat() == 0, "Gold at the keyboard")
        steps = len(r.history)
        await pilot.press("u")
        await wait_until(pilot, lambda: "nothing of yours to take back" in text(screen.query_one("#error")),
                         "the takeback refused")
        assert len(r.history) == steps
        assert any(s.kind == "decision" and s.seat == 1 for s in r.history)  # Silver's answer stands
        path = r.path
    assert path is not None
    records = read_record_file(path).records
    assert [rec.seat for rec in records if isinstance(rec, DecisionRecord)] == [0, 1]
    assert not any(isinstance(rec, CommentRecord) for rec in records)  # nothing was taken back


async def test_a_takeback_against_the_ai_is_written_in_the_record(make_app, hoard) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start_game(app, pilot, GameSetup("hoard", "short", (HUMAN, SeatPlan("random"), BOT), 3))
        r = screen.runner
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision), "Gold's turn")
        screen.human_decides(("rest",))
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and len(r.history) > 3, "Gold's next turn")
        await pilot.press("u")
        await wait_until(pilot, lambda: len(screen.runner.history) <= 1, "the takeback")
        path = screen.runner.path
    assert path is not None
    comments = [rec.text for rec in read_record_file(path).records if isinstance(rec, CommentRecord)]
    assert len(comments) == 1 and comments[0].startswith("takeback: Gold took back ")


# -- the viewer's point of view ------------------------------------------------------------------


async def test_the_viewer_opens_a_finished_game_on_the_full_table_and_v_chooses_a_seat(make_app) -> None:
    from pathlib import Path

    from notation.replay import Replay
    from tui.screens.dialogs import ViewDialog
    from tui.screens.replay import ReplayScreen
    from wall_support import leaks, wall_of

    record = Path(__file__).parents[2] / "replays" / "kingdom-multi-3-1-0001.fief"
    replay = Replay(read_record_file(record))
    wall = wall_of(replay)
    app = make_app(open_path=record)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen) and "view:" in text(
            app.screen.query_one("#timeline")), "the viewer")
        screen = app.screen
        assert "view: table" in text(screen.query_one("#timeline"))
        assert screen.viewer == TABLE
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, ViewDialog), "the choice of view")
        await pilot.press("down", "enter")  # Player 2's view, the second
        await wait_until(pilot, lambda: app.screen is screen and "view: Player 2" in text(screen.query_one("#timeline")),
                         "Player 2's view")
        for n in (replay.steps, replay.steps // 2, 3):
            await pilot.press("g", *str(n), "enter")
            await wait_until(pilot, lambda: app.screen is screen and screen.step == n, f"step {n}")
            shown = "\n".join((on_screen(app), screen.query_one(MoveList).plain,
                               "\n".join(line.text for line in screen.query_one("#events").lines)))
            assert not leaks(shown, wall.secrets(replay.state_at(n), 1)), n


async def test_the_viewer_asks_whose_view_for_a_game_still_in_play(make_app, tmp_path) -> None:
    from tui.screens.dialogs import ViewDialog
    from tui.screens.replay import ReplayScreen

    path = tmp_path / "unfinished.fief"
    from notation.runner import Runner

    runner = Runner.start(GameSetup("kingdom", "multi-2", (SeatPlan("random"), SeatPlan("random")), 3), path)
    runner.run(max_steps=20)
    runner.close()
    app = make_app(open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ViewDialog), "the question")
        await pilot.press("enter")  # Player 1's view
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                         and "view: Player 1" in text(app.screen.query_one("#timeline")), "Player 1's view")
