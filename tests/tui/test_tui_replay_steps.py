"""Pilot tests of the replay viewer on a Taifa record: the current step and event stay on screen
(move texts that wrap, steps of many events), the event cursor, and the landmark keys.
Expectations come from the record itself, so they hold for any record of the game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from rich.markup import escape
from textual.widget import Widget

from notation.reader import read_record_file
from notation.replay import Replay
from notation.wording import visible
from tui.widgets.side_panes import MoveList
from tui.widgets.keys_footer import KeysFooter
from tui.screens.help import HelpScreen, HelpText
from tui.screens.replay import ReplayScreen, landmark_step
from tui_support import TAIFA_GOLDEN, drawn_in, text, wait_until
from test_tui_keys import help_rows


@pytest.fixture(scope="module")
def replay() -> Replay:
    replay = Replay(read_record_file(TAIFA_GOLDEN))
    assert replay.verify().ok, f"{TAIFA_GOLDEN.name} no longer verifies: regenerate with make goldens"
    return replay


def words(s: str) -> str:
    return " ".join(s.split())


def visible_in(app, widget: Widget, line: str, chars: int = 30) -> bool:
    """Whether the start of ``line`` (its first ``chars`` characters, wrapped however the pane
    wraps them) is drawn in ``widget``."""
    return words(line)[:chars] in words(" ".join(drawn_in(app, widget)))


def highlighted(log, line: str) -> bool:
    """Whether the log's row that starts ``line`` is drawn reversed (the event cursor)."""
    row = next(s for s in log.lines if words(line).startswith(words(s.text)[:20]) and words(s.text))
    return any(seg.style is not None and seg.style.reverse for seg in row if seg.text.strip())


@asynccontextmanager
async def viewer(make_app, size: tuple[int, int] = (80, 24)) -> AsyncIterator[tuple]:
    """(pilot, app, the replay screen) on the Taifa golden record."""
    app = make_app(open_path=TAIFA_GOLDEN)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        yield pilot, app, app.screen


async def go_to(pilot, screen: ReplayScreen, n: int) -> None:
    """To step ``n`` as the Go to dialog takes the viewer there (the dialog itself: test_tui_replay.py)."""
    screen.go(n)
    await pilot.pause()


async def test_the_current_step_stays_in_view_when_move_texts_wrap(make_app, replay: Replay) -> None:
    async with viewer(make_app) as (pilot, app, screen):
        moves = screen.query_one("#moves-scroll")
        # The premise: many entries wrap, so a line of the list is not a row of the pane.
        long = [n for n in range(1, replay.steps + 1) if len(screen._text(n)) + 5 > moves.size.width]
        assert len(long) > replay.steps // 4
        await pilot.press("end")
        await pilot.pause()
        for n in (replay.steps, replay.steps // 2, replay.steps // 3, 1):
            if n != screen.step:
                await go_to(pilot, screen, n)
            await pilot.pause()
            rows = [r.strip() for r in drawn_in(app, moves)]
            assert any(r.startswith(f"{n}. ") for r in rows), (n, rows)
            assert f"[reverse]{escape(screen._text(n))}[/]" in screen.query_one(MoveList).content
        for _ in range(3):  # stepping keeps it in view too
            await pilot.press("right")
        await pilot.pause()
        assert any(r.strip().startswith("4. ") for r in drawn_in(app, moves))


async def test_a_step_of_many_events_is_shown_from_its_first(make_app, replay: Replay) -> None:
    async with viewer(make_app) as (pilot, app, screen):
        log = screen.query_one("#events")
        # The step of most events: more than the pane holds (the old pane showed only its end).
        n = max(range(1, replay.steps + 1), key=lambda k: len(replay.events_at(k)))
        events = replay.events_at(n)
        assert len(events) > log.size.height
        await go_to(pilot, screen, n)
        await pilot.pause()
        first, last = visible(events[0].text), visible(events[-1].text)
        assert visible_in(app, log, first) and highlighted(log, first)
        assert not visible_in(app, log, last)
        assert text(screen.query_one("#events-title")) == f"Events of this step 1/{len(events)}"

        # The event cursor: down and up walk the step's events, scrolling them into view.
        await pilot.press("down", "down")
        await pilot.pause()
        assert screen.event == 2 and highlighted(log, visible(events[2].text))
        await pilot.press("up")
        await pilot.pause()
        assert screen.event == 1 and highlighted(log, visible(events[1].text))
        assert visible_in(app, log, first)
        # Before a step's first event, back to the previous step's last; past it, on into the next.
        await go_to(pilot, screen, n + 1)
        await pilot.press("comma")
        await pilot.pause()
        assert (screen.step, screen.event) == (n, len(events) - 1)
        assert visible_in(app, log, last) and highlighted(log, last)
        assert not visible_in(app, log, first)
        assert text(screen.query_one("#events-title")) == f"Events of this step {len(events)}/{len(events)}"
        await pilot.press("up")
        await pilot.pause()
        assert screen.event == len(events) - 2
        assert visible_in(app, log, visible(events[-2].text)) and highlighted(log, visible(events[-2].text))
        await pilot.press("full_stop", "down")
        await pilot.pause()
        assert (screen.step, screen.event) == (n + 1, 0)
        await pilot.press("left")  # a step puts the cursor on the step's first event
        await pilot.pause()
        assert (screen.step, screen.event) == (n, 0)


def combats(replay: Replay) -> list[tuple[int, int]]:
    """(step, event index) of every combat's deciding event, in order."""
    return [(k, i) for k in range(1, replay.steps + 1) for i, e in enumerate(replay.events_at(k)) if e.kind == "combat"]


async def test_the_combat_key_jumps_to_each_deciding_line(make_app, replay: Replay) -> None:
    marks = combats(replay)
    assert len(marks) >= 3
    async with viewer(make_app) as (pilot, app, screen):
        log = screen.query_one("#events")
        for step, index in marks[:2]:
            await pilot.press("c")
            await pilot.pause()
            assert (screen.step, screen.event) == (step, index)
            assert text(screen.query_one("#timeline")).startswith(f"step {step}/{replay.steps}")
            deciding = visible(replay.events_at(step)[index].text)
            assert visible_in(app, log, deciding) and highlighted(log, deciding)
        # The combat of the step of most events (more than the pane holds, which showed only their
        # end), and the one deepest in its step: the deciding line is on screen.
        crowded = max(marks, key=lambda m: len(replay.events_at(m[0])))
        assert len(replay.events_at(crowded[0])) > log.size.height
        for step, index in {crowded, max(marks, key=lambda m: m[1])}:
            await go_to(pilot, screen, step - 1)
            await pilot.press("c")
            await pilot.pause()
            assert (screen.step, screen.event) == (step, index)
            deciding = visible(replay.events_at(step)[index].text)
            assert visible_in(app, log, deciding) and highlighted(log, deciding)
        # Shift+c goes back to the combat before; none before the first says so and stays.
        await go_to(pilot, screen, marks[2][0])
        await pilot.press("C")
        await pilot.pause()
        assert (screen.step, screen.event) == marks[1]
        await pilot.press("home", "C")
        await pilot.pause()
        assert screen.step == 0
        assert any(n.message == "no combat before step 0" for n in app._notifications)


async def test_landmark_keys_are_in_the_footer_and_the_help(make_app) -> None:
    async with viewer(make_app, (120, 40)) as (pilot, app, _):
        def footer() -> str:  # its lines (it wraps rather than cut a key off)
            return " ".join(drawn_in(app, app.screen.query_one(KeysFooter)))

        await wait_until(pilot, lambda: "c Next combat" in footer(), "the footer's keys")  # drawn after the screen
        assert "n Next turn" in footer()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rows = help_rows(app.screen.query_one(HelpText).source)
        assert rows["replay.next_combat"] == ("c", "Next combat")
        assert rows["replay.previous_combat"] == ("C", "Previous combat")
        assert rows["replay.next_turn"] == ("n", "Next turn")
        assert rows["replay.next_event"] == ("down, .", "Next event")  # keys as they are typed


def test_a_landmark_is_the_nearest_step_with_any_of_its_kinds(replay: Replay) -> None:
    kinds = ("combat", "turn")
    having = [k for k in range(1, replay.steps + 1) if any(e.kind in kinds for e in replay.events_at(k))]
    for step in range(0, replay.steps + 1, 7):
        assert landmark_step(replay, step, kinds, 1) == next((k for k in having if k > step), None)
        assert landmark_step(replay, step, kinds, -1) == next((k for k in reversed(having) if k < step), None)
    assert landmark_step(replay, 0, ("no such kind",), 1) is None


async def test_a_resize_wraps_the_events_again_and_keeps_the_cursors_in_view(make_app, replay: Replay) -> None:
    n = max(range(1, replay.steps + 1), key=lambda k: len(replay.events_at(k)))
    last = visible(replay.events_at(n)[-1].text)
    async with viewer(make_app, (120, 40)) as (pilot, app, screen):
        screen.go(n, len(replay.events_at(n)))  # the cursor on the step's last event
        await pilot.pause()
        log = screen.query_one("#events")
        assert visible_in(app, log, last) and highlighted(log, last)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert max(len(s.text.rstrip()) for s in log.lines) <= log.scrollable_content_region.width
        assert visible_in(app, log, last) and highlighted(log, last)
