"""The information wall in Take the Kingdom (KD-29): each seat, and a spectator, sees only what it may.

Seeded games of random choices (multiplayer 2 to 4 and solo) are played step by step, and for
every point of view after every step: the step's events as that viewer reads them
(``events_seen``), the step's words (``tell(...).to``), the view and the text drawn from it hold
no id (and, with cards whose names are all different, no name) of a card that viewer may not see.

What a viewer may not see is worked out from the state, not from the game's words: the cards in
the other kingdoms' hands (multiplayer), the other kingdoms' face-down Traps, and the decks,
before or after the step, less the cards the viewer has seen face up at some moment of the game
(on the table between steps, or named by a choice that plays them, a Trap set face down aside)
and the cards dealt into hands openly at the setup (Charles's Gold, Anne's Dawn Raid, Egbert's
Village when it finds no room).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from rich.console import Console

from core.chance import draw
from core.engine import SPECTATOR, TABLE, Chance, Code, Decision, Over, RulesError, Viewer
from core.kingdom.cards import CardSet, packaged_cards
from core.kingdom.game import KingdomGame
from core.kingdom.lines import HIDDEN_TRAP
from core.kingdom.solo import SoloGame
from core.kingdom.table import Table
from core.rng import SplitMix64
from core.visibility import events_seen, tell, warning
from tui.games.kingdom import panes
from tui.games.kingdom.text import position_text

from wall_support import leaks, strings

from .support import decision, play, realm, round_with, solo, start_turn, table

MOST_STEPS = 5000


def unique_names(cards: CardSet) -> CardSet:
    """The packaged cards, each with a name of its own (``Soldiers #017``): a name in any text
    then tells which card it is, as an id does."""
    return CardSet(tuple(replace(c, name=f"{c.name} #{i:03d}") for i, c in enumerate(cards)))


UNIQUE = unique_names(packaged_cards())


Played = KingdomGame | SoloGame  # a game that plays (Table is what the two share)


def make(variant: str, options: dict[str, Any], cards: CardSet) -> Played:
    return SoloGame(options, cards) if variant == "solo" else KingdomGame(variant, options, cards)


def viewers(g: Table) -> list[Viewer]:
    return [*range(len(g.seats)), SPECTATOR]


def hidden(g: Table, viewer: Viewer) -> set[str]:
    """The cards ``viewer`` may not see where they lie now: other hands (multiplayer), other
    kingdoms' face-down Traps, and every deck."""
    if viewer == TABLE:
        return set()
    s = g.s
    out = set(s.deck) | {c for d in s.decks for c in d}
    for k, r in enumerate(s.realms):
        if k != viewer:
            out |= {sl.trap for sl in r.slots if sl.trap}
            if g.variant != "solo":
                out |= set(r.hand)
    return out


def face_up(g: Table, viewer: Viewer) -> set[str]:
    """The cards ``viewer`` sees now: every card on the table but those hidden from it; at the
    setup, before the deal, the hands too (what the rules put there, for all to know)."""
    s = g.s
    out = set(s.all_cards()) - hidden(g, viewer)
    if g.variant != "solo" and s.turn == 0 and not s.deck:
        out |= {c for r in s.realms for c in r.hand}
    return out


def played_face_up(g: Table, code: Code) -> set[str]:
    """The cards a choice plays, face up for all even when they end the step in a hand (a Gold
    played out of turn passes to the player whose card it bought): every card the option names
    but a Trap that now lies face down."""
    traps = {sl.trap for r in g.s.realms for sl in r.slots}
    return {x for x in code if isinstance(x, str) and x in g.cards.by_id and x not in traps}


def board_text(g: Table, viewer: Viewer) -> str:
    """What the app's kingdom panes draw for ``viewer``, as plain text."""
    console = Console(file=io.StringIO(), width=120, color_system=None)
    for draw_pane in (panes.turn_text, panes.hand_renderable, panes.round_renderable):
        console.print(draw_pane(g, viewer))
    console.print(panes.kingdoms_renderable(g, viewer, 120))
    return console.file.getvalue()  # type: ignore[attr-defined]


def own_trap_words(g: Table, viewer: Viewer) -> set[str]:
    """How the board words ``viewer``'s own face-down Traps for it: an Egbert reads every Trap
    of his as ``Trap (real)`` ("Characters"), whatever its card says."""
    if not isinstance(viewer, int) or not 0 <= viewer < len(g.s.realms):
        return set()
    traps = [sl.trap for sl in g.s.realms[viewer].slots if sl.trap]
    return {f"Trap ({'real' if g.trap_real(viewer, t) else 'decoy'})" for t in traps if g.cards[t].name == "Trap"}


class Wall:
    """What each viewer has seen so far, and the leaks found."""

    def __init__(self, g: Played, names: bool) -> None:
        self.g, self.names = g, names
        self.known: dict[Viewer, set[str]] = {v: face_up(g, v) for v in viewers(g)}
        self.leaks: list[str] = []
        self.n = 0  # steps played

    def forbidden(self, viewer: Viewer, before: set[str]) -> set[str]:
        """The ids of the cards ``viewer`` may not see, their names when all names differ, and
        the labels that tell such a card from others of its name (``Trap (real)``) unless a card
        it may see has that label too."""
        cs = self.g.cards
        cards = (before | hidden(self.g, viewer)) - self.known[viewer]
        labels = {cs.labels[c] for c in cards if cs.labels[c] != cs[c].name}
        labels -= {cs.labels[c.id] for c in cs if c.id not in cards}
        labels -= own_trap_words(self.g, viewer)
        return {*cards, *labels, *(cs[c].name for c in cards if self.names)}

    def check(self, viewer: Viewer, where: str, text: str, words: set[str]) -> None:
        """Any of ``words`` in ``text`` as a whole token (``land-1`` is not in ``land-10``)."""
        found = leaks(text, words)
        if found:
            self.leaks.append(f"step {self.n}, viewer {viewer}, {where}: {found[:5]} in {text[:300]!r}")

    def step(self, point: Decision | Chance, value: Any, draw_board: bool) -> None:
        g = self.g
        before = {v: hidden(g, v) for v in self.known}
        told = tell(g, point, value)
        events = g.resolve(value) if isinstance(point, Chance) else g.apply(value)
        self.n += 1
        played = played_face_up(g, value) if isinstance(point, Decision) else set()
        for v, known in self.known.items():
            known |= face_up(g, v) | played
        for v in self.known:
            words = self.forbidden(v, before[v])
            for e in events_seen(events, v):
                self.check(v, f"event {e.kind}", f"{e.text} | {e.public} | {e.data!r}", words)
            self.check(v, "step words", told.to(v), words)
            self.check(v, "text view", position_text(g, v), words)
            if draw_board:
                self.check(v, "board", board_text(g, v), words)
            shown = set(strings(g.view(v), keys=True)) & hidden(g, v)  # a view holds no hidden card, seen before or not
            if shown:
                self.leaks.append(f"step {self.n}, viewer {v}, view: {sorted(shown)}")


def choices(g: Played, seed: int) -> Iterator[tuple[Decision | Chance, Any]]:
    """Random choices and seeded chance until the game is over."""
    rng = SplitMix64(seed)
    for _ in range(MOST_STEPS):
        p = g.point()
        if isinstance(p, Over):
            return
        yield p, draw(rng, p) if isinstance(p, Chance) else p.options[rng.below(len(p.options))]
    raise AssertionError("the game did not end")


GAMES = [  # variant, options, seeds: every variant and option once or twice (the suite's time is shared)
    ("multi-2", {}, range(1)), ("multi-3", {"survival": True}, range(2)), ("multi-4", {"nobles": "choose"}, range(1)),
    ("multi-3", {"damage_adds_up": False}, range(1)), ("solo", {"difficulty": "expert"}, range(1)),
    ("solo", {"difficulty": "easy"}, range(1)), ("multi-3", {"always_ask": False}, range(1)),
]


@pytest.mark.parametrize("names", [False, True], ids=["packaged", "unique-names"])
@pytest.mark.parametrize("variant,options,seeds", GAMES, ids=[f"{v}-{i}" for i, (v, _, _) in enumerate(GAMES)])
def test_no_viewer_reads_a_card_it_may_not_see(variant: str, options: dict[str, Any], seeds: range,
                                               names: bool) -> None:
    hid = 0
    for seed in seeds:
        g = make(variant, options, UNIQUE if names else packaged_cards())
        wall = Wall(g, names)
        for n, (point, value) in enumerate(choices(g, seed)):
            wall.step(point, value, draw_board=n % 9 == 0)
            hid += sum(bool(hidden(g, v) - wall.known[v]) for v in wall.known)
        assert not wall.leaks, "\n".join(wall.leaks[:10])
        assert g.result is not None
    assert hid  # there was something to hide


# -- the full table -----------------------------------------------------------------------------


def test_the_full_table_sees_every_hand_every_trap_and_the_deck_order() -> None:
    g = table("egbert", "maria")
    realm(g, 0, "castle-1", castle_trap="trap-2", hand=["deny-1", "soldiers-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], "trap-1")], hand=["gold-1"])
    start_turn(g, 0, deck=["walls-1", "cannon-1", "moat-1", "pikemen-1", "deny-2", "land-2"])
    full = g.view(TABLE)
    assert [r["hand"] for r in full["realms"]][1] == ("gold-1",)
    assert full["realms"][0]["slots"][0]["trap"] == "trap-2" and full["realms"][1]["slots"][1]["trap"] == "trap-1"
    assert full["deck_order"] == tuple(g.s.deck) and g.s.deck  # what is left of it, top first
    for seat in (0, 1, SPECTATOR):
        assert "deck_order" not in g.view(seat) and "decks_order" not in g.view(seat)
    assert g.view(1)["realms"][0]["slots"][0]["trap"] == HIDDEN_TRAP
    shown = position_text(g, TABLE)
    assert "Player 2 (Maria)'s hand: 1 card\n  Gold" in shown and "Trap (face down; real)" in shown
    assert "deck order, top first: Pikemen -1, Deny, Land +1" in shown
    board = board_text(g, TABLE)
    assert "Player 2 (Maria)'s hand: 1 card" in board and "Gold" in board and "Trap (real)" in board
    assert "deck order, top first: Pikemen -1, Deny, Land +1" in board


def test_the_full_table_of_a_solo_game_shows_the_three_decks_in_order() -> None:
    g = solo("easy")
    full = g.view(TABLE)
    assert full["decks_order"] == tuple(tuple(d) for d in g.s.decks) and full["deck_order"] == ()
    first = g.s.decks[0][0]
    assert f"Attack deck, top first: {g.label(first)}" in position_text(g, TABLE)
    assert "deck, top first" not in position_text(g, 0) + position_text(g, SPECTATOR)


# -- what the others read of a choice ---------------------------------------------------------


def test_a_trap_set_face_down_is_told_to_the_others_by_where_alone() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", lands=[("land-1", [], None)], hand=["trap-1", "trap-2", "walls-1"])
    realm(g, 1, "castle-2", hand=["gold-1"])
    start_turn(g, 0)
    point = decision(g)
    code = ("place", "trap-1", "land-1")
    told = tell(g, point, code)
    assert told.to(0) == "Trap (real) under Player 1 (Anne)'s Land" == g.describe(code)
    for other in (1, SPECTATOR):
        assert told.to(other) == g.public_words(code) == "a Trap face down under Player 1 (Anne)'s Land"
    assert told.to(TABLE) == told.to(0)
    assert g.describe(("place", "trap-2", "land-1")) == "Trap (decoy) under Player 1 (Anne)'s Land"
    events = g.apply(code)
    assert [e.text for e in events_seen(events, 1)] == ["Player 1 (Anne) sets a Trap face down under "
                                                       "Player 1 (Anne)'s Land"]
    assert all("trap-1" not in repr(e) for e in events_seen(events, 1))


def test_every_other_choice_is_public() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", lands=[("land-1", [], None)], hand=["walls-1", "soldiers-1", "fortune-1"],
          mercy=["mercy-1"])
    realm(g, 1, "castle-2", hand=["gold-1"])
    start_turn(g, 0)
    assert {g.public_words(code) for code in decision(g).options} == {None}


def test_a_draw_is_read_by_the_drawer_and_counted_for_the_others() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["soldiers-1"])
    realm(g, 1, "castle-2", hand=["gold-1"])
    events = start_turn(g, 0, deck=["walls-1", "cannon-1", "moat-1", "pikemen-1", "deny-1", "land-1"])
    (drew,) = [e for e in events if e.kind == "draw"]
    assert drew.seen == frozenset({0}) and drew.text == "Player 1 (Anne) draws 4 cards: Walls, Cannon, Moat, " \
        "Pikemen (hand of 5)"
    for other in (1, SPECTATOR):
        (e,) = [e for e in events_seen(events, other) if e.kind == "draw"]
        assert e.text == "Player 1 (Anne) draws 4 cards (hand of 5)" and e.data == ()


# -- questions asked once ----------------------------------------------------------------------


def test_ending_a_turn_with_plays_left_asks_once() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", lands=[("land-1", [], None)], hand=["walls-1", "hills-1", "moat-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    assert warning(g, ("done",)) == "End your turn with 3 plays left?"
    assert warning(g, ("place", "walls-1", "land-1")) is None
    play(g, ("place", "walls-1", "land-1"))
    assert g.warning(("done",)) == "End your turn with 2 plays left?"
    play(g, ("place", "hills-1", "land-1"))
    assert g.warning(("done",)) == "End your turn with 1 play left?"
    assert g.warning(("pass",)) is None  # not an option here


def test_discarding_the_solo_card_unplayed_asks_once() -> None:
    g = solo("easy")
    round_with(g, "soldiers-1", "walls-1", "deny-1")
    play(g, ("take", "walls-1"), ("give", "deny-1", 1))
    assert ("discard", "walls-1") in decision(g).options
    assert g.warning(("discard", "walls-1")) == "Discard Walls without playing it?"
    assert g.warning(("place", "walls-1", "castle-1")) is None


# -- names, not ids ------------------------------------------------------------------------------


def test_cards_are_named_without_ids_unless_two_in_a_kingdom_read_the_same() -> None:
    g = table("anne", "maria")
    realm(g, 0, "castle-1", lands=[("land-1", ["mercenaries-2"], None)],
          hand=["soldiers-1", "soldiers-2", "mercenaries-1", "trap-1"], mercy=["mercy-1"])
    realm(g, 1, "castle-2", lands=[("land-2", ["knights-1"], None), ("land-3", ["knights-2"], None)])
    start_turn(g, 0)
    said = {g.describe(code): code for code in decision(g).options}
    assert "attack with Soldiers" in said and "attack with Mercenaries +/-1" in said
    assert "attack with Mercenaries +/-2 from Player 1 (Anne)'s Land" in said
    assert "Mercy from beside the Castle as a Land" in said and "Trap (real) under Player 1 (Anne)'s Castle" in said
    assert g.label("land-2") == "Land" and g.where(1, g.s.realms[1].slots[1]) == "Player 2 (Maria)'s Land (land-2)"
    assert g.where(1, g.s.realms[1].slots[0]) == "Player 2 (Maria)'s Castle"
    assert not any(re.search(r"\b(soldiers|mercenaries|trap|castle|mercy)-\d", words) for words in said)
    # what describe prints is parsed back; copies of one card are one option
    for words, code in said.items():
        assert g.describe(g.parse(words)) == words
    assert g.parse("attack with soldiers")[1] in ("soldiers-1", "soldiers-2")
    assert g.parse("attack with Mercenaries +/-1") == ("attack", "mercenaries-1")
    with pytest.raises(RulesError, match="could be 3 options"):  # attack, or place on the Castle or the Land
        g.parse("Mercenaries +/-1")


def place_of(g: Table, cid: str) -> str:
    """Where a card is, as far as copies go: whose hand, beside whose Castle, which slot, a pile."""
    s = g.s
    for k, r in enumerate(s.realms):
        if cid in r.hand:
            return f"hand {k}"
        if cid in r.mercy:
            return f"mercy {k}"
        for sl in r.slots:
            if cid == sl.card or cid in sl.defences or cid == sl.trap:
                return f"slot {k} {sl.card}"
    return "pool" if cid in s.pool else "in play" if cid in s.in_play else "elsewhere"


def copies(g: Table, a: Code, b: Code) -> bool:
    """Two options alike in play: the same but for copies of one card (the solo mark aside, which
    only sorts the cards into the solo decks) in one place."""
    if len(a) != len(b) or a[0] != b[0]:
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        if not (isinstance(x, str) and isinstance(y, str) and x in g.cards.by_id and y in g.cards.by_id):
            return False
        cx, cy = g.cards[x], g.cards[y]
        if replace(cx, id="", text="", effect="", solo=False) != replace(cy, id="", text="", effect="", solo=False):
            return False
        if place_of(g, x) != place_of(g, y) or place_of(g, x).startswith("slot"):
            return False
    return True


@pytest.mark.parametrize("variant,options", [("multi-3", {"survival": True}), ("multi-4", {"nobles": "choose"}),
                                             ("solo", {"difficulty": "medium"})])
def test_options_that_read_the_same_are_copies_and_parse_back(variant: str, options: dict[str, Any]) -> None:
    for seed in range(4):
        g = make(variant, options, packaged_cards())
        for point, value in choices(g, seed):
            if isinstance(point, Decision):
                said: dict[str, list[Code]] = {}
                for code in point.options:
                    said.setdefault(g.describe(code), []).append(code)
                for words, codes in said.items():
                    assert all(copies(g, codes[0], c) for c in codes[1:]), (words, codes)
                    assert g.parse(words) in codes and g.parse(words.upper()) in codes
                    assert not re.search(r"\((trap|mercenaries|soldiers|deny|gold)-\d+\)", words), words
                g.apply(value)
            else:
                g.resolve(value)


# -- questions that do not tell what a hand holds (KD-30) --------------------------------------


def asked(g: Table) -> tuple[int, str, str]:
    """A decision as every seat but the decider reads it: whose, its words, its kind (the options
    are the decider's alone)."""
    d = decision(g)
    return d.seat, d.prompt, d.kind


def attack_position(other: str, **options: Any) -> Table:
    g = table("anne", "maria", **options)
    realm(g, 0, "castle-1", hand=["soldiers-1", other])
    realm(g, 1, "castle-2", lands=[("land-1", [], None), ("land-2", [], None)])
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"))
    return g


def penalty_position(other: str, **options: Any) -> Table:
    g = table("anne", "maria", **options)
    realm(g, 0, "castle-1", hand=["walls-1", other])
    realm(g, 1, "castle-2")
    start_turn(g, 0, deck=["disease-1"])
    return g


def freeze_position(other: str, **options: Any) -> Table:
    g = table("anne", "maria", **options)
    realm(g, 0, "castle-1", hand=["freeze-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)], hand=["walls-1", other])
    start_turn(g, 0)
    play(g, ("freeze", "freeze-1", 1), ("pass",))  # Anne has no card left: Maria's turn
    return g


@pytest.mark.parametrize("position,fits,plain,use", [
    (attack_position, "morale-1", "hills-1", ("morale", "morale-1")),
    (attack_position, "spread-1", "hills-1", ("spread", "spread-1")),
    (penalty_position, "deny-1", "hills-1", ("cancel", "deny-1")),
    (penalty_position, "mercy-2", "hills-1", ("cancel", "mercy-2")),
    (freeze_position, "mercy-2", "hills-1", ("unfreeze", "mercy-2")),
], ids=["morale", "spread", "penalty-deny", "penalty-mercy", "freeze-mercy"])
def test_a_question_only_a_hidden_card_answers_is_asked_whether_the_hand_holds_it(position: Any, fits: str,
                                                                                  plain: str, use: Code) -> None:
    holds, lacks = position(fits), position(plain)
    assert asked(holds) == asked(lacks)  # the same decision point for everyone: whose, words, kind
    decline = decision(lacks).options
    assert len(decline) == 1 and decline[0] in (("go",), ("accept",))
    assert decision(holds).options == (use, *decline)
    if position is attack_position:  # the words name neither card the hand might hold
        assert "morale" not in asked(holds)[1].lower() and "spread" not in asked(holds)[1].lower()
    for viewer in (1 - decision(holds).seat, SPECTATOR):
        for code in decision(holds).options:
            assert holds.public_words(code) is None or fits not in holds.public_words(code)
        assert fits not in position_text(holds, viewer) and fits not in repr(holds.view(viewer))
    # revision 1 (always_ask off) asked only the holder: the question itself told the others
    old_holds, old_lacks = position(fits, always_ask=False), position(plain, always_ask=False)
    assert decision(old_holds).options == (use, *decline)
    p = old_lacks.point()
    assert not (isinstance(p, Decision) and (p.seat, p.prompt, p.kind) == asked(old_holds))


def test_what_everyone_sees_still_spares_a_question() -> None:
    # an attack with nothing left in hand: everyone sees there is nothing to add
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["soldiers-1"])
    realm(g, 1, "castle-2", lands=[("land-1", [], None)])
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"))
    assert decision(g).kind == "target"
    # Spread needs two targets and Morale is in: nothing more may be added, Spread in hand or not
    g = table("anne", "maria")
    realm(g, 0, "castle-1", hand=["soldiers-1", "morale-1", "spread-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0)
    play(g, ("attack", "soldiers-1"), ("morale", "morale-1"))
    assert decision(g).kind == "target"
    # a Penalty under Famine, which everyone saw strike: no Deny or Mercy may cancel it (KD-17's
    # option famine_own_turn, revision 2; by default Famine does not forbid them on its own turn)
    g = table("anne", "maria", famine_own_turn=True)
    realm(g, 0, "castle-1", hand=["walls-1", "deny-1", "soldiers-1"])
    realm(g, 1, "castle-2")
    start_turn(g, 0, deck=["famine-1", "plague-1"])
    assert decision(g).options == (("cancel", "deny-1"), ("accept",))  # the Famine, first
    play(g, ("accept",))
    assert decision(g).kind == "action" and g.s.plays == 1 and "defend" in g.s.banned  # the Plague, unasked


def test_the_ai_declines_an_always_asked_question_when_it_holds_nothing_that_fits() -> None:
    from core.kingdom.ai import KingdomAI

    for level in ("greedy", "full"):
        for g, decline in ((attack_position("hills-1"), ("go",)), (penalty_position("hills-1"), ("accept",)),
                           (freeze_position("hills-1"), ("accept",))):
            assert KingdomAI(1, level=level).choose(g, decision(g)) == decline


def test_revision_1_records_play_with_always_ask_off_and_keep_their_digests() -> None:
    from pathlib import Path

    from core.games import info
    from notation.reader import read_record_file
    from notation.verify import verify

    from core.kingdom import REVISION_2, REVISION_3, _option_specs

    gi = info("kingdom")
    assert gi.revision == 4
    solo_names = {s.name for s in _option_specs("solo")}
    multi_names = {s.name for s in _option_specs("multi-3")}
    later = {**REVISION_2, **REVISION_3}
    assert gi.record_options(1, "multi-3", {}) == {
        **{n: v for n, v in later.items() if n in multi_names}, "always_ask": False, "nobles": "deal"}
    assert gi.record_options(1, "solo", {"difficulty": "easy"}) == {  # nothing hidden in solo
        "difficulty": "easy", **{n: v for n, v in later.items() if n in solo_names}}
    with pytest.raises(RulesError, match="did not exist in kingdom rules revision 1"):
        gi.record_options(1, "multi-3", {"always_ask": True})
    with pytest.raises(RulesError, match="revision 0"):
        gi.record_options(0, "multi-3", {})
    old = gi.make("multi-3", {"always_ask": False})
    assert "always_ask" not in old.canonical()["options"]
    assert gi.make("multi-3", {}).canonical()["options"]["always_ask"] is True
    replays = Path(__file__).resolve().parents[2] / "replays"
    for path in sorted(replays.glob("kingdom-*.fief")):
        rec = read_record_file(path)
        if rec.header.revision != 1:  # the current revision's goldens (tests/golden)
            continue
        assert "always_ask" not in rec.header.options
        assert verify(rec).ok, path
