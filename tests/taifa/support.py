"""Helpers for Taifa scenario tests: build a position, script the dice, read the events.

A position is built from a real game: ``table()`` starts a game, lets the
first turn's shuffles fall in sorted order, then gathers every card back into
its draw pile (in id order) and clears the table. A test then deals the cards
it needs with :func:`give` (taken from wherever they are, so each card stays
in exactly one place), sets owners, garrisons and bonuses on ``g.s``, and
calls :func:`begin` (``g.restart``). :func:`play` feeds the script: option
codes to Decisions, dice tuples and picks to Chance points.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from core.digest import digest
from core.engine import Chance, Decision, Event, Over
from core.taifa.cards import Decks
from core.taifa.game import TaifaGame
from core.taifa.state import INDEPENDENT

STANDARD = ("castile", "catalans", "valencia", "seville", "badajoz", "leon")
EL_CID = ("almoravids", "castile", "catalans", "el_cid")


def new_game(variant: str = "standard", players: Iterable[str] = (), decks: Decks | None = None,
             **options: Any) -> TaifaGame:
    """A fresh game; every kingdom not in ``players`` is a rulebook bot."""
    keys = STANDARD if variant == "standard" else EL_CID
    players = set(players)
    return TaifaGame(variant, options or None, bots=[k for k in keys if k not in players], decks=decks)


def table(variant: str = "standard", players: Iterable[str] = (), decks: Decks | None = None,
          **options: Any) -> TaifaGame:
    """A game in turn 1 with every card back in its draw pile and nothing in play.

    The map keeps its printed deployment; every Card Bonus is 0. Deal with
    :func:`give`, edit ``g.s``, then :func:`begin`.
    """
    keys = STANDARD if variant == "standard" else EL_CID
    g = TaifaGame(variant, options or None, bots=[], decks=decks)  # no bot moves before the set-up
    while isinstance(g.point(), Chance):
        g.resolve(tuple(range(g.point().spec[0])))  # the first turn's shuffles
    s = g.s
    s.bots = tuple(key not in set(players) for key in keys)
    for k in range(len(s.kingdoms)):
        for pile in (s.hands[k], s.army[k], s.ready[k], s.permanent[k]):
            for cid in pile:
                s.draw[g.deck_of(cid)].append(cid)
            pile.clear()
    for deck in s.draw:
        s.draw[deck].extend(s.discard[deck])
        s.discard[deck] = []
    for cid in s.in_play + s.removed:
        s.draw[g.deck_of(cid)].append(cid)
    s.in_play, s.removed = [], []
    for deck in s.draw:
        s.draw[deck].sort()
    s.fight, s.last_dice = None, None
    s.bonus = [0] * len(s.kingdoms)
    s.kept = [0] * len(s.kingdoms)
    s.passes, s.current, s.turn = 0, 0, 1
    s.truces = []
    assert_one_place(g)
    return g


def k(g: TaifaGame, key: str) -> int:
    """A kingdom's number (its seat) from its key."""
    return g.s.kingdoms.index(key)


def area(g: TaifaGame, name: str) -> int:
    return g.m.by_name(name).id


def where(g: TaifaGame, cid: str) -> list[str]:
    """Every pile holding ``cid``, by a short name (one, if the table is sound)."""
    s, out = g.s, []
    for n, key in enumerate(s.kingdoms):
        for label, piles in (("hand", s.hands), ("army", s.army), ("ready", s.ready), ("permanent", s.permanent)):
            if cid in piles[n]:
                out.append(f"{label}:{key}")
    for label, piles in (("draw", s.draw), ("discard", s.discard)):
        for deck, pile in piles.items():
            if cid in pile:
                out.append(f"{label}:{deck}")
    for label, pile in (("removed", s.removed), ("held", s.held), ("in_play", s.in_play)):
        if cid in pile:
            out.append(label)
    return out


def _take(g: TaifaGame, cid: str) -> None:
    s = g.s
    for pile in (*s.hands, *s.army, *s.ready, *s.permanent, *s.draw.values(), *s.discard.values(),
                 s.removed, s.in_play):
        if cid in pile:
            pile.remove(cid)
            return
    raise AssertionError(f"{cid} is not on the table ({where(g, cid)})")


def give(g: TaifaGame, key: str, *cids: str, pile: str = "hands") -> None:
    """Move cards to a kingdom's ``hands`` (a bot's face-down pile, top first), ``army``,
    ``ready`` or ``permanent``, in the order given, from wherever they are."""
    n = k(g, key)
    for cid in cids:
        _take(g, cid)
        getattr(g.s, pile)[n].append(cid)


def discard(g: TaifaGame, *cids: str) -> None:
    for cid in cids:
        _take(g, cid)
        g.s.discard[g.deck_of(cid)].append(cid)


def on_top(g: TaifaGame, *cids: str) -> None:
    """Put cards on top of their draw pile, the first named drawn first."""
    for cid in reversed(cids):
        _take(g, cid)
        g.s.draw[g.deck_of(cid)].append(cid)


def set_owner(g: TaifaGame, owner: str | None, *names: str, garrison: bool | None = None) -> None:
    """Give areas (by name) to ``owner`` (a key, or None: independent)."""
    for name in names:
        a = area(g, name)
        g.s.owner[a] = INDEPENDENT if owner is None else k(g, owner)
        if garrison is not None:
            g.s.garrison[a] = garrison


def begin(g: TaifaGame, unit: tuple[Any, ...] | None = None, current: str | None = None) -> list[Event]:
    """Start a kingdom's round (or another unit) from the position as set."""
    if current is not None:
        g.s.current = k(g, current)
    assert_one_place(g)
    return g.restart(unit)


def play(g: TaifaGame, *inputs: Any) -> list[Event]:
    """Feed inputs in order: a code (a tuple starting with a word) answers a Decision,
    a tuple of ints the dice, a permutation or an int a pick. Returns every event."""
    events: list[Event] = []
    for value in inputs:
        p = g.point()
        is_code = isinstance(value, tuple) and bool(value) and isinstance(value[0], str)
        if isinstance(p, Decision):
            assert is_code, f"expected a decision by {g.seats[p.seat]} ({p.prompt}), not the outcome {value}"
            assert value in p.options, f"{value} is not among {p.options} ({p.prompt})"
            events += g.apply(value)
        elif isinstance(p, Chance):
            assert not is_code, f"expected a chance outcome for {p.kind} {p.spec} ({p.label}), not {value}"
            events += g.resolve(value)
        else:
            raise AssertionError(f"the game is over ({p.result}); {value} is left over")
    return events


def until_decision(g: TaifaGame, outcome: Any = None) -> list[Event]:
    """Resolve chance points (sorted shuffles, dice of ``outcome`` or all 1s, pick 0) up to a Decision."""
    events: list[Event] = []
    while isinstance(g.point(), Chance):
        p = g.point()
        if p.kind == "shuffle":
            events += g.resolve(tuple(range(p.spec[0])))
        elif p.kind == "pick":
            events += g.resolve(0)
        else:
            events += g.resolve(tuple([outcome or 1] * p.spec[0]))
    return events


def decline_all(g: TaifaGame) -> list[Event]:
    """Answer "done" to every response window asked now (TA-18: every player with cards is asked)."""
    events: list[Event] = []
    while isinstance(g.point(), Decision) and g.point().kind == "respond":
        events += g.apply(("done",))
    return events


def chance(g: TaifaGame) -> Chance:
    p = g.point()
    assert isinstance(p, Chance), f"expected a chance point, the game is at {p}"
    return p


def decision(g: TaifaGame, key: str | None = None) -> Decision:
    p = g.point()
    assert isinstance(p, Decision), f"expected a decision, the game is at {p}"
    if key is not None:
        assert p.seat == k(g, key), f"{g.seats[p.seat]} decides, not {key}"
    return p


def dice_asked(g: TaifaGame) -> int:
    """How many dice the pending Chance throws."""
    p = chance(g)
    assert p.kind == "dice", p
    return p.spec[0]


def over(g: TaifaGame) -> Over:
    p = g.point()
    assert isinstance(p, Over), f"the game is not over: {p}"
    return p


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def rules(events: Iterable[Event]) -> set[str]:
    return {e.rule for e in events}


def assert_one_place(g: TaifaGame) -> None:
    """Every card of the decks in play is in exactly one place."""
    ids = sorted(c.id for d in g.decks for c in d if d.name in g.s.decks)
    assert sorted(g.s.all_cards()) == ids


def assert_clone_exact(g: TaifaGame) -> None:
    """A clone has the same digest and reaches the same point."""
    c = g.clone()
    assert digest(c) == digest(g)
    assert c.point() == g.point()
    assert c.s.canonical() == g.s.canonical()


CARDS_TEXT = (Path(__file__).resolve().parents[2] / "core/taifa/data/cards.toml").read_text("utf-8")
