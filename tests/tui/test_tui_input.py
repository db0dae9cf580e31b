"""Input goes where it was meant (issue 25): real keys, as a terminal delivers them, on a Taifa
game (Castile a person, five rulebook bots).

A terminal hands the app every key read at once (a fast typist, keys typed while the bots play):
they wait in the app's queue and each is routed to whatever has the focus when its turn comes.
``burst`` sends keys that way, all queued before the app reads the first, each stamped with the
time it was made; pilot.press sends one and lets the app settle before the next.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual import events
from textual.widgets import Input

from core.engine import Decision
from core.taifa.game import TaifaGame
from notation.runner import GameSetup
from tui.screens.dialogs import ConfirmDialog
from tui.screens.play import PlayScreen
from tui.widgets.options import EARLY, OptionsPane
from tui_support import BOT, HUMAN, start_game, text, wait_until

KEYS = {"enter": "\r", "escape": "\x1b"}


def taifa(seed: int = 1) -> GameSetup:
    return GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, seed)


def burst(app: Any, *keys: str) -> None:
    """Keys read together from the terminal: all queued now, routed by the app one after another."""
    for key in keys:
        event = events.Key(key, KEYS.get(key, key if len(key) == 1 else None))
        event.set_sender(app)
        app._driver.send_message(event)


def question_shown(app: Any, screen: PlayScreen) -> bool:
    """Castile's question is on the screen (its options listed), and nothing covers it."""
    return app.screen is screen and screen.question is not None and isinstance(screen.runner.waiting, Decision)


def after_the_bots(screen: PlayScreen, then: Callable[[], None]) -> Callable[[], None]:
    """Arm ``then`` to run once, in the step that brings Castile's next question (Castile's own
    choice with the bots' rounds after it, or the chance step after them), before the screen shows
    that question: keys sent then are keys typed while the bots played. Returns the arming function."""
    runner = screen.runner
    armed = [False]

    def spy(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            step = real(*args)
            if armed[0] and isinstance(runner.waiting, Decision):
                armed[0] = False
                then()
            return step
        return call

    runner.decide = spy(runner.decide)  # type: ignore[method-assign]
    runner.step = spy(runner.step)  # type: ignore[method-assign]

    def arm() -> None:
        armed[0] = True

    return arm


@pytest.fixture
def no_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """No choice asks first (a pass with every other kingdom passed would): the keys alone decide."""
    monkeypatch.setattr(TaifaGame, "warning", lambda self, code: None, raising=False)


async def choose_last(pilot: Any) -> None:
    """Escape (out of the move box), `o`, End, Enter: the last option (pass, or done) in the options pane."""
    await pilot.press("escape", "o", "end", "enter")


def castile_chose(screen: PlayScreen, since: int) -> list[Any]:
    """Castile's choices played from step ``since`` on."""
    return [s.value for s in screen.runner.history[since:] if s.kind == "decision" and s.seat == 0]


async def test_t_and_pass_typed_in_one_burst_as_the_turn_begins_plays_the_pass(make_app, no_warnings) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa())
        r = screen.runner
        options = screen.query_one("#options", OptionsPane)
        move_box = screen.query_one("#move-input", Input)
        error = screen.query_one("#error")
        kinds = set()
        for turn in range(4):
            await wait_until(pilot, lambda: question_shown(app, screen), "Castile's question")
            if app.focused is not options:
                await pilot.press("escape", "o")
            assert app.focused is options and options.highlighted == 0  # the first option is lit
            waiting = r.waiting
            assert isinstance(waiting, Decision) and waiting.options[0] not in (("pass",), ("done",))
            kinds.add(waiting.kind)
            before = len(r.history)
            burst(app, "t", *"pass", "enter")  # as found: this played the highlighted first option
            await wait_until(pilot, lambda: len(r.history) > before or text(error) != "",
                             "the typed move to be answered")
            assert app.focused is move_box and move_box.value == ""
            if ("pass",) in waiting.options:
                assert castile_chose(screen, before)[:1] == [("pass",)], turn
                continue
            # A question with no pass (a response window): nothing played, and the error says why.
            assert castile_chose(screen, before) == [] and r.waiting == waiting and "pass" in text(error)
            await pilot.press(*"done", "enter")
            await wait_until(pilot, lambda: len(r.history) > before, "done")
            assert castile_chose(screen, before)[:1] == [("done",)]
        assert kinds == {"action", "respond"}  # an action and a response window were both met


async def test_keys_typed_while_the_bots_play_do_not_reach_the_next_decision(make_app, no_warnings) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa())
        r = screen.runner
        error = screen.query_one("#error")
        move_box = screen.query_one("#move-input", Input)

        # Enter pressed while the bots play, the options pane in focus: by the time it is read,
        # the pane lists Castile's next question, its first option lit. It is dropped, and said so.
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's first question")
        after_the_bots(screen, lambda: burst(app, "enter"))()
        before = len(r.history)
        await choose_last(pilot)
        await wait_until(pilot, lambda: text(error) != "" or len(castile_chose(screen, before)) > 1,
                         "the early Enter to be read")
        assert text(error) == EARLY
        assert question_shown(app, screen) and castile_chose(screen, before) == [("pass",)]  # and nothing more

        # A move typed while the bots play (`t` included): held in the box, not played on the next question.
        after_the_bots(screen, lambda: burst(app, "t", *"pass", "enter"))()
        before = len(r.history)
        chosen = r.waiting.options[-1]  # type: ignore[union-attr]
        await choose_last(pilot)
        await wait_until(pilot, lambda: "typed before this question" in text(error), "the early move to be held")
        assert question_shown(app, screen) and castile_chose(screen, before) == [chosen]
        assert app.focused is move_box and move_box.value == "pass"
        # Said once: Enter now sends it, checked by its words against the question on the screen.
        waiting = r.waiting
        after = len(r.history)
        await pilot.press("enter")
        if ("pass",) in waiting.options:  # type: ignore[union-attr]
            await wait_until(pilot, lambda: len(r.history) > after, "the held move to be played")
            assert castile_chose(screen, after)[:1] == [("pass",)]
        else:
            await wait_until(pilot, lambda: "typed before" not in text(error), "the held move to be checked")
            assert len(r.history) == after and "pass" in text(error)


async def test_the_move_box_keeps_the_focus_after_a_typed_move(make_app, no_warnings) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa())
        r = screen.runner
        move_box = screen.query_one("#move-input", Input)
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's first question")
        before = len(r.history)
        await pilot.press("t", *"pass", "enter")
        await wait_until(pilot, lambda: len(r.history) > before, "the typed pass")
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's next question")
        assert app.focused is move_box
        # The next word typed is a move in the box, not `o`, `n`... as shortcuts.
        before = len(r.history)
        await pilot.press(*"done", "n", "o")
        assert move_box.value == "donen" + "o" and app.focused is move_box
        assert len(r.history) == before and not screen.driver.skipping
        # Escape leaves it: the keys are the board's and the screen's again.
        await pilot.press("escape")
        assert not isinstance(app.focused, Input)
        await pilot.press("o")
        assert isinstance(app.focused, OptionsPane)


async def test_a_choice_that_cannot_be_taken_back_asks_once(make_app, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple] = []

    def warning(self: TaifaGame, code: tuple) -> str | None:
        asked.append(code)
        return "Pass and end your turn with cards in hand?" if code == ("pass",) else None

    monkeypatch.setattr(TaifaGame, "warning", warning, raising=False)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa())
        r = screen.runner
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's first question")
        before = len(r.history)

        # Typed: the question, once; No plays nothing.
        await pilot.press("t", *"pass", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        assert text(app.screen.query_one("#question")) == "Pass and end your turn with cards in hand?"
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is screen, "back to the table")
        assert len(r.history) == before and text(screen.query_one("#error")) == "nothing played"

        # From the options pane: asked once, and Yes plays it with no second question.
        await choose_last(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question again")
        asked.clear()
        await pilot.press("y")
        await wait_until(pilot, lambda: len(r.history) > before, "the pass to be played")
        assert app.screen is screen and r.history[before].value == ("pass",)
        assert ("pass",) not in asked  # not asked again on the way in
        # A choice with no warning is played at once.
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's next question")
        before = len(r.history)
        waiting = r.waiting
        assert isinstance(waiting, Decision) and warning(r.game, waiting.options[0]) is None
        await pilot.press("escape", "o", "home", "enter")
        await wait_until(pilot, lambda: len(r.history) > before, "the first option to be played")
        assert app.screen is screen and r.history[before].value == waiting.options[0]


async def test_keys_typed_right_after_the_enter_stay_for_the_next_move(make_app, no_warnings) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa())
        r = screen.runner
        move_box = screen.query_one("#move-input", Input)
        error = screen.query_one("#error")
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's first question")
        before = len(r.history)
        burst(app, "t", *"pass", "enter", *"done")  # all read before the pass is handled
        await wait_until(pilot, lambda: len(r.history) > before, "the pass")
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's next question")
        assert castile_chose(screen, before)[:1] == [("pass",)]
        assert app.focused is move_box and move_box.value == "done"
        # Typed before this question was shown: Enter plays nothing and says so, once.
        after = len(r.history)
        await pilot.press("enter")
        await wait_until(pilot, lambda: "typed before this question" in text(error), "the early move to be held")
        assert len(r.history) == after and move_box.value == "done"


async def test_keys_read_together_are_applied_in_the_order_typed(make_app, no_warnings) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, taifa())
        r = screen.runner
        move_box = screen.query_one("#move-input", Input)
        options = screen.query_one("#options", OptionsPane)
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's first question")
        # A slip mended in the same breath: Backspace takes the x before the last two letters go in.
        before = len(r.history)
        burst(app, "t", *"pax", "backspace", *"ss", "enter")
        await wait_until(pilot, lambda: len(r.history) > before or text(screen.query_one("#error")) != "",
                         "the typed move to be answered")
        assert castile_chose(screen, before)[:1] == [("pass",)] and move_box.value == ""
        # In the options pane: End, then Enter, read together: the last option, not the first.
        await wait_until(pilot, lambda: question_shown(app, screen), "Castile's next question")
        await pilot.press("escape")
        assert not isinstance(app.focused, Input)
        waiting = r.waiting
        before = len(r.history)
        burst(app, "o", "end", "enter")
        await wait_until(pilot, lambda: len(r.history) > before, "the option to be played")
        assert app.focused is options
        assert castile_chose(screen, before)[:1] == [waiting.options[-1]]  # type: ignore[union-attr]
