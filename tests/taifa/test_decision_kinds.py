"""Every kind of Taifa question says what it asks (Decision.kind, core/engine.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from core.engine import DECISION_KINDS, Decision
from core.taifa.game import TaifaGame
from support import begin, decision, give, new_game, play, table, until_decision

CALATAYUD = 23  # Valencia's, on Castile's border


def castile_to_act(*cards: str, valencia: tuple[str, ...] = ()) -> TaifaGame:
    """Castile (a player, holding two Troop cards and ``cards``) is to act; Valencia and Leon are players."""
    g = table(players=["castile", "valencia", "leon"])
    give(g, "castile", "C15", "C08", *cards)
    if valencia:
        give(g, "valencia", *valencia)
    g.s.garrison[CALATAYUD] = True
    begin(g, current="castile")
    return g


def action() -> TaifaGame:
    return castile_to_act()


def attack_cards() -> TaifaGame:
    g = castile_to_act()
    play(g, ("attack", CALATAYUD))
    return g


def response_window() -> TaifaGame:
    g = castile_to_act(valencia=("M26",))  # Militia: the defender's Response
    play(g, ("attack", CALATAYUD), ("add", "C08"), ("done",))
    return g


def garrisons() -> TaifaGame:
    g = response_window()
    play(g, ("done",))  # Valencia keeps its Militia
    return g


def capture_reward() -> TaifaGame:
    g = castile_to_act()
    play(g, ("attack", CALATAYUD), ("add", "C15"), ("add", "C08"))  # Castile has nothing more to add
    play(g, ("done",), (6,) * 5, (1, 1))  # Valencia keeps its garrison; Calatayud falls
    return g


def incursion_troop() -> TaifaGame:
    g = castile_to_act()
    play(g, ("incursion", "leon"))
    return g


def el_cid_truce() -> TaifaGame:
    g = new_game("el-cid", players=["el_cid"])
    until_decision(g)
    return g


def event(cid: str, *then: tuple) -> Callable[[], TaifaGame]:
    def build() -> TaifaGame:
        g = castile_to_act(cid, valencia=("M11", "M12"))
        play(g, ("event", cid), *then)
        return g
    return build


CASES = [
    (action, "castile", "your action", "action"),
    (attack_cards, "castile", "attack: add a card", "commit"),
    (response_window, "valencia", "responses to the attack", "respond"),
    (garrisons, "valencia", "spend a garrison", "commit"),
    (capture_reward, "castile", "+1 Card Bonus or a garrison", "choose"),
    (incursion_troop, "castile", "discard which Troop card", "commit"),
    (el_cid_truce, "el_cid", "Truce: which Christian kingdom", "target"),
    (event("C55"), "castile", "Excommunication: against which kingdom", "target"),
    (event("C58", ("target", "valencia")), "castile", "which card does", "target"),
    (event("C43"), "castile", "Cavalry Charge: attack which area", "target"),
    (event("C39"), "castile", "which invasion-route area", "target"),
    (event("C50"), "castile", "Repopulation: garrison which area", "target"),
]


@pytest.mark.parametrize("build, seat, prompt, kind", CASES, ids=[c[2] for c in CASES])
def test_each_question_says_what_it_asks(build: Callable[[], TaifaGame], seat: str, prompt: str, kind: str) -> None:
    g = build()
    p = decision(g, seat)
    assert prompt in p.prompt
    assert p.kind == kind


def test_every_kind_is_known_and_the_cases_cover_every_ask() -> None:
    assert {c[3] for c in CASES} <= set(DECISION_KINDS)
    # one case per ask call in the Taifa rules: a new question needs a case (and a kind) here
    root = Path(__file__).resolve().parents[2] / "core/taifa"
    asks = sum(p.read_text("utf-8").count(".ask(") for p in root.glob("*.py"))
    assert asks == len(CASES)


def test_a_clone_asks_the_same_kind() -> None:
    g = garrisons()
    c = g.clone()
    assert isinstance(c.point(), Decision) and c.point() == g.point()
