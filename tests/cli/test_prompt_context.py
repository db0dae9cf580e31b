"""The text prompt says what each choice means and why a kind of action is missing (issue 30):
Taifa's area options with their defence, holder and the dice each side would throw (5.2), the
kinds of action its round lacks and why; Take the Kingdom's attack with its damage, a target with
its line of defence and what its topmost card needs, the plays it lacks and why. A hosted game's
client (a game rebuilt from the seat's view) shows the same; a note that cannot be worked out
there is left out, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.engine import Decision, Game
from core.taifa.state import INDEPENDENT
from notation.runner import GameSetup, Runner, SeatPlan
from tests.cli.test_console import Script
from tests.kingdom.support import realm, start_turn, table
from tests.unit.test_from_view import AtPoint, arrays_as_tuples, rebuilder, start, steps
from tui.console import Asker, ConsoleExtras, extras_for, option_notes, play

HUMAN, BOT = SeatPlan("human"), SeatPlan("bot")


def taifa_prompt(tmp_path: Path, seed: int) -> tuple[str, Game]:
    """Castile's first question at the prompt (five rulebook bots), then quit; the transcript and the game."""
    runner = Runner.start(GameSetup("taifa", "standard", (HUMAN,) + (BOT,) * 5, seed), tmp_path / "t.fief")
    script = Script(["quit"])
    game = runner.game
    play(runner, script.read, script.write)
    return script.text, game


def test_each_area_to_attack_says_its_defence_holder_and_the_dice_each_side_would_throw(tmp_path: Path) -> None:
    text, g = taifa_prompt(tmp_path, 1)
    point = g.point()
    assert isinstance(point, Decision) and point.kind == "action" and point.seat == 0
    hand = [g.card(c) for c in g.s.hands[0]]
    # 5.2: the attacker throws its Troop cards' strength, and what its Responses add to its attack.
    mine = sum(c.strength or 0 for c in hand if c.kind == "troop") + sum(
        e["n"] for c in hand if c.kind == "response" and "attack" in c.when and c.who in ("any", "attacker")
        for e in c.effect if e.op == "add_dice")
    attacks = [code for code in point.options if code[0] == "attack"]
    assert attacks
    for _, a in attacks:
        printed, owner = g.m.areas[a - 1].defence, g.s.owner[a]
        assert owner == INDEPENDENT or g.s.bots[owner]  # every other kingdom is a bot here
        # 9.4, TA-20: a bot's or an independent area defends with its own garrison, always.
        dice = printed + g.s.garrison[a]
        holder = "independent" if owner == INDEPENDENT else g.seats[owner]
        said = f"defence {printed}, {holder}: {dice} {'die' if dice == 1 else 'dice'}" \
               + (" with its garrison" if g.s.garrison[a] else "") + f"; you up to {mine}"
        assert f". {g.describe(('attack', a))} - {said}" in text, said


def test_a_kind_of_action_the_round_lacks_is_said_under_the_options_with_why(tmp_path: Path) -> None:
    text, g = taifa_prompt(tmp_path, 10)
    kinds = {g.card(c).kind for c in g.s.hands[0]}
    assert "troop" not in kinds and "event" in kinds  # this seed deals Castile no Troop card
    assert not {code[0] for code in g.point().options} & {"attack", "incursion"}
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if line.endswith(". pass"))
    assert lines[last + 1:last + 3] == ["      no Troop cards, nor a Response that adds dice: no attack (TA-19)",
                                        "      no Troop cards: no incursion (5.3)"]


class At(Asker):
    """The prompt's question put at a set position (what Console and the hosted prompt share)."""

    def __init__(self, game: Any, extras: ConsoleExtras) -> None:
        self.said: list[str] = []
        super().__init__(lambda prompt: "", self.said.append)
        self._game, self.extras = game, extras

    @property
    def game(self) -> Game:
        return self._game


def test_kingdom_an_attack_says_its_damage_a_target_its_line_and_what_it_needs() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["cannon-1", "deny-1"])
    realm(g, 1, "castle-2", lands=[("land-2", ["walls-1"], "trap-1"), ("land-3", [], None)])
    start_turn(g, 0)
    asker = At(g, extras_for("kingdom"))
    asker._put(g.point())
    said = "\n".join(asker.said)
    assert "   1. attack with Cannon - 4 damage\n   2. done\n" in said  # Cannon +4 ("Attack (red) cards")
    assert said.endswith("   2. done\n      no Defend cards: nothing to place\n"
                         "      Deny: played only out of turn, against a card played on you (KD-18)")
    g.apply(("attack", "cannon-1"))
    g.apply(("go",))  # nothing added to the attack (KD-30 asks whenever a hand could hold Morale)
    asker.said.clear()
    asker._put(g.point())
    said = "\n".join(asker.said)
    # The topmost card is hit first; Maria's Trap is face down to Anne, its kind unsaid.
    assert f"{g.describe(('at', 1, 'land-2'))} - Land+1 [Walls+4; trap]: hits Walls first, needs 4" in said
    assert f"{g.describe(('at', 1, 'land-3'))} - Land+1: hits Land first, needs 1" in said
    assert said.endswith("needs 1")  # a target decision: nothing said missing


def test_a_note_the_game_cannot_work_out_is_left_out() -> None:
    def broken(game: Any, code: Any) -> str:
        raise KeyError("a card the client never saw")

    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["cannon-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    extras = ConsoleExtras(about=broken, unavailable=lambda game, d: ["never shown"])
    point = g.point()
    assert option_notes(extras, g, point) == ([""] * len(point.options), [])
    asker = At(g, extras)
    asker._put(point)
    assert "   1. attack with Cannon" in asker.said and not any("never" in line for line in asker.said)


def test_a_hosted_games_client_says_the_same_as_the_game_itself() -> None:
    """At each action decision of a seeded random game, a game rebuilt from the deciding seat's
    view (as the client holds it) gives the same notes and the same kinds missing."""
    for game, variant, options, bots in (("taifa", "standard", {}, (1, 2, 4)), ("kingdom", "multi-3", {}, ()),
                                         ("kingdom", "solo", {"difficulty": "easy"}, ())):
        rebuild, first, extras = rebuilder(game), start(game, variant, options, bots), extras_for(game)
        asked = 0
        for g in steps(game, variant, options, bots, 1):
            point = g.point()
            if not isinstance(point, Decision) or point.kind != "action":
                continue
            client = AtPoint(rebuild(first, arrays_as_tuples(g.view(point.seat)), point.seat), point)
            assert option_notes(extras, client, point) == option_notes(extras, g, point)
            asked += bool(option_notes(extras, g, point)[1])
        assert asked, f"{game} {variant}: no action decision lacked a kind of action"
