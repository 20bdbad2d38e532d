"""A library kernel's calls by shape (pure): one cuBLAS kernel serves many GEMM shapes, and its time, its ncu
replay and its headroom belong to the shapes that take the time. From library_ops.csv (one traced step per input
size): per (kernel, op, dims), the calls per step, the time per call, and its cost; with the ceilings stage's
replay of the same call, the best time measured for that exact shape on this GPU."""
from __future__ import annotations

import json
import re
from itertools import groupby
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from ..aten import GEMM_OPS
from ..inductor.module_paths import block_of, folded, short_pattern
from ..names import demangle
from ..runfiles.cells import canonical_cell, json_cell
from ..units import NS_PER_MS, NS_PER_S, NS_PER_US, US_PER_MS
from .call_label import call_label
from .roofline import judge
from ..peaks import Peaks

KEYS = ["kernel", "op", "dims"]


def union_modules(cells: Iterable[object]) -> list[str]:
    """The module paths of library_ops.csv `modules` cells (each a JSON list), each once, in order."""
    return list(dict.fromkeys(m for c in cells if isinstance(c, str) and c for m in json_cell(c)))


def modules_by(ops: pd.DataFrame, keys: list[str]) -> dict[tuple[Any, ...], list[str]]:
    """union_modules of the `modules` cells of each group of rows with the same `keys` values (a tuple), in one
    pass over the rows: a pandas agg of a Python function, a call per group, took much of a large run's load."""
    groups: dict[tuple[Any, ...], list[Any]] = {}
    # a repeated (key, cell) adds nothing: each distinct one once, in order (a large run repeats most rows)
    for *key, cell in dict.fromkeys(zip(*(ops[k].tolist() for k in keys), ops["modules"].tolist())):
        groups.setdefault(tuple(key), []).append(cell)
    return {k: union_modules(cells) for k, cells in groups.items()}


def calls_by_shape(library_ops: pd.DataFrame | None) -> pd.DataFrame:
    """One row per (kernel, op, dims): calls (per traced pass over every size), us_per_call (mean), ms (their
    sum), flops and bytes per call (flops_key: their width), the modules whose extern op made the calls (None
    in runs without provenance), share of the kernel's traced time; sorted by kernel, then time."""
    cols = [*KEYS, "calls", "us_per_call", "ms", "flops", "bytes", "flops_key", "modules", "share_of_kernel"]
    if library_ops is None or library_ops.empty or not {"dur_ns", "dims"} <= set(library_ops.columns):
        return pd.DataFrame(columns=cols)
    ops = library_ops[library_ops["op"].astype(str) != ""]
    ops = ops.assign(flops_key=ops["flops_key"].fillna("").astype(str) if "flops_key" in ops else "")
    with_modules = "modules" in ops.columns
    g = ops.groupby(KEYS, as_index=False, sort=False, observed=True).agg(
        calls=("dur_ns", "size"), ns=("dur_ns", "sum"), flops=("flops", "max"), bytes=("bytes", "max"),
        flops_key=("flops_key", "first"))
    if with_modules:
        modules = modules_by(ops, KEYS)
        g["modules"] = pd.Series([modules[k] for k in zip(*(g[c].tolist() for c in KEYS))], index=g.index,
                                 dtype=object)
    else:
        g["modules"] = None
    g["us_per_call"] = g["ns"] / g["calls"] / NS_PER_US
    g["ms"] = g["ns"] / NS_PER_MS
    g["share_of_kernel"] = g["ns"] / g.groupby("kernel", observed=True)["ns"].transform("sum")
    return g.sort_values(["kernel", "ns"], ascending=[True, False])[cols].reset_index(drop=True)


def replay_times(ceilings: dict[str, Any] | None) -> dict[tuple[str, str], float]:
    """(op, dims as library_ops.csv writes them) -> ms per call of the ceilings stage's replay of that call."""
    out = {}
    for g in (ceilings or {}).get("gemms") or []:
        if isinstance(g, dict) and g.get("op") and g.get("dims") and g.get("ms"):
            out[(g["op"], _canonical(g["dims"]))] = float(g["ms"])
    return out


def template_times(ceilings: dict[str, Any] | None) -> dict[tuple[str, str], float]:
    """(op, dims) -> ms per call of Inductor's Triton template for that call (the ceilings stage times it where
    asked: pipeline/gemm_templates.py); shapes where no template compiled are absent."""
    out = {}
    for g in (ceilings or {}).get("gemms") or []:
        if isinstance(g, dict) and g.get("op") and g.get("dims") and g.get("template_ms"):
            out[(g["op"], _canonical(g["dims"]))] = float(g["template_ms"])
    return out


def _canonical(dims: object) -> str:
    """The dims cell in one spelling (library_ops.csv holds json.dumps of the recorded list)."""
    return canonical_cell(dims) if isinstance(dims, str) else json.dumps(dims)


def with_best(calls: pd.DataFrame, replays: dict[tuple[str, str], float],
              templates: dict[tuple[str, str], float] | None = None) -> pd.DataFrame:
    """calls_by_shape plus replay_us (the ceilings stage's cuBLAS replay of the same call), template_us (Inductor's
    Triton template for it, where timed), NaN where not measured, and best_us: the fastest time measured for that
    exact call on this GPU (the model's own, the replay's or the template's; NaN when neither was measured)."""
    calls = calls.copy()
    keys = [(op, _canonical(d)) for op, d in zip(calls["op"].tolist(), calls["dims"].tolist())]
    calls["replay_us"] = [replays.get(k, float("nan")) * US_PER_MS for k in keys]
    calls["template_us"] = [(templates or {}).get(k, float("nan")) * US_PER_MS for k in keys]
    calls["best_us"] = calls[["us_per_call", "replay_us", "template_us"]].min(axis=1)
    calls.loc[calls["replay_us"].isna() & calls["template_us"].isna(), "best_us"] = float("nan")
    return calls


def replay_calls(library_ops: pd.DataFrame | None, kernels_by_time: list[str], n_library: int,
                 min_share_pct: float, replayable: tuple[str, ...]) -> list[dict[str, Any]]:
    """The library calls ncu replays: of the `n_library` library kernels with the most time (`kernels_by_time`,
    names as library_ops.csv has them), each one's costliest replayable call, and its other calls (op, dims)
    holding at least `min_share_pct` of the traced step's time. Each: the recorded row of that call (op, dims,
    strides, types, scalars) with its calls per step, us_per_call and share_pct."""
    if library_ops is None or library_ops.empty or n_library <= 0:
        return []
    ops = library_ops[library_ops["op"].isin(replayable)]
    total_ns = float(library_ops["dur_ns"].sum()) or 1.0
    g = ops.groupby(KEYS, sort=False, observed=True)
    first = g.head(1).set_index(KEYS)
    stats = g["dur_ns"].agg(["size", "sum"])
    out = []
    for kernel in [k for k in kernels_by_time if k in set(ops["kernel"])][:n_library]:
        mine = stats.loc[kernel].sort_values("sum", ascending=False)
        for i, ((op, dims), s) in enumerate(mine.iterrows()):
            share = 100 * float(s["sum"]) / total_ns
            if i and share < min_share_pct:
                break
            row = first.loc[(kernel, op, dims)].to_dict()
            out.append({"kernel": kernel, "op": op, "dims": dims, **row, "calls": int(s["size"]),
                        "us_per_call": float(s["sum"]) / int(s["size"]) / NS_PER_US, "share_pct": share})
    return out


def pair_label(op: str, dims_a: object, dims_b: object) -> str:
    """Two paired calls in short (call_label, a GEMM's led by its op's name): one label, each size that differs
    written `a→b` (`addmm [4096→4032,3072]x[3072,12288]`), a shape repeated once with its count (`[1,24,4608,128]
    ×3`); labels of other forms joined by ` → `. No op: ""."""
    if not op:
        return ""
    la, lb = (call_label(op, d) if d else "" for d in (dims_a, dims_b))
    ta, tb = re.split(r"(\d+)", la), re.split(r"(\d+)", lb)
    if not la or not lb or la == lb:
        label = la or lb
    elif len(ta) != len(tb) or ta[::2] != tb[::2]:
        label = f"{la} → {lb}"
    else:
        label = "".join(x if x == y else f"{x}→{y}" for x, y in zip(ta, tb))
    words = [(w, len(list(g))) for w, g in groupby(label.split(" "))]   # q, k, v of one shape: once, "×3"
    label = " ".join(w if n == 1 else f"{w} ×{n}" for w, n in words)
    return f"{op.split('::')[-1]} {label}" if op in GEMM_OPS else label


SHAPE_COLUMNS = ["name", "shape", "op", "dims", "calls_per_step", "avg_us", "step_ms", "pct_of_gpu_time",
                 "share_of_kernel", "flops_key", "flops_per_call", "bytes_per_call", "tflops", "gbps", "intensity",
                 "bound", "ceiling", "pct_of_peak", "replay_us", "template_us", "best_us", "modules", "module"]


def shape_rows(shapes: pd.DataFrame, kernels: pd.DataFrame, peaks: Peaks, blocks: Sequence[str] = ()) -> pd.DataFrame:
    """Each library kernel's calls by shape, as the report shows them under the kernel. shapes: with_best of
    calls_by_shape; kernels: the kernel table after add_derived (name, origin, step_ms); peaks: those the kernel
    table was judged by; blocks: the regional blocks' path patterns (kernels.block_patterns).

    One row per (kernel, op, dims), `name` the kernel table's, each kernel's shapes by time, the longest first:
    shape (call_label), op, dims, and from library_ops.csv's traced step (one pass over every input size, so
    its counts are per step): calls_per_step, avg_us (per call), step_ms; pct_of_gpu_time, that time over the
    kernel table's GPU time per step (the traced step is not Proton's: a kernel's shapes can sum to a few %
    off its own share); flops and bytes per call and the rates and roofline of roofline.judge, as every table;
    replay_us and best_us (with_best); modules (full paths) and module (short, as the module column)."""
    library = kernels[kernels["origin"] == "library"] if len(kernels) else kernels
    name_of = {demangle(n): n for n in library.get("name", [])}
    rows = shapes[shapes["kernel"].isin(name_of)] if shapes is not None and len(shapes) else None
    if rows is None or rows.empty:
        return pd.DataFrame(columns=SHAPE_COLUMNS)
    out = pd.DataFrame({"name": rows["kernel"].map(name_of),
                        "shape": _labels(rows["op"].tolist(), rows["dims"].tolist()), "op": rows["op"],
                        "dims": [json_cell(d) if isinstance(d, str) else d for d in rows["dims"].tolist()],
                        "calls_per_step": rows["calls"], "avg_us": rows["us_per_call"], "step_ms": rows["ms"]})
    out["pct_of_gpu_time"] = 100 * out["step_ms"] / float(kernels["step_ms"].sum())
    out["share_of_kernel"] = rows["share_of_kernel"]
    out["flops_key"], out["flops_per_call"], out["bytes_per_call"] = rows["flops_key"], rows["flops"], rows["bytes"]
    judged = judge(out["flops_key"], out["flops_per_call"], out["bytes_per_call"],
                   out["avg_us"] * NS_PER_US / NS_PER_S, peaks)
    for column in ("tflops", "gbps", "intensity", "bound", "ceiling", "pct_of_peak"):
        out[column] = judged[column]
    out["replay_us"], out["template_us"], out["best_us"] = rows.get("replay_us"), rows.get("template_us"), rows.get("best_us")
    out["modules"] = rows["modules"]
    out["module"] = _module_cells(rows["modules"].tolist(), blocks)
    return out.sort_values(["name", "step_ms"], ascending=[True, False], kind="stable")[SHAPE_COLUMNS] \
        .reset_index(drop=True)


def _labels(ops: Iterable[Any], dims: Iterable[Any]) -> list[str]:
    """call_label of each (op, dims), once per distinct pair of cells (thousands of rows repeat a few hundred)."""
    seen: dict[tuple[Any, str], str] = {}
    out: list[str] = []
    for o, d in zip(ops, dims):
        key = (o, d) if isinstance(d, str) else None
        if key is None or key not in seen:
            label = call_label(o, d)
            if key is not None:
                seen[key] = label
        out.append(seen[key] if key is not None else label)
    return out


def _module_cells(cells: list[Any], blocks: Sequence[str]) -> list[str]:
    """_module_cell of each shape's modules, each distinct list folded once (the shapes of one module's calls
    share it: thousands of shapes in a large run)."""
    done: dict[tuple[str, ...], str] = {}
    out = []
    for m in cells:
        key = tuple(m) if isinstance(m, list) and all(isinstance(p, str) for p in m) else None
        if key is None:   # None (no provenance), or anything else: folded as it is
            out.append(_module_cell(m, blocks))
        elif key in done:
            out.append(done[key])
        else:
            out.append(done.setdefault(key, _module_cell(m, blocks)))
    return out


def _module_cell(modules: list[str] | None, blocks: Sequence[str]) -> str:
    """The modules of one shape in short (module_paths.folded: repeats once with their count, a block's prefix as
    `*`, siblings after the first from where they part); "-" for calls no compiled module made, "" where the run
    has no provenance."""
    if modules is None:
        return ""
    return folded(modules, lambda m: short_pattern(m, block_of(m, blocks))) or "-"


def by_kernel(rows: pd.DataFrame) -> dict[str, list[dict[str, Any]]]:
    """shape_rows per kernel table name: its shapes as records (in order), without the name; a missing value is
    None (a NaN would make two loads of one run compare unequal)."""
    out: dict[str, list[dict[str, Any]]] = {}
    others = [c for c in rows.columns if c != "name"]
    # a column at a time, grouped here (a to_dict per group took most of a report's load; one over all rows,
    # a cell at a time, most of the rest)
    for name, *cells in zip(_cells(rows["name"]), *(_cells(rows[c]) for c in others)):
        if name is not None:
            out.setdefault(name, []).append(dict(zip(others, cells)))
    return out


def _cells(col: pd.Series) -> list[Any]:
    """A column's values as Python ones, None where pandas sees a missing value (NaN, None, NA)."""
    values: list[Any] = col.tolist()
    if isinstance(col.dtype, np.dtype) and col.dtype.kind in "biu":
        return values
    if isinstance(col.dtype, np.dtype) and col.dtype.kind == "f":   # Python floats already: only NaN to find
        for i in np.flatnonzero(np.isnan(col.to_numpy())).tolist():
            values[i] = None
        return values
    return [None if v is None or v is pd.NA or (type(v) is float and v != v) else
            (v.item() if isinstance(v, np.generic) else v) for v in values]


def top_shapes(shapes: list[dict[str, Any]], n: int) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The first `n` of a kernel's shapes (by_kernel: the longest first) and the rest in one: {"shapes": how
    many, "step_ms", "pct_of_gpu_time": their sums}; None when nothing is left out (a rest of one shape is
    shown itself: it takes the line its summary would)."""
    if len(shapes) <= n + 1:
        return shapes, None
    rest = shapes[n:]
    return shapes[:n], {"shapes": len(rest), "step_ms": sum(s["step_ms"] for s in rest),
                        "pct_of_gpu_time": sum(s["pct_of_gpu_time"] for s in rest)}
