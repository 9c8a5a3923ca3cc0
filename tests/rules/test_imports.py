"""issue 12: game/rules imports nothing outside game.rules, and there is no import
cycle anywhere in game/ (module-level imports; ``if TYPE_CHECKING`` blocks left out)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "game"


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path, *, top_level_only: bool) -> set[str]:
    """Modules ``path`` imports (absolute names, within game/ or not)."""
    mod = _module(path)
    package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()

    def visit(nodes):
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                out.add(target)
                for a in node.names:          # "from . import x" may import a submodule
                    out.add(f"{target}.{a.name}")
            elif not top_level_only:
                visit(ast.iter_child_nodes(node))
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                visit(ast.iter_child_nodes(node))
    visit(tree.body)
    return out


def _files():
    return sorted(GAME.rglob("*.py"))


def test_the_rules_import_nothing_outside_game_rules():
    bad = []
    for path in sorted((GAME / "rules").rglob("*.py")):
        for name in _imports(path, top_level_only=False):
            if name.startswith("game.") and not name.startswith("game.rules"):
                bad.append((str(path.relative_to(ROOT)), name))
    assert not bad, bad


def test_no_import_cycles_in_game():
    modules = {_module(p): p for p in _files()}
    graph = {}
    for name, path in modules.items():
        deps = set()
        for imp in _imports(path, top_level_only=True):
            # the nearest module of game/ that the import names
            while imp and imp not in modules:
                imp = imp.rsplit(".", 1)[0] if "." in imp else ""
            if imp and imp != name:
                deps.add(imp)
        # a submodule's package __init__ runs first
        if "." in name:
            parent = name.rsplit(".", 1)[0]
            if parent in modules and parent != name:
                deps.add(parent)
        graph[name] = deps
    cycles = []
    state = {}

    def dfs(n, stack):
        state[n] = 1
        stack.append(n)
        for d in sorted(graph[n]):
            if state.get(d) == 1:
                cycles.append(stack[stack.index(d):] + [d])
            elif d not in state:
                dfs(d, stack)
        stack.pop()
        state[n] = 2
    for n in sorted(graph):
        if n not in state:
            dfs(n, [])
    # a package importing its own submodules at the end of __init__ is not a cycle
    # that can break an import: only report cycles through two or more files
    real = [c for c in cycles if not (len(c) == 3 and (c[1].startswith(c[0] + ".")
                                                       or c[0].startswith(c[1] + ".")))]
    assert not real, "\n".join(" -> ".join(c) for c in real)
