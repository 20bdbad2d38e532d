"""The noise rule of `diff` (pure): a measure's spread over its timed steps, the change between two runs, its
noise, the verdict, and how far a change goes beyond its noise (what the gate compares with --fail-above).

NOISE_RULE below is the rule, word for word as the report states it."""
from __future__ import annotations

from typing import Any, Iterable

import numpy as np
import pandas as pd

NOISE_RULE = (
    "noise: a change's noise is the larger of the two runs' spreads; a spread is the interquartile range of "
    "the per-step times over their median (the step: the manifest's timed steps; a kernel, a category, GPU "
    "time: its time in each timed step of the steps hatchet; a library call: its kernel's). A change within "
    "its noise is not a regression. --fail-above P fails when the step (plain, else under Proton), or a paired "
    "kernel or library call holding >= --min-share % of the step in either run, got slower by more than "
    "noise + P % (a speed-up never fails), or when one holding that share is only in one run.")
GPU_ROW = "GPU kernel time"   # the row of GPU kernel time per step, whole or per size
NAN = float("nan")


def spreads_pct(per_step: np.ndarray) -> np.ndarray:
    """Per row of per-step values: interquartile range over the median, in % (numpy's linear percentiles);
    NaN with fewer than 2 steps or a median of 0."""
    per_step = np.asarray(per_step, dtype=float)
    if per_step.shape[1] < 2:
        return np.full(per_step.shape[0], np.nan)
    q1, med, q3 = np.percentile(per_step, [25, 50, 75], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(med > 0, 100 * (q3 - q1) / med, np.nan)


def spread_pct(values: Iterable[float]) -> float:
    return float(spreads_pct(np.asarray([list(values)], dtype=float))[0])


def spreads_by_name(steps: pd.DataFrame | None) -> dict[str, float]:
    """Each row's spread of a name x step table (a kernel's or a category's time per step)."""
    if steps is None or steps.empty:
        return {}
    return dict(zip(steps.index, spreads_pct(steps.to_numpy()).tolist()))


def change_pct(a: float, b: float) -> float:
    return 100 * (b - a) / a if a == a and b == b and a > 0 else NAN


def noise_of(spread_a: float, spread_b: float) -> float:
    known = [s for s in (spread_a, spread_b) if s == s]
    return max(known) if known else NAN


def verdict(change: float, noise: float) -> str:
    if change != change:
        return ""
    n = noise if noise == noise else 0.0
    return "slower" if change > n else "faster" if change < -n else "within noise"


def beyond_noise(change: float, noise: float) -> float:
    """How far a change exceeds its noise, in percentage points (unknown noise counts as 0)."""
    return change - (noise if noise == noise else 0.0)


def change_row(what: str, a: float, b: float, spread_a: float, spread_b: float) -> dict[str, Any]:
    """One compared measure: both values, the change, its noise and the verdict (a row of every diff table)."""
    change, noise = change_pct(a, b), noise_of(spread_a, spread_b)
    return {"what": what, "a": a, "b": b, "delta": b - a, "change_pct": change, "noise_pct": noise,
            "verdict": verdict(change, noise)}
