"""The run summary (pure): step times, GPU time per step, work, and time by category."""
from __future__ import annotations

from typing import Any

import pandas as pd

from .kernels import CATEGORIES


def summarize(df: pd.DataFrame, manifest: dict, peaks: dict, n_steps: int) -> dict[str, Any]:
    """n_steps: the run's timed steps (runfiles.n_steps)."""
    prof = manifest.get("profile", {})
    total_ns = float(df["total_ns"].sum()) if len(df) else 0.0
    by_cat = {}
    for cat in CATEGORIES:
        sub = df[df["category"] == cat] if len(df) else df
        ns = float(sub["total_ns"].sum()) if len(sub) else 0.0
        fl = float(sub["flops"].sum()) if len(sub) else 0.0
        if ns or cat in CATEGORIES[:4]:
            by_cat[cat] = {"step_ms": ns / n_steps / 1e6, "pct": 100 * ns / total_ns if total_ns else 0.0,
                           "tflops": fl / (ns * 1e-9) / 1e12 if ns else 0.0, "kernels": int(len(sub))}
    flops = float(df["flops"].sum()) if len(df) else 0.0
    inductor = df[df["origin"] == "inductor"] if len(df) else df
    return {
        "target": manifest.get("target", {}).get("preset") or manifest.get("settings", {}).get("target"),
        "gpu": peaks.get("gpu"), "steps": n_steps,
        "step_ms_wall": prof.get("proton_step_ms"), "plain_step_ms": prof.get("plain_step_ms"),
        "proton_back_to_back_ms": prof.get("proton_back_to_back_ms"),
        "plain_back_to_back_ms": prof.get("plain_back_to_back_ms"),
        "compile": {k: v for k, v in (manifest.get("stages", {}).get("compile") or {}).items()
                    if k in ("how", "dynamic", "graphs_compiled", "first_step_ms", "first_step_ms_by_size")},
        "gpu_kernel_ms_per_step": total_ns / n_steps / 1e6,
        "tflops_per_step": flops / n_steps / 1e12,
        "overall_tflops": flops / (total_ns * 1e-9) / 1e12 if total_ns else 0.0,
        "kernels": int(len(df)), "inductor_kernels": int(len(inductor)),
        "inductor_annotated": int(inductor["annotated"].sum()) if len(inductor) else 0,
        "by_category": by_cat, "peaks": peaks,
    }
