"""Derived rates and the roofline (pure): per kernel, time per call and per step, share of GPU time, TFLOP/s,
GB/s, arithmetic intensity, the ceiling that bounds it (and why that one), its % of that ceiling, the time it
would take there (speed of light) and the headroom to it.

Ceiling choice: compute-bound kernels against the compute roof of their width: the measured tensor-core ceiling
(the best of the GEMMs the ceilings stage timed) or the best rate a kernel of that width reached in the run,
whichever is higher (peaks.with_reached); the spec peak only where neither exists; memory-bound ones
against the measured DRAM ceiling, or against L2 when they moved their bytes faster than DRAM can: their
inputs were still in the 50 MB L2 from the kernel before (ncu, replaying with flushed caches, reads them all
from DRAM)."""
from __future__ import annotations

from typing import Any, overload

import pandas as pd

from ..aten import DTYPE_BYTES, flops_key_for_dtype
from ..cost import FLOP_KEYS, attention_bytes, pct_of_peak, rates, ridge, seconds_at_roofs
from ..names import short_name
from .call_label import call_label
from ..units import MS_PER_S, NS_PER_MS, NS_PER_S, NS_PER_US, US_PER_S
from ..peaks import Peaks

NAN = float("nan")
JUDGED = ["tflops", "gbps", "intensity", "bound", "ceiling", "ceiling_why", "pct_of_peak"]


def _at_shape(kernel: object, op: object, dims: object) -> str:
    """`<kernel as the tables name it> at <its call as the tables name it>`: what reached a roof, for a shape's
    call."""
    return f"{short_name(str(kernel))} at {call_label(str(op), dims)}"


def _timed_ops(df: pd.DataFrame | None, shapes: pd.DataFrame | None) -> list[tuple[Any, float, float, float, Any]]:
    """(flops key, TFLOP/s, GB/s, flop/B, name) of each kernel row (before add_derived) and of each library
    kernel's calls of one shape (library_calls.calls_by_shape: a shape can run faster than its kernel's average,
    and the report shows each): what the roofs are never below (reached_rates, reached_l2). A shape's name is
    its (kernel, op, dims), words only for the op that wins (_name): short_name of thousands of shapes cost more
    than the rest of both roofs."""
    rows: list[tuple[Any, float, float, float, Any]] = []
    if df is not None and len(df):
        key = df[list(FLOP_KEYS)].idxmax(axis=1).where(df["flops"] > 0, "")
        tflops, gbps = rates(df["flops"], df["bytes"], df["total_ns"] / NS_PER_S)
        intensity = df["flops"] / df["bytes"].where(df["bytes"] > 0)
        # lists, not Series: iterating a pandas str column costs a call per element
        rows += list(zip(key.tolist(), tflops.tolist(), gbps.tolist(), intensity.tolist(), df["display"].tolist()))
    if shapes is not None and len(shapes) and {"flops", "bytes", "us_per_call", "flops_key"} <= set(shapes.columns):
        flops, nbytes = shapes["flops"].fillna(0), shapes["bytes"].fillna(0)
        tflops, gbps = rates(flops, nbytes, shapes["us_per_call"] * NS_PER_US / NS_PER_S)
        rows += list(zip(shapes["flops_key"].fillna("").tolist(), tflops.tolist(), gbps.tolist(),
                         (flops / nbytes.where(nbytes > 0)).tolist(),
                         zip(shapes["kernel"].tolist(), shapes["op"].tolist(), shapes["dims"].tolist())))
    return rows


def _name(name: Any) -> str:
    """A _timed_ops name as the report says it: a kernel row's display name, a shape's `<kernel> at <call>`."""
    return _at_shape(*name) if isinstance(name, tuple) else str(name)


def reached_rates(df: pd.DataFrame, attention: pd.DataFrame | None, peaks: Peaks,
                  shapes: pd.DataFrame | None = None) -> dict[str, tuple[float, str]]:
    """{flops key: (the highest TFLOP/s a compute-bound op of that width reached in the run, its name)}: the
    kernel rows and shapes of _timed_ops, and the attention rows that passed their check. Compute-bound at the
    spec roofs' ridge: a memory-bound kernel's flop rate says nothing of the compute roof."""
    spec = peaks.get("spec") or {}
    rows = [(key, tflops, intensity, name) for key, tflops, _, intensity, name in _timed_ops(df, shapes)]
    if attention is not None and len(attention) and all(c in attention.columns for c in SHAPE_COLUMNS):
        ok = attention[attention["ok"].astype(bool) & attention["ms"].notna()]
        nbytes = attention_bytes(ok["B"], ok["H"], ok["Hkv"], ok["Sq"], ok["Sk"], ok["D"], ok["dtype"].map(DTYPE_BYTES))
        att_tflops, _ = rates(ok["flops"], nbytes, ok["ms"] / MS_PER_S)
        rows += list(zip(ok["dtype"].map(flops_key_for_dtype), att_tflops, ok["flops"] / nbytes,
                         "attention " + ok["backend"] + " " + ok["shape"]))
    best: dict[str, tuple[float, Any]] = {}
    for key, tflops, intensity, name in rows:
        if not key or not spec.get(key) or not spec.get("dram_gbps") or not tflops == tflops:
            continue
        if intensity >= ridge(spec[key], spec["dram_gbps"]) and tflops > best.get(key, (0.0, ""))[0]:
            best[key] = (float(tflops), name)
    return {key: (tflops, _name(name)) for key, (tflops, name) in best.items()}


def reached_l2(df: pd.DataFrame | None, shapes: pd.DataFrame | None, peaks: Peaks) -> tuple[float, str] | None:
    """(the highest GB/s a memory-bound op moved its bytes at, its name), of _timed_ops' rows; None when none
    moved them faster than the run's L2 ceiling (or DRAM's, with no L2 ceiling measured). Minimal bytes beat DRAM
    only from L2: the fastest such op is an L2 rate this GPU reaches, the L2 roof never below it (a mean reduction
    of 16.8 MB ran at 5,501 GB/s on the H200 whose L2 probe read 4,633)."""
    spec = peaks.get("spec") or {}
    floor = float(peaks.get("l2_gbps") or peaks.get("dram_gbps") or 0)
    if not floor or not spec.get("dram_gbps"):
        return None
    best: tuple[float, Any] | None = None
    for key, _, gbps, intensity, name in _timed_ops(df, shapes):
        memory_bound = not key or not spec.get(key) or intensity < ridge(spec[key], spec["dram_gbps"])
        if memory_bound and gbps == gbps and gbps > floor and (best is None or gbps > best[0]):
            best = (float(gbps), name)
    return None if best is None else (best[0], _name(best[1]))


def judge(flops_key: pd.Series, flops: pd.Series, nbytes: pd.Series, seconds: pd.Series, peaks: Peaks) -> pd.DataFrame:
    """Per op: TFLOP/s, GB/s, arithmetic intensity, the bound (compute where the intensity reaches the ridge of
    its width's roof and DRAM's), the ceiling that bounds it and why that one, % of it; and the two roofs
    (compute_roof TFLOP/s, memory_roof GB/s) for the speed of light. Every table judges its rows here."""
    out = pd.DataFrame(index=flops.index)
    out["tflops"], out["gbps"] = rates(flops, nbytes, seconds)
    peak_bw = peaks.get("dram_gbps") or NAN
    peak_flops = flops_key.map(lambda k: (peaks["tflops"].get(k) or NAN) if k else NAN)
    out["intensity"] = (flops / nbytes).where(nbytes > 0)
    compute_bound = out["intensity"] >= ridge(peak_flops, peak_bw)
    out["bound"] = "memory"
    out.loc[compute_bound, "bound"] = "compute"
    out.loc[nbytes <= 0, "bound"] = ""
    l2_bw = peaks.get("l2_gbps") or NAN
    source = peaks.get("source", {})
    # compute roof: the run's (peaks.with_reached: never below what a kernel of the width reached)
    compute_roof = peak_flops
    in_l2 = (out["gbps"] > peak_bw) & (l2_bw > peak_bw)
    memory_roof = pd.Series(peak_bw, index=out.index).where(~in_l2, l2_bw)
    out["ceiling"] = ""
    out["ceiling_why"] = ""
    mem = out["bound"] == "memory"
    cmp = out["bound"] == "compute"
    out.loc[mem, "ceiling"] = f"DRAM ({source.get('dram_gbps', 'spec')})"
    out.loc[mem & in_l2, "ceiling"] = f"L2 ({source.get('l2_gbps', 'measured')})"
    out.loc[mem & in_l2, "ceiling_why"] = "moved its bytes faster than DRAM: inputs still in L2"
    out.loc[mem & ~in_l2 & (out["gbps"] > peak_bw), "ceiling_why"] = \
        "faster than the DRAM ceiling: inputs partly in L2 (no L2 ceiling measured)"
    width = flops_key.map(_WIDTH)
    out.loc[cmp, "ceiling"] = width + " (" + flops_key.map(lambda k: source.get(k, "spec")) + ")"
    out.loc[cmp & (out["tflops"] > peak_flops), "ceiling_why"] = "faster than the run's roof (judged before it)"
    out["pct_of_peak"] = pct_of_peak(out["tflops"], out["gbps"], compute_roof, memory_roof,
                                     compute_bound).where(nbytes > 0)
    out["compute_roof"], out["memory_roof"] = compute_roof, memory_roof
    return out


ROOF_SHARES = ["pct_of_reached_roof", "pct_of_measured_ceiling", "pct_of_spec"]


def roof_shares(tflops: pd.Series, flops_key: pd.Series, bound: pd.Series, pct: pd.Series,
                peaks: Peaks) -> pd.DataFrame:
    """A compute-bound op's rate as % of three roofs of its width: the run's roof (`pct`, its % of peak: the
    higher of the measured ceiling and the best rate reached), the ceiling the ceilings stage measured, and the
    spec at the maximum clock; NaN where the op is not compute-bound or the roof is not known. A GEMM at the
    reached roof is then above the measured ceiling and below the spec, and a reader sees by how much."""
    cmp = bound == "compute"
    measured = flops_key.map(lambda k: (peaks.get("measured_tflops") or {}).get(k) or NAN if k else NAN)
    spec = flops_key.map(lambda k: (peaks.get("spec") or {}).get(k) or NAN if k else NAN)
    return pd.DataFrame({"pct_of_reached_roof": pct.where(cmp), "pct_of_measured_ceiling": (100 * tflops / measured)
                         .where(cmp), "pct_of_spec": (100 * tflops / spec).where(cmp)}, index=tflops.index)


def add_derived(df: pd.DataFrame, peaks: Peaks, n_steps: int) -> pd.DataFrame:
    """avg time, share, TFLOP/s, GB/s, arithmetic intensity, roofline bound and % of the bounding peak."""
    df = df.copy()
    seconds = df["total_ns"] / NS_PER_S
    df["avg_us"] = df["total_ns"] / df["calls"].clip(lower=1) / NS_PER_US
    df["step_ms"] = df["total_ns"] / n_steps / NS_PER_MS
    df["pct_of_gpu_time"] = 100 * df["total_ns"] / df["total_ns"].sum()
    flops_key = df[list(FLOP_KEYS)].idxmax(axis=1).where(df["flops"] > 0, "")
    judged = judge(flops_key, df["flops"], df["bytes"], seconds, peaks)
    df["tflops"], df["gbps"], df["flops_key"] = judged["tflops"], judged["gbps"], flops_key
    for column in JUDGED[2:]:
        df[column] = judged[column]
    shares = roof_shares(df["tflops"], flops_key, df["bound"], df["pct_of_peak"], peaks)
    for column in ROOF_SHARES:
        df[column] = shares[column]
    # speed of light: the time at the ceilings (flops at the compute roof, bytes at the memory roof), per step
    sol_s = seconds_at_roofs(df["flops"], df["bytes"], judged["compute_roof"], judged["memory_roof"])
    # ... and never below the shortest time a kernel takes here (ceilings' kernel_floor_us) a call: a call that
    # moves a few KB is bound by its launch, not by DRAM
    floor_us = peaks.get("kernel_floor_us") or 0.0
    floor_s = df["calls"] * floor_us / US_PER_S
    df["at_floor"] = floor_s > sol_s
    df["floor_us"] = floor_us or NAN
    sol_s = sol_s.clip(lower=floor_s)
    known = (df["bytes"] > 0) | (df["flops"] > 0)
    df["sol_ms_per_step"] = (sol_s * MS_PER_S / n_steps).where(known)
    df["headroom_ms_per_step"] = (df["step_ms"] - df["sol_ms_per_step"]).clip(lower=0)
    return df.sort_values("total_ns", ascending=False).reset_index(drop=True)


SHAPE_COLUMNS = ("B", "H", "Hkv", "Sq", "Sk", "D", "dtype", "flops", "ms")


@overload
def judge_attention(att: None, peaks: Peaks) -> None: ...
@overload
def judge_attention(att: pd.DataFrame, peaks: Peaks) -> pd.DataFrame: ...
def judge_attention(att: pd.DataFrame | None, peaks: Peaks) -> pd.DataFrame | None:
    """The attention table's TFLOP/s, % of peak and ceiling, judged as the kernel table judges a kernel (its
    flops from contract B, its bytes q, k, v and the output once), against the run's peaks: runs recorded
    with the spec bf16 peak in attention.csv read the same as their kernel table."""
    if att is None or att.empty or any(c not in att.columns for c in SHAPE_COLUMNS):
        return att
    att = att.copy()
    size = att["dtype"].map(DTYPE_BYTES)
    nbytes = attention_bytes(att["B"], att["H"], att["Hkv"], att["Sq"], att["Sk"], att["D"], size)
    judged = judge(att["dtype"].map(flops_key_for_dtype), att["flops"], nbytes, att["ms"] / MS_PER_S, peaks)
    ran = judged["tflops"].notna()
    att["tflops"] = judged["tflops"]
    att["pct_of_peak"] = judged["pct_of_peak"]
    att["ceiling"] = judged["ceiling"].where(ran, "")
    return att


_WIDTH = {"flops8": "8-bit tensor", "flops16": "bf16/fp16 tensor", "flops32": "fp32", "flops64": "fp64", "": ""}
