"""The rank the others wait for, and why it came late (pure): from the matched collectives (waits.match), the rank
that arrives last where the waiting is, and how it fell behind the rank that waited most, told at the one collective
where it came latest (the lateness at the others is that lateness carried, counted once).

How it fell behind is read from the two ranks' own kernels paired one to one: the n-th launch of a kernel name on
one rank is the n-th of that name on the other (the ranks run one program). Walking the straggler's kernels in
order, its lateness after kernel n (its end minus its partner's end) grows by the difference of their durations
(a slower kernel) and of the gaps before them (its launches came later: host work, launch gaps). Summed from the
last point where the ranks were level (or from the step start: how much later its first kernel started), plus
the difference of the time from each rank's last such kernel to its own start of the collective (the collective
launched late), this is exactly the lateness at the collective. Comparing wall-clock windows instead counts kernels
in one rank's window that the other ran beside an earlier collective (llama-train-ddp-h200x2: rank 1's compute
during its waiting all_reduce fell in none of its windows, and rank 0 was said to compute 6.6 ms more)."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import pandas as pd

from ..units import US_PER_MS
from .step_split import exposed_wait_ms


def _paired(mine: pd.DataFrame, theirs: pd.DataFrame) -> pd.DataFrame:
    """The straggler's compute kernels in start order with their partners' start/end (the same name's same
    occurrence on the other rank); kernels without a partner are left out (their time falls in the gaps)."""
    def numbered(k: pd.DataFrame) -> pd.DataFrame:
        k = k.sort_values("start_us", kind="stable").reset_index(drop=True)
        return k.assign(nth=k.groupby("name").cumcount())
    a, b = numbered(mine), numbered(theirs)
    out = a.merge(b[["name", "nth", "start_us", "end_us"]], on=["name", "nth"], suffixes=("", "_w"))
    return out.sort_values("start_us", kind="stable").reset_index(drop=True)


def _behind(p: pd.DataFrame, s_start: float, w_start: float) -> dict[str, Any]:
    """The straggler's lateness at one collective (its start `s_start`, the waiter's `w_start`) cut into: behind
    at the segment's start (`start_ms`: at the step start, its first kernel's later start; else the lateness where
    the ranks were last level, <= 0), extra gaps before its kernels and before the collective (`idle_ms`), extra
    kernel time (`compute_ms`, and `by_name`); the three add up to the lateness (`late_ms`)."""
    # the kernels both ranks had finished before their own start of the collective: a prefix in the straggler's order
    done = (p["end_us"] <= s_start) & (p["end_us_w"] <= w_start)
    n = int(done.cumprod().sum())
    seg = p.iloc[:n]
    late = s_start - w_start
    if not n:   # no kernel before it on either rank: all of it is the later launch of the collective
        return {"late_ms": late / US_PER_MS, "start_ms": 0.0, "idle_ms": late / US_PER_MS, "compute_ms": 0.0,
                "by_name": {}, "from_step_start": True}
    dur = (seg["end_us"] - seg["start_us"]) - (seg["end_us_w"] - seg["start_us_w"])
    gap = (seg["start_us"] - seg["end_us"].shift(1)) - (seg["start_us_w"] - seg["end_us_w"].shift(1))
    behind_after = (seg["end_us"] - seg["end_us_w"]).tolist()
    level = max((i for i, d in enumerate(behind_after) if d <= 0), default=None)
    if level is None:   # behind from its first kernel on
        start, first, from_start = float(seg["start_us"].iat[0] - seg["start_us_w"].iat[0]), 0, True
    else:               # behind since kernel `level`, where it was not (its lateness there, <= 0, carried)
        start, first, from_start = behind_after[level], level + 1, False
    kernels = dur.iloc[first:]
    gaps = gap.iloc[max(first, 1):]
    tail = (s_start - float(seg["end_us"].iat[-1])) - (w_start - float(seg["end_us_w"].iat[-1]))
    by_name: dict[str, float] = defaultdict(float)
    for name, d in zip(seg["name"].iloc[first:], kernels):
        by_name[name] += d / US_PER_MS
    return {"late_ms": late / US_PER_MS, "start_ms": start / US_PER_MS,
            "idle_ms": (float(gaps.sum()) + tail) / US_PER_MS, "compute_ms": float(kernels.sum()) / US_PER_MS,
            "by_name": dict(by_name), "from_step_start": from_start}


def straggler(calls: dict[int, pd.DataFrame], kernels: dict[int, pd.DataFrame]) -> dict[str, Any] | None:
    """calls: rank -> its calls after waits.match; kernels: rank -> collectives.kernel_intervals. None where no
    rank waited. Else: the rank whose late arrivals made the others wait longest (`rank`), at how many of the
    matched collectives it came last (`last_at`, `matched`), the others' NCCL waiting for it (`caused_wait_ms`),
    the rank that waited most (`waiter`: `waiter_wait_ms`, of it `exposed_wait_ms` with nothing else on its GPU);
    the collective where it came latest (`at`: seq, collective, bytes; `late_ms`) and that lateness cut into
    `start_ms` (behind at the start: its step started later), `extra_idle_ms` (longer gaps: launches came late) and
    `extra_compute_ms` (slower kernels; `kernel`, `kernel_extra_ms`: the one adding most, None where none added);
    `from_step_start`: whether it was behind from its first kernel on; `cause`: "host" when the later start and
    gaps outweigh the kernels, else "kernels"."""
    caused: dict[int, float] = defaultdict(float)
    waited: dict[tuple[int, int], float] = defaultdict(float)   # (straggler, waiter) -> ms
    matched = 0
    for r, df in calls.items():
        done = df[df["wait_us"].notna()]
        if r == min(calls):
            matched = len(done)
        for last, wait in zip(done["last_rank"], done["wait_us"]):
            if int(last) != r and wait > 0:
                caused[int(last)] += wait / US_PER_MS
                waited[(int(last), r)] += wait / US_PER_MS
    if not caused:
        return None
    s = max(caused, key=lambda r: (caused[r], -r))
    w = max((r for r in calls if r != s), key=lambda r: (waited[(s, r)], -r))
    mine = calls[s][calls[s]["wait_us"].notna()]
    last_at = int((mine["last_rank"] == s).sum())
    # the collective where s came latest against w: matched by (process group, seq) on both ranks
    theirs = calls[w][calls[w]["wait_us"].notna()].set_index(["pg_key", "seq"])["start_us"]
    lateness = [(float(start - theirs[(pg, seq)]), pg, seq, coll, nbytes, float(start), float(theirs[(pg, seq)]))
                for pg, seq, coll, nbytes, start, last in zip(mine["pg_key"], mine["seq"], mine["collective"],
                                                                 mine["bytes"], mine["start_us"], mine["last_rank"])
                if int(last) == s and (pg, seq) in theirs.index]
    late, pg, seq, coll, nbytes, s_start, w_start = max(lateness, key=lambda t: (t[0], -t[2]))
    comp = {r: kernels[r][~kernels[r]["comm"].astype(bool)] for r in (s, w)}
    cut = _behind(_paired(comp[s], comp[w]), s_start, w_start)
    named = {k: v for k, v in cut["by_name"].items() if v > 0}
    kernel = max(named, key=lambda k: named[k]) if named else None
    host = cut["start_ms"] + cut["idle_ms"]
    return {"rank": s, "last_at": last_at, "matched": matched, "caused_wait_ms": caused[s], "waiter": w,
            "waiter_wait_ms": waited[(s, w)], "exposed_wait_ms": exposed_wait_ms(kernels[w], calls[w], s),
            "at": {"seq": int(seq) + 1, "collective": coll, "bytes": None if nbytes != nbytes else float(nbytes)},
            "late_ms": cut["late_ms"], "start_ms": cut["start_ms"], "extra_idle_ms": cut["idle_ms"],
            "extra_compute_ms": cut["compute_ms"], "from_step_start": cut["from_step_start"],
            "kernel": kernel, "kernel_extra_ms": named[kernel] if kernel else 0.0,
            "cause": "host" if host >= cut["compute_ms"] else "kernels"}
