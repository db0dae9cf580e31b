"""Each card's exact effect on the table (issue 27): the hand pane lists each card with its effect
(its flavour text under it where there is room), the details line over the table says what the
highlighted option's card does (or the card in play, to answer), the prompt's ``cards`` and
``hand`` say it in words, and the events name each thing once."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.app import App, ComposeResult
from textual.widgets import Static

from core import games as core_games
from core.chance import draw
from core.engine import Chance, Decision
from core.kingdom import words
from core.rng import SplitMix64
from tui.games.kingdom import text
from tui.games.kingdom.board import KingdomBoard
from tui.games.kingdom.panes import effect_line, hand_renderable
from tui.widgets.options import OptionsPane


def at_action(variant: str = "multi-2", seed: int = 7) -> Any:
    """A game of first options until Player 1 has an action with a card in its options."""
    game: Any = core_games.info("kingdom").make(variant, {})
    rng = SplitMix64(seed)
    for _ in range(2000):
        point = game.point()
        if isinstance(point, Chance):
            game.resolve(draw(rng, point))
            continue
        if (point.seat == 0 and point.kind == "action" and game.view(0)["turn"]
                and any(words.option_card(game, c) for c in point.options)):
            return game
        game.apply(point.options[0])
    raise AssertionError("no action came")


def plain(renderable: Any, width: int) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return " ".join(console.file.getvalue().split())  # type: ignore[attr-defined]


def test_every_card_says_its_effect_from_the_one_data_place() -> None:
    game = at_action()
    for cid in game.s.realms[0].hand:
        c = game.card(cid)
        assert words.effect(game, cid) == f"{c.name}: {c.effect}"
    wide, narrow = plain(hand_renderable(game, 0), 100), plain(hand_renderable(game, 0, flavour=False), 50)
    for cid in game.s.realms[0].hand:
        c = game.card(cid)
        assert " ".join(c.effect.split()) in wide and " ".join(c.text.split()) in wide
        assert " ".join(c.effect.split()) in narrow and " ".join(c.text.split()) not in narrow


def test_the_details_line_names_the_option_card_or_the_card_in_play() -> None:
    game = at_action()
    point = game.point()
    code = next(c for c in point.options if words.option_card(game, c))
    cid = words.option_card(game, code)
    line = effect_line(game, point, code).plain
    assert line == words.effect(game, cid)
    assert effect_line(game, point, ("done",)).plain == ""  # nothing in play, no card named
    game.s.in_play.extend(["cannon-1", "morale-1"])  # an attack with Morale, to answer: the attack's card
    assert effect_line(game, point, ("pass",)).plain.startswith("Cannon (in play): Attack 4")
    game.s.in_play.append("gold-1")  # a Gold buying it: the Gold
    assert effect_line(game, point, ("pass",)).plain.startswith("Gold (in play): Out of turn")


class OptionsApp(App[None]):
    """The board with an options pane beside it, as on the play screen."""

    def __init__(self, game: Any, seat: int | None = 0) -> None:
        super().__init__()
        self.game, self.seat = game, seat

    def compose(self) -> ComposeResult:
        yield KingdomBoard(self.game, self.seat, True, id="board")
        yield OptionsPane(id="options")


async def test_the_highlighted_option_shows_its_cards_effect() -> None:
    game = at_action()
    point = game.point()
    assert isinstance(point, Decision)
    app = OptionsApp(game)
    async with app.run_test(size=(120, 40)) as pilot:
        board, options = app.query_one(KingdomBoard), app.query_one(OptionsPane)
        board.show(game, 0, True)
        options.show(game, point)
        await pilot.pause()
        details = app.query_one("#effect", Static)
        for i, code in enumerate(point.options):
            options.highlighted = i
            await pilot.pause()
            cid = words.option_card(game, code)
            shown = " ".join(str(details.render()).split())
            assert shown == (" ".join(words.effect(game, cid).split()) if cid else "")
            assert details.has_class("-empty") == (cid is None)


async def test_no_details_for_a_table_drawn_for_another_seat() -> None:
    """Hot seat: the table drawn for nobody (or another seat) says nothing of the decider's options."""
    game = at_action()
    point = game.point()
    for seat in (None, 1):
        app = OptionsApp(game, seat)
        async with app.run_test(size=(120, 40)) as pilot:
            app.query_one(KingdomBoard).show(game, seat, True)
            app.query_one(OptionsPane).show(game, point)
            await pilot.pause()
            assert app.query_one("#effect", Static).has_class("-empty")


def test_the_prompt_says_what_each_card_does() -> None:
    game = at_action()
    point = game.point()
    said = text.option_cards(game, 0)
    for code in point.options:
        cid = words.option_card(game, code)
        if cid:
            assert f"  {text.named(game, cid)}\n" in said + "\n"
            assert " ".join(game.card(cid).effect.split()) in " ".join(said.split())
    hand = " ".join(text.hand(game, 0).split())
    assert all(" ".join(game.card(c).effect.split()) in hand for c in game.s.realms[0].hand)
    assert "type cards" in " ".join(text.status(game, 0).split())
    nobles = " ".join(text.nobles(game, 0).split())
    assert all(game.card(r.noble).effect in nobles for r in game.s.realms)


def test_an_action_against_a_kingdom_names_each_thing_once() -> None:
    game = at_action()
    o = 1
    knights = next(c.id for c in game.cards if c.key == "knights")
    castle = game.s.realms[o].slots[0]
    castle.defences.append(knights)
    said = words.played(game, 0, ("mutiny", "mutiny-1", o, knights))
    assert said == f"{game.name(0)} plays Mutiny on {game.name(o)}'s Knights"
    assert said.count(game.name(o)) == 1 and "against" not in said
    said = words.played(game, 0, ("earthquake", "earthquake-1", o, castle.card))
    assert said == f"{game.name(0)} plays Earthquake on {game.name(o)}'s Castle"
    assert words.played(game, 0, ("freeze", "freeze-1", o)) == f"{game.name(0)} plays Freeze against {game.name(o)}"
    assert words.describe(game, ("mutiny", "mutiny-1", o, knights)) == f"Mutiny on {game.name(o)}'s Knights"


def test_a_target_option_shows_the_card_it_hits_first_and_the_attack_in_play() -> None:
    from tests.kingdom.support import realm, start_turn, table

    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["cannon-1"])
    realm(g, 1, "castle-2", lands=[("land-2", ["walls-1"], None)])
    start_turn(g, 0)
    g.apply(("attack", "cannon-1"))
    point = g.point()
    code = next(c for c in point.options if c[0] == "at")
    lines = effect_line(g, point, code).plain.splitlines()
    assert lines[0].startswith("Cannon (in play): Attack 4")
    assert lines[1] == "Walls (hit first there): " + g.card("walls-1").effect
    assert text.about(g, code) == "Land+1 [Walls+4]: hits Walls first, needs 4"


def test_the_prompt_says_what_each_kind_of_standing_card_does_and_hides_a_face_down_trap() -> None:
    from tests.kingdom.support import realm, table

    g = table("anne", "maria")
    realm(g, 0, "castle-1", castle_trap="trap-2")  # a decoy, mine
    realm(g, 1, "castle-2", lands=[("land-2", ["walls-1"], "trap-1")])  # a real one, face down to me
    said = text.standing_cards(g, 0)
    heads = [line.strip() for line in said.splitlines() if line.startswith("  ") and not line.startswith("    ")]
    assert heads == ["Castle", "Trap (decoy)", "Land", "Walls", "Trap (face down)"]
    assert " ".join(g.card("walls-1").effect.split()) in " ".join(said.split())
    assert "A real Trap" not in said and text.FACE_DOWN_TRAP.split()[0] in said
    assert "Trap (real)" in text.standing_cards(g, 1) and "Trap (face down)" in text.standing_cards(g, 1)
