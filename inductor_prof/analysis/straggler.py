"""The rank the others wait for, and what it was doing (pure): from the matched collectives (waits.match), the
rank that arrives last where the waiting is, and, before each of those collectives, its GPU's time against the
rank that waited most: idle longer (its launches came late: host work, launch gaps) or computing longer (a
slower kernel, named)."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import pandas as pd

from ..units import US_PER_MS
from .overlap import length, overlap


def _windows(calls: pd.DataFrame, first_us: float) -> dict[tuple[Any, ...], tuple[float, float]]:
    """(process group, seq) -> the rank's time before that collective: from the end of its previous matched NCCL
    kernel (its step's first kernel for the first) to its own start."""
    done = calls[calls["wait_us"].notna()].sort_values("start_us")
    out, prev = {}, first_us
    for pg, seq, start, dur in zip(done["pg_key"], done["seq"], done["start_us"], done["dur_us"]):
        out[(pg, seq)] = (prev, start)
        prev = max(prev, start + dur)
    return out


def _in(ivs: list[Any], window: tuple[float, float]) -> float:
    return overlap(ivs, [window])


def straggler(calls: dict[int, pd.DataFrame], kernels: dict[int, pd.DataFrame]) -> dict[str, Any] | None:
    """calls: rank -> its calls after waits.match; kernels: rank -> collectives.kernel_intervals. None where no
    rank waited. Else: the rank whose late arrivals made the others wait longest (`rank`), at how many of the
    matched collectives it came last (`last_at`, `matched`), the others' wait for it (`caused_wait_ms`), the rank
    that waited most (`waiter`), and over the windows before those collectives the straggler's GPU idle and
    compute minus the waiter's (`extra_idle_ms`, `extra_compute_ms`) and the kernel adding most
    (`kernel`, `kernel_extra_ms`); `cause`: "host" when the extra idle is the larger, else "kernels"."""
    caused: dict[int, float] = defaultdict(float)
    waited: dict[tuple[int, int], float] = defaultdict(float)   # (straggler, waiter) -> ms
    last_of: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    matched = 0
    for r, df in calls.items():
        done = df[df["wait_us"].notna()]
        if r == min(calls):
            matched = len(done)
        for pg, seq, last, wait in zip(done["pg_key"], done["seq"], done["last_rank"], done["wait_us"]):
            if int(last) == r:
                last_of[r].append((pg, seq))
            elif wait > 0:
                caused[int(last)] += wait / US_PER_MS
                waited[(int(last), r)] += wait / US_PER_MS
    if not caused:
        return None
    s = max(caused, key=lambda r: (caused[r], -r))
    w = max((r for r in calls if r != s), key=lambda r: (waited[(s, r)], -r))
    keys = last_of[s]
    comp = {}
    for r in (s, w):
        k = kernels[r]
        compute = k[~k["comm"].astype(bool)]
        comp[r] = (compute, _windows(calls[r], float(k["start_us"].min())) if len(k) else {})
    extra_idle = extra_compute = 0.0
    by_name: dict[str, float] = defaultdict(float)
    for key in keys:
        for r, sign in ((s, 1), (w, -1)):
            compute, windows = comp[r]
            if key not in windows:
                continue
            window = windows[key]
            busy = _in(list(zip(compute["start_us"], compute["end_us"])), window)
            extra_compute += sign * busy
            extra_idle += sign * ((window[1] - window[0]) - busy)
            inside = compute[(compute["start_us"] < window[1]) & (compute["end_us"] > window[0])]
            for name, a, b in zip(inside["name"], inside["start_us"], inside["end_us"]):
                by_name[name] += sign * length([(max(a, window[0]), min(b, window[1]))])
    kernel = max(by_name, key=lambda n: by_name[n]) if by_name else None
    return {"rank": s, "last_at": len(keys), "matched": matched, "caused_wait_ms": caused[s], "waiter": w,
            "waiter_wait_ms": waited[(s, w)], "extra_idle_ms": extra_idle / US_PER_MS,
            "extra_compute_ms": extra_compute / US_PER_MS,
            "kernel": kernel if kernel and by_name[kernel] > 0 else None,
            "kernel_extra_ms": by_name[kernel] / US_PER_MS if kernel and by_name[kernel] > 0 else 0.0,
            "cause": "host" if extra_idle >= extra_compute else "kernels"}

