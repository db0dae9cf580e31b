"""Text (PGN-like), JSON and OpenTafl (.otg) export of Tafl records."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from notation.export import ExportError, export_json, export_text
from notation.format import STEP_TYPES, DecisionRecord, Record, ResultRecord
from notation.games.tafl import export_otg
from notation.reader import Recording, read_record_file
from notation.writer import encode_game

SHORT_TEXT = """\
[Game "tafl"]
[Variant "gild-9"]
[Rules revision "1"]
[Seats "attackers: Astrid (human); defenders: fief-random (random, seed 2)"]
[Chance "seeded"]
[Seed "1"]
[Date "2025.01.31"]
[Time "12:34 UTC"]
[App "fiefdom test"]
[Result "defenders won: the king reached a corner (gild OBJECT)"]

1. d6-d7xd8 {d8 captured (a defender) [gild BASIC MOVES; TF-11]} Kc3-c1 {the king runs}
2. d7-c7 Kc1-a1 {Defenders win: the king reached a corner [gild OBJECT]}
defenders won: the king reached a corner (gild OBJECT)
"""

SHORT_OTG = """\
[name:Astrid vs fief-random]
[variant:Tafl-Gild 9x9]
[date:2025.01.31]
[time:12:34]
[attackers:Astrid]
[defenders:fief-random]
[result:-1]
[termination:the king reached a corner]
[compiler:fiefdom]
[rules:dim:9 name:Tafl-Gild_9x9 atkf:y surf:n ks:c \
afor:d1,e1,f1,e2,a4,a5,a6,b5,i4,i5,i6,h5,d9,e9,f9,e8 corh:tcnkTCN cenhe:tcnkTCN aforh:tcnkTCNK afors:tcnk \
corre:tcnkTCNK cenre:tcnkTCNK aforre: dforre:tcnkTCNK start:/9/9/2K6/9/9/3t1T3/9/3T5/9/]

1. d6-d7xd8 Kc3-c1
[|the king runs]
2. d7-c7 Kc1-a1
"""


def test_text_export(samples: dict[str, bytes]) -> None:
    assert export_text(read_record_file(samples["short"])) == SHORT_TEXT


def test_text_export_of_an_unfinished_game(samples: dict[str, bytes]) -> None:
    text = export_text(read_record_file(samples["unfinished"]))
    lines = text.splitlines()
    assert '[Result "*"]' in lines and lines[-1] == "*"
    assert lines[lines.index("") + 1] == "{hello}"  # a comment before the first move
    assert lines[-2].startswith("20. ") and len([ln for ln in lines if ln[:1].isdigit()]) == 20
    turn9 = next(ln for ln in lines if ln.startswith("9. "))
    assert turn9.split()[2] == "{wait}"  # a comment on step 17, the first move of turn 9


def test_json_export(samples: dict[str, bytes]) -> None:
    doc = json.loads(export_json(read_record_file(samples["short"])))
    assert doc["header"]["variant"] == "gild-9" and doc["header"]["seed"] == 1
    assert [s["notation"] for s in doc["steps"]] == ["d6-d7xd8", "Kc3-c1", "d7-c7", "Kc1-a1"]
    first = doc["steps"][0]
    assert first["code"] == ["d6", "d7"] and first["seat"] == 0 and first["text"] == "d6-d7"
    assert first["events"][1] == {"kind": "capture", "text": "d8 captured (a defender)", "rule": "gild BASIC MOVES; TF-11"}
    assert doc["steps"][1]["comments"] == ["the king runs"]
    assert doc["result"] == {"winners": [1], "reason": "the king reached a corner", "rule": "gild OBJECT", "scores": []}
    assert doc["replay_failure"] is None


def test_otg_export(samples: dict[str, bytes]) -> None:
    assert export_otg(read_record_file(samples["short"])) == SHORT_OTG


def test_otg_of_a_traditional_game(samples: dict[str, bytes]) -> None:
    lines = export_otg(read_record_file(samples["unfinished"])).splitlines()
    tags = lines[: lines.index("")]
    assert tags[-1] == (
        "[rules:dim:11 name:Traditional_11x11 atkf:y surf:n "
        "start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/]"
    )
    assert "[result:?]" in tags and not any(t.startswith("[termination:") for t in tags)
    turns = [ln for ln in lines if ln[:1].isdigit()]
    assert len(turns) == 20 and turns[0].startswith("1. ") and len(turns[0].split()) == 3


def _sealed(recording: Recording, records: list[Record]) -> Recording:
    """The records written again with every running hash recomputed, as a forger would."""
    return read_record_file(encode_game(recording.header, records, reseal=True))


def _tags(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[: lines.index("")]


def _otg_refused(recording: Recording, difference: str) -> None:
    with pytest.raises(ExportError) as info:
        export_otg(recording)
    assert info.value.differs
    assert str(info.value) == (
        f"the record does not replay as it says ({difference}); an OpenTafl record cannot say so, "
        "so none is written: export it as text or json, which show what differs"
    )


OWN = "defenders won: the king reached a corner (gild OBJECT)"


def test_exports_give_the_games_own_result_not_the_one_the_record_claims(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["short"])
    last = rec.records[-1]
    assert isinstance(last, ResultRecord)
    claimed = replace(last.result, winners=(0,), reason="the king is captured")
    edited = _sealed(rec, [*rec.records[:-1], replace(last, result=claimed)])
    difference = (
        f"differs at step 4: record {len(rec.records) - 1} at byte {rec.offsets[-1]}: the record says "
        f"'attackers won: the king is captured (gild OBJECT)', but the rules say '{OWN}'"
    )
    text = export_text(edited)
    assert text == SHORT_TEXT.replace(
        f'[Result "{OWN}"]\n',
        f'[Result "{OWN}"]\n[Recorded result "attackers won: the king is captured (gild OBJECT)"]\n'
        f'[Verify "{difference}"]\n',
    )
    doc = json.loads(export_json(edited))
    assert doc["result"] == {"winners": [1], "reason": "the king reached a corner", "rule": "gild OBJECT", "scores": []}
    assert doc["recorded_result"]["winners"] == [0] and doc["recorded_result"]["reason"] == "the king is captured"
    assert doc["verify"] == {"ok": False, "first_bad_step": 4, "message": difference.split(": ", 1)[1]}
    _otg_refused(edited, difference)


def test_exports_say_where_the_replay_fails(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["short"])
    index = [i for i, r in enumerate(rec.records) if isinstance(r, DecisionRecord)][2]  # step 3
    records = list(rec.records)
    records[index] = DecisionRecord(0, ("a1", "i9"))
    bad = _sealed(rec, records)
    failure = f"step 3 (record {index} at byte {rec.offsets[index]}): a1-i9: not a legal option here"
    head = SHORT_TEXT[: SHORT_TEXT.index("[Result ")]
    assert export_text(bad) == head + (
        '[Result "*"]\n'
        f'[Recorded result "{OWN}"]\n'
        f'[Verify "differs at step 3: {failure}"]\n'
        "\n"
        "1. d6-d7xd8 {d8 captured (a defender) [gild BASIC MOVES; TF-11]} Kc3-c1 {the king runs}\n"
        f"{{the replay stops here: {failure}}}\n"
        "*\n"
    )
    doc = json.loads(export_json(bad))
    assert doc["result"] is None and doc["recorded_result"]["winners"] == [1]
    assert doc["verify"] == {"ok": False, "first_bad_step": 3, "message": failure}
    assert doc["replay_failure"] == failure and len(doc["steps"]) == 2
    _otg_refused(bad, f"differs at step 3: {failure}")


def test_exports_of_a_finished_game_cut_before_its_result(samples: dict[str, bytes]) -> None:
    rec = read_record_file(samples["short"])
    last = max(i for i, r in enumerate(rec.records) if isinstance(r, STEP_TYPES))
    cut = read_record_file(rec.data[: rec.offsets[last + 1]])
    difference = (f"differs at step 4: step 4 (record {last} at byte {rec.offsets[last]}): "
                  f"the game ended here ({OWN}), but the record has no result")
    tags = _tags(export_text(cut))
    assert tags[-2:] == [f'[Result "{OWN}"]', f'[Verify "{difference}"]']
    doc = json.loads(export_json(cut))
    assert doc["result"]["winners"] == [1] and doc["recorded_result"] is None and not doc["verify"]["ok"]
    _otg_refused(cut, difference)


def test_a_record_that_verifies_says_so_in_json(samples: dict[str, bytes]) -> None:
    doc = json.loads(export_json(read_record_file(samples["unfinished"])))
    assert doc["verify"] == {"ok": True, "first_bad_step": None, "message": "unfinished"}
    assert doc["result"] is None and doc["recorded_result"] is None
    assert not any(t.startswith(("[Verify", "[Recorded")) for t in _tags(export_text(read_record_file(samples["short"]))))
