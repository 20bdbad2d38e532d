"""The layer contract, at the level of the package's top-level modules and packages (tests/test_import_cycles.py
checks modules, at import time): each sits on a floor of LAYERS, and may import what is on its floor or below,
never above. Every import counts, those deferred into functions included: a deferred import that climbs is still
a dependency that climbs. And the top-level units import each other without a cycle (a cycle between two packages
is invisible module by module: cost -> attention.semantics.masks, attention.semantics.shapes -> cost).

A new top-level module or package must be given its floor here; an import that climbs fails with the import named
(its file and line), and the fix is to move what it needs down, not the floor up."""
import ast
import functools
from pathlib import Path

from package_imports import modules_of, package_of, targets

import pytest

import inductor_prof

ROOT = Path(inductor_prof.__file__).parent

# floor -> the top-level modules and packages of inductor_prof on it, lowest first
LAYERS = (
    # the ground floor: facts, the cost model, settings, paths, child processes; nothing of the package above
    ("ground", {"units", "errors", "aten", "mask_pairs", "cost", "peaks", "names", "settings", "steptime", "rundir",
                "measure_store", "childenv", "procs", "signals", "priority", "quick_exit", "envinfo", "gpu_probe", "specs",
                "events"}),
    ("inductor", {"inductor", "targets"}),    # knowledge of Inductor's output; the models profiled
    ("drivers", {"drivers"}),                 # the external tools: Proton, torch.profiler, ncu, NVML
    ("attention", {"attention"}),             # the attention backends, own kernels, semantics and benchmark
    ("runfiles", {"runfiles"}),               # every read of a run folder, validated
    ("analysis", {"analysis"}),               # pure judgement of what a run holds
    ("report", {"report", "doctor"}),         # rendering a run; doctor's checks
    ("pipeline", {"pipeline", "experiments"}),   # profile's stages; `try`'s experiments, which build and compile
    ("cli", {"cli"}),                         # the commands
    ("entry", {"entry", "__main__", "", "worker"}),   # the console script, `python -m`, the package init, worker.py
)
FLOOR = {unit: i for i, (_, units) in enumerate(LAYERS) for unit in units}


def unit(module: str) -> str:
    """The top-level module or package of the package a module is in ('' for the package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


@functools.lru_cache(maxsize=None)   # the package's source, parsed once for the floor and the cycle checks
def imports(root: Path) -> tuple[tuple[str, str, str], ...]:
    """(importing module, imported module of the package, 'file:line') for every import in the package's source,
    function bodies included."""
    modules = modules_of(root)
    out = []
    for name, path in modules.items():
        rel, package = path.relative_to(root.parent), package_of(name, path)   # once a file, not once a node
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):   # the only nodes targets() finds imports in
                continue
            # `from inductor_prof import __version__`: a constant of the package's __init__, which imports
            # nothing when imported (its public API imports the pipeline inside its functions): not the API
            found = targets(node, package, modules, skip=lambda base, a: base == root.name and a == "__version__")
            out += [(name, t, f"{rel}:{getattr(node, 'lineno', 0)}") for t in found if t != name]
    return tuple(out)


def climbs(root: Path, floor: dict[str, int] = FLOOR) -> list[str]:
    """Each import from a unit to a unit on a higher floor, as 'file:line: a (floor) imports b (floor)'."""
    names = [n for n, _ in LAYERS]
    return sorted(f"{where}: {a} ({names[floor[unit(a)]]}) imports {b} ({names[floor[unit(b)]]})"
                  for a, b, where in imports(root) if floor[unit(b)] > floor[unit(a)])


def unit_cycles(root: Path) -> list[list[str]]:
    """The top-level units that reach each other through imports (each group of more than one)."""
    edges: dict[str, set[str]] = {}
    for a, b, _ in imports(root):
        if unit(a) != unit(b):
            edges.setdefault(unit(a), set()).add(unit(b))

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reached = {u: reach(u) for u in edges}
    groups = {frozenset({u} | {v for v in reached[u] if u in reached.get(v, ())}) for u in reached if u in reached[u]}
    return sorted(sorted(g) for g in groups)


def test_the_version_is_the_one_import_of_the_package_itself_let_through(tmp_path):
    root = _package(tmp_path, {"cost.py": "from . import __version__\n", "errors.py": "from . import profile\n"})
    assert [c.split(": ", 1)[1] for c in climbs(root)] == ["inductor_prof.errors (ground) imports inductor_prof (entry)"]


def test_every_top_level_unit_has_a_floor():
    units = {unit(name) for name in modules_of(ROOT)}
    assert sorted(units - set(FLOOR)) == []
    assert sorted(set(FLOOR) - units) == []    # the table names only what exists


def test_no_import_climbs_a_floor():
    assert climbs(ROOT) == []


def test_no_cycle_between_top_level_units():
    assert unit_cycles(ROOT) == []


# ---- the checks themselves, on a planted package

def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "inductor_prof"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    for d in [root, *(p for p in root.rglob("*") if p.is_dir())]:
        (d / "__init__.py").touch()
    return root


GROUND_AND_ATTENTION = {"cost.py": "X = 1\n", "attention/semantics/masks.py": "from ...cost import X\n",
                        "attention/semantics/shapes.py": "from ... import cost\n"}


def test_a_planted_climbing_import_fails(tmp_path):
    # the cycle this contract was written for: the cost model importing the attention semantics
    root = _package(tmp_path, {**GROUND_AND_ATTENTION,
                               "cost.py": "X = 1\n\n\ndef f():\n    from .attention.semantics.masks import Y\n"})
    assert climbs(root) == ["inductor_prof/cost.py:5: inductor_prof.cost (ground) imports "
                            "inductor_prof.attention.semantics.masks (attention)"]
    assert unit_cycles(root) == [["attention", "cost"]]


@pytest.mark.parametrize("line, floors", [
    ("from ..cli.signals import sigterm_as_interrupt\n", "(pipeline) imports inductor_prof.cli.signals (cli)"),
    ("    import inductor_prof.cli.signals\n", "(pipeline) imports inductor_prof.cli.signals (cli)"),
])
def test_planted_climbs_of_every_spelling_fail(tmp_path, line, floors):
    # relative at the top, absolute in a function body: both are found
    body = line if not line.startswith(" ") else f"def f():\n{line}"
    root = _package(tmp_path, {"pipeline/stage.py": body, "cli/signals.py": "", "signals.py": ""})
    assert [c.split(": ", 1)[1] for c in climbs(root)] == [f"inductor_prof.pipeline.stage {floors}"]


def test_imports_down_and_across_a_floor_pass(tmp_path):
    root = _package(tmp_path, {**GROUND_AND_ATTENTION, "pipeline/stage.py": "from ..signals import s\n",
                               "signals.py": "s = 1\n", "report/page.py": "from ..doctor import check\n",
                               "doctor/check.py": ""})
    assert climbs(root) == [] and unit_cycles(root) == []
