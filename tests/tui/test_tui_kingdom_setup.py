"""Take the Kingdom's New game form driven by keys, as a person fills it: the game, the variant
(2, 3 or 4 players, or solo), each seat, the rule options, the solo difficulty and a cards file of
one's own; what was chosen must reach the game, its record header and the first decision."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, OptionList, Select

from core import games as core_games
from core.engine import Decision
from core.kingdom import GAME
from core.kingdom.cards import load_cards, packaged_cards
from notation.runner import read_unfinished
from tui.screens.dialogs import ViewDialog
from tui.screens.home import HomeScreen
from tui.screens.play import PlayScreen
from tui.screens.setup import SetupScreen
from tui.screens.replay import ReplayScreen
from tui_support import ROOT, open_continue, wait_until

# "Solo rules", the setup table: each level's Noble and starting kingdom for You, Enemy 1, Enemy 2,
# every place in the kingdom as its card and the defences on it (the Village sits on the Castle, KD-21).
SOLO_TABLE = {
    "easy": (("egbert", ["castle+village", "land+moat", "land+hills"]),
             ("baligant", ["castle", "land+moat", "land"]),
             ("maria", ["castle", "land", "land"])),
    "medium": (("simon", ["castle", "land+moat", "land+hills", "land"]),
               ("baligant", ["castle", "land+moat", "land+hills"]),
               ("maria", ["castle", "land+moat", "land+hills"])),
    "difficult": (("maria", ["castle", "land+moat", "land+hills"]),
                  ("egbert", ["castle+village", "land+moat", "land+hills"]),
                  ("simon", ["castle", "land+moat", "land"])),
    "expert": (("simon", ["castle", "land+moat", "land"]),
               ("egbert", ["castle+village", "land+moat", "land+hills"]),
               ("charles", ["castle", "land+moat", "land+hills"])),
}
KINDS = GAME.seat_specs("multi-2")[0].kinds  # what a Kingdom player's seat may be, in the form's order


def with_defaults(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` and every other rule option at its default (a new option, issue 27, needs no edit here)."""
    return {**{spec.name: spec.default for spec in GAME.option_specs(variant)}, **options}


def choices(variant: str, option: str) -> tuple[Any, ...]:
    """The values a choice option offers, in the form's order."""
    return next(spec.choices for spec in GAME.option_specs(variant) if spec.name == option)


# -- the form, by keys -----------------------------------------------------------------


async def new_game_form(pilot: Pilot) -> SetupScreen:
    """From home, `n`: the New game form, the variant in focus."""
    await pilot.pause()
    assert isinstance(pilot.app.screen, HomeScreen)
    await pilot.press("n")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SetupScreen), "the New game form")
    return pilot.app.screen  # type: ignore[return-value]


async def tab_to(pilot: Pilot, widget_id: str, tries: int = 30) -> None:
    """Tab (forward, as a person would) until the widget ``#widget_id`` has the focus."""
    for _ in range(tries):
        focused = pilot.app.focused
        if focused is not None and focused.id == widget_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"tab never reached #{widget_id} (focus on {pilot.app.focused!r})")


async def choose(pilot: Pilot, widget_id: str, value: Any, values: tuple[Any, ...] | list[Any]) -> None:
    """Tab to the Select ``#widget_id`` (its choices ``values``, in order), open it with Enter,
    go up or down from the shown value to ``value`` and pick it with Enter."""
    await tab_to(pilot, widget_id)
    select = pilot.app.screen.query_one(f"#{widget_id}", Select)
    steps = values.index(value) - values.index(select.value)
    await pilot.press("enter", *["down" if steps > 0 else "up"] * abs(steps), "enter")
    await pilot.pause()
    assert select.value == value, f"#{widget_id} shows {select.value!r}, not {value!r}"


async def tick(pilot: Pilot, widget_id: str, on: bool) -> None:
    """Tab to the Checkbox ``#widget_id`` and toggle it with the space bar if it is not ``on``."""
    await tab_to(pilot, widget_id)
    box = pilot.app.screen.query_one(f"#{widget_id}", Checkbox)
    if box.value != on:
        await pilot.press("space")
        await pilot.pause()
    assert box.value is on, f"#{widget_id} is {box.value}, not {on}"


async def kingdom_variant(pilot: Pilot, setup: SetupScreen, variant: str) -> None:
    """Shift+Tab up to the game, pick Take the Kingdom, then its ``variant``; wait for its seats."""
    await pilot.press("shift+tab")
    assert pilot.app.focused is setup.query_one("#game", Select)
    await choose(pilot, "game", "kingdom", core_games.names())
    await wait_until(pilot, lambda: setup.shown == ("kingdom", GAME.variants[0][0]), "Kingdom's first variant")
    await choose(pilot, "variant", variant, GAME.variant_keys())
    await wait_until(pilot, lambda: setup.shown == ("kingdom", variant), f"the form of {variant}")


async def start(pilot: Pilot) -> PlayScreen:
    """Ctrl+S: the game starts and its play screen replaces the form."""
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PlayScreen), "the game to start")
    return pilot.app.screen  # type: ignore[return-value]


def seat_kinds(setup: SetupScreen, ids: list[str]) -> list[Any]:
    return [setup.query_one(f"#{i}-kind", Select).value for i in ids]


async def first_decision(pilot: Pilot, play: PlayScreen) -> Decision:
    """The first decision the game puts to the person (seat 0)."""
    r = play.runner
    await wait_until(pilot, lambda: isinstance(r.waiting, Decision) and r.waiting.seat == 0 and not play.driver.thinking,
                     "the person's first decision")
    return r.waiting  # type: ignore[return-value]


def check_header(play: PlayScreen, variant: str, options: dict[str, Any], kinds: list[str],
                 setup: dict[str, Any] | None = None) -> None:
    """The runner's header, and the header of the record journaled on disk, say what was chosen
    (``setup``: the fingerprint of a cards file of one's own; none for the packaged cards)."""
    for header in (play.runner.header, read_unfinished(play.runner.path, play.runner.games).header):
        assert (header.game, header.variant) == ("kingdom", variant)
        assert header.options == options
        assert header.setup == (setup or {})
        assert [s.kind for s in header.seats] == kinds
        for seat in header.seats:
            if seat.kind == "ai":
                assert seat.detail.startswith(GAME.ai_version)


def kingdom(game: Any, seat: int) -> list[str]:
    """A kingdom's places as the setup table writes them: ``land+moat``."""
    return ["+".join(game.card(c).key for c in (slot.card, *slot.defences)) for slot in game.s.realms[seat].slots]


# -- multiplayer -------------------------------------------------------------------------


async def test_three_players_nobles_chosen_and_survival_reach_the_game(make_app) -> None:
    """3 players, the person against two AIs, Nobles chosen and survival mode, all by keys: the
    first decision is the person's choice of a Noble among all six, the header says so, and
    once every Noble is chosen the survival set is put aside."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        await kingdom_variant(pilot, setup, "multi-3")
        # The person and two AIs are the form's own seats for 3 players: left as they are.
        assert seat_kinds(setup, ["player-1", "player-2", "player-3"]) == ["human", "ai", "ai"]
        assert setup.query_one("#opt-nobles", Select).value == "choose"  # the default (KD-2): left as it is
        await tick(pilot, "opt-survival", True)
        assert setup.query_one("#opt-damage_adds_up", Checkbox).value is True  # left as it is
        play = await start(pilot)

        check_header(play, "multi-3", with_defaults("multi-3", {"nobles": "choose", "survival": True,
                                                                "damage_adds_up": True, "always_ask": True}),
                     ["human", "ai", "ai"])
        game = play.runner.game
        assert game.options == with_defaults("multi-3", {"nobles": "choose", "survival": True, "damage_adds_up": True,
                                                         "always_ask": True})
        point = await first_decision(pilot, play)
        nobles = [c.id for c in game.cards.cards if c.type == "noble"]
        assert len(nobles) == 6
        assert point.prompt == "choose your Noble"
        assert point.options == tuple(("noble", c) for c in nobles)
        assert play.runner.history == []  # nothing decided or dealt before it
        # The options pane offers the person exactly those Nobles.
        pane = play.query_one("#options", OptionList)
        assert [str(pane.get_option_at_index(i).prompt) for i in range(pane.option_count)] == \
            [game.describe(code) for code in point.options]

        # Enter takes the first Noble; the two AIs choose theirs, and survival sets its four cards aside.
        await pilot.press("o", "home", "enter")
        await wait_until(pilot, lambda: all(r.noble for r in play.runner.game.s.realms), "every Noble chosen")
        await wait_until(pilot, lambda: len(play.runner.game.s.survival) == 4, "the survival set", tries=500)
        game = play.runner.game
        assert game.s.realms[0].noble == nobles[0]
        assert len({r.noble for r in game.s.realms}) == 3
        chosen = [s for s in play.runner.history if s.kind == "decision"][:3]
        assert [s.seat for s in chosen] == [0, 1, 2]
        assert sorted(game.card(c).key for c in game.s.survival) == ["land", "mercenaries", "mercenaries", "village"]


@pytest.mark.parametrize(("players", "kinds"), [(2, ["human", "random"]), (4, ["human", "ai", "random", "ai"])],
                         ids=["2-players", "4-players"])
async def test_two_and_four_players_nobles_dealt_and_damage_alone_reach_the_game(make_app, players: int,
                                                                               kinds: list[str]) -> None:
    """2 or 4 players, one seat made a random mover, Nobles dealt, damage_adds_up off: the game has
    that many kingdoms, each dealt a different Noble, and the header says what was chosen."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        variant = f"multi-{players}"
        await kingdom_variant(pilot, setup, variant)
        ids = [f"player-{i + 1}" for i in range(players)]
        defaults = ["human"] + ["ai"] * (players - 1)
        assert seat_kinds(setup, ids) == defaults
        for seat, kind, default in zip(ids, kinds, defaults):
            if kind != default:  # the other seats are left as the form has them
                await choose(pilot, f"{seat}-kind", kind, KINDS)
        assert setup.query_one("#opt-nobles", Select).value == "choose"  # the rulebook's way (KD-2)
        await choose(pilot, "opt-nobles", "deal", choices(variant, "nobles"))
        assert setup.query_one("#opt-survival", Checkbox).value is False
        await tick(pilot, "opt-damage_adds_up", False)
        play = await start(pilot)

        options = with_defaults(variant, {"nobles": "deal", "survival": False, "damage_adds_up": False,
                                          "always_ask": True})
        check_header(play, variant, options, kinds)
        await wait_until(pilot, lambda: all(r.noble for r in play.runner.game.s.realms), "the Nobles dealt")
        game = play.runner.game
        assert game.options == options and game.damage_adds_up() is False
        assert game.seats == tuple(f"Player {i + 1}" for i in range(players))
        assert len({r.noble for r in game.s.realms}) == players
        assert all(game.card(r.noble).type == "noble" for r in game.s.realms)
        assert game.s.survival == []


# -- solo --------------------------------------------------------------------------------


# Two levels by keys (each level's setup table itself is tests/kingdom's): a row that reaches the
# game reaches it for any value.
@pytest.mark.parametrize(("level", "penalty"), [("medium", True), ("expert", False)])
async def test_solo_at_each_difficulty_sets_up_that_levels_kingdoms(make_app, level: str, penalty: bool) -> None:
    """Solo, the difficulty picked by keys (and the Penalty rule at two levels): the header and
    the game hold that level, and the three kingdoms are the setup table's for it."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        await kingdom_variant(pilot, setup, "solo")
        assert seat_kinds(setup, ["you", "enemy-1", "enemy-2"]) == ["human", "bot", "bot"]
        assert setup.query_one("#opt-difficulty", Select).value == "easy"
        await choose(pilot, "opt-difficulty", level, choices("solo", "difficulty"))
        await tick(pilot, "opt-penalty_to_player", penalty)
        await tab_to(pilot, "seed")  # a fixed deal: a fresh seed could open with another decision
        await pilot.press("ctrl+a", "ctrl+k", "1")
        play = await start(pilot)
        assert play.runner.header.seed == 1

        options = with_defaults("solo", {"difficulty": level, "penalty_to_player": penalty, "damage_adds_up": True})
        check_header(play, "solo", options, ["human", "bot", "bot"])
        point = await first_decision(pilot, play)
        assert point.prompt == "which card is yours this round?"
        game = play.runner.game
        assert game.options == options
        for seat, (noble, places) in enumerate(SOLO_TABLE[level]):
            assert game.noble_key(seat) == noble, (level, seat)
            assert kingdom(game, seat) == places, (level, seat)
        said = [e.text for s in play.runner.history for e in s.events if e.kind == "setup"]
        assert [t.split(":")[0] for t in said[:3]] == [game.name(k) for k in range(3)]


# -- a cards file of one's own ---------------------------------------------------------


async def test_a_cards_file_of_ones_own_is_the_games_cards(make_app, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A cards file typed into the form (the packaged deck with its Castles renamed Keep, named
    from the folder the app was started in): the header names its fingerprint and the game is
    played with those cards."""
    packaged = ROOT / "core" / "kingdom" / "data" / "cards.toml"
    (tmp_path / "keeps.toml").write_text(packaged.read_text("utf-8").replace('name = "Castle"', 'name = "Keep"'),
                                         "utf-8")
    monkeypatch.chdir(tmp_path)
    own = "keeps.toml"
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        setup = await new_game_form(pilot)
        await kingdom_variant(pilot, setup, "solo")
        await tab_to(pilot, "data-cards")
        await pilot.press(*own)
        assert setup.query_one("#data-cards", Input).value == own
        play = await start(pilot)

        fingerprint = load_cards(tmp_path / own).fingerprint()
        assert fingerprint != packaged_cards().fingerprint()
        check_header(play, "solo", with_defaults("solo", {"difficulty": "easy", "penalty_to_player": False,
                                                          "damage_adds_up": True}),
                     ["human", "bot", "bot"], {"cards": fingerprint})
        await first_decision(pilot, play)
        game = play.runner.game
        assert game.cards.fingerprint() == fingerprint
        assert [game.card(r.slots[0].card).name for r in game.s.realms] == ["Keep"] * 3
        record = play.runner.path

        # The file moved away, the game left: Continue lists it and plays on with the copy the
        # app kept of the cards (tui/own_files.py); the replay viewer opens its record too.
        (tmp_path / own).unlink()
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        listing = await open_continue(pilot)
        assert any(u.path == record for u in listing.games)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PlayScreen), "the resumed game")
        resumed = app.screen.runner.game
        assert resumed.cards.fingerprint() == fingerprint
        assert [resumed.card(r.slots[0].card).name for r in resumed.s.realms] == ["Keep"] * 3
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home again")
        app.open_record(record)
        # The game is unfinished: the viewer first asks whose view to show (Player 1's, the first).
        await wait_until(pilot, lambda: isinstance(app.screen, ViewDialog), "whose view")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.query("#board"),
                         "the record in the viewer")
        await wait_until(pilot, lambda: "verified" in str(app.screen.query_one("#timeline").render()),
                         "the record verified")
