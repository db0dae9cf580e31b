"""Pilot tests of the replay viewer: stepping a golden record, damaged and garbage files."""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest

from notation.format import PREAMBLE, DecisionRecord
from notation.reader import read_record_file
from notation.replay import Replay
from textual.content import Content
from textual.notifications import Notification
from textual.widgets import Input, Select

from tui.widgets.side_panes import MoveList
from tui.screens.dialogs import OpenDialog, StepDialog
from tui.games.tafl.board import TaflBoard
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen
from tui.screens.replay import WINDOW, ReplayScreen
from tui.session import OPEN_AT_ONCE_BYTES
from tui.screens.setup import SetupScreen
from tui_support import GOLDEN, board_position, text, wait_until

ROOT = Path(__file__).parents[2]


def shown(notification: Notification) -> str:
    """A notification's text as its toast draws it (MarkupError if the markup is broken).

    Toasts are not drawn under run_test, so the markup is checked here."""
    if notification.markup:
        return Content.from_markup(notification.message).plain
    return notification.message


def errors(app) -> list[str]:
    return [shown(n) for n in app._notifications if n.severity == "error"]


def assert_shows(screen: ReplayScreen, replay: Replay, n: int, verdict: str = "verified") -> None:
    """The viewer is at step n: its board draws Replay.state_at(n) and the timeline says so."""
    assert screen.step == n
    assert board_position(screen.query_one("#board", TaflBoard)) == replay.state_at(n).position()
    timeline = text(screen.query_one("#timeline"))
    assert timeline.startswith(f"step {n}/{replay.steps} · {verdict}"), timeline


@pytest.fixture(scope="module")
def golden() -> Replay:
    """The golden record, replayed; expectations below come from it, not from copied numbers."""
    replay = Replay(read_record_file(GOLDEN))
    report = replay.verify()
    assert report.ok, f"{GOLDEN.name} no longer verifies ({report.message}): regenerate with make goldens"
    assert replay.steps >= 30 and replay.result is not None
    return replay


async def test_step_through_a_golden_record(make_app, golden: Replay) -> None:
    replay, total = golden, golden.steps
    app = make_app(open_path=GOLDEN)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert errors(app) == []
        assert_shows(screen, replay, 0)
        assert "start position" in "\n".join(line.text for line in screen.query_one("#events").lines)
        await pilot.press("left")  # nothing before the start
        assert_shows(screen, replay, 0)

        await pilot.press("right", "right", "right")
        assert_shows(screen, replay, 3)
        state = replay.state_at(3)
        assert text(screen.query_one("#status")) == (
            f"tafl gild-9 · {state.seats[state.to_move]} to move · replay {GOLDEN.name}")
        await pilot.press("left")
        assert_shows(screen, replay, 2)

        await pilot.press("g")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, StepDialog)
        await pilot.press("9", "9", "enter")  # out of range: the dialog says so and stays
        assert app.screen is dialog
        assert text(dialog.query_one("#step-error")) == f"a step from 0 to {total}"
        await pilot.press("backspace", "backspace", "1", "7", "enter")
        await pilot.pause()
        assert app.screen is screen
        assert_shows(screen, replay, 17)
        events = "\n".join(line.text for line in screen.query_one("#events").lines)
        assert replay.step_record(17).events[0].text in events

        await pilot.press("g", *str(total), "enter")
        await pilot.pause()
        assert_shows(screen, replay, total)
        assert f" · result: {replay.result.reason} · replay " in text(screen.query_one("#status"))
        await pilot.press("right")  # nothing after the end
        assert_shows(screen, replay, total)

        await pilot.press("q")  # opened from the command line: back to the shell (issue 30)
        for _ in range(1500):
            if app.return_code is not None:
                break
            await pilot.pause(0.02)
        assert app.return_code == 0


async def test_home_and_end_jump_to_the_ends_of_the_record(make_app, golden: Replay) -> None:
    replay = golden
    app = make_app(open_path=GOLDEN)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("right")
        await pilot.press("end")
        assert_shows(screen, replay, replay.steps)
        await pilot.press("home")
        assert_shows(screen, replay, 0)


def screen_records(replay: Replay, n: int) -> list[str]:
    """The first ``n`` moves as the move list shows them."""
    return [str(next(e for e in replay.events_at(i) if e.kind == "move").data[0]) for i in range(1, n + 1)]


def decision_index(rec, step: int) -> int:
    """The index in ``rec.records`` of step ``step``'s decision."""
    return [i for i, r in enumerate(rec.records) if isinstance(r, DecisionRecord)][step - 1]


def flipped_copy(tmp_path: Path) -> tuple[Path, int]:
    """The golden record with one byte of a move changed (the file letter of its
    destination), so a move along a file turns diagonal, which no rule allows.
    Returns the file and the step changed: the first move along a file from step 5 on."""
    data = bytearray(GOLDEN.read_bytes())
    rec = read_record_file(bytes(data))

    def along_a_file(step: int) -> bool:
        frm, to = rec.records[decision_index(rec, step)].code
        return frm[0] == to[0]

    step = next(n for n in range(5, rec.steps) if along_a_file(n))
    index = decision_index(rec, step)
    to = rec.records[index].code[1]
    end = rec.offsets[index + 1]
    assert data[end - len(to):end] == to.encode()  # the record ends with the destination's name
    data[end - len(to)] = ord("b") if to[0] == "a" else ord(to[0]) - 1
    path = tmp_path / "damaged.fief"
    path.write_bytes(bytes(data))
    return path, step


def cut_copy(tmp_path: Path) -> tuple[Path, int]:
    """The golden record cut short three bytes into a move, as a crash mid-write leaves it."""
    data = GOLDEN.read_bytes()
    rec = read_record_file(data)
    step = rec.steps - 10
    path = tmp_path / "cut.fief"
    path.write_bytes(data[:rec.offsets[decision_index(rec, step)] + 3])
    return path, step


@pytest.mark.usefixtures("golden")
@pytest.mark.parametrize("damage", [flipped_copy, cut_copy], ids=["flipped-byte", "cut-short"])
async def test_a_damaged_record_opens_where_it_differs(make_app, tmp_path: Path, damage) -> None:
    path, first_bad = damage(tmp_path)
    replay = Replay(read_record_file(path))
    report = replay.verify()
    assert not report.ok and report.first_bad_step == first_bad
    # The bad step itself cannot be replayed: the viewer opens on the position just before it.
    assert replay.steps == first_bad - 1
    app = make_app(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert_shows(screen, replay, first_bad - 1, verdict=f"differs at step {first_bad}")
        assert errors(app) == [f"verify failed: {report.message}"]
        await pilot.press("left", "left")
        assert_shows(screen, replay, first_bad - 3, verdict=f"differs at step {first_bad}")


GARBAGE = {
    "text": lambda: b"this is not a record\n" * 4,
    "binary": lambda: bytes(range(256)),
    "empty": lambda: b"",
    "junk-after-magic": lambda: PREAMBLE + b"\xff" * 40,
    "cut-in-header": lambda: GOLDEN.read_bytes()[:100],
}


@pytest.mark.parametrize("garbage", GARBAGE)
async def test_a_garbage_file_is_one_error_and_no_crash(make_app, tmp_path: Path, garbage: str) -> None:
    path = tmp_path / "garbage.fief"
    path.write_bytes(GARBAGE[garbage]())
    app = make_app(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert len(errors(app)) == 1 and errors(app)[0]

        # Again through the Open dialog, with the path typed.
        app._notifications.clear()
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        box = app.screen.query_one("#path", Input)
        assert app.focused is box
        box.value = str(path)  # typing a long temporary path key by key would only cost time
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert len(errors(app)) == 1

        await pilot.press("n")  # still alive and answering keys
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)


@pytest.mark.parametrize("typed", ["no[/such].fief", "no[b].fief"], ids=["close-tag", "open-tag"])
async def test_a_missing_path_with_brackets_is_one_error_and_no_crash(make_app, typed: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        app.screen.query_one("#path", Input).value = typed
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert errors(app) == [f"{typed}: No such file or directory"]


async def test_open_dialog_lists_saved_records(make_app, data: Path) -> None:
    (data / "saved").mkdir(parents=True)
    shutil.copy(GOLDEN, data / "saved" / "golden.fief")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenDialog)
        assert dialog.records == [data / "saved" / "golden.fief"]
        await pilot.press("tab", "enter")  # from the path box to the list; pick the first
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.path == data / "saved" / "golden.fief"


async def test_autoplay_runs_to_the_end_and_stops(make_app, golden: Replay) -> None:
    replay, total = golden, golden.steps
    app = make_app(open_path=GOLDEN)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("g", *str(total - 2), "enter", "minus", "minus", "plus")  # 2 s, then 1 s
        await pilot.pause()
        assert text(screen.query_one("#timeline")) == f"step {total - 2}/{total} · verified · speed 1s"
        # Two steps to go at 1 s each: the timeline is read while it plays, even on a loaded machine.
        await pilot.press("space")
        playing = text(screen.query_one("#timeline"))
        assert re.match(rf"step ({total - 2}|{total - 1}|{total})/{total} · verified · playing", playing), playing
        await wait_until(pilot, lambda: screen.timer is None, "autoplay to stop at the end", tries=500)
        assert_shows(screen, replay, total)
        assert "playing" not in text(screen.query_one("#timeline"))


async def test_play_from_here_sets_up_a_game_at_the_step_shown(make_app, data: Path, golden: Replay) -> None:
    """The new game holds the record's first 20 steps; the seat to move is a person's, the other the AI's."""
    replay = golden
    state = replay.state_at(20)
    assert state.to_move == 0  # the attackers: the human seat of a game played from here
    assert [s.kind for s in replay.header.seats] == ["ai", "ai"]
    app = make_app(open_path=GOLDEN)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("g", "2", "0", "enter", "p")
        await pilot.pause()
        form = app.screen  # the setup form first, prefilled from the record
        assert isinstance(form, SetupScreen) and "after step 20" in text(form.query_one(".pane-title"))
        assert form.query_one("#seed", Input).value == str(replay.header.seed)
        assert [form.query_one(f"#{s}-kind", Select).value for s in ("attackers", "defenders")] == ["human", "ai"]
        await pilot.press("ctrl+s")
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen)
        r = play.runner
        assert r.game.position() == state.position()
        assert r.header.setup == replay.header.setup and r.header.options == replay.header.options
        assert r.header.variant == "gild-9" and r.header.seed == replay.header.seed
        assert [s.value for s in r.history] == [replay.step_record(n).value for n in range(1, 21)]
        assert play.records == screen_records(replay, 20)
        assert [s.kind for s in r.header.seats] == ["human", "ai"]
        assert "attackers (human) your move" in text(play.query_one("#status"))
        assert r.path.parent == data / "autosave"
        assert read_record_file(r.path).steps == 20  # journaled at once

        await pilot.press("q")  # back to the viewer, still at step 20
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.step == 20
        await pilot.press("g", *str(replay.steps), "enter", "p")  # the game is over there
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert [n.message for n in app._notifications if n.severity == "warning"] == [
            "the game is over at this step"]


def long_record(path: Path, moves: int) -> Path:
    """A gild-9 game of about ``moves`` moves, written as scripts/bench_big_record.py writes its big one."""
    spec = importlib.util.spec_from_file_location("bench_big_record", ROOT / "scripts" / "bench_big_record.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.build(path, moves)
    return path


async def test_a_long_record_opens_at_once_and_its_move_list_is_a_window(make_app, tmp_path: Path,
                                                                      monkeypatch) -> None:
    """A record over OPEN_AT_ONCE_BYTES shows its start while it is read; then every step is a
    seek away, and the move list holds the lines around the current step, marked."""
    path = long_record(tmp_path / "long.fief", 2400)
    assert path.stat().st_size > OPEN_AT_ONCE_BYTES
    replay = Replay(read_record_file(path))
    total = replay.steps
    # The reading waits (its slices put off) until the start has been looked at: a fast machine
    # read the whole record before a short pause ended.
    reading = ReplayScreen._read
    held = [True]

    def read(self: ReplayScreen) -> None:
        if held[0]:
            self.set_timer(0.02, self._read)
        else:
            reading(self)

    monkeypatch.setattr(ReplayScreen, "_read", read)
    app = make_app(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.replay is None and text(screen.query_one("#timeline")).startswith("step 0/… · ")
        # Nothing to do until the record is read. The action is called here, not pressed: a key
        # could reach the screen after the last slice was read, and then rightly go to the end.
        screen.action_jump(-1)
        assert screen.step == 0
        held[0] = False
        await wait_until(pilot, lambda: screen.replay is not None, "the record to be read")
        assert_shows(screen, replay, 0)
        for keys, n in ((["end"], total), (["left", "left"], total - 2), (["g", *"1234", "enter"], 1234),
                        (["right"], 1235), (["home"], 0)):
            await pilot.press(*keys)
            await pilot.pause()
            assert_shows(screen, replay, n)
            moves = screen.query_one(MoveList).plain.splitlines()
            assert len(moves) <= WINDOW
            line = max(n - 1, 0) // 2 + 1  # two moves a line
            assert any(m.lstrip().startswith(f"{line}. ") for m in moves), (n, moves[:3])
            if n:
                record = str(next(e for e in replay.events_at(n) if e.kind == "move").data[0])
                assert f"[reverse]{record}[/]" in screen.query_one(MoveList).content
