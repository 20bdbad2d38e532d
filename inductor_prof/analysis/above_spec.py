"""Rates no GPU reaches: a kernel or attention backend computing above the spec peak of its precision (the peak
at the GPU's highest clock) was timed or counted wrong (a launches table, a hatchet or attention.csv edited or
from another run). Its rate is left out, with one warning naming the file and the value; measured rates above a
measured ceiling stay (the model's GEMMs do beat the ceilings' own matmul)."""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..aten import flops_key_for_dtype
from ..cost import FLOP_KEYS, rates
from ..units import MS_PER_S, NS_PER_S

SLACK = 1.02   # clocks and rounding: a rate this close to the spec peak is not called impossible


def _over(key: pd.Series, tflops: pd.Series, spec: dict[str, Any]) -> pd.Series:
    peak = key.map(lambda k: float(spec.get(k) or 0) if k else 0.0)
    return (peak > 0) & (tflops > peak * SLACK)


def kernels(df: pd.DataFrame, spec: dict[str, Any], timing_file: object) -> tuple[pd.DataFrame, list[str]]:
    """Kernel rows (before add_derived) without the flops of any whose rate is above the spec peak."""
    if df is None or not len(df) or not spec:
        return df, []
    key = df[list(FLOP_KEYS)].idxmax(axis=1).where(df["flops"] > 0, "")
    tflops, _ = rates(df["flops"], df["bytes"], df["total_ns"] / NS_PER_S)
    over = _over(key, tflops, spec)
    if not over.any():
        return df, []
    lines = [f"{timing_file}: kernel {df.at[i, 'display']} runs at {tflops[i]:,.0f} TFLOP/s, above the GPU's "
             f"{key[i]} spec peak of {float(spec[key[i]]):,.0f}: its time or flops are not what the run measured; "
             "its rate is left out" for i in df.index[over]]
    df = df.copy()
    df.loc[over, ["flops", *FLOP_KEYS]] = 0
    return df, lines


def attention(att: pd.DataFrame | None, spec: dict[str, Any], path: object) -> tuple[pd.DataFrame | None, list[str]]:
    """attention.csv's rows without the time of any backend whose rate is above the spec peak."""
    if att is None or not len(att) or not spec or any(c not in att.columns for c in ("dtype", "flops", "ms")):
        return att, []
    key = att["dtype"].map(lambda d: flops_key_for_dtype(d) if isinstance(d, str) else "")
    tflops, _ = rates(att["flops"], 0, att["ms"] / MS_PER_S)
    over = _over(key, tflops, spec) & att["ms"].notna()
    if not over.any():
        return att, []
    lines = [f"{path}: {att.at[i, 'backend']} at {att.at[i, 'shape'] if 'shape' in att.columns else ''} runs at "
             f"{tflops[i]:,.0f} TFLOP/s, above the GPU's {key[i]} spec peak of {float(spec[key[i]]):,.0f}; its "
             "time is left out" for i in att.index[over]]
    att = att.copy()
    att.loc[over, "ms"] = float("nan")
    return att, lines


# Minimal bytes (each distinct tensor once) move faster than DRAM only out of L2, measured at 1.1-1.4x DRAM on
# the H100 and H200 (docs/measurements.md): a library call priced above 3x the GPU's DRAM spec counted bytes it
# never moves (a gather priced at its whole source table ran at 104 TB/s on the H200).
MOVE_CAP = 3.0


def library_ops(ops: pd.DataFrame | None, spec: dict[str, Any], path: object) -> tuple[pd.DataFrame | None, list[str]]:
    """library_ops.csv's rows without the bytes of any call priced above MOVE_CAP x the DRAM spec: said unpriced
    (the kernel's time then shows in summary.unpriced with the reason), one warning a distinct op naming the file."""
    dram = float(spec.get("dram_gbps") or 0) if spec else 0.0
    if ops is None or not len(ops) or not dram or any(c not in ops.columns for c in ("bytes", "dur_ns", "op")):
        return ops, []
    _, gbps = rates(0.0, ops["bytes"], ops["dur_ns"].where(ops["dur_ns"] > 0) / NS_PER_S)
    over = (gbps > MOVE_CAP * dram) & (ops["flops"].fillna(0) == 0 if "flops" in ops.columns else True)
    if not over.any():
        return ops, []
    ops = ops.copy()
    lines = []
    for op in dict.fromkeys(ops.loc[over, "op"].tolist()):
        rows = over & (ops["op"] == op)
        fastest = float(gbps[rows].max())
        why = (f"{op}: priced at {fastest:,.0f} GB/s, above what this GPU moves ({MOVE_CAP:g}x its "
               f"{dram:,.0f} GB/s DRAM spec): its byte count is an over-count")
        lines.append(f"{path}: {why}; its bytes are left out")
        if "unpriced" in ops.columns:
            ops.loc[rows, "unpriced"] = why
    ops.loc[over, "bytes"] = 0
    return ops, lines
