"""Pilot tests of Taifa's board: the hand (the viewer's only), the kingdoms with each bot's army
card by card, the combat pane (a fight in progress, the last combat's dice and where they came
from), the map's targets from the Decision, and the 80x24 arrangement reaching every pane.

The last combat comes from the view's ``last_combat`` (contract C1); ``with_view`` gives a game
that view key from a fixture dict, so these tests do not wait for the combat branch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Tabs

from core.chance import SeededChance
from core.engine import TABLE, Decision
from core.taifa.game import TaifaGame
from core.taifa.table import hits, possessive
from notation.runner import GameSetup, SeatPlan
from tui.games.taifa import text
from tui.games.taifa.board import MapPane, TaifaBoard, map_targets
from tui.games.taifa.panes import CombatPane, HandPane, KingdomsPane, TaifaPane, TurnLine
from tui.screens.play import PlayScreen
from tui_support import HUMAN, wait_until

CASTILE, VALENCIA, SEVILLE, LEON = 0, 2, 3, 5
MURCIA = 45  # Valencia's at the start (2.2)


def castile_to_act(seed: int = 4) -> TaifaGame:
    """The standard game, Castile a person's and the five others bots, at Castile's first action."""
    g = TaifaGame(bots=("catalans", "valencia", "seville", "badajoz", "leon"))
    chance = SeededChance(seed)
    while not isinstance(point := g.point(), Decision):
        g.resolve(chance.outcome(point))
    assert point.seat == CASTILE and point.kind == "action"
    return g


def with_view(game: TaifaGame, **keys: Any) -> TaifaGame:
    """``game`` whose view has ``keys`` too (C1's ``round`` and ``last_combat``)."""
    real = game.view
    game.view = lambda seat: {**real(seat), **keys}  # type: ignore[method-assign]
    return game


def last_combat(g: TaifaGame) -> dict[str, Any]:
    """Castile's attack on Murcia, held by Valencia, as C1 describes a resolved fight: Castile's
    Mesnada and Siege Engines, Valencia's Champion, Seville's Champion for the defence, Murcia's
    garrison spent; 3 dice against 7, 2 hits against 3: Murcia holds."""
    defence = g.m.areas[MURCIA - 1].defence
    assert defence == 3, "the packaged map's Murcia"
    c = {name: g.decks.christian.by_name(name)[0].id for name in ("Mesnada", "Siege Engines")}
    m = [card.id for card in g.decks.muslim.by_name("Champion")]
    return {
        "kind": "attack", "attacker": CASTILE, "defender": VALENCIA, "area": MURCIA, "turn": 1,
        "cards": [["attack", CASTILE, c["Mesnada"]], ["attack", CASTILE, c["Siege Engines"]],
                  ["defence", VALENCIA, m[0]], ["defence", SEVILLE, m[1]]],
        "garrisons": [MURCIA],
        "attack_dice": [["troops 3", 3]],
        "defence_dice": [[f"defence {defence}", defence], ["Siege Engines", -1], ["Champion", 2], ["Champion", 2],
                         ["garrison of Murcia", 1]],
        "attack_roll": [4, 3, 5], "defence_roll": [5, 6, 1, 2, 3, 4, 1],
        "attack_hits": 2, "defence_hits": 3, "outcome": "holds",
        "text": "Castile rolls [4 3 5] = 2 hits against [...] = 3: Murcia holds", "rule": "taifa 5.2",
    }


class BoardApp(App):
    def __init__(self, game: TaifaGame, seat: int | None, interactive: bool = False) -> None:
        super().__init__()
        self.game, self.seat, self.interactive = game, seat, interactive

    def compose(self) -> ComposeResult:
        yield TaifaBoard(self.game, self.seat, self.interactive, id="board")


def shown(widget: Any) -> str:
    return str(widget.render())


def everything(board: TaifaBoard) -> str:
    """All the board's panes say, shown or not (a pane out of sight still must not leak a hand)."""
    return "\n".join(shown(pane) for pane in board.query(TaifaPane))


async def mounted(pilot: Pilot) -> TaifaBoard:
    await pilot.pause()
    await pilot.pause()
    return pilot.app.query_one(TaifaBoard)


# -- the hand -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [CASTILE, None, LEON])
async def test_the_hand_is_the_viewers_own_and_no_one_elses(seat: int | None) -> None:
    g = castile_to_act()
    async with BoardApp(g, seat).run_test(size=(100, 40)) as pilot:
        board = await mounted(pilot)
        hand = " ".join(shown(board.query_one(HandPane)).split())  # as one line, however it wraps
        everywhere = everything(board)
        for k, cards in enumerate(g.s.hands):
            for cid in cards:
                card = g.card(cid)
                if k == seat and not g.s.bots[k]:  # a person's own cards, each with its text
                    assert text.card_head(g, cid) in hand and card.text in hand
                else:  # 5.1: another kingdom's cards (a bot's face-down pile too) stay hidden
                    assert cid not in everywhere, (k, cid)
        if seat == CASTILE:
            assert hand.startswith(f"Castile's hand: {len(g.s.hands[CASTILE])} cards")
        else:
            assert hand.startswith("No hand to show")


@pytest.mark.parametrize("size", [(100, 40), (53, 21)], ids=["stacked", "compact"])
async def test_the_full_table_shows_every_hand_and_pile(size: tuple[int, int]) -> None:
    """A record's full-table view (TABLE: a dispute, a finished game): every kingdom's hand, a bot's
    face-down pile top first, the draw piles' order, a card placed face down, on the board too."""
    g = castile_to_act()
    target = g.attackable(CASTILE)[0]
    g.apply(("attack", target))
    troop = next(c for c in sorted(g.s.hands[CASTILE]) if g.card(c).kind == "troop")
    g.apply(("add", troop))
    async with BoardApp(g, TABLE).run_test(size=size) as pilot:
        board = await mounted(pilot)
        board.action_pane("hand")
        await pilot.pause()
        hand = " ".join(shown(board.query_one(HandPane)).split())
        assert board.query_one(HandPane).region.height > 0
        for k, held in enumerate(g.s.hands):
            cards = held if g.s.bots[k] else sorted(held)  # a bot's pile in its order, top first
            heads = [text.card_head(g, c, cards) for c in cards]
            what = "face-down pile, top first" if g.s.bots[k] else "hand"
            assert f"{possessive(g.seats[k])} {what}: {len(cards)} cards " + " ".join(heads) in hand, k
        for deck, pile in g.s.draw.items():
            assert f"The {deck} draw pile, top first: {len(pile)} cards" in hand
        assert f"attack, Castile: {g.label(troop)} (face down)" in " ".join(shown(board.query_one(CombatPane)).split())
        assert shown(board.query_one(MapPane).query_one("#map-legend"))


def test_a_cards_head_says_kind_strength_timing_and_markers() -> None:
    g = TaifaGame()
    by = {name: g.decks.christian.by_name(name)[0].id for name in ("Mesnada", "Militia", "Truce", "Judgment of God")}
    assert text.card_head(g, by["Mesnada"]) == "Mesnada · troop 3 · offensive"  # by its face, not its id
    assert text.card_head(g, by["Militia"]) == "Militia · response · defence, campaign defence (the defender)"
    twins = [c.id for c in g.decks.christian.by_name("Mesnada") if c.offensive][:2]  # the same face: ids tell apart
    assert text.card_head(g, twins[0], twins) == f"Mesnada ({twins[0]}) · troop 3 · offensive"
    assert "event · against a kingdom · P: stays in force this turn" in text.card_head(g, by["Truce"])
    assert text.card_head(g, by["Judgment of God"]).endswith("D: then leaves the game")


# -- the kingdoms ------------------------------------------------------------------------------------


async def test_a_bots_army_and_responses_show_card_by_card() -> None:
    g = castile_to_act()
    leon = g.s.hands[LEON]
    troops = [c for c in leon if g.card(c).kind == "troop"][:2]
    responses = [c for c in leon if g.card(c).kind == "response"][:1]
    assert troops and responses, "seed 4 deals Leon troops and a response"
    for c in troops + responses:  # deployed face up (9.1), as a bot's round does
        leon.remove(c)
    g.s.army[LEON] += troops
    g.s.ready[LEON] += responses
    async with BoardApp(with_view(g, round=4), None).run_test(size=(130, 40)) as pilot:
        board = await mounted(pilot)
        table = shown(board.query_one(KingdomsPane))
        strength = sum(g.card(c).strength or 0 for c in troops)
        assert f"army {strength}: " + ", ".join(g.label(c) for c in troops) in table
        assert "responses: " + g.label(responses[0]) in table
        assert f"Leon               8/13 castles  bonus +0  {len(leon):>2} cards (bot)" in table
        assert shown(board.query_one(TurnLine)) == "Turn 1/3 · round 4: Castile · passes in a row 0/6"


# -- the combat ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(53, 21), (80, 37)], ids=["compact", "stacked"])
async def test_the_last_combat_shows_every_die_its_hits_and_where_the_dice_came_from(size) -> None:
    g = castile_to_act()
    lc = last_combat(g)
    defence = g.m.areas[MURCIA - 1].defence
    async with BoardApp(with_view(g, last_combat=lc), None).run_test(size=size) as pilot:
        board = await mounted(pilot)
        await pilot.press("tab", "c")  # the tab bar has focus: c for the combat pane
        await pilot.pause()
        pane = board.query_one(CombatPane)
        assert pane.region.height > 0, "the combat pane is on the screen"
        assert board.query_one("#tab-hand").has_class("-hidden"), "a spectator is offered no hand"
        said = " ".join(shown(pane).split())  # as one line, however it wraps
        assert f"Last combat: attack on Murcia ({MURCIA}, defence {defence}): Castile against Taifa of Valencia" in said
        assert "Castile: troops 3 = 3 dice" in said
        assert (f"Taifa of Valencia: defence {defence}, Siege Engines -1, Champion +2, Champion +2, "
                f"garrison of Murcia +1 = {defence + 4} dice") in said
        for side in ("attack", "defence"):  # every die, a hit marked as the rules count one (2.3)
            roll = lc[f"{side}_roll"]
            dice = " ".join(f"{d}*" if hits([d]) else str(d) for d in roll)
            assert f"rolls {dice} = {lc[f'{side}_hits']} hits" in said
        mesnada, siege, champion, champion_2 = (c for _, _, c in lc["cards"])
        assert f"attack: {g.label(mesnada)}, {g.label(siege)}" in said
        assert f"defence: {g.label(champion)}, {g.label(champion_2)} from Taifa of Seville" in said
        assert "garrisons spent: Murcia" in said
        assert "outcome: holds [taifa 5.2]" in said


def test_dice_sources_sum_and_floor_at_nothing() -> None:
    assert text.dice_sources([["defence 3", 3], ["Champion", 2], ["garrison of Murcia", 1]]) == \
        "defence 3, Champion +2, garrison of Murcia +1 = 6 dice"
    assert text.dice_sources([["troops 1", 1], ["Surprise Sortie", -1], ["Siege Engines", -1]]) == \
        "troops 1, Surprise Sortie -1, Siege Engines -1 = 0 dice"  # 5.2: never fewer than none


async def test_without_last_combat_the_last_dice_show() -> None:
    g = castile_to_act()
    g.s.last_dice = ("Castile attacks Murcia with 3 dice", (6, 1, 4))
    async with BoardApp(g, None).run_test(size=(80, 37)) as pilot:
        board = await mounted(pilot)
        assert " ".join(shown(board.query_one(CombatPane)).split()) == \
            "Last dice: Castile attacks Murcia with 3 dice rolls 6* 1 4* = 2 hits"


async def test_a_fight_in_progress_hides_what_others_placed_face_down() -> None:
    g = castile_to_act()
    target = g.attackable(CASTILE)[0]
    g.apply(("attack", target))
    troop = next(c for c in sorted(g.s.hands[CASTILE]) if g.card(c).kind == "troop")
    g.apply(("add", troop))  # face down (5.1 step 2)
    for seat, placed in ((CASTILE, g.label(troop) + " (face down)"), (None, "a face-down card")):
        async with BoardApp(g, seat, seat is not None).run_test(size=(80, 37)) as pilot:
            board = await mounted(pilot)
            pane = board.query_one(CombatPane)
            assert pane.region.height > 0, "a person deciding in a fight sees the fight"
            said = " ".join(shown(pane).split())  # as one line, however it wraps
            assert said.startswith(f"Fight: attack on {g.area_name(target)} ({target}")
            assert f"attack, Castile: {placed}" in said
            if seat is None:
                assert troop not in everything(board)
            else:  # what Castile may still add is beside it
                assert "Castile's hand:" in said


# -- the map's targets -------------------------------------------------------------------------------------


async def test_targets_come_from_the_decisions_area_options() -> None:
    g = castile_to_act()
    attackable = g.attackable(CASTILE)
    decision = g.point()
    assert isinstance(decision, Decision)
    assert map_targets(decision) == {a: ("attack", a) for a in attackable}
    assert map_targets(None) == {}  # nobody here to choose: nothing highlighted
    async with BoardApp(g, CASTILE, True).run_test(size=(80, 37)) as pilot:
        board = await mounted(pilot)
        assert dict(board.query_one(MapPane).targets) == {a: ("attack", a) for a in attackable}


@pytest.mark.parametrize("options, targets", [
    ((("area", 12), ("area", 19)), {12: ("area", 12), 19: ("area", 19)}),  # an Independent Campaign (9.6)
    ((("garrison", 7), ("done",)), {7: ("garrison", 7)}),  # a garrison to spend (5.1 step 4)
    ((("bonus",), ("garrison",)), {}),  # after a capture: no area to choose
    ((("target", "leon"), ("target", "seville")), {}),  # a kingdom, not an area
])
def test_every_area_verb_is_a_target(options: tuple, targets: dict) -> None:
    assert map_targets(Decision(CASTILE, "which area?", options, "target")) == targets


# -- 80x24 -------------------------------------------------------------------------------------------------


async def test_at_80x24_every_pane_is_reachable_and_the_decision_brings_its_own(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_game(GameSetup("taifa", "standard", (HUMAN,) + (SeatPlan("bot"),) * 5, seed=4))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        r = screen.runner
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision), "Castile's first action")
        await pilot.pause()
        board = screen.query_one(TaifaBoard)
        assert board.compact, "at 80x24 one pane at a time"
        visible: Callable[[str], bool] = lambda name: screen.query_one(name).region.height > 0  # noqa: E731
        assert visible("#hand-scroll"), "an action: the hand comes forward"
        assert "Castile's hand:" in shown(board.query_one(HandPane))
        for name, pane in (("map", "#map"), ("kingdoms", "#kingdoms-scroll"), ("combat", "#combat-scroll"),
                           ("hand", "#hand-scroll")):
            await pilot.click(f"#tab-{name}")  # by mouse
            await pilot.pause()
            assert visible(pane) and visible("#pane-tabs"), name
            others = {"#map", "#kingdoms-scroll", "#combat-scroll", "#hand-scroll"} - {pane}
            assert not any(visible(o) for o in others), name
        board.query_one(Tabs).focus()  # by keys: the arrows on the tab bar, or a pane's letter
        await pilot.press("right")
        await pilot.pause()
        assert visible("#combat-scroll")
        await pilot.press("m")
        await pilot.pause()
        assert visible("#map") and board.query_one(MapPane).size.width > 40
        # An attack: the fight comes forward, with the hand to add from.
        attack = next(i for i, code in enumerate(r.waiting.options) if code[0] == "attack")
        screen.query_one("#options").focus()
        screen.query_one("#options").highlighted = attack
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and r.waiting.kind == "commit",
                         "Castile's cards for the attack")
        await pilot.pause()
        assert visible("#combat-scroll")
        said = shown(board.query_one(CombatPane))
        assert said.startswith("Fight: attack on ") and "Castile's hand:" in said


# -- snapshots ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(53, 21), (80, 37)], ids=["compact", "stacked"])
def test_board_snapshot(snap_compare, size) -> None:
    """Castile to act, the last combat beside: at the board's size on an 80x24 terminal (the
    combat pane chosen) and on a 120x40 one (the map over the kingdoms and the combat)."""
    g = castile_to_act()
    app = BoardApp(with_view(g, round=1, last_combat=last_combat(g)), CASTILE, True)
    checked = []

    async def run_before(pilot: Pilot) -> None:
        board = await mounted(pilot)
        board.action_pane("combat")
        await pilot.pause()
        assert board.compact == (size == (53, 21))
        assert board.query_one(CombatPane).region.height > 0
        assert board.query_one(MapPane).region.height == (0 if board.compact else 21)
        assert "outcome: holds" in shown(board.query_one(CombatPane))
        checked.append(True)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
    assert checked


def test_the_text_view_says_the_same_facts() -> None:
    """``replay show`` and the prompt word the last combat and the bots' armies as the panes do."""
    g = castile_to_act()
    lc = last_combat(g)
    leon_troop = next(c for c in g.s.hands[LEON] if g.card(c).kind == "troop")
    g.s.hands[LEON].remove(leon_troop)
    g.s.army[LEON].append(leon_troop)
    said = text.position_text(with_view(g, last_combat=lc), None)
    assert "Taifa of Valencia: defence 3, Siege Engines -1, Champion +2, Champion +2, garrison of Murcia +1 = 7 dice" \
        in said
    assert "rolls 4* 3 5* = 2 hits" in said and "outcome: holds  [taifa 5.2]" in said
    assert f"  army: {g.label(leon_troop)}" in said
