"""Architecture rules: game/rules and game/data never import pygame; only safe loaders."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_rules_and_data_never_import_pygame():
    offenders = [str(p.relative_to(ROOT)) for pkg in ("game/rules", "game/data")
                 for p in (ROOT / pkg).rglob("*.py") if "pygame" in _imports(p)]
    assert offenders == []


def test_rules_do_no_io_beyond_the_data_package():
    """game/rules is pure: it never imports yaml, os or open()s files itself
    (command-line entry points at the bottom of a module may call game.data)."""
    offenders = []
    for p in (ROOT / "game/rules").rglob("*.py"):
        if {"yaml", "pygame", "socket", "subprocess"} & _imports(p):
            offenders.append(str(p.relative_to(ROOT)))
    assert offenders == []


def test_only_safe_yaml_loading_and_no_eval_anywhere():
    bad = re.compile(r"yaml\.load\(|yaml\.unsafe_load|yaml\.full_load|pickle\.loads?\(|\beval\(|\bexec\(")
    offenders = []
    for p in ROOT.rglob("*.py"):
        rel = p.relative_to(ROOT)
        if rel.parts[0] in (".venv", "tests") or "site-packages" in rel.parts:
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if bad.search(line):
                offenders.append(f"{rel}:{i}: {line.strip()}")
    assert offenders == []
