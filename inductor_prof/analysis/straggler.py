"""The rank the others wait for, and why it came late (pure): from the matched collectives (waits.match), the rank
that arrives last where the waiting is, and how it fell behind the rank that waited most: each time it fell behind
told once, at the collective where it came latest (the collectives after carry that lateness until the ranks are
level again: at a kernel, or at a collective's end that held the waiting rank).

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
from .waits import CLOCK_SLACK_US

# a kernel queued behind a collective starts this soon after its end (2.1-3.3 us on rank 0 of llama-tp-h200x2);
# later, something else (its own host) held it
HELD_US = 10.0


def _paired(mine: pd.DataFrame, theirs: pd.DataFrame) -> pd.DataFrame:
    """The straggler's compute kernels in start order with their partners' start/end (the same name's same
    occurrence on the other rank); kernels without a partner are left out (their time falls in the gaps)."""
    def numbered(k: pd.DataFrame) -> pd.DataFrame:
        k = k.sort_values("start_us", kind="stable").reset_index(drop=True)
        return k.assign(nth=k.groupby("name", observed=True).cumcount())
    a, b = numbered(mine), numbered(theirs)
    out = a.merge(b[["name", "nth", "start_us", "end_us"]], on=["name", "nth"], suffixes=("", "_w"))
    return out.sort_values("start_us", kind="stable").reset_index(drop=True)


def _prefix(p: pd.DataFrame, s_start: float, w_start: float) -> int:
    """How many of the straggler's paired kernels (in its order) both ranks had finished before their own start of
    a collective."""
    return int(((p["end_us"] <= s_start) & (p["end_us_w"] <= w_start)).cumprod().sum())


def _anchors(p: pd.DataFrame, ends: list[tuple[float, float]]) -> list[tuple[float, float, float, int]]:
    """Points where the ranks were level, as (position, straggler's time, waiter's time, first kernel after):
    each paired kernel's start (position 2i) or end (2i + 1) where the straggler was not behind (within the clocks'
    slack), and each collective's end (`ends`: the straggler's and the waiter's end of one matched collective) that
    held the waiter: its GPU idle before it and its next kernel started within HELD_US of its end (position
    2m - 0.5, m that kernel). There the waiting ended: the ranks go on from one moment (the collective's end, the
    same on each rank)."""
    out: list[tuple[float, float, float, int]] = []
    for i, (ss, sw, es, ew) in enumerate(zip(p["start_us"], p["start_us_w"], p["end_us"], p["end_us_w"])):
        if ss - sw <= CLOCK_SLACK_US:
            out.append((2 * i, float(ss), float(sw), i))
        if es - ew <= CLOCK_SLACK_US:
            out.append((2 * i + 1, float(es), float(ew), i + 1))
    starts_w, ends_w = p["start_us_w"].to_numpy(), p["end_us_w"].to_numpy()
    for end_s, end_w in ends:
        after = (starts_w >= end_w - CLOCK_SLACK_US).nonzero()[0]
        if not len(after):
            continue
        m = int(after[0])
        # idle before it (not two back-to-back kernels a collective's end happens to fall between), then started
        if starts_w[m] - end_w <= HELD_US and (m == 0 or ends_w[m - 1] <= end_w - HELD_US):
            out.append((2 * m - 0.5, end_s, end_w, m))
    return sorted(out)


def _behind(p: pd.DataFrame, n: int, anchor: tuple[float, float, float, int] | None, s_start: float,
            w_start: float) -> dict[str, Any]:
    """The straggler's lateness at one collective (its start `s_start`, the waiter's `w_start`; `n` paired kernels
    before it) from `anchor` (_anchors; None: the step start, its first kernel's start) cut into: behind at the
    anchor (`start_ms`: from the step start, its first kernel's later start; else about 0), extra gaps before its
    kernels and before the collective (`idle_ms`), extra kernel time (`compute_ms`, and `by_name`); the three add
    up to the lateness (`late_ms`) exactly: each step's difference telescopes."""
    late = s_start - w_start
    if anchor is None:
        if not n:   # no kernel before it on either rank: all of it is the later launch of the collective
            return {"late_ms": late / US_PER_MS, "start_ms": 0.0, "idle_ms": late / US_PER_MS, "compute_ms": 0.0,
                    "by_name": {}, "from_step_start": True}
        anchor = (-1, float(p["start_us"].iat[0]), float(p["start_us_w"].iat[0]), 0)
    _, a_s, a_w, first = anchor
    seg = p.iloc[first:n]
    prev_s = [a_s, *seg["end_us"].iloc[:-1]]
    prev_w = [a_w, *seg["end_us_w"].iloc[:-1]]
    gaps = sum((st - ps) - (sw - pw) for st, ps, sw, pw in zip(seg["start_us"], prev_s, seg["start_us_w"], prev_w))
    dur = (seg["end_us"] - seg["start_us"]) - (seg["end_us_w"] - seg["start_us_w"])
    last_s, last_w = (float(seg["end_us"].iat[-1]), float(seg["end_us_w"].iat[-1])) if len(seg) else (a_s, a_w)
    tail = (s_start - last_s) - (w_start - last_w)
    by_name: dict[str, float] = defaultdict(float)
    for name, d in zip(seg["name"], dur):
        by_name[name] += d / US_PER_MS
    return {"late_ms": late / US_PER_MS, "start_ms": (a_s - a_w) / US_PER_MS,
            "idle_ms": (float(gaps) + tail) / US_PER_MS, "compute_ms": float(dur.sum()) / US_PER_MS,
            "by_name": dict(by_name), "from_step_start": anchor[0] == -1}


def _episodes(p: pd.DataFrame, late: list[tuple[Any, ...]],
              ends: list[tuple[float, float]]) -> list[list[tuple[Any, ...]]]:
    """The straggler's late collectives (in its order; each (lateness, ..., s_start, w_start)), each with its
    kernels before (n) and the last anchor among them, grouped by the lateness they carry: a collective starts a new
    group where the ranks were level after the kernels before the previous one (a collective between held the ranks
    together: the waiting ended there); else it carries the lateness of the group, which is told once, at its
    latest."""
    anchors = _anchors(p, ends)
    groups: list[list[tuple[Any, ...]]] = []
    prev_n = None
    for t in late:
        n = _prefix(p, t[-2], t[-1])
        # anchors before the collective: at kernels of the first n, or collective ends before the n-th one starts
        mine = [a for a in anchors if a[0] < 2 * n and a[1] <= t[-2] and a[2] <= t[-1]]
        anchor = mine[-1] if mine else None
        if prev_n is None or (anchor is not None and anchor[0] > 2 * prev_n - 1):
            groups.append([])
        groups[-1].append((*t, n, anchor))
        prev_n = n
    return groups


def straggler(calls: dict[int, pd.DataFrame], kernels: dict[int, pd.DataFrame]) -> dict[str, Any] | None:
    """calls: rank -> its calls after waits.match; kernels: rank -> collectives.kernel_intervals. None where no
    rank waited. Else: the rank whose late arrivals made the others wait longest (`rank`), at how many of the
    matched collectives it came last (`last_at`, `matched`), the others' NCCL waiting for it (`caused_wait_ms`),
    the rank that waited most (`waiter`: `waiter_wait_ms`, of it `exposed_wait_ms` with nothing else on its GPU);
    how often it fell behind (`fell_behind`: the groups of _episodes), the collective where it came latest (`at`:
    seq in its group, collective, bytes; `worst_late_ms`), and the lateness of each group at its latest, summed
    (`late_ms`, counted once), cut into `start_ms` (behind at the start: its step started later), `extra_idle_ms`
    (longer gaps: launches came late) and `extra_compute_ms` (slower kernels; `kernel`, `kernel_extra_ms`: the one
    adding most, None where none added); `from_step_start`: whether it was behind from its first kernel on;
    `cause`: "host" when the later start and gaps outweigh the kernels, else "kernels"."""
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
    lateness.sort(key=lambda t: t[5])
    comp = {r: kernels[r][~kernels[r]["comm"].astype(bool)] for r in (s, w)}
    p = _paired(comp[s], comp[w])
    ends_w = calls[w][calls[w]["wait_us"].notna()].set_index(["pg_key", "seq"])
    ends = [(float(a + d), float(ends_w.at[(pg, seq), "start_us"] + ends_w.at[(pg, seq), "dur_us"]))
            for pg, seq, a, d in zip(mine["pg_key"], mine["seq"], mine["start_us"], mine["dur_us"])
            if (pg, seq) in ends_w.index]
    cuts: list[dict[str, Any]] = []
    worst: tuple[Any, ...] | None = None
    for group in _episodes(p, lateness, ends):
        t = max(group, key=lambda t: (t[0], -t[5]))
        cuts.append(_behind(p, t[-2], t[-1], t[5], t[6]))
        worst = t if worst is None or t[0] > worst[0] else worst
    if worst is None:   # no collective of s's matched on w's side: nothing to cut
        return None
    total = {k: sum(c[k] for c in cuts) for k in ("late_ms", "start_ms", "idle_ms", "compute_ms")}
    by_name: dict[str, float] = defaultdict(float)
    for c in cuts:
        for k, v in c["by_name"].items():
            by_name[k] += v
    named = {k: v for k, v in by_name.items() if v > 0}
    kernel = max(named, key=lambda k: named[k]) if named else None
    host = total["start_ms"] + total["idle_ms"]
    _, pg, seq, coll, nbytes, _, _, _, _ = worst
    return {"rank": s, "last_at": last_at, "matched": matched, "caused_wait_ms": caused[s], "waiter": w,
            "waiter_wait_ms": waited[(s, w)], "exposed_wait_ms": exposed_wait_ms(kernels[w], calls[w], s),
            "fell_behind": len(cuts), "worst_late_ms": worst[0] / US_PER_MS,
            "at": {"seq": int(seq) + 1, "collective": coll, "bytes": None if nbytes != nbytes else float(nbytes)},
            "late_ms": total["late_ms"], "start_ms": total["start_ms"], "extra_idle_ms": total["idle_ms"],
            "extra_compute_ms": total["compute_ms"], "from_step_start": cuts[0]["from_step_start"],
            "kernel": kernel, "kernel_extra_ms": named[kernel] if kernel else 0.0,
            "cause": "host" if host >= total["compute_ms"] else "kernels"}
