"""One row per kernel name from the run's tables (pure: DataFrames and dicts in, a DataFrame out): time and
calls over the timed steps, flops and bytes from the annotated step (Inductor kernels) or from the ATen op
behind the launch (library kernels), origin, kind and category."""
from __future__ import annotations

import re
from typing import Any, Iterable

import numpy as np
import pandas as pd

from ..aten import GEMM_OPS
from ..inductor.module_paths import block_of, common_pattern, short_pattern
from ..names import demangle, distinct, short_name
from ..peaks import FLOP_KEYS
from .collectives import is_nccl
from . import row_dicts
from .library_calls import modules_by

# searched in the lowered name (a case-insensitive search of a long mangled name cost 6 times more)
_GEMM_NAME = re.compile(r"gemm|nvjet|cutlass|xmma|sm90_|sm80_|ampere_|cublas")
_ATTN_NAME = re.compile(r"flash|fmha|sdpa|attention|attn")
# communication: NCCL's collectives (ncclDevKernel_*, ncclKernel_*), priced by the bytes they move (collectives.py)
CATEGORIES = ("GEMM", "attention", "Inductor pointwise", "Inductor reduction", "Inductor template", "communication",
              "other")


def by_name(rows: pd.DataFrame) -> pd.DataFrame:
    """Hatchet kernel rows summed per kernel name (over steps and scopes)."""
    cols = ["calls", "time_ns", "bytes", *FLOP_KEYS]
    if not len(rows):
        return pd.DataFrame(columns=cols)
    out = rows.groupby("name", as_index=True, observed=True)[cols].sum()
    if isinstance(out.index, pd.CategoricalIndex):   # hatchet rows' names (categorical): a plain index of text
        out.index = pd.Index(out.index.astype("str"), name="name")
    return out


def library_costs(ops: pd.DataFrame) -> pd.DataFrame:
    """Per library kernel over one step: launches, flops (by width), bytes, and the ATen op behind it."""
    if ops is None or ops.empty:
        return pd.DataFrame()
    # each row's kernel by its position among the kernels, sorted as a group-by by name sorts them: the names
    # (thousands of rows, each a long demangled name) hashed once for every sum and count below
    codes, kernels = pd.factorize(ops["kernel"], sort=True)
    keys, key_names = pd.factorize(ops["flops_key"])   # a few widths: compared as positions, not as text
    flops = ops["flops"].to_numpy()
    sums = pd.DataFrame({"lib_calls": np.ones(len(ops), dtype=np.int64), "lib_bytes": ops["bytes"].to_numpy(),
                         **{f"lib_{k}": np.where(_rows_of(keys, key_names, k), flops, 0) for k in FLOP_KEYS}})
    costs = sums[codes >= 0].groupby(codes[codes >= 0], observed=True).sum()   # a row without a kernel counts for none
    costs.index = pd.Index(kernels, name="kernel")
    costs["op"] = _most_common_op(codes, ops["op"], len(kernels))
    if "modules" in ops.columns:   # runs since provenance: the modules whose extern op launched the kernel
        modules = modules_by(ops, ["kernel"])
        costs["modules"] = pd.Series([modules.get((k,)) for k in costs.index], index=costs.index, dtype=object)
    if "unpriced" in ops.columns:   # one pass over the rows (a pandas agg of a Python function per kernel: slow)
        reasons: dict[str, Any] = {}
        for k, r in zip(ops["kernel"].tolist(), ops["unpriced"].tolist()):
            reasons.setdefault(k, []).append(r)
        costs["unpriced"] = [unpriced_reason(reasons.get(k, [])) for k in costs.index]
    else:
        costs["unpriced"] = OLD_LIBRARY_OPS
    return costs


def _rows_of(codes: np.ndarray, uniques: pd.Index, value: str) -> np.ndarray:
    """Which rows hold `value`, by factorize's codes and uniques (a missing cell, code -1, holds none)."""
    found = int(uniques.get_indexer([value])[0])
    return codes == found if found >= 0 else np.zeros(len(codes), dtype=bool)


def _most_common_op(codes: np.ndarray, ops: pd.Series, n: int) -> list[str]:
    """Per kernel position (codes: each row's), the op of most of its rows, the first by name on a tie; "" where
    none has one (a missing op is no op)."""
    op_codes, names = pd.factorize(ops, sort=True)   # position = rank by name
    ok = (codes >= 0) & (op_codes >= 0)
    width = max(len(names), 1)
    pairs, counts = np.unique(codes[ok].astype(np.int64) * width + op_codes[ok], return_counts=True)
    kernel, op = np.divmod(pairs, width)
    order = np.lexsort((op, -counts, kernel))   # by kernel, then the most rows, then the op's name
    first = order[np.r_[True, kernel[order][1:] != kernel[order][:-1]]] if len(order) else order
    out = [""] * n
    for k, o in zip(kernel[first].tolist(), op[first].tolist()):
        out[k] = names[o]
    return out


# runs recorded before library_ops.csv said why an op had no price
OLD_LIBRARY_OPS = "library_ops.csv of this run records no price for its op (recorded before it said why)"
NO_METADATA = "no flops or bytes: its launches carried no launch metadata (not in the annotated step)"
NOT_TRACED = "not in the torch.profiler step (library_ops.csv): no ATen op known"


def unpriced_reason(reasons: Iterable[object]) -> str:
    """Why a library kernel has no price: its rows' reasons, each once ("" when every row is priced, or counted
    on its op's main kernel: a split-K GEMM's reduction)."""
    return "; ".join(dict.fromkeys(r for r in reasons if isinstance(r, str) and r))


def library_provenance(modules: list[str] | None) -> dict[str, Any] | None:
    """A library kernel's provenance: the modules of the extern ops it was joined to (kernel_provenance.py)."""
    if modules is None:
        return None
    return {"source": "ATen op and input shapes", "modules": modules, "module": common_pattern(modules)}


def module_label(provenance: dict[str, Any] | None, blocks: list[str]) -> str:
    """The short module column: the common pattern, a regional block's prefix as `*`; what it lacks, said."""
    if not provenance:
        return ""
    if provenance.get("source") not in ("traced", "ATen op and input shapes"):
        return f"({provenance.get('source')})"
    pattern = provenance.get("module")
    block = provenance.get("block") or (block_of(pattern, blocks) if pattern else None)
    return short_pattern(pattern, block) if pattern is not None else "-"


# Inductor's kernel name prefixes by kind (torch/_inductor/codegen/triton.py): the kind of a kernel whose
# kernels.json record is missing or damaged
_PREFIX_KIND = {"triton_poi_": "pointwise", "triton_for_": "foreach", "triton_red_": "reduction",
                "triton_per_": "persistent_reduction", "triton_tem_": "template_mm"}


def kind_from_name(name: str) -> str | None:
    """An Inductor kernel's kind by its name's prefix, or None."""
    return next((k for prefix, k in _PREFIX_KIND.items() if name.startswith(prefix)), None)


def classify(name: str, origin: str, kind: str | None, op: str) -> str:
    if origin == "inductor":
        kind = kind or kind_from_name(name)
        if kind in ("pointwise", "foreach"):
            return "Inductor pointwise"
        if kind in ("reduction", "persistent_reduction"):
            return "Inductor reduction"
        if kind == "flex_attention":
            return "attention"
        if kind == "template_mm":
            return "Inductor template"
        return "other"
    if is_nccl(demangle(name)):   # Proton names them mangled (_Z40ncclDevKernel_...)
        return "communication"
    if "scaled_dot_product" in op or "attention" in op:
        return "attention"
    if op in GEMM_OPS:
        return "GEMM"
    lowered = name.lower()
    if _ATTN_NAME.search(lowered):
        return "attention"
    if _GEMM_NAME.search(lowered):
        return "GEMM"
    return "other"


def block_patterns(harvested: dict[str, dict[str, Any]]) -> list[str]:
    """The regional blocks' path patterns of the harvested kernels' provenance, the longest first."""
    return sorted({(r.get("provenance") or {}).get("block") or "" for r in harvested.values()} - {""},
                  key=len, reverse=True)


def kernel_table(steps: pd.DataFrame, annotated: pd.DataFrame, harvested: dict[str, dict[str, Any]],
                 library_ops: pd.DataFrame | None, io_split: dict[str, dict[str, Any] | None], n_steps: int,
                 unpriced_why: dict[str, str] | None = None,
                 steps_by_name: pd.DataFrame | None = None) -> pd.DataFrame:
    """steps/annotated: hatchet kernel rows; harvested: kernels.json by name; io_split: per-launch read/write
    bytes of each harvested Inductor kernel (from its file); n_steps: the timed steps (the op map covers one
    step); unpriced_why: why an Inductor kernel has no work, where known better than NO_METADATA
    (graph_prices.py); steps_by_name: by_name(steps) where the caller has it already."""
    # plain dicts by name: thousands of kernels, and pandas indexing costs microseconds per lookup
    timed = row_dicts.by_index(by_name(steps) if steps_by_name is None else steps_by_name)
    annotated = row_dicts.by_index(by_name(annotated)) if annotated is not None and len(annotated) else {}
    library = row_dicts.by_index(library_costs(library_ops))
    blocks = block_patterns(harvested)
    rows = []
    for name, t in timed.items():
        rec = harvested.get(name)
        origin = "inductor" if (rec is not None or name.startswith("triton_")) else "library"
        calls = int(t["calls"])
        flops = {k: 0.0 for k in FLOP_KEYS}
        nbytes = 0.0
        annotated_ok = False
        if origin == "inductor" and name in annotated and annotated[name]["calls"] > 0:
            a = annotated[name]
            per_call = calls / a["calls"]   # the annotated step's totals scaled to the timed launches
            flops = {k: a[k] * per_call for k in FLOP_KEYS}
            nbytes = a["bytes"] * per_call
            annotated_ok = bool(a["bytes"] > 0 or any(a[k] > 0 for k in FLOP_KEYS))
        op = ""
        lib_name = demangle(name)
        nccl = is_nccl(lib_name)   # a collective: priced by the bytes it moves, in collectives.py
        provenance = rec.get("provenance") if rec else None
        if origin == "library" and lib_name in library:
            lib = library[lib_name]
            op = lib["op"]
            if nccl:   # its op's buffers are not its cost (its kernel time waits for the other ranks)
                lib = {**lib, "lib_bytes": 0.0, **{f"lib_{k}": 0.0 for k in FLOP_KEYS}}
            provenance = library_provenance(lib.get("modules"))
            flops = {k: lib[f"lib_{k}"] * n_steps for k in FLOP_KEYS}
            nbytes = lib["lib_bytes"] * n_steps
            annotated_ok = nbytes > 0
        kind = rec["kind"] if rec else (kind_from_name(name) if origin == "inductor" else None)
        io = io_split.get(name)
        category = classify(name, origin, kind, op)   # once: its name searches cost more than the rest of a row
        unpriced = ""
        if not annotated_ok and not nccl:
            unpriced = ((unpriced_why or {}).get(name, NO_METADATA) if origin == "inductor" else
                        library[lib_name]["unpriced"] if lib_name in library else NOT_TRACED)
        rows.append({
            "name": name, "display": name if origin == "inductor" else short_name(name), "origin": origin,
            # where kind is unset, classify(..., None, ...) is the category
            "kind": kind or category.lower(), "category": category,
            "aten_ops": ", ".join(rec.get("aten_ops", [])) if rec else op,
            "calls": calls, "calls_per_step": calls / n_steps, "total_ns": float(t["time_ns"]),
            "bytes": nbytes, **flops, "flops": sum(flops.values()), "annotated": annotated_ok,
            "read_bytes_per_call": io["read"] if io else float("nan"),
            "write_bytes_per_call": io["write"] if io else float("nan"),
            "module": module_label(provenance, blocks), "provenance": provenance, "unpriced": unpriced,
        })
    df = pd.DataFrame(rows)
    if len(df):     # library kernels that share a short name are numbered by time, the longest first
        by_time = df["total_ns"].sort_values(ascending=False, kind="stable").index
        df.loc[by_time, "display"] = distinct(df.loc[by_time, "display"].tolist())
    return df
