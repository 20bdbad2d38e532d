"""The package's own imports, read with ast (shared by test_import_cycles.py and test_layers.py): each module's
name, and each import statement resolved to the package's modules it names."""
import ast
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    """`inductor_prof.analysis.kernels` for ROOT/analysis/kernels.py (a package: its __init__'s folder)."""
    parts = (root.name, *path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules_of(root: Path) -> dict[str, Path]:
    return {module_name(root, p): p for p in root.rglob("*.py")}


def targets(node: ast.AST, package: str, modules: dict[str, Path], skip=lambda base, name: False) -> list[str]:
    """The package's modules an Import or ImportFrom node names (relative ones resolved from `package`; `from . import
    x`: the submodule x where there is one, else the package itself); [] for any other node. `skip(base, name)`:
    a name not to count."""
    if isinstance(node, ast.Import):
        found = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            base = f"{base}.{node.module}" if node.module else base
        found = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names
                 if not skip(base, a.name)]
    else:
        return []
    return [t for t in found if t in modules]


def package_of(name: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]
