"""`diff` of two runs of several input sizes (pure): for each size both runs profiled, its wall step (plain,
under Proton) and its GPU kernel time per step, judged against the runs' noise as the whole-step rows are
(noise.NOISE_RULE). Sizes only one run has are named, not compared."""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..steptime import TIMING_STAGES, median_ms
from ..units import NS_PER_MS
from .diff_inputs import RunSide, timed_rows
from .noise import GPU_ROW, change_row, spread_pct
from .sizes import size_names

COLUMNS = ["size", "what", "a", "b", "delta", "change_pct", "noise_pct", "verdict"]


def size_steps(manifest: dict[str, Any], stage: str, size: str) -> list[float] | None:
    ms = ((manifest.get("stages", {}).get(stage) or {}).get("step_ms_by_size") or {}).get(size)
    return [float(x) for x in ms] if isinstance(ms, list) and ms else None


def gpu_steps_ms(side: RunSide, size: str) -> list[float]:
    """The size's GPU kernel time in each timed step, ms."""
    launches = side.tables.launches if side.tables is not None else None
    if launches is None or "size" not in launches.columns:
        return []
    timed = timed_rows(launches[launches["size"] == size])
    return list(timed.groupby("step", observed=True)["time_ns"].sum() / NS_PER_MS)


def size_rows(a: RunSide, b: RunSide) -> tuple[pd.DataFrame, list[str]]:
    """(one row per compared size and measure, lines naming the sizes only one run has)."""
    sizes_a, sizes_b = size_names(a.manifest), size_names(b.manifest)
    rows = []
    for size in (s for s in sizes_a if s in sizes_b):
        for stage, label in TIMING_STAGES:
            la, lb = size_steps(a.manifest, stage, size), size_steps(b.manifest, stage, size)
            if la and lb:
                rows.append({"size": size, **change_row(label, median_ms(la), median_ms(lb), spread_pct(la),
                                                        spread_pct(lb))})
        ga, gb = gpu_steps_ms(a, size), gpu_steps_ms(b, size)
        if ga and gb:   # the report's GPU time per step: all of it over the steps, the mean (not the median)
            rows.append({"size": size, **change_row(GPU_ROW, float(np.mean(ga)), float(np.mean(gb)),
                                                    spread_pct(ga), spread_pct(gb))})
    only = [f"size {s} only in run {label}" for label, mine, other in (("A", sizes_a, sizes_b),
                                                                         ("B", sizes_b, sizes_a))
            for s in mine if s not in other]
    return pd.DataFrame(rows, columns=COLUMNS), only
