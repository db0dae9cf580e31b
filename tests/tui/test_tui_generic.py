"""The app plays games it has never heard of: Hoard (tests/plugin_game.py), registered in core
alone, with no tui plugin: the setup form, the options pane, the text view, the replay viewer.
And the generic modules import no game."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from textual.widgets import OptionList, Select, Static

from core.engine import TABLE, Decision
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from tui.games import plugin, position_text
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen
from tui.screens.setup import SetupScreen
from tui_support import autosave_path
from tui.widgets.options import OptionsPane
from tui_support import ROOT, game_over_shown, text, wait_until

GAME_PACKAGES = ("core.tafl", "core.taifa", "tui.games.tafl", "tui.games.taifa")


async def test_hoard_plays_to_its_end_by_keys_through_the_options_pane(make_app, data: Path, hoard) -> None:
    """Gold (a person) against Silver (the AI) and the Dragon (the rulebook bot), all by keys."""
    assert plugin("hoard").board == "" and plugin("hoard").text == ""  # nothing in tui knows it
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        await pilot.press("shift+tab")  # from the variant up to the game
        game = setup.query_one("#game", Select)
        assert app.focused is game
        await pilot.press("enter", "end", "enter")  # Hoard is the last game registered
        await wait_until(pilot, lambda: setup.query("#gold-kind"), "the form to show Hoard's seats")
        assert game.value == "hoard"
        assert setup.query_one("#gold-kind", Select).value == "human"
        assert setup.query_one("#silver-kind", Select).value == "ai"
        assert setup.query_one("#dragon-kind", Select).value == "bot"
        assert setup.query_one("#opt-turns").value == "6"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen)
        r = play.runner
        assert [s.kind for s in r.header.seats] == ["human", "ai", "bot"]
        options = play.query_one("#options", OptionsPane)
        assert app.focused is options  # no board: the options pane has the keys

        decisions = 0
        while True:
            await wait_until(pilot, lambda: isinstance(r.waiting, Decision) or r.result is not None,
                             "Gold's turn or the end")
            if r.result is not None:
                break
            shown = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            assert shown == [r.game.describe(c) for c in r.waiting.options]
            assert text(play.query_one("#options-title")) == r.waiting.prompt
            assert "Gold (human) your move" in text(play.query_one("#status"))
            assert text(play.query_one("#position")) == position_text(r.game, 0)
            before = len(r.history)
            await pilot.press("enter")  # the first option: take while there are cards, then roll
            decisions += 1
            await wait_until(pilot, lambda: len(r.history) > before, "the choice to be played")
            assert r.history[before].kind == "decision" and r.history[before].seat == 0
        await wait_until(pilot, lambda: game_over_shown(app), "the game-over dialog")
        dialog = app.screen
        assert decisions == 6
        result = r.result
        title = "Draw" if not result.winners else f"{('Gold', 'Silver')[result.winners[0]]} won"
        assert text(dialog.query_one("#result-title")) == title
        assert text(dialog.query_one("#result-reason")) == f"{result.reason} [hoard 4]"
        assert text(dialog.query_one("#result-scores")).startswith("scores: Gold ")
        log = " ".join(" ".join(str(line.text).split()) for line in play.query_one("#events").lines)
        assert "The deck is shuffled [hoard 1]" in log and "The Dragon rolls" in log
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is play
        path = r.path

    rec = read_record_file(path)
    assert rec.result is not None and verify(rec).ok
    kinds = {s.kind for s in r.history}
    assert kinds == {"decision", "chance"} and sum(s.seat == 1 for s in r.history) == 6  # Silver, the AI


async def test_a_hoard_record_replays_as_text_and_plays_on_from_a_step(make_app, data: Path, hoard) -> None:
    """The replay viewer draws a game with no board as its text view; "play from here" gives the
    next deciding seat to a person and keeps a random seat random."""
    path = autosave_path(data, "hoard", "short")
    runner = Runner.start(GameSetup("hoard", "short", (SeatPlan("random"), SeatPlan("random"), SeatPlan("bot")),
                                    seed=4), path)
    runner.run()
    runner.close()
    app = make_app(open_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("g", "4", "enter")
        await pilot.pause()
        state = screen.replay.state_at(4)
        # A finished game with hidden gems opens on the full table: every hoard and the deck's order.
        assert screen.viewer == TABLE
        assert text(screen.query_one("#position", Static)) == position_text(state, TABLE)
        seat = next(screen.replay.step_record(n).seat for n in range(5, screen.replay.steps + 1)
                    if screen.replay.step_record(n).kind == "decision")
        await pilot.press("p")  # the setup form, prefilled, then Start
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen)
        kinds = [s.kind for s in play.runner.header.seats]
        assert kinds[seat] == "human" and kinds[1 - seat] == "random" and kinds[2] == "bot"
        assert [s.value for s in play.runner.history[:4]] == [screen.replay.step_record(n).value
                                                              for n in range(1, 5)]
        await wait_until(pilot, lambda: isinstance(play.runner.waiting, Decision), "the person's turn")
        assert play.runner.waiting.seat == seat
        assert play.runner.path.parent == data / "autosave"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def test_the_app_screens_and_widgets_import_no_game() -> None:
    generic = [ROOT / "tui" / "app.py", ROOT / "tui" / "session.py",
               *(ROOT / "tui" / "screens").glob("*.py"), *(ROOT / "tui" / "widgets").glob("*.py")]
    bad = {f"{p.relative_to(ROOT)}: {m}" for p in generic for m in imported_modules(p)
           if m.startswith(GAME_PACKAGES)}
    assert not bad


def test_starting_the_app_imports_no_game_and_no_records() -> None:
    """The home screen's imports: no game package, nothing of notation (the runner, the reader),
    no Markdown: each is imported when first used (docs/performance.md)."""
    code = "import sys, tui.app; print(','.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=ROOT).stdout.strip().split(",")
    assert not [m for m in loaded if m.startswith(GAME_PACKAGES + ("notation", "markdown_it"))]


async def test_the_options_pane_lists_nothing_while_nobody_here_chooses(make_app, hoard) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seats = (SeatPlan("random"), SeatPlan("random"), SeatPlan("bot"))
        app.start_game(GameSetup("hoard", "short", seats, seed=2))
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen)
        options = play.query_one("#options", OptionList)
        assert options.option_count == 1 and options.get_option_at_index(0).disabled
        assert "speed 0.5s" in text(play.query_one("#status"))  # a game to watch goes at a watching pace
        await pilot.press("minus", "minus", "minus")  # 2 s a step: slow enough to leave mid-game
        await pilot.press("q")
        await pilot.pause()
        assert not isinstance(app.screen, PlayScreen)
