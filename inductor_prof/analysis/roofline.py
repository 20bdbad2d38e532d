"""Derived rates and the roofline (pure): per kernel, time per call and per step, share of GPU time, TFLOP/s,
GB/s, arithmetic intensity, the roof that bounds it, and its % of that roof."""
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
    pct_mem = 100 * df["gbps"] / peak_bw
    pct_cmp = 100 * df["tflops"] / peak_flops
    df["pct_of_peak"] = pct_mem.where(~compute_bound, pct_cmp).where(df["bytes"] > 0)
    return df.sort_values("total_ns", ascending=False).reset_index(drop=True)
