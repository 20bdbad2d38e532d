"""A training run's attention savings (pure): the backend to use is one choice for a call's forward and backward
(SDPA runs the backward of the backend its forward ran), so the saving is judged on the forward+backward rows of
attention.csv, not on the forward rows alone.

Per captured shape: the fastest backend that passed forward+backward against the model's own, times the calls per
step. That saving is split between the model's kernels of the call in proportion to the model's own time: the
forward kernels get forward ms / (forward+backward ms) of it (the model backend's forward row at the shape), the
backward's main kernel (the one of the shape's backward op with the most time; cuDNN's smaller helpers stay on the
roofline) the rest, so the kernels' items add up to the call's saving and no part is counted twice.

The forward+backward rows ran on the upstream gradient's layout the model's backward got (attention.csv's
`dout_layout`, attention/semantics/grad_layout.py); where it is not the dense (B, H, S, D) tensor the saving and
the table say so: the comparison is the model's call, not a contiguous one's.
"""
from __future__ import annotations

import json
from typing import Any

import pandas as pd

from ..aten import ATTENTION_BACKWARD_OPS, attention_dims
from . import attention_layout
from ..attention.semantics.grad_layout import is_contiguous

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


def dout_of(rows: pd.DataFrame) -> str:
    """The layout the rows' forward+backward calls ran dout on, where it is not contiguous ("" where it is, or
    the run predates the column)."""
    if "dout_layout" not in rows.columns or not len(rows):
        return ""
    said = str(rows["dout_layout"].fillna("").iloc[0])
    return "" if is_contiguous(said) else said


def dout_lines(attention: pd.DataFrame | None) -> list[str]:
    """A line per shape whose forward+backward rows ran a dout that is not contiguous, for under the table."""
    train = of_pass(attention, TRAINING)
    if train is None or not len(train):
        return []
    out = []
    for shape, rows in train.groupby("shape", sort=False, observed=True):
        said = dout_of(rows)
        if said:
            out.append(f"{shape} forward+backward ran on the model's upstream gradient: dout {said}")
    return out


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
        b, h, sq, d, _, sk = attention_dims(ATTENTION_BACKWARD_OPS[r["op"]].layout, dims[1], dims[2])
        label = labels.get((b, h, sq, sk, d))
        if label:
            by_kernel = time.setdefault(label, {})
            by_kernel[r["kernel"]] = by_kernel.get(r["kernel"], 0.0) + float(r["dur_ns"] or 0)
    return {label: max(k, key=lambda n: k[n]) for label, k in time.items()}


def backward_calls_by_shape(library_ops: pd.DataFrame | None, calls: list[dict[str, Any]] | None) -> dict[str, int]:
    """Shape label -> its backward calls a step, every layout of its upstream gradient together (the calls
    grad_layout.recorded counts). A step can run fewer backward calls than forward ones: FLUX fine-tuning its last
    blocks runs 57 attention forwards and 40 backwards."""
    from ..attention.semantics import grad_layout
    from ..attention.semantics.shapes import from_call

    if library_ops is None or not len(library_ops) or not calls:
        return {}
    shapes = list({s.label: s for s in map(from_call, calls)}.values())
    rows = library_ops[library_ops["op"].isin(list(ATTENTION_BACKWARD_OPS))].to_dict("records")
    return {label: g.calls + sum(n for _, n in g.others) for label, g in grad_layout.recorded(rows, shapes).items()}


def savings(attention: pd.DataFrame, forward_kernels: dict[str, list[str]],
            backward_kernels: dict[str, str], backward_calls: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """headroom.attention_saving's rows for a training run: per shape, the forward share (its kernels
    `forward_kernels[label]`) and the backward share (`backward_kernels[label]`), each with `pass` TRAINING and
    the call's forward+backward times.

    A backend serves all N forward calls of a shape and the M of them that run a backward (`backward_calls`;
    M = N where the run recorded none): its saving is N x (model's forward - its forward) + M x (model's backward -
    its backward), a backward being a forward+backward row less the forward row of the same backend. The
    backend that saves most is the one said; the forward kernels get the forward part, the backward's main kernel
    the rest. Without the forward rows the whole of M x the forward+backward difference goes to the backward.
    A row that failed (ok false: its error at the model's layout) is never said; where the best is a backend's
    contiguous variant, the row's `do` names the copies to add (attention_layout.change)."""
    ok = attention[attention["ok"].astype(bool) & (attention["backend"] != "sdpa")]
    train, fwd = ok[passes(ok) == TRAINING], ok[passes(ok) == FORWARD]
    out = []
    for shape, rows in train.groupby("shape", observed=True):
        model_backend = rows["model_backend"].iloc[0]
        model = rows[rows["backend"] == model_backend]
        if model.empty:
            continue
        n = float(model["calls_per_step"].iloc[0] or 0)
        m = float((backward_calls or {}).get(shape, n))
        fwd_ms = dict(zip(fwd.loc[fwd["shape"] == shape, "backend"], fwd.loc[fwd["shape"] == shape, "ms"].astype(float)))
        model_ms, model_fwd = float(model["ms"].iloc[0]), fwd_ms.get(model_backend)

        def parts(b: str, b_ms: float) -> tuple[float, float]:   # (forward part, backward part) a step
            if model_fwd is None or b not in fwd_ms:
                return 0.0, m * (model_ms - b_ms)
            d_fwd = model_fwd - fwd_ms[b]
            return n * d_fwd, m * ((model_ms - b_ms) - d_fwd)
        cands = {str(b): parts(str(b), float(ms)) for b, ms in zip(rows["backend"], rows["ms"])
                 if model_fwd is None or str(b) in fwd_ms or m >= n}
        if not cands:
            continue
        best_backend = max(cands, key=lambda b: sum(cands[b]))
        best = rows[rows["backend"] == best_backend].iloc[0]
        saving = max(sum(cands[best_backend]), 0.0)
        forward_part = min(max(cands[best_backend][0], 0.0), saving)
        common = {"shape": shape, "pass": TRAINING, "model_backend": model_backend, "best_backend": best_backend,
                  "model_ms": model_ms, "best_ms": float(best["ms"]), "calls_per_step": n,
                  "backward_calls_per_step": m, "call_saving_ms_per_step": saving, "dout": dout_of(model)}
        do = attention_layout.change(best_backend, shape, attention[attention["shape"] == shape],
                                     passes(attention))
        if do:
            common["do"] = do
        if forward_part > 0 and forward_kernels.get(shape):
            # its times the forward rows' (what its number comes from), not the forward+backward ones
            out.append({**common, "part": "forward", "saving_ms_per_step": forward_part,
                        "model_ms": model_fwd, "best_ms": fwd_ms[best_backend], "kernels": forward_kernels[shape]})
        else:
            forward_part = 0.0
        out.append({**common, "part": "backward", "saving_ms_per_step": saving - forward_part,
                    "kernels": [backward_kernels[shape]] if shape in backward_kernels else []})
    return out
