"""Compute against communication on one rank's GPU timeline (pure): time with any compute kernel running, time
with any NCCL kernel running, and how much of the latter had compute running beside it (hidden under compute);
the rest is exposed, the step waiting on the link. Unions of intervals, so kernels that overlap each other
(several streams) count once."""
from __future__ import annotations

from typing import Any, Iterable

import pandas as pd

from ..units import US_PER_MS

Interval = tuple[float, float]


def merged(intervals: Iterable[Interval]) -> list[Interval]:
    """The union of intervals as sorted, disjoint intervals (touching ones joined; empty ones dropped)."""
    out: list[list[float]] = []
    for start, end in sorted((float(s), float(e)) for s, e in intervals if e > s):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(s, e) for s, e in out]


def length(intervals: Iterable[Interval]) -> float:
    return sum(e - s for s, e in merged(intervals))


def overlap(a: Iterable[Interval], b: Iterable[Interval]) -> float:
    """The time covered by both unions: a walk over the two merged lists."""
    a, b = merged(a), merged(b)
    i = j = 0
    total = 0.0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def comm_compute(kernels: pd.DataFrame) -> dict[str, Any]:
    """kernels: start_us, end_us, comm (collectives.kernel_intervals). ms of compute, of communication, of the
    communication hidden under compute and exposed, and the hidden share (% of the communication; None
    without any)."""
    comm = kernels[kernels["comm"].astype(bool)] if len(kernels) else kernels
    compute = kernels[~kernels["comm"].astype(bool)] if len(kernels) else kernels
    comm_iv = list(zip(comm["start_us"], comm["end_us"]))
    compute_iv = list(zip(compute["start_us"], compute["end_us"]))
    comm_us, hidden_us = length(comm_iv), overlap(comm_iv, compute_iv)
    return {"compute_ms": length(compute_iv) / US_PER_MS, "comm_ms": comm_us / US_PER_MS,
            "hidden_ms": hidden_us / US_PER_MS, "exposed_ms": (comm_us - hidden_us) / US_PER_MS,
            "hidden_pct": 100 * hidden_us / comm_us if comm_us else None}
