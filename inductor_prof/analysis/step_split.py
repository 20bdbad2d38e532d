"""One rank's step on its GPU cut into what filled it (pure): compute, data moving (transfer), waiting for
other ranks, and nothing at all, adding up to the step's span; and the share of each NCCL kernel's time spent
waiting, to take the waiting out of Proton's kernel time ("GPU busy" never counts a rank waiting).

Each instant of the span is counted once, in the first of: compute (any non-NCCL kernel running), transfer (an
NCCL kernel moving data), unsplit (an NCCL kernel not matched across ranks: waiting and moving unknown),
wait (an NCCL kernel waiting for the last rank), idle. So transfer and wait are what compute did not hide."""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..names import demangle
from ..units import US_PER_MS
from .overlap import Interval, length, merged, overlap

PARTS = ("compute_ms", "transfer_ms", "unsplit_ms", "wait_ms", "idle_ms")


def _minus(a: list[Interval], b: list[Interval]) -> list[Interval]:
    """The union of `a` less the union of `b`."""
    out, b = [], merged(b)
    for s, e in merged(a):
        for bs, be in b:
            if be <= s or bs >= e:
                continue
            if bs > s:
                out.append((s, bs))
            s = max(s, be)
            if s >= e:
                break
        if s < e:
            out.append((s, e))
    return out


def comm_parts(calls: pd.DataFrame) -> tuple[list[Interval], list[Interval], list[Interval]]:
    """(wait, transfer, unsplit) intervals of a rank's NCCL calls (waits.match): [start, arrival) waits,
    [arrival, end) moves; a call with no arrival (not matched) is unsplit."""
    wait, move, unsplit = [], [], []
    for start, dur, w in zip(calls["start_us"], calls["dur_us"], calls.get("wait_us", [float("nan")] * len(calls))):
        if w != w:   # NaN: not matched
            unsplit.append((start, start + dur))
        else:
            wait.append((start, start + w))
            move.append((start + w, start + dur))
    return wait, move, unsplit


def _shown(kernels: pd.DataFrame, calls: pd.DataFrame | None) -> dict[str, list[Interval]]:
    """Each part's intervals, each not under the parts before it (PARTS' order; idle left out)."""
    compute = kernels[~kernels["comm"].astype(bool)]
    busy = list(zip(compute["start_us"], compute["end_us"]))
    wait, move, unsplit = comm_parts(calls) if calls is not None and len(calls) else ([], [], [])
    out = {"compute_ms": merged(busy)}
    for name, ivs in (("transfer_ms", move), ("unsplit_ms", unsplit), ("wait_ms", wait)):
        out[name] = _minus(ivs, busy)
        busy = busy + out[name]
    return out


def split(kernels: pd.DataFrame, calls: pd.DataFrame) -> dict[str, Any]:
    """kernels: collectives.kernel_intervals of the rank's step; calls: its calls after waits.match. ms of each
    part (PARTS) and span_ms (first kernel start to last kernel end), the parts adding up to the span."""
    if not len(kernels):
        return {**{p: 0.0 for p in PARTS}, "span_ms": 0.0}
    shown = _shown(kernels, calls)
    span = float(kernels["end_us"].max() - kernels["start_us"].min())
    parts = {k: length(v) for k, v in shown.items()}
    parts["idle_ms"] = span - sum(parts.values())
    return {**{k: v / US_PER_MS for k, v in parts.items()}, "span_ms": span / US_PER_MS}


def exposed_comm_ms(rank: dict[str, Any]) -> float | None:
    """The exposed communication of a rank's traced step, the one figure every item and line says: ms with NCCL
    moving data after every rank arrived and nothing else on the GPU (split's transfer_ms), what the link added to
    the step. A call not matched across ranks (unsplit_ms) is not in it: waiting or moving, unknown, so not sold as
    moving data. None where the rank has no split."""
    v = rank.get("transfer_ms")
    return None if v is None or v != v else float(v)


def exposed_wait_ms(kernels: pd.DataFrame, calls: pd.DataFrame, last: int) -> float:
    """ms of the rank's exposed waiting (split's wait_ms: nothing else on its GPU) spent at the collectives where
    rank `last` arrived last: what that rank's lateness cost this one's traced step."""
    if not len(kernels) or calls is None or not len(calls):
        return 0.0
    mine = calls[calls["last_rank"].notna() & (calls["last_rank"] == last)]
    waits, _, _ = comm_parts(mine)
    return overlap(_shown(kernels, calls)["wait_ms"], waits) / US_PER_MS


def hidden_transfer_ms(kernels: pd.DataFrame, calls: pd.DataFrame | None) -> float:
    """ms of the step with NCCL moving data beside compute: instants a per-kernel sum of GPU time (Proton's GPU
    busy) counts twice."""
    if not len(kernels) or calls is None or not len(calls):
        return 0.0
    compute = kernels[~kernels["comm"].astype(bool)]
    _, move, _ = comm_parts(calls)
    return overlap(move, list(zip(compute["start_us"], compute["end_us"]))) / US_PER_MS


def _base(name: str) -> str:
    """A kernel's name without its argument list: Proton's (mangled, demangled here) and the trace's (demangled by
    CUPTI) agree on it even where two demanglers write the arguments differently."""
    return demangle(str(name)).split("(")[0]


def transfer_per_call(calls: pd.DataFrame) -> dict[str, float]:
    """NCCL kernel name (without its arguments) -> µs a matched call spent moving data (its time less its wait)
    in the torch.profiler step, on average."""
    if calls is None or not len(calls) or "transfer_us" not in calls:
        return {}
    known = calls[calls["transfer_us"].notna()]
    means = known.assign(base=known["kernel"].map(_base)).groupby("base", observed=True)["transfer_us"].mean()
    return {k: float(v) for k, v in means.items()}


def proton_wait_ms(kernels: pd.DataFrame, transfer_us: dict[str, float]) -> float:
    """ms per step of Proton's NCCL kernel time that was waiting: each NCCL row's time beyond its calls at the
    transfer time a call took in the torch.profiler step. Who waits changes from step to step (an FSDP rank that
    arrived last in the traced step waited 25 ms a step under Proton), the time moving data does not."""
    if not transfer_us or not len(kernels):
        return 0.0
    return float(sum(max(0.0, ms - calls * transfer_us[_base(n)] / US_PER_MS)
                     for n, ms, calls in zip(kernels["name"], kernels["step_ms"], kernels["calls_per_step"])
                     if _base(n) in transfer_us))
