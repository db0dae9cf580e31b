"""The information wall in Taifa (DESIGN.md, "The information wall"; docs/rulings/taifa.md TA-37..39).

Seeded games with people (random choices) in several seats: for every seat and the spectator,
no event as that seat reads it, no step's words and no view names a card the seat may not see
then (another kingdom's hand, a bot's face-down pile, a card placed face down by another
kingdom, a draw pile). What a seat may not see is worked out from the state, card by card,
never from the wording; the events and words are searched for those cards' ids and names.
Then the choices' public words and warnings, the full table's view, and card words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from core.chance import SeededChance
from core.engine import SPECTATOR, TABLE, Chance, Decision, Event, Over, Viewer
from core.rng import SplitMix64
from core.taifa.game import TaifaGame
from core.visibility import events_seen, tell, warning
from support import EL_CID, STANDARD, area, begin, decision, give, k, new_game, play, table
from tui.games.taifa import text

CARD_ID = re.compile(r"\b[CM]\d{2,3}\b")


def hidden(g: TaifaGame, seat: Viewer) -> set[str]:
    """The cards ``seat`` may not see in ``g``'s state: the draw piles, every hand but its own
    (a bot's face-down pile even to its own seat, 9.1), other kingdoms' face-down fight cards."""
    if seat == TABLE:
        return set()
    s = g.s
    out = {c for pile in s.draw.values() for c in pile}
    for n, hand in enumerate(s.hands):
        if n != seat or s.bots[n]:
            out.update(hand)
    if s.fight is not None:
        out.update(c for _, who, c, up in s.fight.cards if not up and who != seat)
    return out


@dataclass
class Unit:
    """A stretch of a step within one unit of play: its events, and the states it ran between."""

    events: list[Event]
    start: TaifaGame
    end: TaifaGame


def units(before: TaifaGame, events: list[Event], after: TaifaGame) -> list[Unit]:
    """A step's events cut where each unit of play began (``frames()``), each with the game as
    its unit began and as the next one began (or as the step ended)."""
    cuts = [(0, before)] + after.frames() + [(len(events), after)]
    return [Unit(events[i:j], start, cuts[n + 1][1]) for n, ((i, start), (j, _)) in enumerate(zip(cuts, cuts[1:]))]


def unseen(u: Unit, seat: Viewer) -> set[str]:
    """The cards ``seat`` may not see anywhere in ``u``: hidden as it began and as it ended, and
    not shuffled into a draw pile during it (a card discarded face up, then reshuffled, was seen)."""
    back = {c for d, pile in u.end.s.draw.items() for c in pile} - {c for pile in u.start.s.draw.values() for c in pile}
    return (hidden(u.start, seat) & hidden(u.end, seat)) - back


class Leaks:
    """Searches words for the ids and the names of cards; a name counts only when no card the
    seat may see has it (three copies of Razzia: one face up names none of the others)."""

    def __init__(self, g: TaifaGame) -> None:
        self.g = g
        self.every = [c.id for d in g.decks for c in d]
        self.finds: dict[frozenset[str], re.Pattern[str] | None] = {}  # by the cards hidden
        self.by_names: dict[frozenset[str], re.Pattern[str] | None] = {}  # by the names only they have
        self.strips: dict[frozenset[str], re.Pattern[str]] = {}

    def find(self, secret: frozenset[str]) -> re.Pattern[str] | None:
        """The names only hidden cards have (None if none): one pattern for each set of names, however
        many sets of cards give it."""
        if secret not in self.finds:
            g = self.g
            seen = {g.card(c).name for c in self.every if c not in secret}
            names = frozenset({g.card(c).name for c in secret} - seen)
            if names not in self.by_names:
                self.by_names[names] = re.compile("|".join(rf"\b{re.escape(n)}\b" for n in names)) if names else None
            self.finds[secret] = self.by_names[names]
        return self.finds[secret]

    def strip(self, secret: frozenset[str]) -> re.Pattern[str]:
        """What to strip first (the names and texts of cards the seat may see: "plays Militia: ...",
        "Pay Parias" before "Parias" is looked for): made only for words in which :meth:`find` finds a
        name (a pattern of every text and name, dear to make for each set of hidden cards)."""
        if secret not in self.strips:
            g = self.g
            seen = {g.card(c).name for c in self.every if c not in secret}
            texts = {g.card(c).text for c in self.every if c not in secret}
            words = sorted([(t, re.escape(t)) for t in texts] + [(n, rf"\b{re.escape(n)}\b") for n in seen],
                           key=lambda w: len(w[0]), reverse=True)
            self.strips[secret] = re.compile("|".join(pattern for _, pattern in words))
        return self.strips[secret]

    def found(self, words: str, secret: set[str]) -> list[str]:
        out = [cid for cid in CARD_ID.findall(words) if cid in secret]
        key = frozenset(secret)
        find = self.find(key)
        if find is None or not find.search(words):  # most words: no such name at all
            return out
        return out + find.findall(self.strip(key).sub(" ", words))


def event_words(e: Event) -> str:
    return f"{e.text} {e.public} {e.data!r}"


def viewers(g: TaifaGame) -> list[Viewer]:
    return [SPECTATOR, *range(len(g.seats))]


def play_seeded(variant: str, players: Iterable[str], seed: int, steps: int | None = None
                ) -> Iterator[tuple[TaifaGame, Any, Any, list[Event], TaifaGame]]:
    """A whole game (or ``steps`` of it), people choosing at random: yields each step as (the game
    before it, its point, the answer, its events, the game after it)."""
    g = new_game(variant, players)
    rng, chance = SplitMix64(seed), SeededChance(seed)
    n = 0
    while not isinstance(p := g.point(), Over) and (steps is None or n < steps):
        before = g.clone()
        if isinstance(p, Chance):
            outcome = p.validate(chance.outcome(p))
            yield before, p, outcome, g.resolve(outcome), g
        else:
            code = p.options[rng.below(len(p.options))]
            yield before, p, code, g.apply(code), g
        n += 1


GAMES = [
    ("standard", ("castile", "valencia", "leon"), 1),  # people and bots
    ("standard", STANDARD, 2),  # six people
    ("standard", ("catalans", "badajoz"), 3),
    ("el-cid", ("el_cid",), 4),  # the solitaire
    ("el-cid", EL_CID, 5),
]


@pytest.mark.parametrize("variant, players, seed", GAMES)
def test_no_seat_reads_or_sees_a_card_it_may_not_see(variant: str, players: tuple[str, ...], seed: int) -> None:
    leaks: list[tuple[Any, ...]] = []
    told_own = 0  # cards named to their holder: the wall hides, it does not silence
    search = None
    for n, (before, point, value, events, after) in enumerate(play_seeded(variant, players, seed), 1):
        search = search or Leaks(after)
        parts = units(before, events, after)
        for seat in viewers(after):
            first = unseen(parts[0], seat)
            said = tell(before, point, value).to(seat)
            leaks += [(n, seat, "step", said, c) for c in search.found(said, first)]
            for u in parts:
                secret = unseen(u, seat)
                for e in events_seen(u.events, seat):
                    leaks += [(n, seat, "event", e.text, c) for c in search.found(event_words(e), secret)]
                    told_own += e.kind == "draw" and bool(e.public) and e.text != e.public  # as the drawer reads it
            # The last combat is history: its cards were turned face up for all (5.1 step 5),
            # wherever they have gone since (a reshuffle); the rest is the table now.
            view = {key: v for key, v in after.view(seat).items() if key != "last_combat"}
            leaks += [(n, seat, "view", "", c) for c in search.found(repr(view), hidden(after, seat))]
        if after.s.last_combat is not None:
            assert all(up for *_, up in after.s.last_combat[0].cards)
        assert not leaks, leaks[:5]
    assert told_own, "a player reads the names of the cards it draws"


def test_draws_are_named_to_the_drawer_and_counted_to_the_others() -> None:
    """Turn 1's draws as each point of view reads them: a player's cards to that player, a bot's
    face-down pile to nobody at the table (9.1), a count to everyone else (TA-37, TA-38)."""
    g = table(players=("castile", "leon"))
    give(g, "castile", "C08", "C22")
    g.s.turn = 0  # turn 1 begins: the decks are shuffled, then every kingdom draws (3.1)
    events = begin(g, ("turn_start",))
    events += play(g, tuple(range(len(g.s.draw["christian"]))), tuple(range(len(g.s.draw["muslim"]))))
    draws = [e for e in events if e.kind == "draw" and e.public]
    castile = next(e for e in draws if e.data[0] == k(g, "castile"))
    leon = next(e for e in draws if e.data[0] == k(g, "leon"))
    assert castile.seen == frozenset({k(g, "castile")}) and castile.public == "Castile draws 8 cards"
    assert castile.text.startswith("Castile draws 8 cards: ") and "(C" not in castile.text
    bot = next(e for e in draws if e.data[0] == k(g, "valencia"))
    assert bot.seen == frozenset() and bot.public == "Taifa of Valencia draws 8 cards"  # 9.1: nobody, TA-38
    assert [e.text for e in events_seen([castile, leon, bot], k(g, "leon"))] == \
        ["Castile draws 8 cards", leon.text, "Taifa of Valencia draws 8 cards"]
    assert events_seen([castile], TABLE) == [castile]


def fight_at_toledo() -> TaifaGame:
    """Castile (a person) attacks Toledo holding Mesnada and Champion; León is a person too."""
    g = table(players=("castile", "leon"))
    give(g, "castile", "C08", "C22", "C35")
    give(g, "leon", "C21", "C09")
    begin(g, current="castile")
    play(g, ("attack", area(g, "Toledo")))
    return g


def test_a_card_added_face_down_is_named_to_its_player_only() -> None:
    g = fight_at_toledo()
    castile, leon = k(g, "castile"), k(g, "leon")
    assert g.public_words(("add", "C08")) == "Castile places a card face down on the attack"
    told = tell(g, g.point(), ("add", "C08"))
    assert told.to(castile) == told.to(TABLE) == "add Mesnada (3)"
    assert told.to(leon) == told.to(SPECTATOR) == "Castile places a card face down on the attack"
    (placed,) = play(g, ("add", "C08"))
    assert placed.as_seen(castile) is placed and placed.text == "Castile places Mesnada (3) face down on the attack"
    assert placed.as_seen(leon) == Event("commit", "Castile places a card face down on the attack", "taifa 5.1")
    assert "C08" not in repr(g.view(leon)) and "C08" in repr(g.view(castile)) and "C08" in repr(g.view(TABLE))
    assert g.view(SPECTATOR)["fight"]["down"] == (True,)
    assert g.public_words(("done",)) is None
    play(g, ("done",))
    assert decision(g, "leon").kind == "respond"
    assert g.public_words(("respond", "defence", "C21")) == "Leon places a card face down on the defence"
    assert g.public_words(("done",)) is None


def test_public_choices_have_no_public_words() -> None:
    g = table(players=("castile", "leon"))
    give(g, "castile", "C08", "C22", "C35")
    begin(g, current="castile")
    for code in decision(g, "castile").options:  # attack, incursion, play, discard, pass: all face up
        assert g.public_words(code) is None, code


def test_a_random_discard_is_seen_by_the_hands_player_only() -> None:
    """5.3: the raided hand loses a card drawn blind; which one it was is the raided player's to see
    until it lies face up (TA-39)."""
    g = table(players=("castile", "leon"))
    give(g, "castile", "C08")
    give(g, "leon", "C21", "C09", "C35")
    begin(g, current="castile")
    play(g, ("incursion", "leon"), ("troop", "C08"))
    while not isinstance(g.point(), Chance):
        play(g, ("done",))
    play(g, (6,))
    p = g.point()
    assert isinstance(p, Chance) and p.kind == "pick" and p.seen == frozenset({k(g, "leon")})
    told = tell(g, p, 1)
    assert told.to(k(g, "leon")) == "a random card from Leon's hand: 2 of 3"
    assert told.to(k(g, "castile")) == told.to(SPECTATOR) == "a random card from Leon's hand (one of 3)"
    discarded = next(e for e in play(g, 1) if e.kind == "discard")
    assert discarded.seen is None and discarded.text == "Leon discards Champion at random"  # C21, face up (5.3)


def test_a_pass_that_ends_the_turn_with_cards_asks_first() -> None:
    g = table(players=("castile",))
    give(g, "castile", "C08", "C22")
    g.s.passes = 5  # every other kingdom passed in a row
    begin(g, current="castile")
    assert warning(g, ("pass",)) == ("Every other kingdom has passed: pass and end turn 1 with 2 cards in hand? "
                                     "You would draw 2 fewer next turn (5.6).")
    assert warning(g, ("discard", "C08")) is None and warning(g, ("attack", area(g, "Toledo"))) is None
    g.s.turn = 3
    assert warning(g, ("pass",)) == "Every other kingdom has passed: pass and end the game with 2 cards unplayed?"


@pytest.mark.parametrize("passes, cards", [(4, ("C08",)), (5, ())])
def test_a_pass_the_turn_survives_or_that_carries_nothing_asks_nothing(passes: int, cards: tuple[str, ...]) -> None:
    g = table(players=("castile",))
    give(g, "castile", *cards)
    g.s.passes = passes
    begin(g, current="castile")
    assert warning(g, ("pass",)) is None


def test_the_bonus_at_plus_2_asks_first() -> None:
    """TA-32: the bonus is offered at +2, where it is lost (7)."""
    g = table(players=("castile",))
    give(g, "castile", "C08", "C22")
    g.s.owner[area(g, "Toledo")] = -1
    begin(g, current="castile")
    play(g, ("attack", area(g, "Toledo")), ("add", "C08"), ("add", "C22"))
    while not isinstance(p := g.point(), Decision) or p.kind != "choose":
        play(g, (6,) * p.spec[0] if isinstance(p, Chance) else ("done",))
    assert warning(g, ("bonus",)) is None and warning(g, ("garrison",)) is None
    g.s.bonus[k(g, "castile")] = 2
    assert warning(g, ("bonus",)) == \
        "Your Card Bonus is at +2 already: take the bonus and lose it (7), rather than a garrison?"


def test_the_full_table_sees_every_hand_every_face_down_card_and_the_draw_order() -> None:
    g = fight_at_toledo()
    play(g, ("add", "C08"))
    g.s.bots = tuple(n != k(g, "castile") for n in range(6))
    v = g.view(TABLE)
    for n, row in enumerate(v["kingdoms"]):
        assert row["hand"] == (tuple(g.s.hands[n]) if g.s.bots[n] else tuple(sorted(g.s.hands[n])))
    assert v["fight"]["cards"] == (("attack", k(g, "castile"), "C08"),)
    assert v["draw_order"] == {d: tuple(reversed(p)) for d, p in g.s.draw.items()}
    for seat in viewers(g):
        assert g.view(seat)["draw_order"] is None
    assert g.view(SPECTATOR)["fight"]["cards"] == (("attack", k(g, "castile"), None),)


def test_the_text_view_of_the_full_table_shows_every_hand_and_pile() -> None:
    g = fight_at_toledo()
    play(g, ("add", "C08"))
    give(g, "valencia", "M09", "M01")  # a bot's face-down pile, top first
    top = g.label("M09")
    said = text.position_text(g, TABLE)
    assert "  hand: Champion, Razzia" in said  # Castile's, C08 on the table
    assert f"face-down pile, top first: {top}, " in said and "christian draw pile, top first: " in said
    assert "attack, Castile: Mesnada (3) (face down)" in said
    lines = text.plain(text.hand_lines(g, TABLE) or [])
    assert "Leon's hand: 2 cards" in lines and "The muslim draw pile, top first: " in lines
    assert CARD_ID.search(text.position_text(g, SPECTATOR)) is None


def test_a_card_is_worded_by_its_face_and_by_its_id_only_to_tell_two_apart() -> None:
    g = table(players=("castile",))
    give(g, "castile", "C08", "C09", "C22", "C43", "C45")  # two Mesnadas, a Champion, two Cavalry Charges
    begin(g, current="castile")
    said = {code: g.describe(code) for code in decision(g, "castile").options}
    assert said[("discard", "C08")] == "discard Mesnada (C08, 3)" and said[("discard", "C09")] == "discard Mesnada (C09, 3)"
    assert said[("discard", "C22")] == "discard Champion"
    cavalry = {g.card(c).offensive: c for c in ("C43", "C45")}
    assert said[("discard", cavalry[True])] == "discard Cavalry Charge (offensive)"
    assert said[("discard", cavalry[False])] == "discard Cavalry Charge"
    for code, words in said.items():
        assert g.parse(words) == code
    assert g.parse("discard cavalry charge (offensive)") == ("discard", cavalry[True])


@pytest.mark.parametrize("variant, players, seed", GAMES[:1] + GAMES[3:4])
def test_descriptions_name_ids_only_to_tell_options_apart(variant: str, players: tuple[str, ...], seed: int) -> None:
    for before, point, _value, _events, _after in play_seeded(variant, players, seed, steps=1500):
        if not isinstance(point, Decision):
            continue
        words = {code: before.describe(code) for code in point.options}
        for code, said in words.items():
            if CARD_ID.search(said):
                bare = before.label(str(code[-1]))
                twins = [o for o in point.options if o != code and o[:-1] == code[:-1] and len(o) == len(code)
                         and before.label(str(o[-1])) == bare]
                assert twins, said
