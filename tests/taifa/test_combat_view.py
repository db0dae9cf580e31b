"""What the app shows of play (issue 10, C1 and C2): the last fight with where its dice came
from, the round in progress and its events, the frames of a step that runs bot rounds, and the
reason a game ends."""

from __future__ import annotations

from typing import Any

from core.chance import SeededChance
from core.engine import Chance, Decision, Event
from core.taifa.game import TaifaGame
from core.taifa.state import INDEPENDENT
from support import STANDARD, area, begin, chance, decision, give, k, of_kind, table

OVIEDO, LUGO = 2, 4


def fight(g: TaifaGame, picks: list[tuple[Any, ...]], dice: list[tuple[int, ...]]) -> list[Event]:
    """Answer each question with the first of ``picks`` it offers (else done), each throw with
    the next of ``dice``; stop at a throw or a question past both. Windows may come in any number."""
    events: list[Event] = []
    picks, dice = list(picks), list(dice)
    while True:
        p = g.point()
        if isinstance(p, Chance):
            if not dice:
                break
            events += g.resolve(dice.pop(0))
            continue
        assert isinstance(p, Decision), p
        code = next((c for c in picks if c in p.options), None)
        if code is None:
            if not picks and not dice:
                break
            code = ("done",)
            assert code in p.options, f"{picks} not among {p.options} ({p.prompt})"
        else:
            picks.remove(code)
        events += g.apply(code)
    assert not picks, f"never asked: {picks}"
    return events


def oviedo_attacked() -> TaifaGame:
    """Castile (a player) attacks Oviedo (defence 3, León's) with Heavy Cavalry and a Mesnada
    and Siege Engines; León answers with a Champion and the garrison of Lugo next door."""
    g = table(players=["castile", "leon"])
    give(g, "castile", "C01", "C05", "C28")
    give(g, "leon", "C21")
    assert g.m.areas[OVIEDO - 1].defence == 3 and g.s.owner[LUGO] == g.s.owner[OVIEDO] == k(g, "leon")
    g.s.garrison[LUGO] = True
    begin(g, current="castile")
    return g


def test_the_last_fight_says_where_every_die_came_from() -> None:
    g = oviedo_attacked()
    assert g.view(None)["last_combat"] is None
    fight(g, [("attack", OVIEDO), ("add", "C01"), ("add", "C05"), ("add", "C28"),
              ("respond", "defence", "C21"), ("garrison", LUGO)], [])
    assert chance(g).label == "Castile rolls 7 dice to attack Oviedo"
    events = fight(g, [], [(6, 6, 6, 1, 1, 1, 1)])
    assert chance(g).label == "Leon rolls 5 dice to defend Oviedo"
    events += fight(g, [], [(6, 5, 1, 1, 1)])
    (decided,) = of_kind(events, "combat")
    assert decided.text == "Castile rolls [6 6 6 1 1 1 1] = 3 hits against [6 5 1 1 1] = 2: Oviedo falls"
    leon, castile = k(g, "leon"), k(g, "castile")
    for seat in (None, castile, leon, k(g, "seville")):  # every card in it was revealed: public
        last = g.view(seat)["last_combat"]
        assert last == {
            "kind": "attack", "attacker": castile, "defender": leon, "area": OVIEDO, "turn": 1,
            "cards": (("attack", castile, "C01"), ("attack", castile, "C05"), ("attack", castile, "C28"),
                      ("defence", leon, "C21")),
            "garrisons": (LUGO,),
            "attack_dice": (("troops 7", 7),),
            "defence_dice": (("defence 3", 3), ("garrison of Lugo", 1), ("Siege Engines", -1), ("Champion", 2)),
            "attack_roll": (6, 6, 6, 1, 1, 1, 1), "defence_roll": (6, 5, 1, 1, 1),
            "attack_hits": 3, "defence_hits": 2, "outcome": "falls",
            "text": decided.text, "rule": "taifa 5.2",
        }
    assert g.view(None)["fight"] is None  # the capture's choice comes after: the fight is over
    assert len(g.view(None)["last_combat"]["cards"]) == 4  # tuples: nobody's copy can change the game's
    c = g.clone()
    assert c.view(None)["last_combat"] == g.view(None)["last_combat"]


def test_the_last_fight_is_shown_after_it_but_is_not_part_of_the_position() -> None:
    g = oviedo_attacked()
    fight(g, [("attack", OVIEDO), ("add", "C01"), ("add", "C05"), ("add", "C28"),
              ("respond", "defence", "C21"), ("garrison", LUGO)], [(6,) * 7, (6,) * 5])
    shown = g.view(None)["last_combat"]
    g.apply(("bonus",))  # the capture's choice; four bots with nothing pass; León's round
    assert decision(g, "leon") and g.view(None)["round"] == 6
    assert g.view(None)["last_combat"] == shown
    other = g.s.copy()
    other.last_combat, other.round = None, 7
    assert other.canonical() == g.s.canonical()  # shown, not rules: no digest changes


def test_a_sortie_and_an_event_count_as_their_cards() -> None:
    g = table(players=["castile", "leon"])
    give(g, "castile", "C43", "C01", "C13")  # Cavalry Charge: an attack with one more die
    give(g, "leon", "C26")  # Surprise Sortie: the strongest attacking Troop card leaves
    begin(g, current="castile")
    fight(g, [("event", "C43"), ("attack", OVIEDO), ("add", "C01"), ("add", "C13"),
              ("respond", "defence", "C26")], [])
    assert chance(g).label == "Castile rolls 3 dice to attack Oviedo"  # 6 + 1 - 4
    fight(g, [], [(1, 1, 1), (6, 6, 6)])
    last = g.view(None)["last_combat"]
    assert last["attack_dice"] == (("troops 6", 6), ("Cavalry Charge", 1), ("Surprise Sortie", -4))
    assert last["defence_dice"] == (("defence 3", 3),) and last["outcome"] == "holds"


def test_an_incursion_is_a_fight_too() -> None:
    g = table(players=["catalans", "valencia"])
    give(g, "catalans", "C15", "C21")
    begin(g, current="catalans")
    events = fight(g, [("incursion", "valencia"), ("troop", "C15"), ("add", "C21")], [])
    assert chance(g).label == "Catalan Counties roll 3 dice to raid Taifa of Valencia"
    events += fight(g, [], [(1, 1, 5)])
    (decided,) = of_kind(events, "combat")
    assert decided.text == "Catalan Counties roll [1 1 5]: the incursion succeeds"
    last = g.view(None)["last_combat"]
    cat, val = k(g, "catalans"), k(g, "valencia")
    assert last == {
        "kind": "incursion", "attacker": cat, "defender": val, "area": 0, "turn": 1,
        "cards": (("attack", cat, "C21"),), "garrisons": (),
        "attack_dice": (("incursion", 1), ("Champion", 2)), "defence_dice": (),
        "attack_roll": (1, 1, 5), "defence_roll": (), "attack_hits": 1, "defence_hits": 0,
        "outcome": "succeeds", "text": decided.text, "rule": "taifa 5.3",
    }


def test_a_cancelled_fight_is_kept_with_the_card_that_called_it_off() -> None:
    g = table(players=["catalans", "valencia"])
    give(g, "catalans", "C15")
    give(g, "valencia", "M35")  # Spies
    begin(g, current="catalans")
    events = fight(g, [("incursion", "valencia"), ("troop", "C15"), ("respond", "defence", "M35")], [])
    while not of_kind(events, "cancel"):
        events += g.apply(("done",))
    last = g.view(None)["last_combat"]
    (cancel,) = of_kind(events, "cancel")
    assert last["outcome"] == "cancelled" and last["text"] == cancel.text and last["rule"] == cancel.rule
    assert last["cards"] == (("defence", k(g, "valencia"), "M35"),) and last["attack_roll"] == ()


def test_an_independent_campaign_rolls_its_force() -> None:
    g = table(players=["catalans", "leon"])
    give(g, "catalans", "C39")
    give(g, "leon", "C23")
    begin(g, current="catalans")
    fight(g, [("event", "C39"), ("area", 3), ("respond", "defence", "C23")], [])
    assert chance(g).label == "The outside force rolls 4 dice to attack Santiago"
    fight(g, [], [(6, 6, 6, 6), (1,) * 5])
    last = g.view(None)["last_combat"]
    assert last["attacker"] == INDEPENDENT and last["outcome"] == "falls"
    assert last["attack_dice"] == (("Independent Campaign", 4),)
    assert last["defence_dice"] == (("defence 3", 3), ("Militia", 2))


def test_an_independent_area_defends_itself() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C01")
    begin(g, current="castile")
    fight(g, [("attack", area(g, "Navarra")), ("add", "C01")], [(1, 1, 1, 1)])
    assert chance(g).label == "Independent Navarra rolls 4 dice to defend itself"  # 3 + its garrison


# -- rounds ------------------------------------------------------------------------------


def seeded_steps(g: TaifaGame, seed: int, steps: int):
    """Resolve ``steps`` chance points of an all-bot game; yield each step's events and frames."""
    source = SeededChance(seed)
    for _ in range(steps):
        p = g.point()
        assert isinstance(p, Chance)
        events = g.resolve(p.validate(source.outcome(p)))
        yield events, g.frames()


def test_each_round_begins_with_its_event_numbered_within_the_turn() -> None:
    g = TaifaGame("standard")
    rounds = []
    for events, _ in seeded_steps(g, 3, 60):
        for e in events:
            if e.kind == "turn" and "begins" in e.text:
                rounds.append("turn")
            elif e.kind == "round":
                rounds.append(e.data)
                n, kingdom = e.data
                assert e.text == f"Round {n}: {g.seats[kingdom]} (bot)" and e.rule == "taifa 9.1"
    numbers = [r[0] for r in rounds if r != "turn"]
    assert numbers[:8] == list(range(1, 9)) and [r[1] for r in rounds[1:8]] == [0, 1, 2, 3, 4, 5, 0]


def test_a_players_round_event_cites_5() -> None:
    g = table(players=["castile"])
    events = begin(g, current="castile")
    (e,) = of_kind(events, "round")
    assert e.text.endswith("Castile (player)") and e.rule == "taifa 5"
    assert g.view(k(g, "castile"))["round"] == e.data[0]


def test_a_step_running_several_bot_rounds_has_a_frame_before_each() -> None:
    g = TaifaGame("standard")
    crossing = 0
    for events, frames in seeded_steps(g, 7, 120):
        rounds = [(n, f) for n, f in frames if f.canonical()["unit"][0] == "round"]
        assert [n for n, _ in rounds] == [n for n, e in enumerate(events) if e.kind == "round"]
        for n, frame in rounds:
            v, kingdom = frame.view(None), frame.canonical()["unit"][1]
            assert events[n].data == (v["round"], kingdom) and v["current"] == kingdom
            turned = next(e for e in events[n:] if e.kind in ("reveal", "pass"))
            if turned.kind == "reveal":  # the table before the bot turned up its top card
                assert turned.data == (kingdom, frame.s.hands[kingdom][0])
                assert v["kingdoms"][kingdom]["hand_count"] == len(frame.s.hands[kingdom])
        if frames:  # from the last frame, play came to where the game is
            assert frames[-1][1].clone().canonical() == g.canonical()
            assert all(f.point() == g.point() for _, f in frames)
        crossing += len(rounds) >= 2
    assert crossing > 10


def test_frames_leave_the_game_alone() -> None:
    from core.digest import digest

    a, b = TaifaGame("standard"), TaifaGame("standard")
    for (_, frames), _ in zip(seeded_steps(a, 5, 40), seeded_steps(b, 5, 40)):
        for _, f in frames:
            f.view(None), f.canonical()
        assert digest(a) == digest(b)


# -- the end ------------------------------------------------------------------------------


def scored(castles: dict[str, int], bonus: dict[str, int]) -> tuple[Any, str]:
    """The result after turn 3 with ``castles`` for some kingdoms (taken from the others), and
    the end event's text."""
    g = table(players=STANDARD)
    s = g.s
    keys = [k(g, key) for key in castles]
    for key, n in castles.items():
        kk = k(g, key)
        while s.castles(kk) < n:
            s.owner[next(a for a, o in enumerate(s.owner) if a and o >= INDEPENDENT and o not in keys)] = kk
        while s.castles(kk) > n:
            s.owner[s.areas_of(kk)[0]] = INDEPENDENT
    for key, b in bonus.items():
        s.bonus[k(g, key)] = b
    s.turn = 3
    (end,) = of_kind(g.restart(("turn_end",)), "end")
    return g.result, end.text


# The reason stays as records have it (it is in the final digest); the end event tells it all.

def test_the_end_says_the_castles_and_the_runner_up() -> None:
    r, text = scored({"castile": 12, "leon": 10}, {})
    assert r.winners == (0,) and r.rule == "taifa 8" and r.reason == "most castles after turn 3 (12)"
    assert text == "Game over: Castile wins (12 castles after turn 3, the most (Leon next with 10))"


def test_the_end_says_how_a_tie_was_broken() -> None:
    r, text = scored({"castile": 11, "leon": 11}, {"castile": 1, "leon": 2})
    assert r.winners == (5,) and r.rule == "taifa 8"
    assert r.reason == "11 castles after turn 3; the highest Card Bonus breaks the tie"
    assert text == ("Game over: Leon wins (11 castles after turn 3, tied with Castile; "
                    "the highest Card Bonus (+2 to +1) breaks the tie)")


def test_a_tie_on_castles_and_bonus_is_shared() -> None:
    r, text = scored({"castile": 11, "leon": 11}, {"castile": 1, "leon": 1})
    assert r.winners == (0, 5) and r.rule == "TA-27"
    assert text == "Game over: Castile, Leon win (11 castles each after turn 3 and the same Card Bonus (+1): a shared win)"
