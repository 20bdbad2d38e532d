"""The run summary (pure): step times, GPU time per step, work, and time by category."""
from __future__ import annotations

from typing import Any, TypedDict

import pandas as pd

from ..cost import rates
from ..runfiles.sections import sections
from ..units import NS_PER_MS, NS_PER_S, TFLOP
from .kernels import CATEGORIES
from ..peaks import Peaks


def work(df: pd.DataFrame, n_steps: int) -> dict[str, float]:
    """GPU kernel ms and TFLOP per step of kernel rows, and their TFLOP/s over their kernel time (0 for none)."""
    ns = float(df["total_ns"].sum()) if len(df) else 0.0
    flops = float(df["flops"].sum()) if len(df) else 0.0
    return {"gpu_kernel_ms_per_step": ns / n_steps / NS_PER_MS, "tflops_per_step": flops / n_steps / TFLOP,
            "overall_tflops": rates(flops, 0.0, ns / NS_PER_S)[0] if ns else 0.0}


def unpriced(df: pd.DataFrame, n_steps: int) -> dict[str, Any]:
    """The GPU time without a price (neither flops nor bytes: no TFLOP/s, no roofline, no headroom), and the
    kernels that make it up, the longest first, each with why: {"pct_of_gpu_time", "ms_per_step", "kernels":
    [{"name", "display", "pct_of_gpu_time", "ms_per_step", "reason"}]}."""
    total = float(df["total_ns"].sum()) if len(df) else 0.0
    if not total or "unpriced" not in df.columns:
        return {"pct_of_gpu_time": 0.0, "ms_per_step": 0.0, "kernels": []}
    rows = df.loc[df["unpriced"].astype(str) != "", ["name", "display", "total_ns", "unpriced"]] \
        .sort_values("total_ns", ascending=False)   # the columns said: a row of all of them costs ms
    ns = float(rows["total_ns"].sum())
    return {"pct_of_gpu_time": 100 * ns / total, "ms_per_step": ns / n_steps / NS_PER_MS,
            "kernels": [{"name": r.name, "display": r.display, "pct_of_gpu_time": 100 * r.total_ns / total,
                         "ms_per_step": r.total_ns / n_steps / NS_PER_MS, "reason": r.unpriced}
                        for r in rows.itertuples()]}


class Summary(TypedDict, total=False):
    """The run's summary, as `--json` writes it (summary.*): what summarize makes, then what load adds (headroom,
    a training run's phases and items, a run of several sizes' sizes)."""
    target: str | None
    gpu: str | None
    steps: int
    step_ms_wall: float | None              # the median step under Proton
    plain_step_ms: float | None             # the median plain (unprofiled) step
    telemetry: dict[str, Any] | None        # clocks and power over the back-to-back steps
    proton_back_to_back_ms: float | None
    plain_back_to_back_ms: float | None
    compile: dict[str, Any]
    gpu_kernel_ms_per_step: float
    tflops_per_step: float
    overall_tflops: float
    kernels: int
    inductor_kernels: int
    inductor_annotated: int
    by_category: dict[str, dict[str, Any]]
    unpriced: dict[str, Any]
    peaks: Peaks
    headroom: dict[str, Any]                # analysis.headroom.headroom
    phases: dict[str, dict[str, Any]]       # a training run's, per phase (analysis.phases)
    training: list[dict[str, Any]]          # a training run's items by phase (analysis.training_advice)
    sizes: list[dict[str, Any]]             # a run of several input sizes, per size (analysis.sizes)
    ncu_at_size: Any


def summarize(df: pd.DataFrame, manifest: dict[str, Any], peaks: Peaks, n_steps: int) -> Summary:
    """n_steps: the run's timed steps (runfiles.n_steps)."""
    m = sections(manifest)
    prof = m.profile
    total_ns = float(df["total_ns"].sum()) if len(df) else 0.0
    by_cat = {}
    for cat in CATEGORIES:
        sub = df[df["category"] == cat] if len(df) else df
        ns = float(sub["total_ns"].sum()) if len(sub) else 0.0
        if ns or cat in CATEGORIES[:4]:
            w = work(sub, n_steps)
            by_cat[cat] = {"step_ms": w["gpu_kernel_ms_per_step"], "pct": 100 * ns / total_ns if total_ns else 0.0,
                           "tflops": w["overall_tflops"], "kernels": int(len(sub))}
    inductor = df[df["origin"] == "inductor"] if len(df) else df
    w = work(df, n_steps)
    return {
        "target": m.target, "gpu": peaks.get("gpu"), "steps": n_steps,
        "step_ms_wall": prof.proton_step_ms, "plain_step_ms": prof.plain_step_ms, "telemetry": prof.gpu_telemetry,
        "proton_back_to_back_ms": prof.proton_back_to_back_ms, "plain_back_to_back_ms": prof.plain_back_to_back_ms,
        "compile": {k: v for k, v in m.stages.get("compile", {}).items()
                    if k in ("how", "dynamic", "graphs_compiled", "first_step_ms", "first_step_ms_by_size")},
        "gpu_kernel_ms_per_step": w["gpu_kernel_ms_per_step"], "tflops_per_step": w["tflops_per_step"],
        "overall_tflops": w["overall_tflops"],
        "kernels": int(len(df)), "inductor_kernels": int(len(inductor)),
        "inductor_annotated": int(inductor["annotated"].sum()) if len(inductor) else 0,
        "by_category": by_cat, "unpriced": unpriced(df, n_steps), "peaks": peaks,
    }
