"""Every Triton kernel Inductor wrote: read from the output code in the run's Inductor cache.

Inductor's output code declares each kernel as `name = async_compile.triton('name', '''source''', ...)`,
preceded by comments naming the fused source nodes and ATen ops. `parse_output_code` is pure (text in,
records out); `harvest_cache` reads a cache folder. Launch configs chosen at run time come from the
instrumented autotuners and are merged in by the harvest stage.
"""
from __future__ import annotations

import ast
import hashlib
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .metrics import KernelMetrics

_KERNEL_DEF = re.compile(
    r"((?:^#[^\n]*\n)*)^(\w+) = async_compile\.triton\('(\w+)', '''(.*?)''', device_str='(\w+)'\)", re.M | re.S)
_ATEN = re.compile(r"Original ATen: \[([^\]]*)\]")
_NODES = re.compile(r"(?:Topologically Sorted )?Source Nodes: \[([^\]]*)\]")
_KERNEL_PATH = re.compile(r"# kernel path: (\S+)")
_HEURISTIC = re.compile(r"@triton_heuristics\.(\w+)\(")


@dataclass
class KernelRecord:
    name: str
    kind: str
    heuristic: str | None
    aten_ops: list[str]
    source_nodes: list[str]
    inductor_meta: dict[str, Any]
    signature: dict[str, str]
    source_sha: str
    wrapper: str                      # output-code file that launches it (relative to the cache)
    ops_per_element: float = 0
    ops_per_row: float = 0
    ops_per_lane: float = 0
    launch_config: dict[str, Any] = field(default_factory=dict)
    launched: bool | None = None      # seen in the profiled steps (None: not known yet)
    provenance: dict | None = None    # FX nodes, modules, source lines (kernel_provenance.py)
    source: str = field(default="", repr=False)

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("source")
        return d


def _literal(node: ast.AST) -> Any:
    """ast -> Python value for the literals Inductor writes in decorators (sets and calls included)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        return {_key(_literal(k)) if k is not None else "**": _literal(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [_literal(e) for e in node.elts]
    if isinstance(node, ast.Call):
        fname = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "?")
        if fname == "set" and not node.args:
            return []
        return {"__call__": fname, **{kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg}}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _literal(node.operand)
        return -value if isinstance(value, (int, float)) else value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_literal(node.value)}.{node.attr}"
    return ast.unparse(node)


def _key(value: Any) -> Any:
    """Dict keys must stay JSON-able: tuple keys such as (0,) become their text."""
    return str(tuple(value)) if isinstance(value, list) else value


def decorator_kwargs(source: str) -> tuple[str | None, dict[str, Any]]:
    """(heuristic name, decorator keyword arguments) of the kernel's @triton_heuristics.* decorator."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)
                        and isinstance(dec.func.value, ast.Name) and dec.func.value.id == "triton_heuristics"):
                    return dec.func.attr, {kw.arg: _literal(kw.value) for kw in dec.keywords if kw.arg}
    return None, {}


def _split_list(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def parse_output_code(text: str, wrapper_name: str = "") -> list[KernelRecord]:
    records = []
    for m in _KERNEL_DEF.finditer(text):
        comments, _, name, source, _ = m.groups()
        aten = _ATEN.search(comments)
        nodes = _NODES.search(comments)
        heuristic, kwargs = decorator_kwargs(source)
        meta = kwargs.get("inductor_meta", {}) or {}
        triton_meta = kwargs.get("triton_meta", {}) or {}
        metrics = KernelMetrics.for_source(name, source, heuristic)
        records.append(KernelRecord(
            name=name, kind=metrics.kind, heuristic=heuristic,
            aten_ops=_split_list(aten.group(1)) if aten else [],
            source_nodes=_split_list(nodes.group(1)) if nodes else [],
            inductor_meta=meta, signature=triton_meta.get("signature", {}) if isinstance(triton_meta, dict) else {},
            source_sha=hashlib.sha256(source.encode()).hexdigest()[:12], wrapper=wrapper_name,
            ops_per_element=metrics.ops_per_element, ops_per_row=metrics.ops_per_row,
            ops_per_lane=metrics.ops_per_lane, source=source))
    return records


def output_code_texts(cache_dir: Path) -> dict[str, str]:
    """The text of each Inductor output-code module (a wrapper that launches kernels) in a cache folder, by its
    path relative to the folder; each file is read once."""
    found = {}
    for path in sorted(Path(cache_dir).rglob("*.py")):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        if "async_compile.triton(" in text and "def call(" in text:
            found[str(path.relative_to(cache_dir))] = text
    return found


def loaded_output_code(cache_dir: Path) -> set[str] | None:
    """Relative paths (in `cache_dir`) of the Python modules Inductor loaded in this process: on an FX graph cache
    hit Inductor writes the graph's output code into its cache folder (when absent) and loads it, as after a
    compile. None when this torch keeps no such list (PyCodeCache.modules)."""
    try:
        from torch._inductor.codecache import PyCodeCache
    except ImportError:
        return None
    modules = getattr(PyCodeCache, "modules", None)
    if not isinstance(modules, list):
        return None
    root = Path(cache_dir).resolve()
    out = set()
    for module in modules:
        path = Path(getattr(module, "__file__", None) or "/").resolve()
        if path.is_relative_to(root):
            out.add(str(path.relative_to(root)))
    return out


def find_output_code(cache_dir: Path) -> list[Path]:
    """Inductor output-code modules (the wrappers that launch kernels) in a cache folder."""
    return [Path(cache_dir) / rel for rel in output_code_texts(cache_dir)]


def harvest_texts(texts: dict[str, str]) -> list[KernelRecord]:
    """Unique kernels (by name and source) in output-code modules given as {relative path: text}."""
    by_key: dict[tuple[str, str], KernelRecord] = {}
    for rel, text in texts.items():
        for rec in parse_output_code(text, rel):
            by_key.setdefault((rec.name, rec.source_sha), rec)
    return sorted(by_key.values(), key=lambda r: r.name)


def harvest_cache(cache_dir: Path) -> list[KernelRecord]:
    """Unique kernels (by name and source) in every output-code file of the cache."""
    return harvest_texts(output_code_texts(cache_dir))
