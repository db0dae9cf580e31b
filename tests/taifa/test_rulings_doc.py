"""docs/rulings/taifa.md against the code and the tests: every ruling the code cites is written
down, and the coverage table names a real test for every section of the rulebook."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs/rulings/taifa.md").read_text("utf-8")
SECTIONS = ["2.1", "2.2", "2.3", "2.4", "2.5", "3", "3.1", "4", "5", "5.1", "5.2", "5.3", "5.4", "5.5", "5.6",
            "6", "7", "8", "9", "9.1", "9.2", "9.3", "9.4", "9.5", "9.6", "10", "10.1", "10.2", "10.3",
            "11.1", "11.2"]


def ruling_ids() -> list[str]:
    return re.findall(r"^\| (TA-\d+) \|", DOC, re.M)


def test_ruling_ids_are_unique_and_consecutive() -> None:
    ids = ruling_ids()
    assert ids == [f"TA-{n}" for n in range(1, len(ids) + 1)]


def test_every_ruling_the_code_cites_is_written_down() -> None:
    cited = set()
    for path in (ROOT / "core/taifa").glob("*.py"):
        cited |= set(re.findall(r"TA-\d+", path.read_text("utf-8")))
    assert cited - set(ruling_ids()) == set()


def test_the_rules_engine_rulings_are_cited_in_the_code() -> None:
    code = "".join(p.read_text("utf-8") for p in (ROOT / "core/taifa").glob("*.py"))
    engine = [i for i in ruling_ids() if int(i[3:]) >= 17]
    assert [i for i in engine if not re.search(rf"{i}\b", code)] == []


def test_the_coverage_table_names_real_tests_for_every_section() -> None:
    table = DOC[DOC.index("## Coverage"):]
    rows = dict(re.findall(r"^\| ([\d.]+) \| (.+) \|$", table, re.M))
    assert list(rows) == SECTIONS
    known: dict[str, set[str]] = {}
    for name, tests in rows.items():
        for ref in tests.split(", "):
            file, test = ref.split("::")
            if file not in known:
                tree = ast.parse((ROOT / "tests/taifa" / file).read_text("utf-8"))
                known[file] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
            assert test in known[file], f"section {name}: {ref} does not exist"
