"""The reconstructed Take the Kingdom deck (core/kingdom/data/cards.toml): the rulebook's facts, the
solo split, the icons, the loader's limits and its one-line errors (docs/kingdom-cards.md)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

import pytest

from core.engine import RulesError
from core.kingdom.cards import (
    ICONS, KEYS, MAX_BYTES, MAX_CARDS, TYPES, Card, CardSet, check_cards, load_cards, packaged_cards,
)

ROOT = Path(__file__).resolve().parents[2]
CARDS_FILE = ROOT / "core/kingdom/data/cards.toml"
CARDS_TEXT = CARDS_FILE.read_text("utf-8")
DOC_TEXT = (ROOT / "docs/kingdom-cards.md").read_text("utf-8")

# The decided deck (i11 contract): key -> (solo copies, non-solo copies).
COUNTS = {
    "charles": (0, 1), "simon": (0, 1), "egbert": (0, 1), "maria": (0, 1), "baligant": (0, 1), "anne": (0, 1),
    "castle": (0, 4), "mercy": (1, 4),
    "land": (3, 7), "village": (1, 1), "hills": (1, 3), "moat": (1, 3), "archers": (2, 2), "walls": (2, 2),
    "knights": (2, 2), "battlements": (1, 2), "trap": (2, 2), "mercenaries": (3, 0),
    "soldiers": (5, 2), "pikemen": (4, 2), "siege-tower": (3, 1), "trebuchet": (3, 1), "cannon": (3, 1),
    "dawn-raid": (0, 1),
    "deny": (3, 1), "sabotage": (2, 0), "gold": (0, 1), "fortune": (0, 2), "freeze": (2, 0), "mutiny": (2, 0),
    "earthquake": (2, 0), "disrepair": (3, 0), "spread": (0, 2), "morale": (0, 2),
    "famine": (1, 0), "disease": (1, 0), "plague": (1, 0),
}
DEFEND_KINDS = ("land", "village", "hills", "moat", "archers", "walls", "knights", "battlements")
DRAFT_KINDS = ("land", "hills", "moat", "walls", "battlements", "archers", "knights")  # Multiplayer Setup
ATTACK_KINDS = ("soldiers", "pikemen", "siege-tower", "trebuchet", "cannon", "dawn-raid")
ACTION_KINDS = ("deny", "sabotage", "gold", "fortune", "freeze", "mutiny", "earthquake", "disrepair", "spread", "morale")
PLAYERS_MAX = 4  # the published game is for 1-4 players


@pytest.fixture(scope="module")
def cards() -> CardSet:
    return packaged_cards()


def one(cs: CardSet, key: str) -> Card:
    """The card of ``key`` (every copy has the same value, which this checks)."""
    copies = cs.of_key(key)
    assert copies and len({c.value for c in copies}) == 1, key
    return copies[0]


# --- the rulebook's facts ------------------------------------------------------

def test_six_nobles_numbered_one_to_six_with_their_names(cards: CardSet) -> None:
    nobles = [c for c in cards if c.type == "noble"]
    assert [(c.key, c.value, c.name) for c in nobles] == [
        ("charles", 1, "Baron Charles de Mangonel"), ("simon", 2, "Lord Simon de Longbow"),
        ("egbert", 3, "Graf Egbert of Brunswick"), ("maria", 4, "Maria de Cordoba"),
        ("baligant", 5, "Lord Baligant"), ("anne", 6, "Anne, Viscountess of Narbonne"),
    ]
    assert not any(c.solo for c in nobles)


def test_nobles_effects_state_their_abilities(cards: CardSet) -> None:
    assert "Gold in hand" in one(cards, "charles").effect and "Cannons are Attack 5" in one(cards, "charles").effect
    assert "6 cards" in one(cards, "simon").effect and "Land" in one(cards, "simon").effect
    assert "Village" in one(cards, "egbert").effect and "always real" in one(cards, "egbert").effect
    assert "Pikemen are Attack 2" in one(cards, "maria").effect
    assert "Penalty" in one(cards, "baligant").effect and "next turn" in one(cards, "baligant").effect
    assert "Dawn Raid in hand" in one(cards, "anne").effect


def test_castles_score_three_one_for_each_of_four_players(cards: CardSet) -> None:
    castles = cards.of_key("castle")
    assert len(castles) >= PLAYERS_MAX
    assert all(c.type == "castle" and c.value == 3 for c in castles)
    assert 12 - one(cards, "castle").value == 9  # "a further 9 points of Defence to your Castle"


def test_mercy_one_per_player_outside_the_deck(cards: CardSet) -> None:
    mercy = cards.of_key("mercy")
    assert sum(not c.solo for c in mercy) == PLAYERS_MAX
    assert all(c.type == "mercy" and c.has("out-of-turn") for c in mercy)
    assert "a Land +1" in mercy[0].effect and "Freeze" in mercy[0].effect


def test_defend_values_from_one_to_five_and_the_eight_kinds(cards: CardSet) -> None:
    defend = [c for c in cards if c.type == "defend"]
    assert {c.key for c in defend} == set(DEFEND_KINDS)
    assert all(1 <= c.value <= 5 for c in defend)
    assert {c.value for c in defend} == {1, 2, 3, 4, 5}  # "a value from +1 to +5"


def test_four_traps_two_real_two_decoys(cards: CardSet) -> None:
    traps = cards.of_key("trap")
    assert [(t.id, t.real, t.solo) for t in traps] == [
        ("trap-1", True, True), ("trap-2", False, True), ("trap-3", True, False), ("trap-4", False, False)]
    assert all(t.type == "trap" and t.value == 0 for t in traps)
    assert "turns back on the attacker" in traps[0].effect and "the attack goes on" in traps[1].effect


def test_only_traps_say_real(cards: CardSet) -> None:
    assert not any(c.real for c in cards if c.type != "trap")
    assert "real = " not in CARDS_TEXT.split("[[card]]", 1)[1].split('id = "trap-1"')[0]


def test_three_mercenaries_valued_one_two_three(cards: CardSet) -> None:
    merc = cards.of_key("mercenaries")
    assert [(c.id, c.value) for c in merc] == [("mercenaries-1", 1), ("mercenaries-2", 2), ("mercenaries-3", 3)]
    assert all(c.type == "mercenaries" and c.solo and c.has("armed") for c in merc)
    assert merc[1].effect.startswith("Attack 2 or Defence +2.")


def test_attack_values_one_to_four_and_the_named_attacks(cards: CardSet) -> None:
    attacks = [c for c in cards if c.type == "attack"]
    assert {c.key for c in attacks} == set(ATTACK_KINDS)
    assert {c.value for c in attacks} == {1, 2, 3, 4}


def test_pikemen_one_and_cannon_four(cards: CardSet) -> None:
    assert one(cards, "pikemen").value == 1  # "a -1 Pikemen"
    assert one(cards, "cannon").value == 4


def test_cannon_spread_morale_is_an_eight_point_attack(cards: CardSet) -> None:
    cannon = one(cards, "cannon")
    assert 2 * cannon.value == 8  # Morale doubles; Spread shares it out
    assert "doubled" in one(cards, "morale").effect and "share its damage out" in one(cards, "spread").effect


def test_trebuchet_and_spread_clear_three_lands(cards: CardSet) -> None:
    assert 3 * one(cards, "land").value <= one(cards, "trebuchet").value


def test_pikemen_under_archers_is_partial_damage(cards: CardSet) -> None:
    assert one(cards, "pikemen").value < one(cards, "archers").value == 3
    assert "else damages it" in one(cards, "pikemen").effect


def test_trebuchet_against_land_gives_no_change(cards: CardSet) -> None:
    assert one(cards, "trebuchet").value > one(cards, "land").value
    assert "(no change)" in one(cards, "trebuchet").effect


def test_every_action_card_is_present(cards: CardSet) -> None:
    actions = [c for c in cards if c.type == "action"]
    assert {c.key for c in actions} == set(ACTION_KINDS)
    assert one(cards, "disrepair").type == "action"
    assert all(c.value == 0 for c in actions)


def test_the_three_penalties(cards: CardSet) -> None:
    penalties = [c for c in cards if c.type == "penalty"]
    assert sorted(c.key for c in penalties) == ["disease", "famine", "plague"]
    assert all(c.has("skull") and c.solo for c in penalties)
    assert all(c.effect.startswith("Strikes when drawn (one of your plays):") for c in penalties)
    assert "Deny, Gold, Mercy or Sabotage" in one(cards, "famine").effect


def test_108_cards(cards: CardSet) -> None:
    assert len(cards.cards) == 108 == len(cards)


def test_the_decided_counts(cards: CardSet) -> None:
    assert set(COUNTS) == set(KEYS)
    for key, (solo, other) in COUNTS.items():
        copies = cards.of_key(key)
        assert (sum(c.solo for c in copies), sum(not c.solo for c in copies)) == (solo, other), key
    assert sum(s + o for s, o in COUNTS.values()) == 108


def test_54_solo_cards_in_three_decks_of_18(cards: CardSet) -> None:
    solo = Counter(c.type for c in cards.solo())
    assert len(cards.solo()) == 54
    assert solo["attack"] == 18
    assert solo["defend"] + solo["trap"] == 15 and solo["mercenaries"] == 3
    assert solo["action"] + solo["mercy"] == 15 and solo["penalty"] == 3


def test_solo_setup_has_its_non_solo_cards(cards: CardSet) -> None:
    def spare(key: str) -> int:
        return sum(not c.solo for c in cards.of_key(key))
    # the most of each over the four difficulty levels (docs/kingdom-cards.md, "The solo setup")
    assert spare("land") >= 7 and spare("moat") >= 3 and spare("hills") >= 3
    assert spare("castle") >= 3 and spare("village") >= 1
    assert spare("gold") >= 1 and spare("dawn-raid") >= 1  # the Charles and Anne swaps


def test_survival_deck_cards_exist(cards: CardSet) -> None:
    assert cards.of_key("village") and cards.of_key("land")
    assert {1, 2} <= {c.value for c in cards.of_key("mercenaries")}


def test_draft_pool(cards: CardSet) -> None:
    pool = [c for c in cards if c.key in DRAFT_KINDS]
    assert len(pool) == 33 and sum(c.value for c in pool) == 89
    assert 9 * PLAYERS_MAX <= sum(c.value for c in pool)


# --- icons ---------------------------------------------------------------------

def test_icon_vocabulary(cards: CardSet) -> None:
    assert set(ICONS) == {"armed", "mechanical", "construction", "out-of-turn", "land", "skull"}
    assert all(set(c.icons) <= set(ICONS) for c in cards)


def keys_with(cards: CardSet, icon: str) -> set[str]:
    return {c.key for c in cards if c.has(icon)}


def test_mechanical_exactly_on_the_siege_engines(cards: CardSet) -> None:
    assert keys_with(cards, "mechanical") == {"cannon", "trebuchet", "siege-tower"}


def test_armed_on_knights_archers_and_soldiers(cards: CardSet) -> None:
    assert keys_with(cards, "armed") == {"knights", "archers", "soldiers", "pikemen", "dawn-raid", "mercenaries"}


def test_construction_exactly_on_hills_walls_battlements(cards: CardSet) -> None:
    assert keys_with(cards, "construction") == {"hills", "walls", "battlements"}


def test_out_of_turn_exactly_on_deny_mercy_gold_sabotage(cards: CardSet) -> None:
    assert keys_with(cards, "out-of-turn") == {"deny", "mercy", "gold", "sabotage"}


def test_skull_and_land_icons(cards: CardSet) -> None:
    assert keys_with(cards, "skull") == {"famine", "disease", "plague"}
    assert keys_with(cards, "land") == {"land"}


# --- ids, copies, the API ------------------------------------------------------

def test_ids_unique_key_and_copy_number_solo_first(cards: CardSet) -> None:
    assert len({c.id for c in cards}) == len(cards.cards)
    for key in KEYS:
        copies = cards.of_key(key)
        assert [c.id for c in copies] == [f"{key}-{n}" for n in range(1, len(copies) + 1)]
        assert [c.solo for c in copies] == sorted((c.solo for c in copies), reverse=True), key


def test_copies_share_name_type_icons_text_and_effect(cards: CardSet) -> None:
    for key in KEYS:
        copies = cards.of_key(key)
        assert len({(c.name, c.type, c.icons) for c in copies}) == 1, key
        if key not in ("mercenaries", "trap"):
            assert len({(c.value, c.text, c.effect) for c in copies}) == 1, key


def test_types_and_keys(cards: CardSet) -> None:
    assert set(KEYS.values()) == set(TYPES)
    assert all(KEYS[c.key] == c.type for c in cards)


def test_effects_are_the_engines_rulings(cards: CardSet) -> None:
    assert "Anne starts with it" in one(cards, "dawn-raid").effect
    assert "no Deny blocks a Deny" in one(cards, "deny").effect
    assert "third use" in one(cards, "gold").effect
    assert "unsprung" in one(cards, "sabotage").effect and "mechanical" in one(cards, "sabotage").effect
    assert "never Mercenaries" in one(cards, "mutiny").effect
    assert "construction" in one(cards, "earthquake").effect and "Trap" in one(cards, "earthquake").effect
    assert "Hills, Walls, Battlements" in one(cards, "disrepair").effect
    assert "another turn" in one(cards, "fortune").effect and "Mercy" in one(cards, "freeze").effect
    assert "survival" in one(cards, "village").effect
    assert all(c.text and c.effect and c.text != c.effect for c in cards)


def test_api_lookups(cards: CardSet) -> None:
    assert cards["cannon-1"].key == "cannon" and cards.by_id["land-10"].solo is False
    with pytest.raises(RulesError, match="no card 'cannon-9'"):
        cards["cannon-9"]
    assert [c.id for c in cards.solo()] == [c.id for c in cards.cards if c.solo]
    assert cards.of_key("nothing") == []


def test_cards_are_immutable(cards: CardSet) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        cards.cards[0].value = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        cards.by_id["x"] = cards.cards[0]  # type: ignore[index]
    assert isinstance(cards.cards, tuple) and isinstance(cards.cards[0].icons, tuple)


def test_packaged_cards_pass_the_checks_and_are_cached(cards: CardSet) -> None:
    check_cards(cards)
    assert packaged_cards() is cards


def test_fingerprint_reads_the_rules_not_the_prose(cards: CardSet) -> None:
    fp = cards.fingerprint()
    assert re.fullmatch(r"[0-9a-f]{16}", fp) and fp == packaged_cards().fingerprint()
    reworded = CardSet(tuple(dataclasses.replace(c, text="x", effect="y") for c in cards))
    assert reworded.fingerprint() == fp
    stronger = CardSet(tuple(dataclasses.replace(c, value=4) if c.key == "soldiers" else c for c in cards))
    assert stronger.fingerprint() != fp


# --- a user's own file -----------------------------------------------------------

def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "my-cards.toml"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def test_a_user_file_round_trips(tmp_path: Path, cards: CardSet) -> None:
    same = load_cards(write(tmp_path, CARDS_TEXT))
    assert same == cards and same.fingerprint() == cards.fingerprint()
    text = CARDS_TEXT.replace('id = "soldiers-1"\nkey = "soldiers"\nname = "Soldiers"\ntype = "attack"\nvalue = 2',
                              'id = "soldiers-1"\nkey = "soldiers"\nname = "Veterans"\ntype = "attack"\nvalue = 3')
    mine = load_cards(write(tmp_path, text))
    assert mine["soldiers-1"].name == "Veterans" and mine["soldiers-1"].value == 3
    assert mine.fingerprint() != cards.fingerprint()


def card_block(card_id: str) -> str:
    start = CARDS_TEXT.index(f'[[card]]\nid = "{card_id}"')
    return CARDS_TEXT[start:CARDS_TEXT.index("\n\n", start)]


def edit(card_id: str, old: str, new: str) -> str:
    block = card_block(card_id)
    assert old in block
    return CARDS_TEXT.replace(block, block.replace(old, new, 1))


BAD = {
    "missing field": (edit("cannon-1", 'value = 4\n', ""), "card 'cannon-1' (Cannon): value is missing"),
    "wrong type": (edit("cannon-1", "value = 4", 'value = "4"'), "card 'cannon-1' (Cannon): value must be a whole number"),
    "bool for a number": (edit("cannon-1", "value = 4", "value = true"), "value must be a whole number, not true"),
    "number for a bool": (edit("cannon-1", "solo = true", "solo = 1"), "card 'cannon-1' (Cannon): solo must be true or false"),
    "unknown field": (edit("cannon-1", "solo = true", "solo = true\ncolour = \"red\""), "unknown field 'colour'"),
    "unknown key": (edit("cannon-1", 'key = "cannon"', 'key = "dragon"'), "key 'dragon' is not a card the rules know"),
    "key of another type": (edit("cannon-1", 'type = "attack"', 'type = "defend"'), "type must be attack for key cannon"),
    "unknown type": (edit("cannon-1", 'type = "attack"', 'type = "spell"'), "type 'spell' is not one of"),
    "unknown icon": (edit("cannon-1", '"mechanical"', '"magic"'), "icons lists 'magic'"),
    "icon twice": (edit("cannon-1", '"mechanical"', '"mechanical", "mechanical"'), "icons lists an icon twice"),
    "duplicate id": (edit("cannon-2", 'id = "cannon-2"', 'id = "cannon-1"'), "card 'cannon-1' (Cannon): id is used by two cards"),
    "id of another key": (edit("cannon-1", 'id = "cannon-1"', 'id = "cannons-1"'), "id must start with its key"),
    "real on a non-trap": (edit("cannon-1", "solo = true", "solo = true\nreal = true"), "real belongs on traps only"),
    "trap without real": (edit("trap-1", "real = true\n", ""), "card 'trap-1' (Trap): real is missing"),
    "empty text": (edit("cannon-1", 'text = "Gunpowder and iron: the heaviest single blow in the deck."', 'text = "  "'),
                   "card 'cannon-1' (Cannon): text is empty"),
    "text on two lines": (edit("cannon-1", 'text = "Gunpowder and', 'text = "Gunpowder\\nand'), "text must be one line"),
    "a name that steers the terminal": (edit("cannon-1", 'name = "Cannon"', 'name = "Can\\u001b]0;PWNED\\u0007non"'),
                                        "card 'cannon-1': name must be one line of printable characters, "
                                        "and holds U+001B, a control character"),
    "value on an action": (edit("deny-1", "value = 0", "value = 2"), "card 'deny-1' (Deny): value must be 0 (action cards have none)"),
    "negative attack": (edit("cannon-1", "value = 4", "value = -4"), "value -4 is outside 0..99"),
    "not TOML": ("[[card]\nid = ", "not valid TOML"),
    "a number of 5000 digits": (edit("cannon-1", "value = 4", "value = 1" + "0" * 5000), "not valid TOML"),
    "a fraction": (edit("cannon-1", "value = 4", "value = 4.0"), "value must be a whole number, not 4.0"),
    "not UTF-8": (b"\xff\xfe[[card]]", "not UTF-8"),
    "empty file": ("", "no [[card]] entries"),
    "unknown table": (CARDS_TEXT + "\n[deck]\nsize = 1\n", "unknown top-level entries: 'deck'"),
    "card not a table": ("card = [1, 2]\n", "[[card]] entry 1 is not a table"),
    "nested too deeply": ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    "too large": (CARDS_TEXT + "#" * MAX_BYTES, f"larger than {MAX_BYTES} bytes"),
    "too many cards": (f"{card_block('cannon-1')}\n\n" * (MAX_CARDS + 1), f"more than the {MAX_CARDS}"),
    # check_cards: the facts the rules need
    "five nobles": (CARDS_TEXT.replace(card_block("anne-1"), ""), "no anne card (noble)"),
    "a noble twice": (CARDS_TEXT + "\n" + card_block("maria-1").replace('"maria-1"', '"maria-2"') + "\n",
                      "noble: the deck must hold one maria, found 2"),
    "noble numbers": (edit("anne-1", "value = 6", "value = 7"), "numbered 1 to 6"),
    "three castles": (CARDS_TEXT.replace(card_block("castle-4"), ""), "castle: the deck must hold at least 4"),
    "castle worth 4": (edit("castle-1", "value = 3", "value = 4"), "card 'castle-1' (Castle): value 4 must be 3 (a Castle scores +3)"),
    "three traps real": (edit("trap-2", "real = false", "real = true"), "4 Traps, 2 of them real"),
    "defence of six": (edit("battlements-1", "value = 5", "value = 6"), "card 'battlements-1' (Battlements): value 6 must be 1 to 5"),
    "attack of five": (edit("cannon-1", "value = 4", "value = 5"), "card 'cannon-1' (Cannon): value 5 must be 1 to 4"),
    "mercenaries of five": (edit("mercenaries-3", "value = 3", "value = 5"), "card 'mercenaries-3' (Mercenaries): value 5 must be 1 to 4 (Mercenaries attack as well as defend)"),
    "solo split": (edit("cannon-1", "solo = true", "solo = false"), "solo attack cards (attack) must number 18, found 17"),
    "solo setup": (edit("land-10", "solo = false", "solo = true").replace(card_block("moat-1"), card_block("moat-1").replace("solo = true", "solo = false")),
                   "solo setup needs 7 non-solo land"),
    "no gold outside solo": (edit("gold-1", "solo = false", "solo = true").replace(card_block("deny-1"), card_block("deny-1").replace("solo = true", "solo = false")),
                             "non-solo gold"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_give_one_line_rules_errors(tmp_path: Path, name: str) -> None:
    text, message = BAD[name]
    path = write(tmp_path, text)
    with pytest.raises(RulesError) as err:
        load_cards(path)
    msg = str(err.value)
    assert msg.isprintable() and len(msg) < 400, msg  # one line, and nothing in it steers a terminal
    assert msg.startswith(f"{path}: ") and message in msg, msg


def test_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=r"cannot read cards"):
        load_cards(tmp_path / "missing.toml")
    with pytest.raises(RulesError, match=r"cannot read cards"):
        load_cards(tmp_path)


def test_check_cards_on_a_card_set_built_in_code(cards: CardSet) -> None:
    odd = CardSet(tuple(dataclasses.replace(c, key="dragon") if c.id == "land-10" else c for c in cards))
    with pytest.raises(RulesError, match="card 'land-10' \\(Land\\): key 'dragon' is not a defend card"):
        check_cards(odd)
    with pytest.raises(RulesError, match="id is used by two cards"):
        CardSet(cards.cards + cards.cards[:1])


# --- the documentation -----------------------------------------------------------

def test_the_doc_says_it_is_a_reconstruction_and_names_every_card(cards: CardSet) -> None:
    assert "reconstruction" in DOC_TEXT.lower() and "reconstruction" in CARDS_TEXT.split("[[card]]")[0].lower()
    for c in cards:
        assert c.name in DOC_TEXT, c.name
    assert "--cards" in DOC_TEXT and "check_cards" in DOC_TEXT


def test_the_doc_table_matches_the_file(cards: CardSet) -> None:
    rows = re.findall(r"^\| [a-z0-9., -]+ \| [^|]+ \((?P<key>[a-z-]+)\) \| (?P<type>[a-z]+) \| (?P<value>[0-9, ]+) \|"
                      r"(?P<icons>[a-z -]*)\| (?P<solo>[0-9]+) \| (?P<other>[0-9]+) \| (?P<total>[0-9]+) \|", DOC_TEXT, re.M)
    counts: Counter[tuple[str, bool]] = Counter()
    for key, kind, value, icons, solo, other, total in rows:
        copies = cards.of_key(key)
        assert KEYS[key] == kind and int(solo) + int(other) == int(total), key
        assert value.replace(" ", "").split(",") == sorted({str(c.value) for c in copies}), key
        assert icons.strip() == " ".join(copies[0].icons), key
        counts[key, True] += int(solo)
        counts[key, False] += int(other)
    assert +counts == Counter((c.key, c.solo) for c in cards)


def test_each_effect_fits_two_lines_and_cites_rulings_that_exist(cards: CardSet) -> None:
    """A card's effect is read on the table in one or two lines; a ruling it cites is in the rulings."""
    import re
    from pathlib import Path

    rulings = (Path(__file__).resolve().parents[2] / "docs" / "rulings" / "kingdom.md").read_text("utf-8")
    for c in cards:
        assert len(c.effect) <= 200, c.id
        for kd in re.findall(r"KD-\d+", c.effect):
            assert f"| {kd} |" in rulings, (c.id, kd)
    assert "2017 first edition" in DOC_TEXT and "not evidence for this deck" in DOC_TEXT
