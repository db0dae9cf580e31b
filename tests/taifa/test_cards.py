"""The reconstructed Taifa decks (core/taifa/data/cards.toml): named cards, markers, vocabulary, sizing, validation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.engine import RulesError
from core.taifa.cards import (
    ALMORAVID_HAND_MAX, BASE_DRAW, BONUS_MAX, CARRY_ALLOWANCE, MARKERS, NAMED, OPS, STRENGTH_RANGE, WHEN, WHO,
    Decks, load_cards, sizing,
)

CARDS_TEXT = (Path(__file__).resolve().parents[2] / "core/taifa/data/cards.toml").read_text("utf-8")
DOC_TEXT = (Path(__file__).resolve().parents[2] / "docs/taifa-cards.md").read_text("utf-8")


@pytest.fixture(scope="module")
def decks() -> Decks:
    return load_cards()


def steps(card) -> list[tuple[str, dict]]:
    return [(e.op, dict(e.params)) for e in card.effect]


# --- the cards the rulebook names -------------------------------------------

def test_champion_adds_two_dice_to_attack_defence_or_incursion(decks: Decks) -> None:
    for c in decks.by_name("Champion"):
        assert c.kind == "response" and c.who == "any"  # 11.1: the defender plays it; 11.2: the attacking bot
        assert set(c.when) == {"attack", "defence", "incursion"}
        assert steps(c) == [("add_dice", {"n": 2})]
    # 11.1: Denia defends with 2 + 1 (Murcia's garrison) + 2 = 5 dice; 11.2: a 1-die incursion becomes 3 dice
    n = decks.by_name("Champion")[0].effect[0]["n"]
    assert 2 + 1 + n == 5 and 1 + n == 3 and 3 + 2 + n == 7
    assert {c.deck for c in decks.by_name("Champion")} == {"christian", "muslim"}


def test_militia_defends_and_answers_independent_campaign(decks: Decks) -> None:
    for c in decks.by_name("Militia"):
        assert c.kind == "response" and c.who == "defender"
        assert set(c.when) == {"defence", "campaign_defence"}
        assert steps(c) == [("add_dice", {"n": 2})]
    ic_decks = {c.deck for c in decks.by_name("Independent Campaign")}
    assert ic_decks <= {c.deck for c in decks.by_name("Militia")}


def test_surprise_sortie_removes_one_attacking_troop(decks: Decks) -> None:
    for c in decks.by_name("Surprise Sortie"):
        assert c.kind == "response" and c.when == ("defence",) and c.who == "defender"
        assert steps(c) == [("remove_attacking_troop", {"n": 1})]


def test_truce_is_one_permanent_christian_event(decks: Decks) -> None:
    (truce,) = decks.by_name("Truce")
    assert truce.deck == "christian" and truce.kind == "event" and truce.permanent
    assert truce.target == "kingdom"
    assert steps(truce) == [("truce", {"forbid": ["attack"]})]  # 10.2 adds incursions for El Cid


def test_razzia_and_judgment_of_god_act_on_a_christian_kingdoms_enemy(decks: Decks) -> None:
    # 10.2: a truced Christian kingdom can still play them against El Cid, so they are Christian cards
    for name in ("Razzia", "Judgment of God"):
        cards = decks.by_name(name)
        assert any(c.deck == "christian" for c in cards)
        for c in cards:
            assert c.kind == "event" and c.target in ("kingdom", "neighbour")


def test_independent_campaign(decks: Decks) -> None:
    for c in decks.by_name("Independent Campaign"):
        assert c.kind == "event" and c.target == "none"
        assert [e.op for e in c.effect] == ["independent_attack"]
    assert {c.deck for c in decks.by_name("Independent Campaign")} == {"christian", "muslim"}


def test_every_named_card_exists_with_its_kind(decks: Decks) -> None:
    for name, kind in NAMED.items():
        assert decks.by_name(name), name
        assert {c.kind for c in decks.by_name(name)} == {kind}


# --- ids, markers, fields, vocabulary -----------------------------------------

def test_ids_unique_stable_and_prefixed(decks: Decks) -> None:
    for d, prefix in ((decks.christian, "C"), (decks.muslim, "M")):
        assert [c.id for c in d] == [f"{prefix}{i:02d}" for i in range(1, len(d) + 1)]
    assert decks.card("C01").name == "Heavy Cavalry"
    with pytest.raises(RulesError, match="no card 'X01'"):
        decks.card("X01")
    with pytest.raises(RulesError, match="no card named"):
        decks.by_name("Dragon")


def test_markers(decks: Decks) -> None:
    for d in decks:
        for c in d:
            assert c.markers <= set(MARKERS)
            if c.kind != "event":
                assert not c.markers & {"P", "D"}, c.id
            if c.kind == "response":
                assert not c.offensive, c.id
        # 9.3: both troops and events carry the offensive symbol; 5.4: some events are P, some D
        assert any(c.offensive for c in d.of_kind("troop")) and any(c.offensive for c in d.of_kind("event"))
        assert any(c.removed_when_played for c in d)
    assert any(c.permanent for d in decks for c in d)


def test_every_card_is_complete(decks: Decks) -> None:
    for d in decks:
        for c in d:
            assert c.name and c.text and c.deck == d.name
            if c.kind == "troop":
                assert c.strength in STRENGTH_RANGE and not c.effect
            elif c.kind == "response":
                assert c.effect and c.who in WHO and set(c.when) <= set(WHEN)
            else:
                assert c.effect and c.target is not None


def test_every_op_is_in_the_documented_vocabulary(decks: Decks) -> None:
    used = {op for d in decks for c in d for op in c.ops()}
    assert used <= set(OPS)
    for op, spec in OPS.items():
        assert f"`{op}`" in DOC_TEXT, op
        for p in spec.params:
            assert re.search(rf"`{op}`[^\n]*\b{p}\b", DOC_TEXT), (op, p)
    for w in WHEN + WHO:
        assert f"`{w}`" in DOC_TEXT, w


def test_bot_clauses_only_where_a_bot_plays_differently(decks: Decks) -> None:
    bots = [c for d in decks for c in d if c.bot is not None]
    assert bots
    for c in bots:
        assert c.kind == "event" and not c.offensive and c.bot != c.effect


def test_no_rulebook_sentences_in_texts(decks: Decks) -> None:
    rules = (Path(__file__).resolve().parents[3] / "shared/rules/taifa-en.txt")
    if not rules.exists():
        pytest.skip("rulebook not beside the checkout")
    words = re.findall(r"[a-z']+", rules.read_text("utf-8").lower())
    shingles = {" ".join(words[i:i + 8]) for i in range(len(words) - 7)}
    for d in decks:
        for c in d:
            w = re.findall(r"[a-z']+", c.text.lower())
            assert not any(" ".join(w[i:i + 8]) in shingles for i in range(len(w) - 7)), c.id


# --- the decks play differently -------------------------------------------------

def test_decks_differ(decks: Decks) -> None:
    ch, mu = decks.christian, decks.muslim
    strength = {d.name: [c.strength for c in d.of_kind("troop")] for d in decks}
    # Christian: fewer but stronger troops, heavy cavalry of strength 4
    assert len(strength["christian"]) < len(strength["muslim"])
    assert sum(strength["christian"]) / len(strength["christian"]) > sum(strength["muslim"]) / len(strength["muslim"]) + 0.5
    assert max(strength["christian"]) == 4 > max(strength["muslim"])
    # Muslim: more responses, tribute (parias) and intrigue
    assert len(mu.of_kind("response")) > len(ch.of_kind("response"))
    assert mu.by_name("Parias") and mu.by_name("Spies") and not ch.by_name("Parias")
    assert {c.name for c in ch} != {c.name for c in mu}
    assert {"Truce", "Judgment of God"} <= {c.name for c in ch} - {c.name for c in mu}


# --- sizing (docs/taifa-cards.md, "Deck sizing") ---------------------------------

def test_sizing_covers_the_worst_turn(decks: Decks) -> None:
    full = BASE_DRAW + BONUS_MAX
    for d in decks:
        s = sizing(d, "standard")
        assert s.drawn == 3 * full == 30
        assert s.needed == 3 * full + d.draw_events_total() + d.removable() + 3 * CARRY_ALLOWANCE
        assert s.pile == len(d) >= s.needed
    ch, mu = sizing(decks.christian, "el_cid"), sizing(decks.muslim, "el_cid")
    assert ch.drawn == (5 + 2) + (5 + 2) + (7 + 2) and ch.set_aside == 1  # Truce is held by El Cid (10.2)
    assert mu.drawn == ALMORAVID_HAND_MAX + 2 == 18
    assert ch.spare >= 0 and mu.spare >= 0


def test_sizing_numbers_as_documented(decks: Decks) -> None:
    got = {(s.deck, s.scenario): (s.size, s.event_draws, s.removable, s.needed, s.spare)
           for d in decks for s in (sizing(d, "standard"), sizing(d, "el_cid"))}
    assert got == {
        ("christian", "standard"): (60, 6, 3, 51, 9), ("christian", "el_cid"): (60, 6, 3, 44, 15),
        ("muslim", "standard"): (60, 6, 1, 49, 11), ("muslim", "el_cid"): (60, 6, 1, 29, 31),
    }
    # the most each kingdom may hold beyond a full draw before a standard turn could run a deck dry
    assert [(len(d) - 30 - d.draw_events_total() - d.removable()) // 3 for d in decks] == [7, 7]


def test_event_draws_are_every_draw_step_once(decks: Decks) -> None:
    for d in decks:
        draws = [e["n"] for c in d.of_kind("event") for e in c.effect if e.op == "draw"]
        assert d.draw_events_total() == sum(draws) == 6


# --- loading your own file and validation ------------------------------------------

def test_load_own_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(CARDS_TEXT.replace('name = "Spoils of War"', 'name = "Booty"'), "utf-8")
    own = load_cards(str(path))
    assert own.source == str(path) and own.by_name("Booty")


def set_field(text: str, card_id: str, field: str, value: str | None) -> str:
    """Set (or with None delete) ``field`` in the [[card]] block of ``card_id``; adds the field if absent."""
    start = text.index(f'[[card]]\nid = "{card_id}"\n')
    end = text.find("\n\n", start)
    block = text[start:end]
    line = re.compile(rf"^{field} = .*$", re.M)
    if value is None:
        new = line.sub("", block).replace("\n\n", "\n")
    elif line.search(block):
        new = line.sub(lambda _: f"{field} = {value}", block)
    else:
        new = block + f"\n{field} = {value}"
    return text[:start] + new + text[end:]


def broken(tmp_path: Path, text: str) -> str:
    path = tmp_path / "broken.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(RulesError) as info:
        load_cards(str(path))
    msg = str(info.value)
    assert msg.startswith(str(path))
    return msg


@pytest.mark.parametrize(("card", "field", "value", "expect"), [
    ("C01", "strength", "5", "card 'C01' (Heavy Cavalry): strength 5 is outside 1..4"),
    ("C01", "strength", '"4"', "card 'C01' (Heavy Cavalry): strength must be a whole number"),
    ("C01", "strength", None, "card 'C01' (Heavy Cavalry): strength is missing"),
    ("C01", "id", '"C02"', "card 'C02' (Heavy Cavalry): id is also used by Heavy Cavalry"),
    ("C01", "id", '"M99"', "card 'M99' (Heavy Cavalry): id must be C and 2-3 digits"),
    ("C01", "deck", '"pagan"', "deck 'pagan' is not one of christian, muslim"),
    ("C01", "kind", '"spell"', "kind 'spell' is not one of troop, response, event"),
    ("C01", "markers", '["P"]', "card 'C01' (Heavy Cavalry): markers P and D belong on Event cards only"),
    ("C01", "markers", '["X"]', "markers lists 'X', which is not one of P, D, offensive"),
    ("C01", "effect", '[{ op = "draw", n = 1 }]', "card 'C01' (Heavy Cavalry): effect is not a field of a troop card"),
    ("C01", "colour", '"red"', "card 'C01' (Heavy Cavalry): unknown field 'colour'"),
    ("C01", "text", '"  "', "card 'C01' (Heavy Cavalry): text is empty"),
    ("C21", "when", '["siege"]', "card 'C21' (Champion): when lists 'siege', which is not one of"),
    ("C21", "who", '"ally"', "card 'C21' (Champion): who 'ally' is not one of attacker, defender, any"),
    ("C21", "when", "[]", "card 'C21' (Champion): when is empty"),
    ("C23", "who", '"attacker"', "card 'C23' (Militia): who is attacker, so when may only list attack, incursion"),
    ("C21", "markers", '["offensive"]', "only Troop and Event cards carry the offensive symbol"),
    ("C21", "effect", '[{ op = "add_dice", side = "attack", n = 2 }]', "card 'C21' (Champion): effect step 1: op add_dice has no parameter 'side' (it takes n)"),
    ("C21", "effect", '[{ op = "add_dice" }]', "effect step 1: op add_dice needs parameter 'n'"),
    ("C21", "effect", '[{ op = "add_dice", n = 9 }]', "effect step 1: add_dice.n = 9 is outside 1..3"),
    ("C21", "effect", '[{ op = "add_dice", n = true }]', "effect step 1: add_dice.n must be a whole number"),
    ("C21", "effect", '[{ op = "fireball", n = 2 }]', "effect step 1: op 'fireball' is not in the vocabulary"),
    ("C21", "effect", '[{ op = "draw", n = 2 }]', "effect step 1: op draw is not for response cards"),
    ("C21", "effect", '[{ op = "remove_attacking_troop", n = 1 }]', "op remove_attacking_troop only works when defence, but when lists attack, defence, incursion"),
    ("C21", "effect", "[]", "card 'C21' (Champion): effect is empty"),
    ("C21", "effect", '["add_dice"]', "effect step 1 must be a table"),
    ("C34", "markers", "[]", "card 'C34' (Truce): markers must include P"),
    ("C34", "target", '"none"', "card 'C34' (Truce): effect step 1: op truce acts on a kingdom, but target is none"),
    ("C34", "effect", '[{ op = "truce", forbid = ["feast"] }]', "truce.forbid must be a list of distinct values from attack, incursion"),
    ("C38", "target", '"everyone"', "card 'C38' (Judgment of God): target 'everyone' is not one of none, kingdom, neighbour"),
    ("C39", "target", '"neighbour"', "card 'C39' (Independent Campaign): target is neighbour, but no step of effect acts on a kingdom"),
    ("C39", "effect", '[{ op = "attack", bonus_dice = 1 }]', "card 'C39' (Independent Campaign): effect must use independent_attack"),
    ("C49", "target", '"kingdom"', "op incursion needs target neighbour (5.3)"),
    ("C43", "bot", '[{ op = "draw", n = 1 }]', "card 'C43' (Cavalry Charge): bot is pointless on an offensive card"),
    ("C58", "bot", '[{ op = "target_discards", n = 1, pick = "dice" }]', "card 'C58' (Envoy to Court): bot step 1: target_discards.pick = 'dice' is not one of random, player"),
    ("C58", "bot", "[]", "card 'C58' (Envoy to Court): bot is empty"),
    ("C34", "kind", '"response"', "card 'C34' (Truce): target is not a field of a response card"),
])
def test_broken_card_field(tmp_path: Path, card: str, field: str, value: str | None, expect: str) -> None:
    assert expect in broken(tmp_path, set_field(CARDS_TEXT, card, field, value))


def test_card_ids_used_by_the_broken_cases(decks: Decks) -> None:
    names = {"C01": "Heavy Cavalry", "C21": "Champion", "C23": "Militia", "C34": "Truce", "C38": "Judgment of God",
             "C39": "Independent Campaign", "C43": "Cavalry Charge", "C49": "Cabalgada", "C58": "Envoy to Court"}
    assert {k: decks.card(k).name for k in names} == names


def test_named_card_missing_or_misplaced(tmp_path: Path) -> None:
    assert "name: no card is called 'Surprise Sortie'" in broken(tmp_path, CARDS_TEXT.replace('"Surprise Sortie"', '"Sally"'))
    assert "deck christian: must hold exactly one Truce" in broken(tmp_path, set_field(CARDS_TEXT, "C34", "deck", '"muslim"').replace('id = "C34"', 'id = "M99"'))
    assert "must hold exactly one Truce (10.2 sets it aside), found 2" in broken(tmp_path, set_field(CARDS_TEXT, "C59", "name", '"Truce"'))


def test_deck_too_small(tmp_path: Path) -> None:
    start = CARDS_TEXT.index('[[card]]\nid = "C05"')
    end = CARDS_TEXT.index('[[card]]\nid = "C20"')
    msg = broken(tmp_path, CARDS_TEXT[:start] + CARDS_TEXT[end:])
    assert "deck christian: 45 cards cannot cover a standard turn, which needs 51" in msg


def test_not_toml_and_empty(tmp_path: Path) -> None:
    assert "not valid TOML" in broken(tmp_path, "[[card]\n")
    assert "no [[card]] entries" in broken(tmp_path, "")
    assert "unknown top-level table(s): 'deck'" in broken(tmp_path, "[deck]\n")
    assert "cannot read cards" in str(pytest.raises(RulesError, load_cards, str(tmp_path / "nope.toml")).value)
