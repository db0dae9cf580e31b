"""The replay viewer's review (issue 31): the graph, the marks, the better move on the board, a note
kept in the record, a background analysis, the variations beside a record."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from notation.analysis import analyse
from notation.annex import Analysis, Judged, set_analysis
from notation.reader import read_record_file
from notation.replay import Replay
from notation.verify import verify
from tui.games.tafl.board import TaflBoard
from notation.variations import parent_of
from tui.screens.dialogs import NoteDialog, PickDialog
from tui.screens.play import PlayScreen
from tui.screens.setup import SetupScreen
from tui.screens.replay import ReplayScreen
from tui.widgets.eval_graph import EvalGraph
from tui.widgets.side_panes import MoveList
from tui_support import GOLDEN, wait_until

SECONDS = 0.01  # the least work: the analysis's figures are not what these tests look at


@pytest.fixture(scope="module")
def analysed_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The golden Tafl record with a (quick) analysis of both seats in its annex."""
    path = tmp_path_factory.mktemp("review") / "game.fief"
    shutil.copy(GOLDEN, path)
    analysis, whole = analyse(read_record_file(path), seconds=SECONDS, seats=[0, 1], processes=1)
    assert whole and analysis.decisions
    set_analysis(path, analysis)
    return path


async def opened(pilot, app) -> ReplayScreen:
    """The viewer, once it has read its record."""
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.replay is not None,
                     "the viewer opens its record")
    return app.screen


def events_text(screen: ReplayScreen) -> str:
    return "\n".join(line.text for line in screen.query_one("#events").lines)


async def test_an_analysed_record_shows_its_graph_marks_and_better_moves(make_app, analysed_record: Path,
                                                                         tmp_path: Path) -> None:
    path = tmp_path / "game.fief"
    shutil.copy(analysed_record, path)
    analysis = read_record_file(path).annex.analysis
    app = make_app(open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.analysis is not None,
                         "the viewer reads the record's analysis")
        screen = app.screen
        graph = screen.query_one(EvalGraph)
        assert graph.has_data and not graph.has_class("empty")
        # Every mark of the analysis is beside its move in the list, as lichess's ?!, ? and ??.
        moves = screen.query_one(MoveList).plain
        signs = re.findall(r" (\?\?|\?!|\?)(?= |$)", moves, flags=re.M)
        words = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}
        assert sorted(words[s] for s in signs) == sorted(j.mark for j in analysis.decisions if j.mark)
        assert signs, "the golden game has a mistake in it (its analysis marks some)"
        # ] and [ step from marked move to marked move.
        marked_steps = sorted(j.step for j in analysis.decisions if j.mark)
        await pilot.press("right_square_bracket")
        await wait_until(pilot, lambda: screen.step == marked_steps[0], "] goes to the first marked move")
        await pilot.press("end", "left_square_bracket")
        await wait_until(pilot, lambda: screen.step == marked_steps[-1], "[ goes back to the last marked move")
        # A step where the AI preferred another move: the review names it and the board marks it.
        other = next(j for j in analysis.decisions if tuple(j.best) != tuple(j.played))
        await pilot.press("g", *str(other.step), "enter")
        await wait_until(pilot, lambda: screen.step == other.step, "the viewer goes to the step")
        board = screen.query_one(TaflBoard)
        names = board.view.names
        assert board.better == (names.index(other.best[0]), names.index(other.best[1]))
        assert "review: " in events_text(screen)
        assert graph.current == other.step
        # A click on the graph goes to the step under it.
        target = analysis.decisions[len(analysis.decisions) // 2].step
        x = graph.column_of(target)
        await pilot.click(EvalGraph, offset=(x, graph.size.height - 2))
        await wait_until(pilot, lambda: screen.step == graph.step_at(x), "the click goes to its step")
        await wait_until(pilot, lambda: graph.current == screen.step, "the graph marks the step shown")


@pytest.fixture
def golden_copy(tmp_path: Path) -> Path:
    """The golden Tafl record, copied for a test to write notes or an analysis into."""
    path = tmp_path / "game.fief"
    shutil.copy(GOLDEN, path)
    return path


async def test_a_note_is_kept_in_the_record_which_still_verifies(make_app, golden_copy: Path) -> None:
    path = golden_copy
    app = make_app(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, app)
        await pilot.press("right", "right", "right", "w")
        await wait_until(pilot, lambda: isinstance(app.screen, NoteDialog), "the note dialog opens")
        await pilot.press(*"the king should run [b]now[/b]", "enter")
        await wait_until(pilot, lambda: app.screen is screen and screen.notes, "the note is kept")
        assert "note: the king should run [b]now[/b]" in events_text(screen)  # a person's text, never markup
        assert "✎" in screen.query_one(MoveList).plain  # the move list shows where the notes are
    recording = read_record_file(path)
    assert [(n.step, n.text) for n in recording.annex.notes] == [(3, "the king should run [b]now[/b]")]
    assert verify(recording).ok
    app = make_app(open_path=path)  # reopened: the note is there
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, app)
        await pilot.press("right", "right", "right")
        assert "note: the king should run" in events_text(screen)


async def test_a_analyses_in_the_background_and_keeps_the_analysis(make_app, golden_copy: Path) -> None:
    path = golden_copy
    app = make_app(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, app)
        assert screen.query_one(EvalGraph).has_class("empty")
        screen.analysis_seconds = SECONDS
        await pilot.press("a")
        await wait_until(pilot, lambda: screen.analysis is not None and screen.analysing is None,
                         "the analysis ends", tries=3000)
        assert screen.query_one(EvalGraph).has_data
        await pilot.press("right")
        assert "review: " in events_text(screen)
    kept = read_record_file(path).annex.analysis
    assert kept is not None and kept.decisions == screen.analysis.decisions


async def test_play_from_here_makes_a_variation_the_viewer_lists_and_opens(make_app, data: Path,
                                                                         tmp_path: Path) -> None:
    path = tmp_path / "study.fief"
    shutil.copy(GOLDEN, path)
    app = make_app(open_path=path)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await opened(pilot, app)
        await pilot.press("b")  # none yet
        await wait_until(pilot, lambda: any("no variations" in n.message for n in app._notifications),
                         "the viewer says there are none")
        await pilot.press("g", "1", "0", "enter")
        await wait_until(pilot, lambda: screen.step == 10, "the viewer goes to step 10")
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup form opens")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen), "the new game starts")
        autosaves = list((data / "autosave").glob("*.fief"))
        assert len(autosaves) == 1
        assert read_record_file(autosaves[0]).header.parent == parent_of(read_record_file(path), 10)
        app.open_record(path)
        viewer = await opened(pilot, app)
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, PickDialog), "the variations are listed")
        assert app.screen.lines == [f"{autosaves[0].name}: from step 10, 10 steps, unfinished"]
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen is not viewer
                         and app.screen.replay is not None, "the variation opens in the viewer")
        assert app.screen.path == autosaves[0]


async def test_a_better_choice_is_shown_only_to_the_full_table_and_the_decider(make_app, tmp_path: Path) -> None:
    """In a game that hides cards a judged step's better choice may name the decider's card: another
    seat's view of the record leaves the review out."""
    path = tmp_path / "kingdom.fief"
    shutil.copy(GOLDEN.parent / "kingdom-multi-3-1-0001.fief", path)
    replay = Replay(read_record_file(path))
    info = next(i for i in replay.step_infos() if i.kind == "decision" and len(i.before.options) > 1)
    other = next(o for o in info.before.options if o != info.value)
    judged = Judged(step=info.step, seat=info.seat, played=tuple(info.value), best=tuple(other),
                    chances=(400, 300, 300), best_chance=600, played_chance=400, mark="blunder", gain=150)
    set_analysis(path, Analysis(by="test", unit="rollouts", work=1, seed=0, decisions=(judged,)))
    app = make_app(open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        await pilot.press("g", *str(info.step), "enter")
        await wait_until(pilot, lambda: screen.step == info.step, "the viewer goes to the judged step")
        assert "better: " in events_text(screen)  # the full table: a finished game opens on it
        seen = {}
        for viewer in (info.seat, (info.seat + 1) % 3, None):
            screen.set_view(viewer)
            await pilot.pause()
            seen[viewer] = "better: " in events_text(screen)
        assert seen == {info.seat: True, (info.seat + 1) % 3: False, None: False}


async def test_a_damaged_annex_is_said_and_the_record_still_opens(make_app, analysed_record: Path,
                                                                  tmp_path: Path) -> None:
    path = tmp_path / "game.fief"
    path.write_bytes(analysed_record.read_bytes()[:-3])  # cut inside its analysis
    app = make_app(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, app)
        assert screen.analysis is None and screen.report.ok
        await wait_until(pilot, lambda: any("notes and analysis not read" in n.message for n in app._notifications),
                         "the viewer says the annex was not read")
