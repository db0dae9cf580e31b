"""docs/rulings/kingdom.md against the code: every ruling the code cites is written down, every
ruling is cited by the code, and the ids run from KD-1 without a gap."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs/rulings/kingdom.md").read_text("utf-8")
CODE = "".join(p.read_text("utf-8") for p in sorted((ROOT / "core/kingdom").glob("*.py")))


def ruling_ids() -> list[str]:
    return re.findall(r"^\| (KD-\d+) \|", DOC, re.M)


def test_ruling_ids_are_unique_and_run_without_a_gap() -> None:
    ids = ruling_ids()
    assert len(ids) == len(set(ids))
    assert sorted(int(i[3:]) for i in ids) == list(range(1, len(ids) + 1))


def test_every_ruling_the_code_cites_is_written_down() -> None:
    assert set(re.findall(r"KD-\d+", CODE)) - set(ruling_ids()) == set()


def test_every_ruling_is_cited_in_the_code() -> None:
    assert [i for i in ruling_ids() if not re.search(rf"{i}\b", CODE)] == []
