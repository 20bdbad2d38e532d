"""A library kernel's calls by shape (pure): one cuBLAS kernel serves many GEMM shapes, and its time, its ncu
replay and its headroom belong to the shapes that take the time. From library_ops.csv (one traced step per input
size): per (kernel, op, dims), the calls per step, the time per call, and its cost; with the ceilings stage's
replay of the same call, the best time measured for that exact shape on this GPU."""
from __future__ import annotations

import json

import pandas as pd

from ..aten import GEMM_OPS
from ..units import NS_PER_MS, NS_PER_US, US_PER_MS

KEYS = ["kernel", "op", "dims"]


def calls_by_shape(library_ops: pd.DataFrame | None) -> pd.DataFrame:
    """One row per (kernel, op, dims): calls (per traced pass over every size), us_per_call (mean), ms (their
    sum), flops and bytes per call, share of the kernel's traced time; sorted by kernel, then time."""
    cols = [*KEYS, "calls", "us_per_call", "ms", "flops", "bytes", "share_of_kernel"]
    if library_ops is None or library_ops.empty or "dur_ns" not in library_ops.columns:
        return pd.DataFrame(columns=cols)
    ops = library_ops[library_ops["op"].astype(str) != ""]
    g = ops.groupby(KEYS, as_index=False, sort=False).agg(calls=("dur_ns", "size"), ns=("dur_ns", "sum"),
                                                          flops=("flops", "max"), bytes=("bytes", "max"))
    g["us_per_call"] = g["ns"] / g["calls"] / NS_PER_US
    g["ms"] = g["ns"] / NS_PER_MS
    g["share_of_kernel"] = g["ns"] / g.groupby("kernel")["ns"].transform("sum")
    return g.sort_values(["kernel", "ns"], ascending=[True, False])[cols].reset_index(drop=True)


def replay_times(ceilings: dict | None) -> dict[tuple[str, str], float]:
    """(op, dims as library_ops.csv writes them) -> ms per call of the ceilings stage's replay of that call."""
    out = {}
    for g in (ceilings or {}).get("gemms") or []:
        if isinstance(g, dict) and g.get("op") and g.get("dims") and g.get("ms"):
            out[(g["op"], _canonical(g["dims"]))] = float(g["ms"])
    return out


def _canonical(dims) -> str:
    """The dims cell in one spelling (library_ops.csv holds json.dumps of the recorded list)."""
    return json.dumps(json.loads(dims) if isinstance(dims, str) else dims)


def with_best(calls: pd.DataFrame, replays: dict[tuple[str, str], float]) -> pd.DataFrame:
    """calls_by_shape plus replay_us (the ceilings stage's time for the same call, NaN where not replayed) and
    best_us: the fastest time measured for that exact call on this GPU (the model's own or the replay's)."""
    calls = calls.copy()
    calls["replay_us"] = [replays.get((op, _canonical(d)), float("nan")) * US_PER_MS
                          for op, d in zip(calls["op"], calls["dims"])]
    calls["best_us"] = calls[["us_per_call", "replay_us"]].min(axis=1)
    calls.loc[calls["replay_us"].isna(), "best_us"] = float("nan")
    return calls


def replay_calls(library_ops: pd.DataFrame | None, kernels_by_time: list[str], n_library: int,
                 min_share_pct: float, replayable: tuple[str, ...]) -> list[dict]:
    """The library calls ncu replays: of the `n_library` library kernels with the most time (`kernels_by_time`,
    names as library_ops.csv has them), each one's costliest replayable call, and its other calls (op, dims)
    holding at least `min_share_pct` of the traced step's time. Each: the recorded row of that call (op, dims,
    strides, types, scalars) with its calls per step, us_per_call and share_pct."""
    if library_ops is None or library_ops.empty or n_library <= 0:
        return []
    ops = library_ops[library_ops["op"].isin(replayable)]
    total_ns = float(library_ops["dur_ns"].sum()) or 1.0
    g = ops.groupby(KEYS, sort=False)
    first = g.head(1).set_index(KEYS)
    stats = g["dur_ns"].agg(["size", "sum"])
    out = []
    for kernel in [k for k in kernels_by_time if k in set(ops["kernel"])][:n_library]:
        mine = stats.loc[kernel].sort_values("sum", ascending=False)
        for i, ((op, dims), s) in enumerate(mine.iterrows()):
            share = 100 * float(s["sum"]) / total_ns
            if i and share < min_share_pct:
                break
            row = first.loc[(kernel, op, dims)].to_dict()
            out.append({"kernel": kernel, "op": op, "dims": dims, **row, "calls": int(s["size"]),
                        "us_per_call": float(s["sum"]) / int(s["size"]) / NS_PER_US, "share_pct": share})
    return out


def call_label(op: str, dims) -> str:
    """A library call in short: a GEMM's [M,K]x[K,N] (addmm's first input is the bias, and an out= tensor follows
    the inputs), else the op's name and its input tensors' shapes."""
    dims = json.loads(dims) if isinstance(dims, str) else dims
    inputs = [d for d in dims[:GEMM_OPS.get(op, len(dims))] if isinstance(d, list) and d and
              all(isinstance(x, int) for x in d)]
    name = op.split("::")[-1]
    mats = [d for d in inputs if len(d) >= 2]
    if op in GEMM_OPS and len(mats) >= 2:
        (m, k), (_, n) = mats[-2][-2:], mats[-1][-2:]
        batch = f"{mats[-2][0]}x" if len(mats[-2]) == 3 else ""
        return f"{batch}[{m},{k}]x[{k},{n}]"
    return f"{name} " + " ".join("[" + ",".join(map(str, d)) + "]" for d in inputs[:3])
