"""The app shows a record's text and a game's names visibly outside the replay viewer (issue 9):
the Continue list, the open dialog, the play screen's status, log and moves, the game-over dialog;
and a game's own data, a Taifa map's and decks' names and texts, on every pane (issue 26)."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import OptionList

import plugin_game
from core import games as core_games
from core.engine import Decision, Result
from notation.reader import read_record_file
from notation.runner import GameSetup, SeatPlan
from notation.writer import encode_game
from tui.games.taifa.board import TaifaBoard
from tui.screens.dialogs import GameOverDialog, OpenDialog
from tui.screens.play import PlayScreen
from tui_support import autosave_path
from tui_support import BOT, GOLDEN, HUMAN, open_continue, screen_lines, text, wait_until

STEERING = ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")
EVIL = "Ev\x1b[2Jil\nok: 34 records\u202e\x07"
SHOWN = "Ev\\x1b[2Jil\\nok: 34 records\\u202e\\x07"


def steers(shown: str) -> list[str]:
    return [ch for ch in shown if ch != "\n" and unicodedata.category(ch) in STEERING]


def _options(widget: OptionList) -> list[str]:
    return [str(widget.get_option_at_index(i).prompt) for i in range(widget.option_count)]


async def test_continue_lists_a_records_names_visibly(make_app, data: Path) -> None:
    rec = read_record_file(GOLDEN)
    cut = rec.records[: 20]  # an unfinished game: no result
    seats = tuple(replace(s, name=EVIL) for s in rec.header.seats)
    path = autosave_path(data, "tafl", "gild-9")
    path.write_bytes(encode_game(replace(rec.header, seats=seats), cut, reseal=True))
    app = make_app()
    async with app.run_test(size=(100, 24)) as pilot:
        screen = await open_continue(pilot)
        shown = _options(screen.query_one("#unfinished", OptionList))
        assert len(shown) == 1 and SHOWN in shown[0] and not steers(shown[0])


async def test_the_open_dialog_shows_file_names_visibly(make_app, data: Path) -> None:
    saved = data / "saved"
    saved.mkdir(parents=True)
    (saved / "x\x1b[2J[b]y.fief").write_bytes(GOLDEN.read_bytes())
    app = make_app()
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OpenDialog)
        shown = _options(app.screen.query_one("#records", OptionList))
        assert shown == [str(saved / "x\\x1b[2J[b]y.fief")]  # written out, and not read as markup


async def test_the_game_over_dialog_shows_the_result_visibly(make_app, tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        result = Result((0,), "won\x1b[2J\nforged", "rule\x07", (3, 1))
        app.push_screen(GameOverDialog(result, (EVIL, "B"), tmp_path / "r.fief"))
        await pilot.pause()
        dialog = app.screen
        for widget in ("#result-title", "#result-reason", "#result-scores"):
            assert not steers(text(dialog.query_one(widget)))
        assert text(dialog.query_one("#result-reason")) == "won\\x1b[2J\\nforged [rule\\x07]"
        assert text(dialog.query_one("#result-scores")) == f"scores: {SHOWN} 3, B 1"


async def test_the_play_screen_shows_names_and_events_visibly(make_app, hoard,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    names = (EVIL, "Sil\u202ever", "Dragon")
    monkeypatch.setattr(plugin_game, "SEATS", names)
    monkeypatch.setattr(plugin_game.Hoard, "seats", names)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_game(GameSetup("hoard", "short", (SeatPlan("human"), SeatPlan("random"), SeatPlan("bot")), 2))
        await pilot.pause()
        play = app.screen
        assert isinstance(play, PlayScreen)
        r = play.runner
        await wait_until(pilot, lambda: r.waiting is not None, "Gold's turn")
        await pilot.press("enter")  # take
        # The status names the seat to move: Gold's name is in it again once its turn comes round,
        # so that (and the steps) is what is waited for, read in the same look as it is asserted.
        seen = {"status": ""}

        def gold_named_again() -> bool:
            seen["status"] = text(play.query_one("#status"))
            return len(r.history) > 3 and SHOWN in seen["status"]

        await wait_until(pilot, gold_named_again, "the next steps, then the status naming Gold again")
        status = seen["status"]
        log = "".join(str(line.text).rstrip() for line in play.query_one("#events").lines)  # wrapped lines joined
        assert not steers(status) and not steers(log)
        assert "".join(f"{SHOWN} takes".split()) in "".join(log.split()) and SHOWN in status
        assert not [m for m in play.records if steers(m)]


@pytest.mark.parametrize(("field", "value", "words"), [("#seed", "9" * 5000, "the seed is a whole number"),
                                                       ("#opt-quiet_moves", "9" * 5000, "quiet_moves"),
                                                       ("#opt-quiet_moves", "²", "quiet_moves")])
async def test_the_new_game_form_refuses_thousands_of_digits_in_one_line(make_app, field: str, value: str,
                                                                           words: str) -> None:
    from textual.widgets import Input

    from tui.screens.setup import SetupScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen) and app.screen.query(field),
                         "the form")
        app.screen.query_one(field, Input).value = value
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)  # not started
        shown = text(app.screen.query_one("#setup-error"))
        assert words in shown and "\n" not in shown and len(shown) < 120, shown


# -- a game's own data (issue 26) --------------------------------------------------------------------

PWNED = "\x1b]0;PWNED\x07\x1b[2J\u202e"  # the terminal's title set, the screen cleared, the text reversed
PWNED_SHOWN = "\\x1b]0;PWNED\\x07\\x1b[2J\\u202e"


def _hostile_taifa_data() -> dict[str, object]:
    """The packaged map and decks with every area's name, every card's text and the name of every card
    the rules do not name ending in PWNED: data no loader would pass (they refuse such names), the way a
    game holds it when it was built in code, or read by a loader that checks less."""
    from core.taifa.cards import NAMED, Deck
    from core.taifa.data import packaged_cards, packaged_map

    m, decks = packaged_map(), packaged_cards()
    areas = tuple(replace(a, name=a.name + PWNED) for a in m.areas)

    def deck(d: Deck) -> Deck:
        return Deck(d.name, tuple(replace(c, name=c.name if c.name in NAMED else c.name + PWNED, text=c.text + PWNED)
                                  for c in d))

    return {"map": replace(m, areas=areas), "cards": replace(decks, christian=deck(decks.christian),
                                                             muslim=deck(decks.muslim))}


async def test_a_taifa_games_names_from_its_data_reach_the_screen_written_out(make_app) -> None:
    """Issue 26: a map naming an area ``Evil`` + ESC ] 0 ... BEL (the terminal's title) + ESC [ 2 J (a cleared
    screen) + U+202E set the title and cleared the screen from the app. The loaders refuse such names now;
    a game holding them anyway (built in code here) is drawn with every one written out: the map (the compact
    list and the details, short and in full), the hand, the fight, the options, the moves and the log. The
    whole screen is checked, as Rich exports it: no character that steers a terminal, in any widget."""
    games = core_games.lookup({"taifa": _hostile_taifa_data()})
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_game(GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, 3), games=games)
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen), "the game")
        play = app.screen
        r = play.runner
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and not play.driver.thinking, "Castile's action")
        assert r.waiting.options[0][0] == "attack"
        await pilot.press("o", "home", "enter")  # Castile attacks its first target
        await wait_until(pilot, lambda: r.game.view(0)["fight"] is not None or r.game.view(0)["last_combat"],
                         "the fight")
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and not play.driver.thinking, "Castile's next choice")
        await pilot.pause()
        board = play.query_one(TaifaBoard)
        # 80x24: the compact map's list, the hand, the fight; wide: the map with the area's details, the fight and the hand
        for size, panes in (((80, 24), ("map", "hand", "combat")), ((160, 50), ("combat",))):
            await pilot.resize_terminal(*size)
            for pane in panes:
                board.action_pane(pane)
                await pilot.pause()
                svg = app.export_screenshot()
                assert not steers(svg), (size, pane)
                assert "\\x1b]0;PWN" in "\n".join(screen_lines(svg)), (size, pane)  # written out, not left out
        log = "".join(str(line.text).rstrip() for line in play.query_one("#events").lines)
        assert PWNED_SHOWN in "".join(log.split()) and not steers(log)
