"""Flops and bytes for the Inductor kernels of CUDA graph replays (pure): a replay launches no kernel through
Triton's launcher, so the annotated step's Proton rows of those kernels carry time and calls but no work. The
launches recorded before the graphs replayed (proton/recorded_launches.json: the eager warm-up and the recording
run, inductor/launch_record.py) give each kernel's work per step, and are attached here to the replayed rows of the
same kernel name at the same input size.

A recorded step is taken for a kernel only when it launched that kernel exactly as many times as the replayed step
did (a first step also holds autotuning's benchmark launches: it then counts more, and is not taken) and every
launch gave its work; steps that qualify must agree. Otherwise the kernel stays unpriced, with the reason."""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..cost import FLOP_KEYS

WORK = ("bytes", *FLOP_KEYS)
_WHY = "a CUDA graph replay launches it outside Triton's launcher, and "


def _size_key(rows: pd.DataFrame, sizes: list[str]) -> pd.Series:
    """Each row's input size (the first scope of its path when it is one of `sizes`); "" in a run of one size."""
    if not sizes:
        return pd.Series("", index=rows.index)
    first = rows["path"].astype(str).str.split("/", n=1).str[0]
    return first.where(first.isin(sizes), "")


def step_work(name: str, calls: int, steps: list[dict[str, Any]]) -> dict[str, float] | str:
    """The work of `calls` launches of kernel `name` in one step, from the recorded `steps` of its size; or why
    it is not known."""
    recs = [s["kernels"][name] for s in steps if name in s["kernels"]]
    if not recs:
        return _WHY + "no step recorded before the replays launched it"
    whole = [r for r in recs if r["launches"] == calls]
    if not whole:
        counts = "/".join(str(n) for n in sorted({int(r["launches"]) for r in recs}))
        return (_WHY + f"the replayed step launched it {calls} times, the recorded steps {counts}: which launches "
                "the replay holds is not known")
    priced = [r for r in whole if r["priced"] == r["launches"]]
    if not priced:
        return _WHY + "its recorded launches gave no flops or bytes (no launch metadata)"
    if len({tuple(float(r[k]) for k in WORK) for r in priced}) > 1:
        return _WHY + "its recorded steps disagree on its work"
    return {k: float(priced[0][k]) for k in WORK}


def priced(rows: pd.DataFrame, recorded: dict[str, Any], sizes: list[str]) -> tuple[pd.DataFrame, dict[str, str]]:
    """(annotated rows with the replayed Inductor kernels' work filled in, {kernel: why it stays unpriced}).

    A kernel's rows without work (the replayed ones; rows of the same kernel Proton priced, launched outside a
    graph, keep their work) get the recorded step's work less what those rows already carry, shared by calls;
    only kernels the recorded steps launched, or Inductor's by name (triton_*), are considered: library kernels
    are priced from their ATen op elsewhere."""
    if rows is None or not len(rows):
        return rows, {}
    rows = rows.copy()
    key = _size_key(rows, sizes)
    no_work = (rows[list(WORK)].fillna(0) == 0).all(axis=1) & (rows["flops"].fillna(0) == 0)
    recorded_names = {n for s in recorded.get("steps", []) for n in s["kernels"]}
    unpriced: dict[str, str] = {}
    fills: list[tuple[str, pd.Index, str, Any]] = []   # (kernel, rows, work key, value of each row)
    for (size, name), group in rows.groupby([key, rows["name"]], sort=False, observed=True):
        empty = group.index[no_work[group.index]]
        if not len(empty) or not (name in recorded_names or str(name).startswith("triton_")):
            continue
        steps = [s for s in recorded.get("steps", []) if (s.get("size") or "") == size]
        work = step_work(name, int(group["calls"].sum()), steps)
        if isinstance(work, str):
            unpriced[name] = work
            continue
        calls = rows.loc[empty, "calls"].astype(float)
        for k in WORK:   # what the step's launches did, less what Proton already priced, shared by calls
            left = work[k] - float(rows.loc[group.index.difference(empty), k].sum())
            fills.append((name, empty, k, left * calls / float(calls.sum()) if calls.sum() else 0.0))
    # a kernel unknown at one size stays unpriced at every size: its per-step totals would be short
    for name, index, k, values in fills:
        if name not in unpriced:
            rows.loc[index, k] = values
    return rows, unpriced
