"""OpenTafl interop: rules strings, ``fiefdom engine --otep`` conversations, a relayed game.

The conversations follow opentafl-engine-protocol.txt: the host sends ``rules``,
``side``, ``clock``, ``play``; the engine answers ``move a4-a1``; the host confirms
with ``move <position>`` or refuses with ``error 2`` then repeats ``opponent-move``
and ``play``.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from core.engine import RulesError
from core.tafl import TaflGame
from core.tafl.otn_rules import parse_rules, rules_string
from tui.games.tafl.otep import OtepEngine, Reply, serve

ROOT = Path(__file__).resolve().parents[2]
DIAMOND = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"


def first_legal(game: TaflGame, seconds: float, seed: int) -> tuple[tuple[str, str] | None, int]:
    """A stand-in for the AI: the first legal move, at once."""
    f, t = game.legal_moves()[0]
    return (game.geo.names[f], game.geo.names[t]), 25


def talk(engine: OtepEngine, *lines: str) -> Reply:
    """Every line's replies and notes together."""
    total = Reply()
    for line in lines:
        reply = engine.handle(line)
        total.out += reply.out
        total.err += reply.err
        total.done = total.done or reply.done
    return total


def legal_in(game: TaflGame, reply_line: str) -> bool:
    assert reply_line.startswith("move ")
    f, t = reply_line[5:].split("-")
    return game.is_legal(game.geo.square(f), game.geo.square(t))


# -- rules strings ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["traditional", "gild-9", "gild-11"])
@pytest.mark.parametrize("repetition", ["draw", "loss", "off"])
def test_each_variants_rules_string_reads_back(name: str, repetition: str) -> None:
    text = rules_string(name, {"repetition": repetition})
    assert text.startswith(f"dim:{9 if name == 'gild-9' else 11} ") and " start:/" in text
    back = parse_rules(text)
    assert (back.variant, back.options["repetition"], back.to_move) == (name, repetition, 0)
    assert back.options["quiet_moves"] == 0  # TF-18: OpenTafl has no quiet-move draw


def test_traditional_string_and_the_throne_option() -> None:
    assert rules_string("traditional") == f"dim:11 name:Traditional_11x11 atkf:y surf:n start:{DIAMOND}"
    off = rules_string("traditional", {"throne_counts_for_king": False})
    assert "cenhe:tcnkTCN " in off
    assert parse_rules(off).options["throne_counts_for_king"] is False


def test_entries_in_any_order_with_defaults_spelled_out() -> None:
    text = f"dim:11 surf:n esc:c ks:y tfr:d cenh:tcnk corp:K name:Whatever nj:n start:{DIAMOND}"
    assert parse_rules(text).variant == "traditional"


@pytest.mark.parametrize("text, why", [
    # OpenTafl's own Brandub example (opentafl-notation-spec section 3) leaves encirclement on
    ("dim:7 ks:n cenhe: cenh: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", "surf:y"),
    ("dim:13 ks:n cenhe: cenh: start:/13/13/13/13/13/13/6K6/13/13/13/13/13/13/", "no 13x13"),
    (f"dim:11 surf:n sw:s start:{DIAMOND}", "sw:s"),
    (f"dim:11 surf:n ber:c start:{DIAMOND}", "ber:c"),
    (f"dim:11 surf:n esc:e start:{DIAMOND}", "esc:e"),
    (f"dim:11 surf:n frobnicate:y start:{DIAMOND}", "does not know the rule frobnicate"),
    ("dim:11 surf:n", "no start"),
    ("surf:n start:/11/", "no dim"),
    ("dim:11 surf:n start:/3t3/", "start: the position has 1 rows"),
    ("dim:11 dim:11 start:/3t3/", "given twice"),
    ("hello world", "not a key:value"),
    ("dim:11 start:" + "x" * 5000, "too long"),
])
def test_rules_fiefdom_cannot_play_are_refused_in_one_line(text: str, why: str) -> None:
    with pytest.raises(RulesError, match=why) as info:
        parse_rules(text)
    assert "\n" not in str(info.value)


# -- a conversation -------------------------------------------------------------------


def test_hello_then_a_game_as_the_spec_orders_it() -> None:
    out, err = io.StringIO(), io.StringIO()
    script = "\n".join([
        f"rules {rules_string('traditional')}",
        "side defenders",
        "start",
        "opponent-move d1-d3 /4tttt3/5t5/3t7/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
        "clock 300000 300000 30 3 3",
        "play defenders",
        "goodbye",
        "play defenders",  # never read: goodbye ends the conversation
    ])
    assert serve(io.StringIO(script + "\n"), out, err, OtepEngine(think=first_legal)) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "hello" and len(lines) == 2
    game = TaflGame("traditional", {"quiet_moves": 0})
    game.apply(("d1", "d3"))
    assert legal_in(game, lines[1])
    assert err.getvalue() == ""


def test_the_engine_plays_its_side_and_follows_the_host() -> None:
    engine = OtepEngine(think=first_legal)
    reply = talk(engine, f"rules {rules_string('gild-9')}", "side attackers", "clock 60000 60000 0 0 0",
                 "play attackers")
    assert reply.err == [] and len(reply.out) == 1
    assert legal_in(TaflGame("gild-9"), reply.out[0])
    assert engine.game is not None
    after = engine.game.position()
    reply = talk(engine, f"move {after}")
    assert reply.out == [] and reply.err == []
    # The defenders answer; the engine applies it and plays again.
    game = engine.game.clone()
    f, t = game.legal_moves()[0]
    names = game.geo.names
    game.apply((names[f], names[t]))
    reply = talk(engine, f"opponent-move {names[f]}-{names[t]} {game.position()}", "play attackers")
    assert reply.err == [] and legal_in(game, reply.out[0])


def test_analyze_answers_in_the_hosts_format() -> None:
    # 'analysis <n> <move-list> <evaluation> ...': each move list runs from the position analysed,
    # its moves joined by '|' (opentafl-engine-protocol.txt, 9).
    engine = OtepEngine(max_seconds=0.2)  # the real AI, briefly
    reply = talk(engine, f"rules {rules_string('gild-9')}", f"position {TaflGame('gild-9').position()}",
                 "side defenders", "analyze 3 1")
    words = reply.out[0].split()
    assert words[:2] == ["analysis", "3"] and len(words) == 2 + 2 * 3
    firsts = set()
    for moves, evaluation in zip(words[2::2], words[3::2]):
        game = TaflGame("gild-9", None, None, 1)  # 'side' after 'position' names the side to move
        for move in moves.split("|"):
            assert legal_in(game, "move " + move)
            game.apply(tuple(move.split("-")))
        firsts.add(moves.split("|")[0])
        float(evaluation)
    assert len(firsts) == 3
    assert talk(engine, "analyze 0 1").out[0].startswith("analysis 1 ")  # at least one move, always
    assert talk(engine, "analyze 500 1").out[0].split()[1] == "20"  # at most MAX_LINES


def test_time_comes_from_the_clock() -> None:
    engine = OtepEngine(max_seconds=5.0, think=first_legal)
    talk(engine, f"rules {rules_string('traditional')}", "side defenders")
    assert engine.seconds_for_move() == 5.0  # no clock: the cap
    talk(engine, "clock 600000 60000 0 0 0")
    assert engine.seconds_for_move() == pytest.approx(2.0)  # a thirtieth of the defenders' minute
    talk(engine, "clock 600000 3000* 10 0 2")
    assert engine.seconds_for_move() == pytest.approx(1.5)  # half of what is left of the overtime period
    talk(engine, "clock -1 -1 0 0 0")
    assert engine.seconds_for_move() == 5.0  # no main time: the cap


# -- hostile input -----------------------------------------------------------------------


def test_garbage_and_misplaced_lines_are_one_line_notes() -> None:
    engine = OtepEngine(think=first_legal)
    reply = talk(engine, "play attackers", "flibbertigibbet 1 2 3", "\x00\xff" * 40, "clock x y", "side sideways",
                 "analyze", "position /3t3/", "opponent-move", "move")
    assert reply.out == []
    assert len(reply.err) == 9 and all("\n" not in note and note.startswith("otep: ") for note in reply.err)
    assert "no rules yet" in reply.err[0] and "unknown command" in reply.err[1]


def test_unknown_rules_are_a_critical_error_and_play_is_then_refused() -> None:
    engine = OtepEngine(think=first_legal)
    reply = talk(engine, "rules dim:13 ks:n cenhe: cenh: start:/13/13/13/13/13/13/6K6/13/13/13/13/13/13/")
    assert reply.out == ["error -1 rules string: fiefdom plays no 13x13 tafl (boards: 7, 9, 11)"]
    assert len(reply.err) == 1
    assert talk(engine, "play attackers").out == []


def test_an_illegal_opponent_move_gives_way_to_the_hosts_position() -> None:
    engine = OtepEngine(think=first_legal)
    talk(engine, f"rules {rules_string('traditional')}", "side defenders")
    host = TaflGame("traditional", {"quiet_moves": 0})
    host.apply(("d1", "d3"))
    # The host claims a1-a5 (no piece there) but sends the real position.
    reply = talk(engine, f"opponent-move a1-a5 {host.position()}")
    assert any("a1-a5" in note for note in reply.err)
    assert engine.game is not None and engine.game.position() == host.position() and engine.game.to_move == 1
    reply = talk(engine, "play defenders")
    assert legal_in(host, reply.out[-1])


def test_a_refused_move_is_never_offered_again() -> None:
    engine = OtepEngine(think=first_legal)  # would play the same first move every time
    start = TaflGame("gild-9")
    reply = talk(engine, f"rules {rules_string('gild-9')}", "side attackers", "play attackers")
    first = reply.out[0]
    # The host refuses it (a rule it reads differently): error, the previous move again, play.
    reply = talk(engine, "error 2", f"opponent-move  {start.position()}", "play attackers")
    assert reply.out and reply.out[0] != first and legal_in(start, reply.out[0])


def test_end_of_input_ends_quietly() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert serve(io.StringIO(f"rules {rules_string('gild-11')}\nside att"), out, err, OtepEngine()) == 0
    assert out.getvalue() == "hello\n" and err.getvalue().count("\n") == 1


def test_a_crashing_search_still_answers_a_legal_move() -> None:
    def broken(game: TaflGame, seconds: float, seed: int) -> tuple[tuple[str, str] | None, int]:
        raise ValueError("boom")

    engine = OtepEngine(think=broken)
    reply = talk(engine, f"rules {rules_string('gild-9')}", "play attackers")
    assert legal_in(TaflGame("gild-9"), reply.out[0]) and "boom" in reply.err[0]


# -- processes ------------------------------------------------------------------------------


def test_engine_needs_a_protocol() -> None:
    proc = subprocess.run([str(Path(sys.executable).parent / "fiefdom"), "engine"], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert proc.returncode == 2 and "--otep" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("variant", ["traditional", "brandubh"])
def test_two_engines_play_a_whole_game_through_the_relay(variant: str) -> None:
    """Done when: ``fiefdom engine --otep`` plays a game against itself through a relaying process."""
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "otep_relay.py"), "--variant", variant, "--seconds", "0.02",
         "--max-plies", "1000"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout[-500:]
    assert lines[0].startswith("1. attackers ") and lines[-1].startswith("result: ")
