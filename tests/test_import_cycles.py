"""No import cycle inside the package: each module's import-time imports (its top level, `if`/`try` blocks and
class bodies included; not the imports deferred into functions, which run after every module has loaded) are
read with ast, resolved to the package's modules, and the graph searched for a cycle: what `python -X
importtime` would show as two modules each needing the other half-imported."""
import ast
from pathlib import Path

import inductor_prof
from package_imports import modules_of, package_of, targets

ROOT = Path(inductor_prof.__file__).parent


def _import_time_nodes(tree: ast.AST):
    """The nodes that run when the module is imported: everything but function bodies."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(c for c in ast.iter_child_nodes(node)
                    if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


def import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the package's modules it imports at import time."""
    modules = modules_of(root)
    graph = {}
    for name, path in modules.items():
        package = package_of(name, path)
        graph[name] = {t for node in _import_time_nodes(ast.parse(path.read_text(), str(path)))
                       for t in targets(node, package, modules) if t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The members of each strongly connected component of more than one module (Tarjan): each a cycle."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = []
            while True:
                w = stack.pop()
                on.discard(w)
                members.append(w)
                if w == v:
                    break
            if len(members) > 1:
                out.append(sorted(members))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for rel, text in {"__init__.py": "", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_planted_cycle_is_found(tmp_path):
    # the shape of the cli/__init__ <-> cli/doctor cycle: a package registering a submodule that imports it back
    root = _package(tmp_path, {"cli/__init__.py": "app = 1\nfrom . import doctor\n",
                               "cli/doctor.py": "from . import app\n", "other.py": "from .cli import doctor\n"})
    assert cycles(import_graph(root)) == [["pkg.cli", "pkg.cli.doctor"]]
    # two sibling modules, one through `from ..x import`
    root = _package(tmp_path / "b", {"a/one.py": "from ..b import two\n", "b/two.py": "import pkg.a.one\n",
                                     "a/__init__.py": "", "b/__init__.py": ""})
    assert cycles(import_graph(root)) == [["pkg.a.one", "pkg.b.two"]]


def test_an_import_deferred_into_a_function_is_no_cycle(tmp_path):
    root = _package(tmp_path, {"a.py": "from .b import f\n", "b.py": "def f():\n    from .a import g\n"})
    assert cycles(import_graph(root)) == []


def test_no_import_cycle_in_the_package():
    assert cycles(import_graph(ROOT)) == []
