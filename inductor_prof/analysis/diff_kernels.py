"""The kernel rows of `diff` (pure): what a run's GPU time is split into, paired across two runs, and each pair's
change. An Inductor kernel is one item (paired by match.py); a library kernel is one item per call of
library_ops.csv (op and input shapes, paired by call_match.py), so a shape that moved to another cuBLAS kernel
is one row naming both. A call's time per step is its kernel's (the timed steps of Proton) times the call's
share of that kernel's time in the traced step (library_calls.calls_by_shape); its spread is its kernel's."""
from __future__ import annotations

import json
from typing import Any

import pandas as pd

from ..names import demangle
from ..runfiles.cells import json_cell
from .call_match import match_calls
from .library_calls import calls_by_shape, pair_label
from .match import Fingerprint, match_kernels
from .noise import NAN, change_pct, noise_of, spreads_by_name, verdict

# how a pair was made, in words, where it is not the plain one (the same name, or the same op and shapes)
MATCH_NOTES = {"kind+ops+shapes": "renumbered: same kind, ATen ops, shapes",
               "name (shapes differ)": "same name, shapes differ", "kind+ops": "same kind and ATen ops",
               "op (one size differs)": "same op, one size differs"}
ITEM_COLUMNS = ["kernel", "display", "kind", "category", "origin", "op", "dims", "modules", "calls_per_step",
                "step_ms"]


def _modules(library_ops: pd.DataFrame) -> dict[tuple[Any, ...], str]:
    """(kernel, op, dims) -> the modules of its calls (library_ops.csv `modules`: json lists), one json list."""
    if "modules" not in library_ops.columns:
        return {}
    cells = library_ops.groupby(["kernel", "op", "dims"], sort=False, observed=True)["modules"]
    return dict(cells.agg(lambda s: json.dumps(list(dict.fromkeys(m for c in s if c for m in json_cell(c))))).to_dict())


def items(kernels: pd.DataFrame, library_ops: pd.DataFrame | None) -> pd.DataFrame:
    """A run's items, indexed by id: each Inductor kernel (id: its name), and each library kernel's calls (id:
    kernel, op, dims) where library_ops is given and holds the kernel, else the kernel as one call of op ""."""
    calls = calls_by_shape(library_ops)
    by_kernel: dict[str, list[Any]] = {}
    for c in calls.itertuples(index=False):    # (one pass: an itertuples per kernel cost more than the rest)
        by_kernel.setdefault(c.kernel, []).append(c)
    modules = _modules(library_ops) if library_ops is not None and len(calls) else {}
    rows, ids = [], []
    for name, k in kernels.iterrows():
        base = {c: k[c] for c in ("display", "kind", "category", "origin")}
        mine = by_kernel.get(demangle(name)) if k["origin"] == "library" else None
        if mine is None:
            ids.append(name)
            rows.append({**base, "kernel": name, "op": "", "dims": "", "modules": "",
                         "calls_per_step": float(k["calls_per_step"]), "step_ms": float(k["step_ms"])})
            continue
        for c in mine:
            ids.append(f"{name}\x1f{c.op}\x1f{c.dims}")
            rows.append({**base, "kernel": name, "op": c.op, "dims": c.dims,
                         "modules": modules.get((c.kernel, c.op, c.dims), ""),
                         "calls_per_step": float(c.calls), "step_ms": float(k["step_ms"]) * c.share_of_kernel})
    return pd.DataFrame(rows, index=pd.Index(ids, dtype=object), columns=ITEM_COLUMNS)


def pair(a: pd.DataFrame, b: pd.DataFrame, fp_a: dict[str, Fingerprint] | None,
         fp_b: dict[str, Fingerprint] | None) -> pd.DataFrame:
    """Rows id_a, id_b, matched_by: Inductor kernels by match.py's tiers, library calls by call_match's."""
    inductor = [list(x.index[x["origin"] == "inductor"]) for x in (a, b)]
    kernels = match_kernels(inductor[0], inductor[1], fp_a, fp_b)
    kernels.columns = ["id_a", "id_b", "matched_by"]
    calls = match_calls(a[a["origin"] != "inductor"], b[b["origin"] != "inductor"])
    return pd.concat([kernels, calls], ignore_index=True)


def row_label(r: dict[str, Any]) -> str:
    """A row in one line (the gate's lines): a library call as its call and kernel(s), else the kernel's name."""
    kernels = r["display"] + (f" -> {r['display_b']}" if r["display_b"] else "")
    return f"{r['call']} ({kernels})" if r["call"] else kernels


def _get(rec: dict[str, Any] | None, key: str, default: Any = NAN) -> Any:
    return rec[key] if rec is not None else default


def rows(a: pd.DataFrame, b: pd.DataFrame, pairs: pd.DataFrame, steps_a: pd.DataFrame | None,
         steps_b: pd.DataFrame | None, step_ms_a: float, step_ms_b: float) -> pd.DataFrame:
    """One row per pair, new or removed item: ms per step in each run, change, noise (the larger spread of the
    two kernels), share of the step (the larger of the two runs'), verdict; largest |Δ| first."""
    recs_a, recs_b = a.to_dict("index"), b.to_dict("index")
    spreads_a, spreads_b = spreads_by_name(steps_a), spreads_by_name(steps_b)
    out = []
    for id_a, id_b, how in pairs.itertuples(index=False):
        ra = recs_a[id_a] if id_a is not None else None
        rb = recs_b[id_b] if id_b is not None else None
        ref = ra if ra is not None else rb
        assert ref is not None   # a pair has a side
        ms_a, ms_b = _get(ra, "step_ms"), _get(rb, "step_ms")
        name_a, name_b = _get(ra, "kernel", None), _get(rb, "kernel", None)
        status = "matched" if ra is not None and rb is not None else "removed" if ra is not None else "new"
        change = change_pct(ms_a, ms_b)
        noise = noise_of(spreads_a.get(name_a, NAN), spreads_b.get(name_b, NAN))
        shares = [100 * ms / step for ms, step in ((ms_a, step_ms_a), (ms_b, step_ms_b)) if ms == ms and step > 0]
        row = {
            "name_a": name_a, "name_b": name_b, "display": ref["display"],
            "display_b": rb["display"] if rb is not None and status == "matched" and name_b != name_a else "",
            "call": pair_label(ref["op"], _get(ra, "dims", None), _get(rb, "dims", None)),
            "op": ref["op"], "dims_a": _get(ra, "dims", ""), "dims_b": _get(rb, "dims", ""),
            "kind": ref["kind"], "category": ref["category"], "origin": ref["origin"], "status": status,
            "matched_by": how,
            "calls_per_step_a": _get(ra, "calls_per_step"), "calls_per_step_b": _get(rb, "calls_per_step"),
            "ms_a": ms_a, "ms_b": ms_b, "delta_ms": (0.0 if ms_b != ms_b else ms_b) - (0.0 if ms_a != ms_a else ms_a),
            "change_pct": change, "noise_pct": noise if status == "matched" else NAN,
            "share_pct": max(shares) if shares else NAN,
            "verdict": verdict(change, noise) if status == "matched" else status,
        }
        out.append({**row, "label": row_label(row)})
    df = pd.DataFrame(out)
    for col in ("name_a", "name_b"):   # None where a side has no such item (pandas 3 would store NaN)
        df[col] = pd.Series([r[col] for r in out], dtype=object)
    if len(df):
        df = df.iloc[df["delta_ms"].abs().sort_values(ascending=False, kind="stable").index].reset_index(drop=True)
    return df
