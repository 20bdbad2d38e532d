"""What the attention comparison's layouts mean for the advice (pure): a saving measured on a backend's contiguous
variant ("sdpa_cudnn (q,k,v contiguous)", attention/benchmark/contiguous.py) is only had by adding its copies to
the model, so its action names that change and why (the backend's error on the model's layout); and the lines under
the attention table that say which shapes ran q, k, v in a layout that is not contiguous.
"""
from __future__ import annotations

import pandas as pd

from ..attention.semantics import qkv_layout

ERROR_CHARS = 160   # of the failing row's error, in the action: enough to recognise it, the table has it whole


def _first(rows: pd.DataFrame, column: str) -> str:
    return str(rows[column].fillna("").iloc[0]) if column in rows.columns and len(rows) else ""


def _copies_said(what: str) -> str:
    """"q, k, v", "its output's gradient (...)", or both, for a variant's `what` (qkv_layout.copied)."""
    dout = "the upstream gradient (a hook on SDPA's output: grad.contiguous())"
    said = {"q,k,v": "q, k, v", "dout": dout, "q,k,v,dout": f"q, k, v and {dout}"}
    return said.get(what, what)


def change(best_backend: str, shape: str, shape_rows: pd.DataFrame, passes: pd.Series) -> str:
    """The action for a shape whose best forward+backward row is a contiguous variant: "use sdpa_cudnn for SHAPE
    (its forward and backward) and make q, k, v contiguous before SDPA: sdpa_cudnn's backward fails on the
    model's layout (q, k, v (B,S,H,D)): ERROR"; "" for a backend that is not a variant. `shape_rows`: the shape's
    rows of attention.csv, both passes (`passes`: their pass, attention_training.passes)."""
    if not qkv_layout.is_variant(best_backend):
        return ""
    base, what = qkv_layout.base_of(best_backend), qkv_layout.what_copied(best_backend)
    mine = shape_rows[shape_rows["backend"] == base]
    train, fwd = mine[passes.loc[mine.index] == "forward+backward"], mine[passes.loc[mine.index] == "forward"]
    backward_only = len(fwd) and bool(fwd["ok"].astype(bool).iloc[0])   # its forward ran at the model's layout
    layouts = []
    if "q,k,v" in what:
        layouts.append(f"q, k, v {_first(train, 'qkv_layout')}".rstrip())
    if "dout" in what:
        layouts.append(f"dout {_first(train, 'dout_layout')}".rstrip())
    error = " ".join(_first(train, "reason").split())
    error = error if len(error) <= ERROR_CHARS else error[:ERROR_CHARS - 3] + "..."
    who = f"{base}'s backward" if backward_only else base
    return (f"use {base} for {shape} (its forward and backward) and make {_copies_said(what)} contiguous before "
            f"SDPA: {who} fails on the model's layout ({'; '.join(layouts)})" + (f": {error}" if error else ""))


def qkv_lines(attention: pd.DataFrame | None) -> list[str]:
    """A line per shape whose rows ran q, k, v in a layout that is not contiguous, for under the table."""
    if attention is None or "qkv_layout" not in attention.columns or not len(attention):
        return []
    out = []
    for shape, rows in attention.groupby("shape", sort=False, observed=True):
        said = _first(rows, "qkv_layout")
        if not qkv_layout.is_contiguous(said):
            out.append(f"{shape} ran q, k, v in the model's layout: {said}")
    return out
