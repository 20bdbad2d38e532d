"""Derived rates and the roofline (pure): per kernel, time per call and per step, share of GPU time, TFLOP/s,
GB/s, arithmetic intensity, the ceiling that bounds it (and why that one), its % of that ceiling, the time it
would take there (speed of light) and the headroom to it.

Ceiling choice: compute-bound kernels against the measured tensor-core ceiling of their width (the best of
the GEMMs the run timed), or the spec peak where none was measured or the kernel beat it; memory-bound ones
against the measured DRAM ceiling, or against L2 when they moved their bytes faster than DRAM can: their
inputs were still in the 50 MB L2 from the kernel before (ncu, replaying with flushed caches, reads them all
from DRAM)."""
from __future__ import annotations

import pandas as pd

from ..peaks import FLOP_KEYS


def add_derived(df: pd.DataFrame, peaks: dict, n_steps: int) -> pd.DataFrame:
    """avg time, share, TFLOP/s, GB/s, arithmetic intensity, roofline bound and % of the bounding peak."""
    df = df.copy()
    seconds = df["total_ns"] * 1e-9
    df["avg_us"] = df["total_ns"] / df["calls"].clip(lower=1) / 1e3
    df["step_ms"] = df["total_ns"] / n_steps / 1e6
    df["pct_of_gpu_time"] = 100 * df["total_ns"] / df["total_ns"].sum()
    df["tflops"] = df["flops"] / seconds / 1e12
    df["gbps"] = df["bytes"] / seconds / 1e9
    df["flops_key"] = df[list(FLOP_KEYS)].idxmax(axis=1).where(df["flops"] > 0, "")
    peak_bw = peaks.get("dram_gbps") or float("nan")
    peak_flops = df["flops_key"].map(lambda k: (peaks["tflops"].get(k) or float("nan")) if k else float("nan"))
    df["intensity"] = (df["flops"] / df["bytes"]).where(df["bytes"] > 0)
    ridge = peak_flops * 1e12 / (peak_bw * 1e9)
    compute_bound = df["intensity"] >= ridge
    df["bound"] = "memory"
    df.loc[compute_bound, "bound"] = "compute"
    df.loc[df["bytes"] <= 0, "bound"] = ""
    spec_flops = df["flops_key"].map(lambda k: ((peaks.get("spec") or {}).get(k) or float("nan")) if k else float("nan"))
    l2_bw = peaks.get("l2_gbps") or float("nan")
    source = peaks.get("source", {})
    # compute roof: the measured one unless the kernel beat it (then the spec peak, a hard bound)
    beat_measured = (df["tflops"] > peak_flops) & (spec_flops > peak_flops)
    compute_roof = peak_flops.where(~beat_measured, spec_flops)
    in_l2 = (df["gbps"] > peak_bw) & (l2_bw > peak_bw)
    memory_roof = pd.Series(peak_bw, index=df.index).where(~in_l2, l2_bw)
    df["ceiling"] = ""
    df["ceiling_why"] = ""
    mem = (df["bound"] == "memory")
    cmp = (df["bound"] == "compute")
    df.loc[mem, "ceiling"] = f"DRAM ({source.get('dram_gbps', 'spec')})"
    df.loc[mem & in_l2, "ceiling"] = "L2 (measured)"
    df.loc[mem & in_l2, "ceiling_why"] = "moved its bytes faster than DRAM: inputs still in L2"
    df.loc[mem & ~in_l2 & (df["gbps"] > peak_bw), "ceiling_why"] = \
        "faster than the DRAM ceiling: inputs partly in L2 (no L2 ceiling measured)"
    df.loc[cmp, "ceiling"] = df["flops_key"].map(_WIDTH) + " (" + df["flops_key"].map(lambda k: source.get(k, "spec")) + ")"
    df.loc[cmp & beat_measured, "ceiling"] = df["flops_key"].map(_WIDTH) + " (spec)"
    df.loc[cmp & beat_measured, "ceiling_why"] = "faster than the measured ceiling"
    pct_mem = 100 * df["gbps"] / memory_roof
    pct_cmp = 100 * df["tflops"] / compute_roof
    df["pct_of_peak"] = pct_mem.where(~compute_bound, pct_cmp).where(df["bytes"] > 0)
    # speed of light: the time at the ceilings (flops at the compute roof, bytes at the memory roof), per step
    sol_ns = pd.concat([(df["flops"] / (compute_roof * 1e12)).fillna(0), (df["bytes"] / (memory_roof * 1e9)).fillna(0)],
                       axis=1).max(axis=1) * 1e9
    known = (df["bytes"] > 0) | (df["flops"] > 0)
    df["sol_ms_per_step"] = (sol_ns / n_steps / 1e6).where(known)
    df["headroom_ms_per_step"] = (df["step_ms"] - df["sol_ms_per_step"]).clip(lower=0)
    return df.sort_values("total_ns", ascending=False).reset_index(drop=True)


_WIDTH = {"flops8": "fp8 tensor", "flops16": "bf16/fp16 tensor", "flops32": "fp32", "flops64": "fp64", "": ""}
