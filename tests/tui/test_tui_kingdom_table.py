"""Take the Kingdom at the table (issue 12, the board): the kingdoms drawn as lines of defence,
the person's hand with each card's text, the solo round, hot-seat privacy, the compact tabs at
80x24, the replay viewer; and SVG snapshots of the table, each with a Pilot assertion beside it."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from core import games as core_games
from core.chance import draw
from core.engine import TABLE, Chance, Decision
from core.kingdom.lines import HIDDEN_TRAP
from core.match import Limit
from core.rng import SplitMix64
from notation.runner import GameSetup, SeatPlan
from tui.games.kingdom import text as words
from tui.games.kingdom.board import KingdomBoard, context_pane
from tui.games.kingdom.panes import KingdomPane
from tui.screens.dialogs import HandOverScreen
from tui.screens.play import PlayScreen
from tui.screens.replay import ReplayScreen
from tui_support import BOT, HUMAN, REPLAYS, screen_lines, start_game, wait_until

GREEDY = SeatPlan("ai", Limit(level="greedy"))  # the baseline AI: quick, and the same moves every run
MULTI_RECORD = REPLAYS / "kingdom-multi-3-1-0001.fief"
SOLO_RECORD = REPLAYS / "kingdom-solo-1-0001.fief"


def multi(*seats: SeatPlan, seed: int = 1) -> GameSetup:
    return GameSetup("kingdom", "multi-3", seats, seed, {}, {})


def solo(seed: int = 1) -> GameSetup:
    return GameSetup("kingdom", "solo", (HUMAN, BOT, BOT), seed, {}, {})


def pane_text(pane: KingdomPane) -> str:
    """What a pane draws, as plain text at its width (all of it, scrolled out of sight or not)."""
    console = Console(file=io.StringIO(), width=max(pane.size.width, 20), color_system=None)
    console.print(pane.draw(pane.size.width))
    return console.file.getvalue()  # type: ignore[attr-defined]


def shown(app: Any) -> str:
    return "\n".join(screen_lines(app.export_screenshot()))


def deciding(app: Any, screen: PlayScreen, seat: int | None = None) -> bool:
    w = screen.runner.waiting
    return (app.screen is screen and isinstance(w, Decision) and not screen.driver.thinking and screen.driver.frame is None
            and (seat is None or w.seat == seat))


async def play_until(pilot: Pilot, app: Any, screen: PlayScreen, done: Any, seat: int = 0, limit: int = 80) -> None:
    """The person at ``seat`` takes the first option until ``done(game)`` holds at their decision."""
    r = screen.runner
    for _ in range(limit):
        await wait_until(pilot, lambda: deciding(app, screen, seat) or r.result is not None, "a decision", tries=1000)
        if r.result is not None or done(r.game):
            return
        before = len(r.history)
        await pilot.press("o", "home", "enter")
        await wait_until(pilot, lambda: len(r.history) > before, "the choice to be played")
    raise AssertionError("the position wanted never came")


def in_play(game: Any) -> bool:
    """After the draft, the person's own action with cards in hand."""
    v, point = game.view(0), game.point()
    return v["turn"] > 0 and point.kind == "action" and bool(v["realms"][0]["hand"])


def check_lines_of_defence(game: Any, board: KingdomBoard) -> None:
    drawn = pane_text(board.query_one("#kingdoms", KingdomPane))
    v = game.view(0)
    for k, realm in enumerate(v["realms"]):
        assert f" {k + 1}  {game.name(k)}" in drawn
        assert f"{realm['score']} defence" in drawn
        ids = words.twins(game, realm)  # a card's id only where another of its kingdom reads the same
        for i, slot in enumerate(realm["slots"]):
            title = "Castle" if i == 0 else game.card(slot["card"]).name
            assert f"{title} +" in drawn and (f"[{slot['card']}]" in drawn) == (slot["card"] in ids)
            for cid in slot["defences"]:
                assert f"{words.named(game, cid)} [{cid}]" in drawn if cid in ids else \
                    words.named(game, cid) in drawn and f"[{cid}]" not in drawn


async def test_the_multiplayer_table_shows_every_kingdom_and_the_hand_after_the_draft(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        board = screen.query_one(KingdomBoard)
        await play_until(pilot, app, screen, in_play)
        game = screen.runner.game
        check_lines_of_defence(game, board)
        screen_text = shown(app)
        assert "Castle +3" in screen_text and "castle-1" not in screen_text and "Your hand:" in screen_text
        hand = pane_text(board.query_one("#hand", KingdomPane))
        assert "play" in hand and "left this turn" in hand
        for cid in game.view(0)["realms"][0]["hand"]:  # by name, never by id
            assert words.named(game, cid) in hand and cid not in hand
            assert " ".join(game.card(cid).text.split()[:5]) in " ".join(hand.split())
        assert not board.query_one("#pane-tabs").display  # the tabs only in compact


async def test_the_solo_table_shows_the_revealed_cards_and_comes_forward_for_the_allocation(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, solo())
        await wait_until(pilot, lambda: deciding(app, screen, 0), "the allocation")
        game = screen.runner.game
        board = screen.query_one(KingdomBoard)
        assert screen.runner.waiting.options[0][0] == "take"
        assert board.shown == "round" and board.query_one("#round-scroll").region.height > 0
        drawn = " ".join(pane_text(board.query_one("#round", KingdomPane)).split())
        revealed = game.view(0)["revealed"]
        assert len(revealed) == 3
        for cid in revealed:
            assert words.named(game, cid) in drawn and cid not in drawn
            assert " ".join(game.card(cid).text.split()[:4]) in drawn
        assert "Revealed" in shown(app)


async def test_hot_seat_never_shows_another_seats_hand_or_a_face_down_trap(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, HUMAN, GREEDY))
        r = screen.runner
        for _ in range(200):  # both people take the first option (past each hand-over) until a hand is dealt
            await wait_until(pilot, lambda: isinstance(app.screen, HandOverScreen) or deciding(app, screen)
                             or r.result is not None, "a decision", tries=1000)
            if isinstance(app.screen, HandOverScreen):
                await pilot.press("enter")
                await pilot.pause()
                continue
            if r.game.view(None)["turn"] > 0 and r.waiting.seat == 0 and r.game.view(0)["realms"][1]["hand_count"]:
                break
            before = len(r.history)
            await pilot.press("o", "home", "enter")
            await wait_until(pilot, lambda: len(r.history) > before, "the choice to be played")
        game = r.game
        assert screen.driver.viewer == 0
        # A Trap under seat 1's Castle, taken from the deck (set on the game object the app holds).
        trap, own = [c for c in game.s.deck if game.card(c).type == "trap"][:2]
        game.s.deck.remove(trap)
        game.s.deck.remove(own)
        game.s.realms[1].slots[0].trap = trap
        game.s.realms[0].slots[0].trap = own  # and one under the person's own Castle: face up to them
        screen.refresh_all()
        await pilot.pause()
        assert game.view(0)["realms"][1]["slots"][0]["trap"] == HIDDEN_TRAP
        board = screen.query_one(KingdomBoard)
        drawn = pane_text(board.query_one("#kingdoms", KingdomPane)) + shown(app)
        assert "Trap ?" in drawn and trap not in drawn
        for cid in game.s.realms[1].hand:
            assert f"[{cid}]" not in drawn and f"({cid})" not in drawn
        assert f"{len(game.s.realms[1].hand)} card" in drawn  # only the count
        kind = "real" if game.trap_real(0, own) else "decoy"  # the person's own, face up to them
        assert f"Trap ({kind})" in drawn and own not in drawn


def test_the_pane_a_decision_brings_forward() -> None:
    """The hand for an action, the round for the solo allocation, the kingdoms for a target."""
    assert context_pane(None) is None
    assert context_pane(Decision(0, "play a card", (("attack", "soldiers-1"), ("done",)), "action")) == "hand"
    assert context_pane(Decision(0, "which card is yours?", (("take", "walls-1"),), "choose")) == "round"
    assert context_pane(Decision(0, "where?", (("at", 1, "castle-2"),), "target")) == "kingdoms"
    assert context_pane(Decision(0, "build", (("draft", "walls-1", "castle-1"),), "action")) == "kingdoms"


async def test_the_draft_is_played_on_screen_with_the_kingdoms_and_the_pool_in_view(make_app) -> None:
    """The draft by keys at 80x24: each of the person's picks shows the kingdoms and the pool
    (the tab comes forward), and it ends with kingdoms of at most 12 points (KD-4)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        board, r = screen.query_one(KingdomBoard), screen.runner
        picks = 0
        while True:
            await wait_until(pilot, lambda: deciding(app, screen, 0), "the person's decision", tries=1000)
            point = r.waiting
            if point.options[0][0] == "noble":  # chosen first (KD-2): Charles, by keys
                at = next(i for i, code in enumerate(point.options) if r.game.card(code[1]).key == "charles")
                before = len(r.history)
                await pilot.press("o", "home", *["down"] * at, "enter")
                await wait_until(pilot, lambda: len(r.history) > before, "the Noble to be chosen")
                continue
            if point.options[0][0] != "draft":
                break
            assert board.compact and board.shown == "kingdoms"
            pool = pane_text(board.query_one("#kingdoms", KingdomPane))
            assert "draft pool:" in pool and "Castle +3" in pool and "castle-1" not in pool
            await wait_until(pilot, lambda: "draft pool:" in shown(app), "the pool on screen")
            card = r.game.card(point.options[0][1])
            before = len(r.history)
            await pilot.press("o", "home", "enter")
            await wait_until(pilot, lambda: len(r.history) > before, "the pick to be played")
            picks += 1
            assert f"Player 1 (Charles) takes {card.name}" in " ".join(
                " ".join(str(line.text).split()) for line in screen.query_one("#events").lines)
        v = r.game.view(0)
        assert picks >= 3 and v["turn"] > 0 and not v["pool"]
        drafted = [0, 0, 0]  # each kingdom adds exactly 9 to its Castle's 3 (KD-4)
        for event in (e for step in r.history for e in step.events if e.kind == "draft"):
            drafted[event.data[0]] += r.game.card(event.data[1]).value
        assert drafted == [9, 9, 9]


async def test_the_compact_table_at_80x24_shows_one_pane_at_a_time_on_tabs(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        await play_until(pilot, app, screen, in_play)
        board = screen.query_one(KingdomBoard)
        assert board.compact and board.query_one("#pane-tabs").display
        assert board.shown == "hand"  # an action: the hand comes forward
        assert "Kingdoms" in shown(app) and "Hand" in shown(app)
        await pilot.press("escape")
        assert board in app.focused.ancestors_with_self
        for key, pane, other in (("k", "#kingdoms-scroll", "#hand-scroll"), ("h", "#hand-scroll", "#kingdoms-scroll")):
            await pilot.press(key)
            await pilot.pause()
            assert board.query_one(pane).region.height > 0 and not board.query_one(other).display, key
        assert not board.query_one("#tab-round").display  # no round outside solo


@pytest.mark.parametrize("record", [MULTI_RECORD, SOLO_RECORD], ids=["multi-3", "solo"])
async def test_the_replay_viewer_shows_the_kingdoms_and_takes_no_focus_on_the_board(make_app, record) -> None:
    app = make_app(open_path=record)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("n", "n")  # the replay viewer's landmark: the next turn (round in solo)
        await pilot.pause()
        board = screen.query_one(KingdomBoard)
        assert not board.interactive and all(not w.can_focus for w in board.query("*"))
        assert app.focused is None or board not in app.focused.ancestors_with_self
        drawn = pane_text(board.query_one("#kingdoms", KingdomPane))
        assert "Castle +" in drawn and " 3  " in drawn
        assert "Castle +" in shown(app)
        if record is SOLO_RECORD:
            assert board.query_one("#round-scroll").display


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_options_have_the_keys_at_the_start_and_enter_chooses(make_app, size) -> None:
    """At the start the options pane has the keys, at either size: Enter takes the highlighted Noble.
    (At 80x24 the compact table once took them: the first of its panes, focused by Textual, was hidden
    and passed the keys to the hand's pane, where Enter did nothing.)"""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        r = screen.runner
        await wait_until(pilot, lambda: deciding(app, screen, 0) and screen.question is not None, "the first Noble")
        await wait_until(pilot, lambda: app.focused is screen.query_one("#options"), "the options to have the keys")
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(r.history) > 0 and r.history[0].seat == 0, "the Noble chosen")


# -- snapshots ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_kingdom_multiplayer_table_snapshot(snap_compare, make_app, size) -> None:
    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        screen = await start_game(app, pilot, multi(HUMAN, GREEDY, GREEDY))
        await play_until(pilot, app, screen, in_play)
        await pilot.pause()
        board = screen.query_one(KingdomBoard)
        assert board.compact == (size == (80, 24)) and board.shown == "hand"
        assert "Your hand:" in shown(app)
        if not board.compact:
            check_lines_of_defence(screen.runner.game, board)
        checked.append(True)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
    assert checked


def test_kingdom_solo_table_snapshot(snap_compare, make_app) -> None:
    checked = []

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        screen = await start_game(app, pilot, solo())
        await wait_until(pilot, lambda: deciding(app, screen, 0), "the allocation")
        await pilot.pause()
        board = screen.query_one(KingdomBoard)
        assert not board.compact and board.query_one("#round-scroll").region.height > 0
        assert "Revealed" in shown(app) and "Enemy 1" in shown(app)
        checked.append(True)

    assert snap_compare(make_app(), terminal_size=(120, 40), run_before=run_before)
    assert checked


# -- the full table ----------------------------------------------------------------------------------


class BoardApp(App[None]):
    """The kingdom board alone, for one point of view."""

    def __init__(self, game: Any, seat: int | None) -> None:
        super().__init__()
        self.game, self.seat = game, seat

    def compose(self) -> ComposeResult:
        yield KingdomBoard(self.game, self.seat, id="board")


def dealt_game(variant: str) -> Any:
    """A game of random choices past its setup, with a Trap face down under each kingdom's Castle
    while there are Traps in the decks (two in solo)."""
    game: Any = core_games.info("kingdom").make(variant, {})
    rng = SplitMix64(7)
    while game.view(None)["turn"] == 0:
        point = game.point()
        game.resolve(draw(rng, point)) if isinstance(point, Chance) else game.apply(point.options[0])
    traps = [c for c in [*game.s.deck, *(c for d in game.s.decks for c in d)] if game.card(c).type == "trap"]
    for realm, trap in zip(game.s.realms, traps):
        for pile in (game.s.deck, *game.s.decks):
            if trap in pile:
                pile.remove(trap)
        realm.slots[0].trap = trap
    return game


@pytest.mark.parametrize("variant", ["multi-3", "solo"])
async def test_the_full_table_shows_every_hand_every_trap_and_the_deck_order(variant: str) -> None:
    game = dealt_game(variant)
    app = BoardApp(game, TABLE)
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.pause()
        board = app.query_one(KingdomBoard)
        assert board.may_show("hand")
        kingdoms = pane_text(board.query_one("#kingdoms", KingdomPane))
        hands = " ".join(pane_text(board.query_one("#hand", KingdomPane)).split())
        for k, realm in enumerate(game.s.realms):
            trap = realm.slots[0].trap
            assert trap is None or f"Trap ({'real' if game.trap_real(k, trap) else 'decoy'})" in kingdoms
            assert f"{game.name(k)}'s hand: {len(realm.hand)} card" in hands
            assert all(words.named(game, c) in hands for c in realm.hand)
        assert "Trap ?" not in kingdoms
        first = game.s.deck[0] if game.s.deck else game.s.decks[0][0]
        assert f"top first: {words.named(game, first)}" in kingdoms
    app = BoardApp(game, 1)  # a seat: its own Trap, the others face down, no deck order
    async with app.run_test(size=(160, 60)) as pilot:
        await pilot.pause()
        kingdoms = pane_text(app.query_one(KingdomBoard).query_one("#kingdoms", KingdomPane))
        others = [r for k, r in enumerate(game.s.realms) if k != 1 and r.slots[0].trap]
        assert kingdoms.count("Trap ?") == len(others) >= 1 and "top first" not in kingdoms
