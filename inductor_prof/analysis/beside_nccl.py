"""How much of each library call's kernel ran with an NCCL kernel beside it on the same GPU (pure), from the
torch.profiler step that library_ops.csv was read from.

An NCCL kernel holds SMs and moves memory while it runs, whether it moves data or spins waiting for another rank,
so a GEMM beside it is slower than the same call alone: in the two-H200 DDP run (examples/runs/
llama-train-ddp-h200x2) the backward's [4096,8192]x[8192,2048] call took 315 us on rank 1, beside its gradient
all_reduce for 99.9% of its time, 169.7 us on rank 0, alone, and 201 us replayed alone by the ceilings stage. A
replay that is faster than the model's call then measures the price of that overlap, not a slower kernel choice
(advice._gemm_judgement)."""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..drivers.torch_profiler.trace import is_library_kernel
from .collectives import collective_kind, is_nccl
from .overlap import merged, overlap

KEYS = ["kernel", "op", "dims"]   # library_calls.calls_by_shape's call key
DUR_SLACK_NS = 1.0                # library_ops.csv's dur_ns is the trace's dur (us) x 1000


def beside_ns(events: list[dict[str, Any]], library_ops: pd.DataFrame) -> pd.DataFrame:
    """library_ops with beside_nccl_ns (ns of each call's kernel with any NCCL kernel running) and beside_kind
    (the collective beside it longest, e.g. all_reduce; None where none). Rows are the trace's library kernels in
    its order (drivers.torch_profiler.trace wrote them so); a row whose kernel name or duration does not match
    its event, or a table of another length (a run of several sizes), gets NaN: no claim."""
    kernels = [e for e in events if e.get("cat") == "kernel" and "ts" in e]
    comm = [(float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0)), collective_kind(e.get("name", "")))
            for e in kernels if is_nccl(e.get("name", ""))]
    ours = [e for e in kernels if is_library_kernel(e.get("name", ""))]
    out = library_ops.assign(beside_nccl_ns=float("nan"), beside_kind=None)
    if not comm or len(ours) != len(library_ops):
        return out
    union = merged((s, e) for s, e, _ in comm)
    ns: list[float] = []
    kinds: list[str | None] = []
    for e, name, dur_ns in zip(ours, library_ops["kernel"], library_ops["dur_ns"]):
        start, end = float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0))
        if e.get("name") != name or abs((end - start) * 1e3 - float(dur_ns)) > DUR_SLACK_NS or is_nccl(name):
            ns.append(float("nan"))
            kinds.append(None)
            continue
        ns.append(overlap([(start, end)], union) * 1e3)
        by_kind: dict[str, float] = {}
        for s, f, kind in comm:
            if s < end and f > start:
                by_kind[kind] = by_kind.get(kind, 0.0) + min(f, end) - max(s, start)
        kinds.append(max(by_kind, key=lambda k: by_kind[k]) if by_kind else None)
    return out.assign(beside_nccl_ns=ns, beside_kind=kinds)


def share_by_call(with_beside: pd.DataFrame) -> pd.DataFrame:
    """Per call (kernel, op, dims): beside_nccl_share, the share of its calls' traced time with an NCCL kernel
    beside it (0-1, the float timestamps' rounding clipped; NaN where any of its calls could not be placed), and
    beside_kind (the collective beside it longest)."""
    cols = [*KEYS, "beside_nccl_share", "beside_kind"]
    if with_beside is None or with_beside.empty or "beside_nccl_ns" not in with_beside:
        return pd.DataFrame(columns=cols)
    rows = []
    for key, g in with_beside.groupby(KEYS, sort=False, observed=True):
        total = float(g["dur_ns"].sum())
        placed = g["beside_nccl_ns"].notna().all() and total > 0
        kinds = g.loc[g["beside_kind"].notna()].groupby("beside_kind", observed=True)["beside_nccl_ns"].sum()
        rows.append({**dict(zip(KEYS, key)),
                     "beside_nccl_share": min(1.0, float(g["beside_nccl_ns"].sum()) / total) if placed else float("nan"),
                     "beside_kind": str(kinds.idxmax()) if len(kinds) else None})
    return pd.DataFrame(rows, columns=cols)
