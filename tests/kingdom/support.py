"""Set Take the Kingdom positions for scenario tests, and play them with named options."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from core.engine import Chance, Code, Decision, Event, Over
from core.games import info
from core.kingdom.game import KingdomGame
from core.kingdom.solo import SoloGame
from core.kingdom.state import KingdomState, Realm, Slot

DECK_OF = {"attack": 0, "defend": 1, "trap": 1, "mercenaries": 1, "action": 2, "mercy": 2, "penalty": 2}
LandSpec = tuple[str, Sequence[str], str | None]  # a Land card, its Defences bottom first, its Trap


def table(*nobles: str, **options: Any) -> KingdomGame:
    """A multiplayer game with these Nobles ("anne", "maria"...) and empty kingdoms, to be set."""
    g = info("kingdom").make(f"multi-{len(nobles)}", options)
    assert isinstance(g, KingdomGame)
    g.s = KingdomState(realms=[Realm(f"{n}-1") for n in nobles], deck=[])
    return g


def realm(g: Any, k: int, castle: str, castle_defences: Sequence[str] = (), lands: Iterable[LandSpec] = (),
          hand: Sequence[str] = (), mercy: Sequence[str] = (), castle_trap: str | None = None) -> Realm:
    r = g.s.realms[k]
    r.slots = [Slot(castle, list(castle_defences), castle_trap)]
    r.slots += [Slot(land, list(defences), trap) for land, defences, trap in lands]
    r.hand, r.mercy = list(hand), list(mercy)
    return r


def start_turn(g: KingdomGame, k: int, deck: Sequence[str] = ()) -> list[Event]:
    """Begin ``k``'s turn from the position as set (drawing from ``deck``)."""
    g.s.deck = list(deck)
    g.s.current = k
    return g.restart(("turn", k))


def decision(g: Any) -> Decision:
    p = g.point()
    assert isinstance(p, Decision), p
    return p


def play(g: Any, *codes: Code) -> list[Event]:
    """Answer the pending decisions with ``codes`` in turn; the events of them all. A ``("pass",)``
    declines a window if one is open, and is skipped if none is (a kingdom with no hand and
    no Mercy is not asked, KD-11)."""
    out: list[Event] = []
    for code in codes:
        p = g.point()
        if code == ("pass",) and not (isinstance(p, Decision) and p.kind == "respond"):
            continue
        d = decision(g)
        assert tuple(code) in d.options, f"{code} not in {d.options} ({d.prompt})"
        out += g.apply(code)
    return out


def texts(events: Iterable[Event]) -> list[str]:
    return [e.text for e in events]


def rules(events: Iterable[Event]) -> list[str]:
    return [e.rule for e in events]


def solo(difficulty: str = "easy", perms: Sequence[Sequence[int]] | None = None, **options: Any) -> SoloGame:
    """A solo game after its setup; the three decks shuffled by ``perms`` (default: as listed)."""
    g = info("kingdom").make("solo", {"difficulty": difficulty, **options})
    assert isinstance(g, SoloGame)
    for i in range(3):
        p = g.point()
        assert isinstance(p, Chance)
        n = p.spec[0]
        g.resolve(tuple(perms[i]) if perms else tuple(range(n)))
    return g


def round_with(g: SoloGame, attack: str, defend: str, action: str) -> list[Event]:
    """Begin the next round with these three cards on top of the three decks."""
    s = g.s
    if s.revealed:  # the round was begun: its cards go back on their decks, to be dealt again
        for cid in s.revealed:
            s.decks[DECK_OF[g.cards[cid].type]].insert(0, cid)
        s.revealed = []
        s.turn -= 1
    for deck, cid in zip(s.decks, (attack, defend, action)):
        if cid in deck:
            deck.remove(cid)
        deck.insert(0, cid)
    return g.restart(("round", s.turn + 1))


def finished(g: Any) -> bool:
    return isinstance(g.point(), Over)
