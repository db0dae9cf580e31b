"""Taifa sections 3-4 and 5.5-8: deployment, turns and rounds, discard, pass, end of turn,
the Card Bonus and who wins."""

from __future__ import annotations

from core.engine import Chance, Decision, Over
from core.taifa.state import INDEPENDENT
from support import (
    STANDARD, area, assert_clone_exact, assert_one_place, begin, decision, give, k, new_game, of_kind, over,
    play, set_owner, table, until_decision,
)

# Plain cards for dealing: Christian Peasant Levies and Muslim Andalusi Levies (no Offensive symbol).
LEVIES_C = ["C15", "C16", "C17", "C18", "C19", "C20"]
LEVIES_M = ["M11", "M12", "M13", "M14", "M15"]


def deal_one_each(g) -> dict[str, str]:
    """One plain card for every kingdom: Christian kingdoms a Peasant Levy, Muslim an Andalusi Levy."""
    cards, c, m = {}, iter(LEVIES_C), iter(LEVIES_M)
    for n, key in enumerate(g.s.kingdoms):
        cards[key] = next(c) if g.s.decks[n] == "christian" else next(m)
        give(g, key, cards[key])
    return cards


# --- 3.1 deployment -----------------------------------------------------------------

def test_3_1_each_kingdom_deploys_8_areas_and_8_cards() -> None:
    g = new_game(players=STANDARD)
    assert g.s.turn == 1 and isinstance(g.point(), Chance)  # the decks are shuffled first
    events = until_decision(g)
    for n, key in enumerate(STANDARD):
        assert g.s.castles(n) == 8, key
        assert sorted(g.s.areas_of(n)) == sorted(g.m.standard.areas_of(key))
        assert len(g.s.hands[n]) == 8
        assert g.s.bonus[n] == 0
    assert g.s.owner[1:].count(INDEPENDENT) == 10  # empty areas are independent
    assert [e.data for e in of_kind(events, "draw") if len(e.data) == 2 and e.public.endswith("cards")] \
        == [(n, 8) for n in range(6)]
    assert {g.s.decks[n] for n in range(6)} == {"christian", "muslim"}
    assert all(g.card(c).deck == g.s.decks[n] for n in range(6) for c in g.s.hands[n])
    assert_one_place(g)


def test_3_bots_are_dealt_8_cards_too() -> None:
    g = new_game()  # 0 players: six bots (3)
    events = g.resolve(tuple(range(60))) + g.resolve(tuple(range(60)))
    drawn = [e.data for e in of_kind(events, "draw") if e.public.endswith(("draws 8 cards", "draw 8 cards"))]
    assert [d[0] for d in drawn] == list(range(6))


# --- 4: turns and rounds ----------------------------------------------------------------

def test_4_castile_starts_and_the_round_goes_in_play_order() -> None:
    g = table(players=STANDARD)
    cards = deal_one_each(g)
    begin(g, current="castile")
    seats = []
    for key in STANDARD:
        seats.append(decision(g).seat)
        play(g, ("discard", cards[key]))  # one action each (4 step 3)
    assert seats == list(range(6))
    assert decision(g).seat == 0  # then Castile again, with only "pass" left (5.6)
    assert decision(g).options == (("pass",),)


def test_4_the_turn_ends_only_when_all_pass_in_a_row() -> None:
    g = table(players=STANDARD)
    give(g, "castile", "C15", "C16")
    give(g, "valencia", "M11")
    begin(g, current="castile")
    play(g, ("pass",), ("pass",))  # Castile and the Catalans pass...
    play(g, ("discard", "M11"))  # ...Valencia acts: the count starts again
    assert g.s.passes == 0
    play(g, ("pass",), ("pass",), ("pass",))  # Seville, Badajoz, Leon
    play(g, ("discard", "C15"))  # Castile passed before and plays again (the NOTE in 5)
    for n in range(5):
        assert isinstance(g.point(), Decision) and g.s.turn == 1, n
        play(g, ("pass",))
    assert g.s.passes == 5
    events = play(g, ("pass",))  # the sixth pass in a row: Castile, who still holds a card
    assert [e.rule for e in of_kind(events, "turn")] == ["taifa 6"]
    assert g.s.kept[k(g, "castile")] == 1  # carried over (5.6)
    until_decision(g)
    assert g.s.turn == 2 and decision(g).seat == 0  # Castile starts again (6)


def test_4_a_player_can_pass_with_cards_and_play_later() -> None:
    g = table(players=STANDARD)
    give(g, "catalans", "C15", "C16")
    give(g, "valencia", "M11")
    begin(g, current="castile")
    play(g, ("pass",), ("pass",))  # the Catalans pass holding two cards
    play(g, ("discard", "M11"))
    play(g, ("pass",), ("pass",), ("pass",), ("pass",))  # Seville to Castile
    assert decision(g, "catalans")
    play(g, ("discard", "C15"))  # later in the same turn
    assert "C15" in g.s.discard["christian"] and g.s.turn == 1


# --- 5: the actions -----------------------------------------------------------------

def test_5_a_player_without_troops_cannot_attack_or_raid() -> None:
    g = table(players=STANDARD)
    give(g, "catalans", "C23", "C59")  # Militia and Spoils of War: nothing to carry an attack (TA-19)
    begin(g, current="catalans")
    verbs = {c[0] for c in decision(g).options}
    assert verbs == {"event", "discard", "pass"}
    give(g, "catalans", "C15")
    begin(g, current="catalans")
    verbs = {c[0] for c in decision(g).options}
    assert verbs == {"attack", "incursion", "event", "discard", "pass"}


def test_5_5_discard_puts_the_card_face_up_on_the_discard_pile() -> None:
    g = table(players=STANDARD)
    give(g, "seville", "M51", "M11")
    begin(g, current="seville")
    assert {("discard", "M51"), ("discard", "M11")} <= set(decision(g).options)
    events = play(g, ("discard", "M51"))
    assert g.s.discard["muslim"][-1] == "M51" and g.s.hands[k(g, "seville")] == ["M11"]
    assert of_kind(events, "discard")[0].rule == "taifa 5.5"
    assert g.view(k(g, "leon"))["discard"]["muslim"] == ("M51",)  # face up: everyone sees it


def test_5_6_a_kingdom_without_cards_can_only_pass() -> None:
    g = table(players=STANDARD)
    begin(g, current="castile")
    assert decision(g).options == (("pass",),)
    events = play(g, ("pass",))
    assert of_kind(events, "pass")[0].rule == "taifa 5.6"


def test_5_6_cards_carried_over_reduce_the_next_draw() -> None:
    g = table(players=STANDARD)
    give(g, "badajoz", "M11", "M12", "M13")
    begin(g, current="castile")
    for _ in range(6):
        play(g, ("pass",))  # Badajoz passes with 3 cards in hand
    events = until_decision(g)
    bad = k(g, "badajoz")
    due = [e for e in of_kind(events, "draw") if e.data[0] == bad]
    assert due[0].data[1] == 5 and "-3 kept" in due[0].text  # 8 - 3
    assert len(g.s.hands[bad]) == 8
    assert {"M11", "M12", "M13"} <= set(g.s.hands[bad])


# --- 6: end of turn -----------------------------------------------------------------

def test_6_discards_permanents_and_undrawn_cards_are_reshuffled_per_deck() -> None:
    g = table(players=STANDARD)
    give(g, "castile", "C34", pile="permanent")  # a Truce face up this turn (5.4)
    give(g, "seville", "M53", pile="permanent")  # Pay Parias
    give(g, "leon", "C15")  # carried over in hand
    g.s.discard["christian"] += ["C16", "C17"]
    g.s.draw["christian"] = [c for c in g.s.draw["christian"] if c not in ("C16", "C17")]
    g.s.discard["muslim"].append("M40")
    g.s.draw["muslim"].remove("M40")
    g.s.removed.append("C38")  # Judgment of God, played (D): out of the game
    g.s.draw["christian"].remove("C38")
    begin(g, current="castile")
    for _ in range(6):
        play(g, ("pass",))
    shuffle = g.point()
    assert isinstance(shuffle, Chance) and shuffle.kind == "shuffle"
    assert shuffle.spec == (60 - 2,)  # all but Leon's card and the removed one
    assert not g.s.permanent[k(g, "castile")] and not g.s.permanent[k(g, "seville")]
    play(g, tuple(range(58)))
    assert shuffle_spec(g) == (60,)  # the Muslim deck: every card
    play(g, tuple(range(60)))
    assert not g.s.discard["christian"] and not g.s.discard["muslim"]
    assert "C38" in g.s.removed and "C38" not in g.s.draw["christian"]
    assert g.s.turn == 2 and g.s.current == 0
    assert_one_place(g)


def shuffle_spec(g) -> tuple[int, ...]:
    p = g.point()
    assert isinstance(p, Chance) and p.kind == "shuffle", p
    return p.spec


def test_6_bots_keep_their_deployed_cards_over_the_turn_end() -> None:
    g = table(players=["castile"])
    give(g, "catalans", "C15", pile="army")
    give(g, "catalans", "C21", pile="ready")
    begin(g, current="castile")
    play(g, ("pass",))  # the bots have no cards and pass; the turn ends
    until_decision(g)
    cat = k(g, "catalans")
    assert g.s.turn == 2
    assert g.s.ready[cat][:1] == ["C21"]  # carried over (9.1)
    assert g.s.army[cat] == ["C15"]


def test_6_a_draw_pile_that_runs_out_takes_in_the_discards() -> None:
    g = table(players=STANDARD)
    pile = g.s.draw["christian"]
    g.s.discard["christian"], g.s.draw["christian"] = pile[:-3], pile[-3:]  # 3 cards left to draw
    events = begin(g, ("turn_start",))
    assert g.point() == Chance("shuffle", (57,), "shuffle the christian deck")  # mid-draw (TA-17)
    events += play(g, tuple(range(57)))
    assert "TA-17" in {e.rule for e in events}
    until_decision(g)
    assert len(g.s.hands[0]) == 8 and not g.s.discard["christian"]
    assert_one_place(g)


def test_6_with_no_discards_either_the_draw_stops_short() -> None:
    g = table(players=STANDARD)
    give(g, "leon", *g.s.draw["christian"][:55])  # Leon holds 55 (its kept count stays 0 here)
    events = begin(g, ("turn_start",))
    assert [len(g.s.hands[n]) for n in (0, 1)] == [5, 0]
    short = [e for e in events if e.kind == "draw" and e.rule == "TA-17"]
    assert [e.data for e in short] == [(0, 0), (1, 0), (5, 0)]
    assert len(g.s.hands[k(g, "valencia")]) == 8


# --- 7: the Card Bonus --------------------------------------------------------------

def test_7_the_bonus_track_ends_at_plus_and_minus_two() -> None:
    g = table(players=["catalans"])
    set_owner(g, "catalans", "Valencia")
    give(g, "catalans", "C15", "C08")
    g.s.bonus[k(g, "catalans")] = 2
    g.s.bonus[k(g, "valencia")] = -2
    begin(g, current="catalans")
    events = play(g, ("attack", area(g, "Denia")), ("add", "C15"), ("add", "C08"),
                  (6, 6, 6, 6, 6), (1, 1))
    assert decision(g, "catalans").options == (("bonus",), ("garrison",))  # still offered at +2 (TA-32)
    events += play(g, ("bonus",))
    assert g.s.bonus[k(g, "catalans")] == 2 and g.s.bonus[k(g, "valencia")] == -2
    notes = [e.text for e in of_kind(events, "bonus")]
    assert len(notes) == 2 and all("the track ends there" in t for t in notes)


def test_7_the_bonus_changes_the_draw_both_ways() -> None:
    g = table(players=STANDARD)
    g.s.bonus[k(g, "castile")] = 2
    g.s.bonus[k(g, "leon")] = -2
    events = begin(g, ("turn_start",))
    due = {e.data[0]: e.data[1] for e in of_kind(events, "draw") if " due " in e.text}
    assert due[k(g, "castile")] == 10 and due[k(g, "leon")] == 6 and due[k(g, "catalans")] == 8
    assert g.s.bonus == [0] * 6  # reset after the draw (4 step 2)


# --- 8: who wins ----------------------------------------------------------------------

def test_8_sudden_victory_on_placing_the_13th_castle() -> None:
    g = table(players=["catalans"])
    set_owner(g, "catalans", "Tudela", "Tortosa", "Mallorca", "Navarra")  # 12 castles
    give(g, "catalans", "C03", "C04")
    begin(g, current="catalans")
    assert g.s.castles(k(g, "catalans")) == 12
    events = play(g, ("attack", area(g, "Calatayud")), ("add", "C03"), ("add", "C04"),
                  (6,) * 8, (1, 1))
    result = over(g).result  # at once: no bonus-or-garrison question (TA-35)
    assert result.winners == (k(g, "catalans"),) and result.rule == "taifa 8"
    assert result.scores[k(g, "catalans")] == 13
    assert g.s.bonus[k(g, "valencia")] == 0 and g.s.bonus[k(g, "catalans")] == 0
    assert of_kind(events, "end")
    assert_clone_exact(g)


def test_8_a_bot_wins_suddenly_too() -> None:
    g = table()
    set_owner(g, "catalans", "Tudela", "Tortosa", "Mallorca", "Navarra")  # 12 castles
    give(g, "catalans", "C03", pile="army")
    give(g, "catalans", "C04")  # the army reaches 8: it attacks at once (9.2)
    begin(g, current="catalans")
    # the strongest frontier area below 8 is the city of Valencia (4), the only one: no die
    assert g.s.fight is not None and g.s.fight.area == area(g, "Valencia")
    play(g, (6,) * 8, (1,) * 4)
    result = over(g).result
    assert result.winners == (k(g, "catalans"),) and result.scores[k(g, "catalans")] == 13


def end_of_turn_3(g) -> Over:
    """All bots with empty hands in turn 3: every kingdom passes and the game is scored."""
    g.s.turn = 3
    begin(g, current="castile")
    return over(g)


def test_8_most_castles_after_turn_3_wins() -> None:
    g = table()
    set_owner(g, "leon", "Coimbra")
    g.s.bonus[k(g, "castile")] = 2  # the bonus only breaks ties
    result = end_of_turn_3(g).result
    assert result.winners == (k(g, "leon"),) and result.rule == "taifa 8"
    assert result.scores == (8, 8, 8, 8, 8, 9)


def test_8_a_tie_on_castles_goes_to_the_highest_bonus() -> None:
    g = table()
    set_owner(g, "leon", "Coimbra")
    set_owner(g, "seville", "Málaga")
    g.s.bonus[k(g, "seville")] = 1
    g.s.bonus[k(g, "leon")] = -1
    g.s.bonus[k(g, "castile")] = 2  # fewer castles: its bonus does not count
    result = end_of_turn_3(g).result
    assert result.winners == (k(g, "seville"),) and result.rule == "taifa 8"


def test_8_a_tie_on_castles_and_bonus_is_a_shared_win() -> None:
    g = table()
    set_owner(g, "leon", "Coimbra")
    set_owner(g, "seville", "Málaga")
    set_owner(g, "castile", "Toledo")
    g.s.bonus[k(g, "seville")] = 1
    g.s.bonus[k(g, "leon")] = 1
    result = end_of_turn_3(g).result
    assert result.winners == (k(g, "seville"), k(g, "leon")) and result.rule == "TA-27"


def test_8_no_scoring_before_turn_3() -> None:
    g = table()
    g.s.turn = 2
    begin(g, current="castile")
    assert isinstance(g.point(), Chance) and g.point().kind == "shuffle"  # end of turn 2: reshuffle
