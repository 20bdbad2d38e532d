"""A training run's attention savings (pure): the backend to use is one choice for a call's forward and backward
(SDPA runs the backward of the backend its forward ran), so the saving is judged on the forward+backward rows of
attention.csv, not on the forward rows alone.

Per captured shape: the fastest backend that passed forward+backward against the model's own, times the calls per
step. That saving is split between the model's kernels of the call in proportion to the model's own time: the
forward kernels get forward ms / (forward+backward ms) of it (the model backend's forward row at the shape), the
backward's main kernel (the one of the shape's backward op with the most time; cuDNN's smaller helpers stay on the
roofline) the rest, so the kernels' items add up to the call's saving and no part is counted twice.
"""
from __future__ import annotations

import json
from typing import Any

import pandas as pd

from ..aten import ATTENTION_BACKWARD_OPS

FORWARD, TRAINING = "forward", "forward+backward"   # attention.csv's `pass` column (attention/benchmark/bench.py)


def passes(attention: pd.DataFrame | None) -> pd.Series:
    """Each row's pass: its `pass` cell, FORWARD for a row of a run recorded before the column."""
    if attention is None:
        return pd.Series(dtype=str)
    if "pass" not in attention.columns:
        return pd.Series(FORWARD, index=attention.index, dtype=str)
    return attention["pass"].fillna(FORWARD).replace("", FORWARD).astype(str)


def is_training(attention: pd.DataFrame | None) -> bool:
    """Whether attention.csv holds forward+backward rows (a training run's stage)."""
    return attention is not None and bool((passes(attention) == TRAINING).any())


def of_pass(attention: pd.DataFrame | None, which: str) -> pd.DataFrame | None:
    """The rows of one pass (None stays None)."""
    return None if attention is None else attention[passes(attention) == which]


def _dims(cell: Any) -> list[Any]:
    return json.loads(cell) if isinstance(cell, str) else list(cell)


def backward_kernels_by_shape(library_ops: pd.DataFrame | None, calls: list[dict[str, Any]] | None) -> dict[str, str]:
    """Shape label -> the main kernel of its backward (the kernel of an SDPA backward op with these sizes that ran
    longest), matched to the captured forward calls by (B, Hq, Sq, Sk, D)."""
    from ..attention.semantics.shapes import from_call

    if library_ops is None or not len(library_ops) or not calls:
        return {}
    labels: dict[tuple[int, ...], str] = {}
    for c in calls:
        s = from_call(c)
        labels.setdefault((s.B, s.H, s.Sq, s.Sk, s.D), s.label)
    time: dict[str, dict[str, float]] = {}
    for r in library_ops[library_ops["op"].isin(list(ATTENTION_BACKWARD_OPS))].to_dict("records"):
        dims = _dims(r["dims"])
        q, k = dims[1], dims[2]
        if ATTENTION_BACKWARD_OPS[r["op"]].layout == "bshd":
            key = (q[0], q[2], q[1], k[1], q[3])
        else:
            key = (q[0], q[1], q[2], k[2], q[3])
        label = labels.get(tuple(int(x) for x in key))
        if label:
            by_kernel = time.setdefault(label, {})
            by_kernel[r["kernel"]] = by_kernel.get(r["kernel"], 0.0) + float(r["dur_ns"] or 0)
    return {label: max(k, key=lambda n: k[n]) for label, k in time.items()}


def savings(attention: pd.DataFrame, forward_kernels: dict[str, list[str]],
            backward_kernels: dict[str, str]) -> list[dict[str, Any]]:
    """headroom.attention_saving's rows for a training run: per shape, the forward share (its kernels
    `forward_kernels[label]`) and the backward share (`backward_kernels[label]`), each with `pass` TRAINING and
    the call's forward+backward times."""
    ok = attention[attention["ok"].astype(bool) & (attention["backend"] != "sdpa")]
    train, fwd = ok[passes(ok) == TRAINING], ok[passes(ok) == FORWARD]
    out = []
    for shape, rows in train.groupby("shape"):
        model_backend = rows["model_backend"].iloc[0]
        model = rows[rows["backend"] == model_backend]
        if model.empty:
            continue
        best = rows.loc[rows["ms"].idxmin()]
        calls = float(model["calls_per_step"].iloc[0] or 0)
        model_ms = float(model["ms"].iloc[0])
        saving = max((model_ms - float(best["ms"])) * calls, 0.0)
        model_fwd = fwd[(fwd["shape"] == shape) & (fwd["backend"] == model_backend)]
        share = min(max(float(model_fwd["ms"].iloc[0]) / model_ms, 0.0), 1.0) if len(model_fwd) and model_ms > 0 \
            else 0.0
        common = {"shape": shape, "pass": TRAINING, "model_backend": model_backend, "best_backend": best["backend"],
                  "model_ms": model_ms, "best_ms": float(best["ms"]), "calls_per_step": calls,
                  "call_saving_ms_per_step": saving}
        if share > 0 and forward_kernels.get(shape):
            out.append({**common, "part": "forward", "saving_ms_per_step": saving * share,
                        "kernels": forward_kernels[shape]})
        else:
            share = 0.0
        out.append({**common, "part": "backward", "saving_ms_per_step": saving * (1 - share),
                    "kernels": [backward_kernels[shape]] if shape in backward_kernels else []})
    return out
