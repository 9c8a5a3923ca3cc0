"""docs/rules-coverage.md maps every ability the rules implement to its tests (issue 19):
each has a row in the generated section (tools/rules_coverage.py), with at least one
situation file or test function, and every test the row names exists."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from game.rules.abilities.spec import CATALOG

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert "<!-- abilities:begin" in text and "<!-- abilities:end -->" in text
    return text.split("<!-- abilities:begin", 1)[1].split("<!-- abilities:end -->", 1)[0]


def _rows() -> dict[str, tuple[list[str], list[str]]]:
    out = {}
    for line in _section().splitlines():
        m = re.match(r"^\| .+? \(`([a-z0-9_]+)`\) \| (.*?) \| (.*?) \| .*\|$", line)
        if m:
            sits = [x.strip() for x in m.group(2).split(",") if x.strip() not in ("", "-")]
            tests = [x.strip() for x in m.group(3).split(",") if x.strip() not in ("", "-")]
            out[m.group(1)] = (sits, tests)
    return out


def test_every_implemented_ability_has_a_row_with_a_test():
    rows = _rows()
    missing = sorted(set(CATALOG) - set(rows))
    assert not missing, f"no row for {missing}: run python tools/rules_coverage.py"
    untested = sorted(a for a, (s, t) in rows.items() if a in CATALOG and not s and not t)
    assert not untested, untested


def test_every_test_a_row_names_exists():
    defined: dict[str, set[str]] = {}
    for sits, tests in _rows().values():
        for s in sits:
            assert s.startswith("sit:"), s
            assert (ROOT / "tests" / "situations" / (s[4:] + ".yaml")).is_file(), s
        for t in tests:
            mod, fn = t.split("::")
            if mod not in defined:
                tree = ast.parse((ROOT / "tests" / mod).read_text(encoding="utf-8"))
                defined[mod] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
            assert fn in defined[mod], t
