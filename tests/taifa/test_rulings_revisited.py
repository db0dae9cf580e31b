"""The rulings revisited in issue 10 (TA-15, TA-18, TA-19, TA-22, TA-30), each under its default
(the most faithful reading) and under its revision-1 value; and revision-1 records still verify."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import games
from core.engine import Decision, RulesError
from core.taifa import REVISION_1
from core.taifa.game import TaifaGame
from notation.catalog import build_game
from notation.reader import read_record_file
from notation.verify import verify
from support import (
    begin, decision, decline_all, dice_asked, give, k, of_kind, play, set_owner, table,
)

CALATAYUD, TUDELA = 23, 14


# --- TA-15 (10.2): El Cid's Truce bars the Incursion action, not incursion events --------

def truce_on_castile(**options) -> TaifaGame:
    g = table("el-cid", players=("el_cid", "castile"), **options)
    g.s.truces = [(k(g, "el_cid"), k(g, "castile"), ("attack", "incursion"))]
    return g


def test_10_2_cabalgada_may_target_el_cid_under_his_truce() -> None:
    g = truce_on_castile()
    give(g, "castile", "C08", "C48")  # a Mesnada (for the Incursion action), Cabalgada (an incursion event)
    begin(g, current="castile")
    opts = decision(g, "castile").options
    assert ("incursion", "el_cid") not in opts and ("incursion", "almoravids") in opts  # the action stays barred
    play(g, ("event", "C48"))
    assert ("target", "el_cid") in decision(g, "castile").options  # "can still use event cards against him"
    events = play(g, ("target", "el_cid"))
    assert of_kind(events, "incursion")[0].data == (k(g, "castile"), k(g, "el_cid"))


def test_10_2_with_the_option_the_truce_bars_cabalgada_too() -> None:
    g = truce_on_castile(truce_bars_incursion_events=True)
    give(g, "castile", "C48")
    begin(g, current="castile")
    events = play(g, ("event", "C48"))  # only the Almoravids are left: no question
    assert of_kind(events, "incursion")[0].data == (k(g, "castile"), k(g, "almoravids"))


# --- TA-22 (9.4): an incursion has no attacking troops ------------------------------------

@pytest.mark.parametrize("option, cancelled", [(False, False), (True, True)])
def test_9_4_a_bot_does_not_respond_to_an_incursion_by_default(option: bool, cancelled: bool) -> None:
    g = table(players=["castile"], bots_respond_to_incursions=option)
    give(g, "castile", "C15")
    give(g, "valencia", "M35", pile="ready")  # Spies: they would call the incursion off
    give(g, "valencia", "M11")
    begin(g, current="castile")
    events = play(g, ("incursion", "valencia"), ("troop", "C15"))
    assert bool(of_kind(events, "cancel")) is cancelled
    assert g.s.ready[k(g, "valencia")] == ([] if cancelled else ["M35"])
    if not cancelled:
        assert dice_asked(g) == 1


# --- TA-30 (9.4, 5.1 step 3): bots join others' fights against the leader -----------------

def bots_watch(attacker_leads: bool, defender_leads: bool, troops: tuple[str, ...] = ("C08",), **options) -> TaifaGame:
    """Castile (a player) attacks Calatayud (Valencia, a bot); the Catalans and Seville (bots) hold a
    Champion each, Leon a Militia (defender only). Who leads is set by giving away independent areas."""
    g = table(players=["castile"], **options)
    give(g, "castile", *troops)
    give(g, "catalans", "C21", pile="ready")
    give(g, "seville", "M24", pile="ready")
    give(g, "leon", "C23", pile="ready")
    if attacker_leads:
        set_owner(g, "castile", "Navarra")
    if defender_leads:
        set_owner(g, "valencia", "Toledo")
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), *(("add", c) for c in troops))
    return g


def placed(g: TaifaGame) -> list[tuple[str, str, str]]:
    """The fight's cards (revealed by now, 5.1 step 5): side, kingdom, card."""
    return [(side, g.s.kingdoms[who], cid) for side, who, cid, _ in g.s.fight.cards]


def test_9_4_bots_back_the_defence_against_a_leading_attacker() -> None:
    g = bots_watch(attacker_leads=True, defender_leads=False)
    # in play order; Leon's Militia may be placed by a defender only
    assert placed(g) == [("attack", "castile", "C08"), ("defence", "catalans", "C21"), ("defence", "seville", "M24")]
    assert g.s.ready[k(g, "leon")] == ["C23"]
    assert dice_asked(g) == 3
    play(g, (1, 1, 1))
    assert dice_asked(g) == 2 + 2 + 2  # Calatayud's 2 and two Champions


def test_9_4_bots_back_the_attack_against_a_leading_defender() -> None:
    g = bots_watch(attacker_leads=False, defender_leads=True)
    assert [(side, who) for side, who, _ in placed(g)] == [("attack", "castile"), ("attack", "catalans"),
                                                             ("attack", "seville")]
    assert dice_asked(g) == 3 + 2 + 2


@pytest.mark.parametrize("attacker_leads, defender_leads, troops", [
    (False, False, ("C08",)),  # nobody in the fight leads
    (True, True, ("C08",)),  # both lead (a tie): no side to take
    (True, False, ("C15",)),  # troops of 2: a bot defends only against 3 or more (9.4)
])
def test_9_4_bots_stay_out_when_no_side_fights_the_leader(attacker_leads: bool, defender_leads: bool,
                                                          troops: tuple[str, ...]) -> None:
    g = bots_watch(attacker_leads, defender_leads, troops)
    assert [who for _, who, _ in placed(g)] == ["castile"]


def test_9_4_a_joining_bot_cites_ta_30_and_places_one_card_only() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C08")
    give(g, "catalans", "C21", "C31", pile="ready")  # Champion, Vassal Host
    set_owner(g, "castile", "Navarra")
    begin(g, current="castile")
    events = play(g, ("attack", CALATAYUD), ("add", "C08"))
    joined = [e for e in of_kind(events, "commit") if e.data[0] == k(g, "catalans")]
    assert [e.rule for e in joined] == ["TA-30"]
    assert g.s.ready[k(g, "catalans")] == ["C31"]  # one at a time, in order (TA-21)


def test_9_4_without_the_option_bots_stay_out() -> None:
    g = bots_watch(attacker_leads=True, defender_leads=False, bots_join_fights=False)
    assert [who for _, who, _ in placed(g)] == ["castile"]


# --- TA-18 (5.1 step 3): the windows go round until everyone declines in a row ------------

def three_players(leon: tuple[str, ...] = ("C31",), castile: tuple[str, ...] = ()) -> TaifaGame:
    """Castile attacks Calatayud with a 3; Valencia (defender) holds Militia; Leon ``leon``; all
    three are players, the rest bots with nothing deployed."""
    g = table(players=["castile", "valencia", "leon"])
    give(g, "castile", "C08", *castile)
    give(g, "valencia", "M26")
    give(g, "leon", *leon)
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), ("add", "C08"))
    if castile:
        play(g, ("done",))
    return g


def answer(g: TaifaGame, *codes: tuple) -> list[tuple[str, tuple]]:
    """Answer the windows in turn; (kingdom asked, its options) for each question."""
    asked = []
    for code in codes:
        p = decision(g)
        assert p.kind == "respond"
        asked.append((g.s.kingdoms[p.seat], p.options))
        play(g, code)
    assert not isinstance(g.point(), Decision) or g.point().kind != "respond", "the window should be closed"
    return asked


def test_5_1_step_3_a_kingdom_that_declined_answers_a_card_placed_later() -> None:
    g = three_players()
    asked = answer(g, ("done",), ("respond", "attack", "C31"), ("respond", "defence", "M26"))
    assert [who for who, _ in asked] == ["valencia", "leon", "valencia"]
    assert placed(g)[1:] == [("attack", "leon", "C31"), ("defence", "valencia", "M26")]
    assert dice_asked(g) == 3 + 1
    play(g, (1,) * 4)
    assert dice_asked(g) == 2 + 2


def test_5_1_step_3_the_attacker_may_answer_with_responses_to_its_attack() -> None:
    g = three_players(castile=("C21", "C23"))  # Castile kept its Champion; Militia is no attack card
    asked = answer(g, ("respond", "defence", "M26"), ("done",), ("respond", "attack", "C21"), ("done",), ("done",))
    assert [who for who, _ in asked] == ["valencia", "leon", "castile", "leon", "castile"]
    assert asked[2][1] == (("respond", "attack", "C21"), ("done",))
    assert asked[4][1] == (("done",),)  # Castile still holds a card: asked, with nothing usable
    assert dice_asked(g) == 3 + 2


@pytest.mark.parametrize("leon", [("C31",), ("C16",)])  # a Vassal Host, or only a Troop card
def test_5_1_step_3_who_is_asked_does_not_depend_on_who_holds_a_response(leon: tuple[str, ...]) -> None:
    g = three_players(leon=leon)
    asked = answer(g, ("done",), ("done",))
    assert [who for who, _ in asked] == ["valencia", "leon"]
    usable = ("respond", "attack", "C31") in asked[1][1]
    assert usable is (leon == ("C31",))  # a kingdom with nothing usable sees only "done"
    assert of_kind(decline_all(g), "commit") == []


def test_5_1_step_3_an_empty_hand_or_a_lone_player_is_not_asked_in_vain() -> None:
    g = three_players(leon=())  # Leon's empty hand is public: no question
    assert [who for who, _ in answer(g, ("done",))] == ["valencia"]
    for leon, asked in ((("C16",), False), (("C31",), True)):
        g = table(players=["leon"])  # the only player: nobody could learn from a skipped question
        give(g, "catalans", "C08", pile="army")
        give(g, "catalans", "C15")  # an army of 5: Navarra or Tortosa (9.2)
        give(g, "leon", *leon)
        begin(g, current="catalans")
        play(g, (1,))  # the 9.5 die: Navarra
        assert isinstance(g.point(), Decision) is asked


def test_5_1_step_3_with_the_option_off_windows_open_once() -> None:
    g = table(players=["castile", "valencia", "leon"], response_rounds=False)
    give(g, "castile", "C08")
    give(g, "valencia", "M26", "M37")
    give(g, "leon", "C16")
    begin(g, current="castile")
    play(g, ("attack", CALATAYUD), ("add", "C08"))
    asked = answer(g, ("respond", "defence", "M26"), ("done",))
    assert [who for who, _ in asked] == ["valencia", "valencia"]  # Leon holds nothing usable: never asked


# --- TA-19 (5.1 step 2, 5.2): an attack carried by a Response that adds dice ---------------

def test_5_2_an_attack_carried_only_by_a_response_that_adds_dice() -> None:
    g = table(players=["castile"])
    give(g, "castile", "C21")  # Champion, no Troop card
    begin(g, current="castile")
    verbs = {c[0] for c in decision(g).options}
    assert "attack" in verbs and "incursion" not in verbs  # an incursion still costs a Troop card (5.3)
    play(g, ("attack", CALATAYUD), ("add", "C21"))  # nothing more to place: committed
    assert dice_asked(g) == 2  # Champion's two dice
    play(g, (6, 6))
    assert dice_asked(g) == 2  # Valencia's bot does not respond: no attacking troops (9.4)


@pytest.mark.parametrize("cards, option, attack", [
    (("C28",), True, False),  # Siege Engines add no dice: nothing carries the attack
    (("C21",), False, False),  # revision 1: a Troop card is needed
])
def test_5_2_no_attack_without_a_card_that_carries_it(cards: tuple[str, ...], option: bool, attack: bool) -> None:
    g = table(players=["castile"], attack_by_response=option)
    give(g, "castile", *cards)
    begin(g, current="castile")
    assert any(c[0] == "attack" for c in decision(g).options) is attack


# --- revisions: a revision-1 record is replayed with the options that reproduce it ---------

REVISION_1_RECORDS = sorted((Path(__file__).parent / "revision-1").glob("*.fief"))


@pytest.mark.parametrize("path", REVISION_1_RECORDS, ids=lambda p: p.name)
def test_a_revision_1_record_still_verifies(path: Path) -> None:
    rec = read_record_file(path)
    assert rec.header.revision == 1 and games.info("taifa").revision == 2
    game = build_game(rec.header)
    assert isinstance(game, TaifaGame)
    assert {name: game.opts[name] for name in REVISION_1} == REVISION_1
    report = verify(rec)
    assert report.ok and report.result is not None, report.verdict


def test_a_revision_1_record_may_not_name_a_later_option_and_revision_3_is_refused() -> None:
    gi = games.info("taifa")
    with pytest.raises(RulesError, match="'bots_join_fights' did not exist in taifa rules revision 1"):
        gi.record_options(1, "standard", {"bots_join_fights": True})
    with pytest.raises(RulesError, match="this record uses taifa rules revision 3; this fiefdom plays revision 2"):
        gi.record_options(3, "standard", {})
    assert gi.record_options(2, "el-cid", {"almoravid_hand": 14}) == {"almoravid_hand": 14}


def test_options_at_their_revision_1_values_leave_the_canonical_form_as_it_was() -> None:
    old = TaifaGame("standard", dict(REVISION_1))
    assert old.canonical()["options"] == {}
    assert set(TaifaGame("standard").canonical()["options"]) == set(REVISION_1)
