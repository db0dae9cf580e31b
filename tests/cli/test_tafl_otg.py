"""``fiefdom tafl export-otg`` and ``import-otg``: OpenTafl game files both ways, damaged ones refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.tafl.otn_rules import rules_string
from notation.games.tafl import OtgError, read_otg
from notation.reader import read_record_file
from notation.verify import verify

FIEFDOM = str(Path(sys.executable).parent / "fiefdom")
DIAMOND = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
# As OpenTafl writes one (opentafl-notation-spec "Game Records"), under fiefdom's traditional rules.
GAME = f"""\
[event:Test match]
[attackers:Millar, Tim]
[defenders:Schachus]
[result:?]
[rules:dim:11 name:Traditional_11x11 atkf:y surf:n start:{DIAMOND}]

1. d1-d3 h6-h9
[Black starts with d1-d3.|White answers.]
2. k4-i4 f8-c8
3. d11-d9 e7-e10
4. e11-c11 g7-g10
"""


# A Copenhagen game whose first move takes two defenders in a shieldwall (TF-21).
COPENHAGEN_GAME = """\
[rules:dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3TTt5/3tt6/11/11/2t4T3/5K5/11/11/t10/11/11/]

1. c5-c1xd1/e1 h5-h9
"""


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([FIEFDOM, *map(str, args)], capture_output=True, text=True, timeout=60)


def test_an_opentafl_game_imports_and_verifies(tmp_path: Path) -> None:
    otg, fief = tmp_path / "game.otg", tmp_path / "game.fief"
    otg.write_text(GAME, "utf-8")
    done = run("tafl", "import-otg", otg, "-o", fief)
    assert done.returncode == 0, done.stderr
    assert "8 moves of tafl traditional" in done.stdout
    recording = read_record_file(fief.read_bytes())
    assert [s.name for s in recording.header.seats] == ["Millar, Tim", "Schachus"]
    assert recording.header.options["quiet_moves"] == 0  # TF-18
    assert verify(recording).ok
    assert run("replay", "verify", fief).returncode == 0
    # And back: the same moves, the commentary on the same turn.
    back = run("tafl", "export-otg", fief)
    assert back.returncode == 0, back.stderr
    body = back.stdout.split("\n\n", 1)[1]
    assert body.splitlines()[:2] == ["1. d1-d3 h6-h9", "[Black starts with d1-d3.|White answers.]"]
    assert "4. e11-c11 g7-g10" in body


def test_a_fiefdom_record_goes_out_and_comes_back(tmp_path: Path) -> None:
    done = run("simulate", "tafl", "-v", "gild-9", "-n", "1", "--ai-time", "0.01", "--ai-depth", "1",
               "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    record = next(tmp_path.glob("*.fief"))
    otg, back = tmp_path / "out.otg", tmp_path / "back.fief"
    assert run("tafl", "export-otg", record, "-o", otg).returncode == 0
    assert run("tafl", "export-otg", record, "-o", otg).returncode == 2  # no --force: kept
    imported = run("tafl", "import-otg", otg, "-o", back)
    assert imported.returncode == 0, imported.stderr
    original, copy = read_record_file(record.read_bytes()), read_record_file(back.read_bytes())
    assert [r for r in copy.records if type(r).__name__ == "DecisionRecord"] == \
        [r for r in original.records if type(r).__name__ == "DecisionRecord"]
    assert copy.result == original.result


@pytest.mark.parametrize("text, why", [
    ("", "no \\[rules"),
    ("hello\n", "line 1: 'hello' is neither"),
    (GAME.replace("surf:n ", "surf:n sw:w "), "sw:w"),
    (GAME.replace("1. d1-d3", "1. d1-d9"), "line 7: 'd1-d9': .*is in the way"),
    (GAME.replace("g7-g10", "g7-g10xf9"), "that move captures f10"),
    (GAME.replace("f8-c8", "f8-c8xc9"), "captures nothing"),
    (GAME.replace("2. k4", "3. k4"), "turn 3 where turn 2 should be"),
    (GAME.replace("h6-h9", "h6^h9"), "jumps and berserk"),
    (GAME.replace("h6-h9", "h6-h9 ---\n2. a4-a5"), "after a resignation"),
    (GAME + "[dangling", "commentary is"),
    (GAME.replace("1. d1-d3", "1. e1-e1"), "at least one square"),
    (f"[rules:dim:11 surf:n start:{DIAMOND}]\n[position:/3t3/]\n", r"\[position\]"),
])
def test_damaged_files_are_refused_in_one_line(text: str, why: str) -> None:
    with pytest.raises(OtgError, match=why) as info:
        read_otg(text.encode("utf-8"))
    assert "\n" not in str(info.value)


def test_hostile_files_on_the_command_line(tmp_path: Path) -> None:
    cases = {"binary.otg": bytes(range(256)) * 4, "nul.otg": b"[rules:\x00]\n", "huge.otg": b"[" * (5 << 20)}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        done = run("tafl", "import-otg", tmp_path / name, "-o", tmp_path / f"{name}.fief")
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, name
        assert not (tmp_path / f"{name}.fief").exists()
    missing = run("tafl", "import-otg", tmp_path / "nope.otg", "-o", tmp_path / "x.fief")
    assert missing.returncode == 2 and "nope.otg" in missing.stderr
    not_a_record = run("tafl", "export-otg", tmp_path / "binary.otg")
    assert not_a_record.returncode == 2 and not_a_record.stderr.count("\n") == 1


def test_a_defenders_first_position_round_trips() -> None:
    text = rules_string("gild-9", None, "/9/9/2K6/9/9/3t1T3/9/3T5/9/", 1)
    assert "atkf:n" in text
    game = read_otg(f"[rules:{text}]\n\n1. Kc3-c1\n".encode())
    assert game.setup == {"position": "/9/9/2K6/9/9/3t1T3/9/3T5/9/", "to_move": 1}
    assert game.moves == [("c3", "c1")]


def test_rules_string_command_prints_what_otep_reads() -> None:
    done = run("tafl", "rules-string", "-v", "traditional", "-o", "repetition=loss")
    assert done.returncode == 0 and done.stdout.strip() == rules_string("traditional", {"repetition": "loss"})
    assert "tfr:l" in done.stdout
    assert run("tafl", "rules-string", "-v", "tablut").returncode == 2


def test_a_copenhagen_otg_goes_in_and_out(tmp_path: Path) -> None:
    otg, fief = tmp_path / "cph.otg", tmp_path / "cph.fief"
    otg.write_text(COPENHAGEN_GAME, "utf-8")
    done = run("tafl", "import-otg", otg, "-o", fief)
    assert done.returncode == 0, done.stderr
    assert "tafl copenhagen" in done.stdout
    assert run("replay", "verify", fief).returncode == 0
    back = run("tafl", "export-otg", fief)
    assert back.returncode == 0 and "sw:s" in back.stdout and "1. c5-c1xd1/e1 h5-h9" in back.stdout


def test_variants_command_lists_the_registry() -> None:
    done = run("tafl", "variants")
    assert done.returncode == 0
    keys = [line.split()[0] for line in done.stdout.splitlines()]
    assert keys == ["traditional", "gild-9", "gild-11", "copenhagen", "fetlar", "brandubh"]
    assert "strong_king_at_throne=false" in done.stdout
    assert "variants" in run("tafl", "--help").stdout
    bad = run("tafl", "rules-string", "-v", "brandubh", "-o", "strong_king_at_throne=maybe")
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "true or false" in bad.stderr


def test_the_otg_export_names_who_played_each_side(tmp_path) -> None:
    """Issue 30: a game played here names each side's player in OpenTafl's tags (a person, the AI and
    its settings), not only "attackers" and "defenders"; an imported game's player names stay."""
    from notation.format import Seat
    from notation.games.tafl import player

    assert player(Seat("attackers", "human", ""), "attackers") == "attackers (a person)"
    assert player(Seat("defenders", "ai", "tafl-ai 3, 2s"), "defenders") == "defenders (the AI: tafl-ai 3, 2s)"
    assert player(Seat("Astrid", "human", ""), "attackers") == "Astrid"
