"""The published rulesets and OpenTafl: rules strings both ways (TF-26), ``fiefdom engine --otep``
on them, and ``.otg`` game records with a shieldwall."""

from __future__ import annotations

from typing import Any

import pytest

from core.engine import RulesError
from core.tafl import TaflGame
from core.tafl.otn_rules import parse_rules, rules_string
from notation.games.tafl import OtgError, read_otg
from tui.games.tafl.otep import OtepEngine

DIAMOND = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
CROSS = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"


@pytest.mark.parametrize(("text", "variant", "options", "to_move"), [
    # OpenTafl's own strings (its Copenhagen client test, its Brandub AI tests)
    (f"dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:{DIAMOND}", "copenhagen",
     {"repetition": "defenders-lose"}, 0),
    (f"dim:7 name:Brandub surf:n atkf:y ks:w nj:n cj:n cenh: cenhe: start:{CROSS}", "brandubh",
     {"strong_king_at_throne": False}, 0),
    # The notation spec's short examples (defenders first)
    (f"dim:11 atkf:n start:{DIAMOND}", "fetlar", {"repetition": "draw"}, 1),
    (f"dim:11 atkf:n sw:s efe:y start:{DIAMOND}", "copenhagen", {"repetition": "draw"}, 1),
    # Brandubh's strong king: strong on and beside the centre, the empty throne hostile (TF-28)
    (f"dim:7 surf:n ks:c start:{CROSS}", "brandubh", {"strong_king_at_throne": True}, 0),
])
def test_opentafls_strings_read_as_the_published_rulesets(text: str, variant: str, options: dict[str, Any],
                                                          to_move: int) -> None:
    rules = parse_rules(text)
    assert (rules.variant, rules.to_move) == (variant, to_move)
    assert options.items() <= rules.options.items()
    assert rules.options["quiet_moves"] == 0


@pytest.mark.parametrize(("variant", "options", "words"), [
    ("copenhagen", {}, ["dim:11 ", " tfr:w", " sw:s", " efe:y"]),
    ("fetlar", {}, ["dim:11 ", " atkf:y start:"]),
    ("brandubh", {}, ["dim:7 ", " surf:n", " ks:w", " cenh: cenhe: "]),
    ("brandubh", {"strong_king_at_throne": True}, [" ks:c"]),
    ("copenhagen", {"repetition": "draw"}, [" sw:s efe:y "]),
])
def test_each_rulesets_string_reads_back(variant: str, options: dict[str, Any], words: list[str]) -> None:
    text = rules_string(variant, options)
    assert all(w in text for w in words), text
    back = parse_rules(text)
    assert back.variant == variant
    assert {k: back.options[k] for k in options} == options


@pytest.mark.parametrize("text, why", [
    (f"dim:11 sw:w efe:y start:{DIAMOND}", "sw:w"),  # weak shieldwall: not Copenhagen's
    (f"dim:11 tfr:w efe:y start:{DIAMOND}", "efe:y"),  # an exit fort without the shieldwall
    (f"dim:7 surf:n ks:w cenh: cenhe: esc:e start:{CROSS}", "esc:e"),
])
def test_near_misses_are_refused_in_one_line(text: str, why: str) -> None:
    with pytest.raises(RulesError, match=why) as info:
        parse_rules(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("variant", "options"), [("copenhagen", {}), ("fetlar", {}), ("brandubh", {}),
                                                  ("brandubh", {"strong_king_at_throne": True})])
def test_the_engine_plays_the_new_rulesets(variant: str, options: dict[str, Any]) -> None:
    engine = OtepEngine(max_seconds=0.05)  # the real AI, briefly
    replies = [engine.handle(line) for line in (f"rules {rules_string(variant, options)}", "side attackers",
                                                "play attackers")]
    assert all(r.err == [] for r in replies)
    move = replies[-1].out[0].split()[1]
    game = TaflGame(variant, options)
    game.apply(game.parse(move))
    assert engine.game is not None and engine.game.variant == variant


SHIELDWALL_GAME = """\
[rules:dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3TTt5/3tt6/11/11/2t4T3/5K5/11/11/t10/11/11/]

1. c5-c1xd1/e1 h5-h9
"""


def test_an_otg_with_a_shieldwall_imports_and_a_wrong_capture_is_refused() -> None:
    game = read_otg(SHIELDWALL_GAME.encode())
    assert game.variant == "copenhagen" and game.moves == [("c5", "c1"), ("h5", "h9")]
    with pytest.raises(OtgError, match="captures"):
        read_otg(SHIELDWALL_GAME.replace("xd1/e1", "xd1").encode())

