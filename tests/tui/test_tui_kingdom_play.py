"""Take the Kingdom played by keys (issue 12, the tests): a whole 3-player game against two greedy
AIs to the end, an out-of-turn Deny during an AI's attack, Gold changing hands, the solo allocation
of the three revealed cards, and an SVG snapshot of the end of a game with a Pilot assertion."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import OptionList

from core.engine import Code, Decision
from core.visibility import warning
from core.match import Limit
from notation.reader import read_record_file
from notation.runner import GameSetup, Runner, SeatPlan
from notation.verify import verify
from tui.games.kingdom import text as words
from tui.games.kingdom.board import KingdomBoard
from tui.games.kingdom.panes import KingdomPane
from tui.screens.dialogs import ConfirmDialog
from tui.screens.play import PlayScreen
from tui_support import autosave_path
from tui_support import BOT, HUMAN, game_over_shown, screen_lines, start_game, wait_until

GREEDY = SeatPlan("ai", Limit(level="greedy"))  # the baseline AI: quick, and the same moves every run


def multi(*seats: SeatPlan, seed: int = 1) -> GameSetup:
    return GameSetup("kingdom", "multi-3", seats, seed, {}, {})


def shown(app: Any) -> str:
    return "\n".join(screen_lines(app.export_screenshot()))


def pane_text(screen: PlayScreen, pane: str) -> str:
    """What a pane of the board draws (scrolled out of sight or not), its words joined by single spaces."""
    widget = screen.query_one(KingdomBoard).query_one(pane, KingdomPane)
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(widget.draw(100))
    return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]


def log_text(screen: PlayScreen) -> str:
    """The events log, each line's words joined by single spaces (wrapped lines joined)."""
    return " ".join(" ".join(str(line.text).split()) for line in screen.query_one("#events").lines)


def option_texts(screen: PlayScreen) -> list[str]:
    options = screen.query_one("#options", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def deciding(app: Any, screen: PlayScreen, seat: int = 0) -> bool:
    w = screen.runner.waiting
    return (app.screen is screen and isinstance(w, Decision) and not screen.driver.thinking and screen.driver.frame is None
            and w.seat == seat)


async def next_decision(pilot: Pilot, app: Any, screen: PlayScreen) -> Decision | None:
    """Wait for the person's next decision; None when the game is over."""
    r = screen.runner
    await wait_until(pilot, lambda: deciding(app, screen) or r.result is not None, "a decision", tries=1500)
    return None if r.result is not None else r.waiting


async def choose(pilot: Pilot, screen: PlayScreen, index: int) -> None:
    """`o` focuses the options; Home, Down ``index`` times (End for -1), Enter, and yes when the
    game asks once first (``done`` with plays left); wait till it is played."""
    r = screen.runner
    before = len(r.history)
    code = r.waiting.options[index] if isinstance(r.waiting, Decision) else None
    await pilot.press("o", "end" if index < 0 else "home", *["down"] * max(0, index), "enter")
    if code is not None and warning(r.game, code):
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ConfirmDialog), "the question asked once")
        assert str(pilot.app.screen.query_one("#question").render()) == warning(r.game, code)
        await pilot.press("y")
    await wait_until(pilot, lambda: len(r.history) > before, "the choice to be played")


def index_of(point: Decision, verb: str, default: int = 0) -> int:
    return next((i for i, code in enumerate(point.options) if code[0] == verb), default)


async def play_to_the_end(pilot: Pilot, app: Any, screen: PlayScreen) -> int:
    """The person attacks when it can, else takes the first option; the number of decisions."""
    decisions = 0
    while (point := await next_decision(pilot, app, screen)) is not None:
        await choose(pilot, screen, point.options.index(person_plays(point)))
        decisions += 1
    return decisions


async def attacked(pilot: Pilot, app: Any, key: str, setup: GameSetup) -> tuple[PlayScreen, Decision, int, int, str]:
    """A game against two greedy AIs in which the person says done on each of its turns and
    passes on other windows (and, Nobles chosen, takes Charles, who starts with Gold), until an
    AI attacks it while it holds a ``key`` card: the play screen, the respond decision, the index
    of ``key``'s option, the attacker and its card. ``setup``'s seed is one where that happens
    (found off screen); nothing is put into a hand, so the record stays true."""
    screen = await start_game(app, pilot, setup)
    r = screen.runner
    for _ in range(120):
        point = await next_decision(pilot, app, screen)
        assert point is not None, "the game ended before an AI attacked the person"
        game = r.game
        under_attack = (point.kind == "respond" and game.s.in_play
                        and game.card(game.s.in_play[0]).type in ("attack", "mercenaries"))
        if under_attack and any(code[0] == key for code in point.options):
            attacker, card = game.s.current, game.s.in_play[0]
            assert attacker != 0
            assert f"answer with {game.card(point.options[index_of(point, key)][1]).name}" in shown(app)
            return screen, point, index_of(point, key), attacker, card
        if point.kind == "action" and game.view(0)["turn"] > 0:
            await choose(pilot, screen, index_of(point, "done", -1))
        elif point.kind == "respond":
            await choose(pilot, screen, index_of(point, "pass", -1))
        else:
            charles = next((i for i, c in enumerate(point.options)
                            if c[0] == "noble" and game.card(c[1]).key == "charles"), 0)
            await choose(pilot, screen, charles)
    raise AssertionError("no AI attacked the person")


def verified(screen: PlayScreen) -> None:
    """The game's record, as journaled so far, verifies."""
    report = verify(read_record_file(screen.runner.path))
    assert report.ok, report


async def test_a_whole_three_player_game_by_keys_against_two_greedy_ais(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        r = screen.runner
        decisions = await play_to_the_end(pilot, app, screen)
        await wait_until(pilot, lambda: game_over_shown(app), "the game-over dialog")
        dialog = app.screen
        title = str(dialog.query_one("#result-title").render())
        winner = r.game.seats[r.result.winners[0]]
        assert winner in title and "won" in title
        assert "defence points" in str(dialog.query_one("#result-scores").render())
        assert decisions >= 5
        path = r.path
    report = verify(read_record_file(path))
    assert report.ok and report.result is not None
    assert report.result.winners == r.result.winners


async def test_an_out_of_turn_deny_blocks_an_ais_attack(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen, point, deny, attacker, card = await attacked(pilot, app, "deny", multi(HUMAN, GREEDY, GREEDY, seed=4))
        game = screen.runner.game
        assert any(t.startswith("answer with Deny") for t in option_texts(screen))
        await choose(pilot, screen, deny)
        assert card in game.s.discard
        assert f"{game.name(0)} plays Deny out of turn and blocks {game.label(card)} [kingdom notes.deny]" \
            in log_text(screen)
        verified(screen)


async def test_gold_answers_an_attack_and_changes_hands(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        setup = GameSetup("kingdom", "multi-3", (HUMAN, GREEDY, GREEDY), 11, {"nobles": "choose"}, {})
        screen, point, gold_at, attacker, card = await attacked(pilot, app, "gold", setup)
        game = screen.runner.game
        gold = point.options[gold_at][1]
        # The attacker holds nothing to block the Gold with (KD-13): the Gold is not countered.
        assert not game.s.realms[attacker].mercy
        assert not any(game.card(c).key in ("deny", "mercy") for c in game.s.realms[attacker].hand)
        assert any(t.startswith("answer with Gold") for t in option_texts(screen))
        await choose(pilot, screen, gold_at)
        await wait_until(pilot, lambda: card in game.s.realms[0].hand, "the card bought into the hand")
        assert gold in game.s.realms[attacker].hand and gold not in game.s.realms[0].hand
        await next_decision(pilot, app, screen)
        assert words.named(game, card) in pane_text(screen, "#hand")
        log = log_text(screen)
        assert f"{game.name(0)} plays Gold out of turn to buy {game.label(card)} [kingdom notes.gold]" in log
        assert f"Gold goes to {game.name(attacker)}" in log
        verified(screen)


async def test_the_solo_allocation_keeps_one_card_and_gives_one_to_enemy_1(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, GameSetup("kingdom", "solo", (HUMAN, BOT, BOT), 1, {}, {}))
        r = screen.runner
        point = await next_decision(pilot, app, screen)
        game = r.game
        revealed = list(game.view(0)["revealed"])
        assert len(revealed) == 3 and point.options[0][0] == "take"
        round_pane = pane_text(screen, "#round")
        for cid in revealed:  # by name, never by id
            assert words.named(game, cid) in round_pane and cid not in round_pane
        kept = point.options[0][1]
        assert option_texts(screen)[0] == f"keep {game.label(kept)}"
        await choose(pilot, screen, 0)
        point = await next_decision(pilot, app, screen)
        assert point is not None and point.options[0][0] == "give" and point.options[0][2] == 1
        given = point.options[-1][1]
        assert option_texts(screen)[-1] == f"give Enemy 1 {game.label(given)}"
        await choose(pilot, screen, -1)
        third = next(c for c in revealed if c not in (kept, given))
        log = log_text(screen)
        for cid, whom in ((kept, 0), (given, 1), (third, 2)):
            assert f"{game.label(cid)} goes to {game.name(whom)} [kingdom solo]" in log, (cid, whom)


def person_plays(point: Decision) -> Code:
    """What play_to_the_end chooses: an attack when there is one, else the first option."""
    return point.options[index_of(point, "attack")]


def near_the_end(data: Path) -> Path:
    """An unfinished record of a 3-player game against two greedy AIs, played (off screen, as
    play_to_the_end plays) up to the person's last decision."""
    def run(stop: int | None, path: Path | None) -> int:
        runner = Runner.start(multi(HUMAN, GREEDY, GREEDY), path)
        decided = 0
        while runner.result is None:
            point = runner.waiting
            if isinstance(point, Decision) and point.seat == 0:
                if decided == stop:
                    break
                runner.decide(person_plays(point))
                decided += 1
            else:
                runner.step()
        runner.close()
        return decided

    path = autosave_path(data, "kingdom", "multi-3")
    run(run(None, None) - 1, path)
    return path


def test_kingdom_game_over_snapshot(snap_compare, make_app, data, monkeypatch) -> None:
    """The last decision of a game (resumed from its autosave) made by keys: the game-over
    dialog over the table."""
    monkeypatch.setattr("tui.session.utc_stamp", lambda: "20260101-000000")  # the name the dialog offers
    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen), "the resumed game")
        screen = app.screen
        assert await play_to_the_end(pilot, app, screen) == 1
        await wait_until(pilot, lambda: game_over_shown(app), "the game-over dialog")
        # Settled before the picture: the log's last lines scrolled in, the dialog laid out.
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        await pilot.pause()
        r = screen.runner
        text = shown(app)
        assert "defence points" in text and f"{r.game.seats[r.result.winners[0]]} won" in text
        assert "Castle +" in text or "Village +" in text  # the table under the dialog
        checked.append(True)

    assert snap_compare(make_app(resume_path=near_the_end(data)), terminal_size=(120, 40), run_before=run_before)
    assert checked
