"""The unit that binds a kernel, from the counters ncu already recorded (pure): its SM and memory speed of light,
its tensor pipes, the DRAM and L2 bytes it moved over its ncu duration against the run's measured peaks, and
its occupancy. The roofline says what bounds a kernel given its flops and bytes; this says what was busy."""
from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ..units import GB, NS_PER_S
from ..peaks import Peaks

# ncu's own speed-of-light rule: a unit below 60% of its peak is not the bottleneck; every unit below it
# "typically indicates latency issues" (Nsight Compute, SOLBottleneck)
BUSY_PCT = 60.0
# a quarter of the warp slots or fewer: too few warps in flight to hide memory latency (4 of 16 per scheduler)
LOW_OCCUPANCY_PCT = 25.0
# SM and memory SOL within this many points of each other are both busy: neither contradicts the roofline
DISAGREE_POINTS = 20.0

DRAM, L2, L1 = "DRAM", "L2", "L1/shared"
SM, TENSOR = "SM instructions", "tensor pipes"
LATENCY, NONE = "latency (low occupancy)", "none: below 60% everywhere"
# the kernel table's cell: a word each, so the column costs 12 cells (the whole name: --json, docs)
SHORT = {DRAM: "DRAM", L2: "L2", L1: "L1/shared", SM: "SM", TENSOR: "tensor", LATENCY: "latency", NONE: "none"}
MEMORY_UNITS = (DRAM, L2, L1)
COMPUTE_UNITS = (SM, TENSOR)


Cell = Any   # a number of a kernel table's row: a float, NaN or None (not known)


def _known(*values: object) -> bool:
    return all(v is not None and not (isinstance(v, float) and math.isnan(v)) for v in values)


def busy_pct(nbytes: float, duration_ns: float, peak_gbps: float) -> float:
    """% of a measured bandwidth (GB/s) that `nbytes` over `duration_ns` reached; NaN where any is unknown."""
    if not _known(nbytes, duration_ns, peak_gbps) or duration_ns <= 0 or peak_gbps <= 0:
        return float("nan")
    return float(100 * nbytes / (duration_ns / NS_PER_S) / GB / peak_gbps)


def binding(sm_pct: Cell, memory_pct: Cell, tensor_pct: Cell = None, occupancy_pct: Cell = None, dram_pct: Cell = None,
            l2_pct: Cell = None) -> tuple[str, str]:
    """(the binding unit, the evidence) of one profiled kernel; ("", "") without its SOL figures. dram_pct and
    l2_pct: busy_pct of its DRAM and L2 bytes against the run's measured peaks (NaN or None: not known)."""
    if not _known(sm_pct, memory_pct):
        return "", ""
    sol = f"SM SOL {sm_pct:.0f}% vs memory {memory_pct:.0f}%"
    if max(sm_pct, memory_pct) < BUSY_PCT:
        if _known(occupancy_pct) and occupancy_pct <= LOW_OCCUPANCY_PCT:
            return LATENCY, f"{sol}, occupancy {occupancy_pct:.0f}%"
        return NONE, sol
    if sm_pct >= memory_pct:
        if _known(tensor_pct) and tensor_pct >= BUSY_PCT:
            return TENSOR, f"tensor pipes {tensor_pct:.0f}%, {sol}"
        return SM, sol
    # memory SOL is the highest of a kernel's memory units: the one that reaches BUSY_PCT of its measured peak,
    # else the unit that has no measured peak here (L1 and shared memory)
    levels = [(p, unit) for p, unit in ((dram_pct, DRAM), (l2_pct, L2)) if _known(p)]
    pct, unit = max(levels, default=(float("nan"), ""))
    if unit and pct >= BUSY_PCT:
        return unit, f"{unit} {pct:.0f}% of its measured peak; {sol}"
    said = ", ".join(f"{u} {p:.0f}%" for p, u in levels)
    return L1, f"memory SOL {memory_pct:.0f}%" + (f" with {said} of measured peaks" if said else "") + \
        f"; SM {sm_pct:.0f}%"


def disagrees(bound: str, unit: str, sm_pct: float, memory_pct: float) -> bool:
    """Whether ncu contradicts the roofline's bound: memory-bound on the roofline while an SM unit binds, with
    SM SOL DISAGREE_POINTS above memory's, or compute-bound while a memory unit binds, memory that far above."""
    if not _known(sm_pct, memory_pct):
        return False
    if bound == "memory" and unit in COMPUTE_UNITS:
        return sm_pct - memory_pct >= DISAGREE_POINTS
    if bound == "compute" and unit in MEMORY_UNITS:
        return memory_pct - sm_pct >= DISAGREE_POINTS
    return False


def add_binding(df: pd.DataFrame, peaks: Peaks) -> pd.DataFrame:
    """The kernel table (after merge_ncu) with `binding_unit`, `binding_evidence`, `ncu_dram_pct`, `ncu_l2_pct`
    (its ncu bytes over its ncu duration, % of the run's measured DRAM and L2 peaks) and `binding_disagrees`
    (ncu contradicts the roofline's bound); unchanged where ncu profiled nothing."""
    if "sol_compute_pct" not in df.columns:
        return df
    df = df.copy()
    nan = float("nan")

    def pct(col: str, peak: float | None) -> list[float]:
        return [busy_pct(b, ns, peak or nan) for b, ns in zip(df.get(col, pd.Series(nan, index=df.index)),
                                                             df["ncu_duration_ns"])]
    df["ncu_dram_pct"] = pct("ncu_dram_bytes", peaks.get("dram_gbps"))
    df["ncu_l2_pct"] = pct("ncu_l2_bytes", peaks.get("l2_gbps"))
    tensor = df.get("tensor_pipe_pct", pd.Series(nan, index=df.index))
    occupancy = df.get("occupancy_pct", pd.Series(nan, index=df.index))
    judged = [binding(*v) for v in zip(df["sol_compute_pct"].tolist(), df["sol_memory_pct"].tolist(), tensor.tolist(),
                                       occupancy.tolist(), df["ncu_dram_pct"].tolist(), df["ncu_l2_pct"].tolist())]
    df["binding_unit"] = [u for u, _ in judged]
    df["binding_evidence"] = [e for _, e in judged]
    df["binding_disagrees"] = [disagrees(b, u, s, m) for b, u, s, m in
                               zip(df["bound"].tolist(), df["binding_unit"].tolist(), df["sol_compute_pct"].tolist(),
                                   df["sol_memory_pct"].tolist())]
    return df
