"""Where to look next (pure): the step's savings ranked, one item per cause, each saying what to do and what it
is measured against.

- A kernel: its headroom to the ceiling that bounds it (analysis/roofline.py: a rate this GPU reaches). A library
  GEMM whose calls were replayed by the ceilings stage is judged per shape against the best time measured for
  that exact call instead: as fast as that shape gets here, or a faster kernel exists for it.
- An attention kernel and a faster backend for the same calls are one item: the larger of the two savings,
  both said.
- The launch/idle gap: the plain (unprofiled) step minus the GPU-busy time, so Proton's own cost is not counted.
"""
from __future__ import annotations

import math

import pandas as pd

from ..names import demangle
from .library_calls import call_label

TOP = 10
AT_BEST = 0.02      # a shape within 2% of the best time measured for it is as fast as it gets here


def gemm_item(kernel: pd.Series, shapes: pd.DataFrame) -> dict | None:
    """A library GEMM judged per shape: (calls per step x (time per call - best time)) over its replayed shapes,
    plus the roofline headroom of the share of its time in shapes no replay measured. None without replays."""
    measured = shapes[shapes["best_us"].notna()]
    if measured.empty:
        return None
    # library_ops.csv traces one pass over every input size: its calls are calls per step
    saving = float(((measured["us_per_call"] - measured["best_us"]).clip(lower=0) * measured["calls"]).sum()) / 1e3
    unmeasured_share = float(shapes.loc[shapes["best_us"].isna(), "share_of_kernel"].sum())
    rest = float(kernel["headroom_ms_per_step"] or 0) * unmeasured_share
    top = measured.iloc[0]
    shape = call_label(top["op"], top["dims"])
    if saving <= AT_BEST * float(measured["ms"].sum()):
        why = (f"as fast as this shape gets here: {shape} {top['us_per_call']:.0f} us a call, cuBLAS replay "
               f"{top['replay_us']:.0f} us")
        do = "nothing for its replayed shapes" + (f"; {unmeasured_share:.0%} of its time is in other shapes"
                                                   if unmeasured_share > AT_BEST else "")
    else:
        why = f"a replay of the same call is faster: {shape} {top['replay_us']:.0f} vs {top['us_per_call']:.0f} us"
        do = "find why the model's call is slower (layout, alignment, a fused epilogue)"
    return {"headroom_ms_per_step": saving + rest, "why": why, "do": do}


def kernel_item(r: pd.Series) -> dict:
    against = r["ceiling"] or "its ceiling"
    do = {"compute": "a faster kernel (tiles, fusion) or less work", "memory": "fewer bytes: fuse with its "
          "neighbours, or a better access pattern"}.get(r.get("bound", ""), "profile it (inspect)")
    return {"headroom_ms_per_step": float(r["headroom_ms_per_step"]),
            "why": f"{r['pct_of_peak']:.0f}% of {against}" if r["ceiling"] else "", "do": do}


def rank(df: pd.DataFrame, gap_ms: float | None, attention: list[dict],
         gemm_shapes: pd.DataFrame | None = None, top: int = TOP) -> list[dict]:
    """The ranked items: {"what", "category", "headroom_ms_per_step", "why" (what it is measured against),
    "do"}. df: the kernel table with roofline columns; attention: analysis.headroom.attention_saving rows (with
    the model's kernels of each shape); gemm_shapes: library_calls.with_best rows."""
    items = []
    by_kernel = {} if gemm_shapes is None or gemm_shapes.empty else dict(tuple(gemm_shapes.groupby("kernel")))
    savings_by_kernel: dict[str, list[dict]] = {}
    for a in attention:
        for k in a.get("kernels") or []:
            savings_by_kernel.setdefault(k, []).append(a)
    placed = set()
    known = df["sol_ms_per_step"].notna() if len(df) else pd.Series(dtype=bool)
    for _, r in df[known].iterrows():
        item = None
        lib = demangle(r["name"])
        if r["category"] == "GEMM" and r["origin"] == "library" and lib in by_kernel:
            item = gemm_item(r, by_kernel[lib])
        item = item or kernel_item(r)
        backends = savings_by_kernel.get(r["name"], [])
        if backends:
            best = max(backends, key=lambda a: a["saving_ms_per_step"])
            placed.update(id(a) for a in backends)
            switch = (f"{best['best_backend']} {best['best_ms']:.3f} vs {best['model_ms']:.3f} ms a call "
                      f"(saves {best['saving_ms_per_step']:.2f} ms/step, measured)")
            if best["saving_ms_per_step"] >= item["headroom_ms_per_step"]:
                item = {"headroom_ms_per_step": best["saving_ms_per_step"], "why": switch + "; " + item["why"],
                        "do": f"use {best['best_backend']} for {best['shape']}"}
            elif best["saving_ms_per_step"] > 0:
                item = {**item, "why": item["why"] + "; " + switch,
                        "do": f"use {best['best_backend']} for {best['shape']} (measured), then look at the rest"}
        if item["headroom_ms_per_step"] > 0:
            items.append({"what": r["display"], "category": r["category"], **item})
    for a in attention:   # a faster backend for calls whose kernel the table does not hold
        if id(a) not in placed and a["saving_ms_per_step"] > 0:
            items.append({"what": f"attention {a['shape']}", "category": "attention",
                          "headroom_ms_per_step": a["saving_ms_per_step"],
                          "why": f"{a['best_backend']} {a['best_ms']:.3f} vs {a['model_ms']:.3f} ms a call, measured",
                          "do": f"use {a['best_backend']} instead of {a['model_backend']}"})
    if gap_ms is not None and not math.isnan(gap_ms) and gap_ms > 0:
        items.append({"what": "launch overhead and idle", "category": "host", "headroom_ms_per_step": gap_ms,
                      "why": "plain step (no profiler) minus GPU-busy time",
                      "do": "CUDA graphs (mode=\"reduce-overhead\"), fewer launches"})
    items.sort(key=lambda i: i["headroom_ms_per_step"], reverse=True)
    return items[:top]


def kernels_by_shape(calls: list[dict]) -> dict[str, list[str]]:
    """The model's kernels of each captured attention shape (its benchmark label), from attention_shapes.json."""
    from ..attention.semantics.shapes import from_call

    out: dict[str, list[str]] = {}
    for c in calls:
        if c.get("kernel"):
            label = from_call(c).label
            if c["kernel"] not in out.setdefault(label, []):
                out[label].append(c["kernel"])
    return out
