"""Proton's .hatchet files, parsed. A hatchet is JSON: a tree of frames with metrics, then device info;
`kernel_columns`/`kernel_rows` are pure, `load_hatchet`, `parse` and `device_info` read a file.

Metric names differ in case across Proton releases ("time (ns)" / "Time (ns)"): keys are lower-cased first.
A large run has hundreds of thousands of frames, so the walk is iterative and fills columns, not row dicts.
"""
from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping

import pandas as pd

from ...cost import FLOP_KEYS

# the width-keyed flops (cost.FLOP_KEYS) and Proton's width-less "flops", kept as read
FLOP_METRICS = (*FLOP_KEYS, "flops")
COLUMNS = ("name", "path", "calls", "time_ns", "bytes", *FLOP_METRICS)
TIME_KEYS = ("time (ns)", "time(ns)", "time_ns", "time")
_OP_KEYS = ("bytes", *FLOP_METRICS)     # what a hook="triton" op frame lends its kernel
_NO_AMOUNTS = (0.0,) * len(_OP_KEYS)


def _norm_metrics(metrics: dict) -> dict:
    # Proton writes lower-case keys: copy only when a key is not
    for k in metrics:
        if not (isinstance(k, str) and k.islower()):
            return {str(k).lower(): v for k, v in metrics.items()}
    return metrics


def _time_ns(m: dict) -> float:
    for key in TIME_KEYS:
        if key in m:
            return float(m[key])
    return 0.0


@contextmanager
def _no_cycle_gc() -> Iterator[None]:
    # a hatchet's JSON tree has no reference cycles, but millions of objects that each cyclic collection
    # walks again: off while loading and walking, the large runs parse about twice as fast
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def load_hatchet(path: Path) -> tuple[dict, dict]:
    """(root frame, device info) from a .hatchet file."""
    with _no_cycle_gc():
        data = json.loads(Path(path).read_bytes())
    if isinstance(data, list):
        return data[0], (data[1] if len(data) > 1 and isinstance(data[1], dict) else {})
    return data, {}


def _op_amounts(metrics: dict, op_metrics: dict | None) -> tuple[float, ...]:
    """bytes and flops of a kernel frame; those it lacks come from its op frame (op_metrics) if it has one."""
    if op_metrics is None and metrics.keys().isdisjoint(_OP_KEYS):
        return _NO_AMOUNTS           # most frames: a timed kernel without launch metadata
    op_metrics = op_metrics or {}
    return tuple(float((metrics[k] if k in metrics else op_metrics.get(k)) or 0) for k in _OP_KEYS)


def kernel_columns(root: dict) -> dict[str, list]:
    """The kernel rows as columns (COLUMNS): one per kernel node (a frame with time and no timed children),
    with its scope path, in depth-first order.

    Under hook="triton" Proton enters an op named like the kernel and puts the GPU kernel below it; the
    op's flops/bytes are then merged into the kernel row.
    """
    rows = []
    # (node, its metrics, scope path, parent's metrics, parent's name); children pushed reversed
    stack: list[tuple[dict, dict, str, dict, str | None]] = [(root, _norm_metrics(root.get("metrics", {})), "", {}, None)]
    with _no_cycle_gc():
        while stack:
            node, metrics, path, parent_metrics, parent_name = stack.pop()
            name = node.get("frame", {}).get("name", "")
            children = node.get("children")
            timed = _time_ns(metrics)
            if children:
                kids = [(c, _norm_metrics(c.get("metrics", {}))) for c in children]
                is_kernel = timed > 0 and not any(c.get("children") or _time_ns(m) > 0 for c, m in kids)
            else:
                kids, is_kernel = [], timed > 0
            if is_kernel:
                amounts = _op_amounts(metrics, parent_metrics if parent_name == name else None)
                rows.append((name, path, int(metrics.get("count", 0) or 0), timed, *amounts))
                continue
            here = (f"{path}/{name}" if path else name) if name and name != "ROOT" else path
            stack.extend([(c, m, here, metrics, name) for c, m in reversed(kids)])
        columns = zip(*rows) if rows else ([] for _ in COLUMNS)
        return {c: list(v) for c, v in zip(COLUMNS, columns)}


def kernel_rows(root: dict) -> list[dict]:
    """kernel_columns as one dict per row."""
    cols = kernel_columns(root)
    return [dict(zip(COLUMNS, row)) for row in zip(*cols.values())]


# a kernel's name and scope path repeat on row after row (250,000 rows of 2,000 names in a large run): each
# column categorical, its categories sorted as text, so a group-by, a sort or a set of distinct values of them
# works on positions (a group-by of the names as text hashed every row's)
TEXT_COLUMNS = ("name", "path")


def frame_of(cols: Mapping[str, Any]) -> pd.DataFrame:  # column name -> its values (a list, an array)
    return pd.DataFrame({c: text_column(v) if c in TEXT_COLUMNS else v for c, v in cols.items()},
                        columns=list(COLUMNS))


def text_column(values: Any) -> pd.Categorical:
    """A text column as categorical, its categories sorted (a categorical as it is)."""
    if isinstance(values, pd.Categorical):
        return values
    return pd.Categorical(pd.array(values, dtype="str"))   # categories: the distinct texts, sorted


def parse(path: Path) -> pd.DataFrame:
    """Kernel rows of a hatchet file: name, path (scopes), calls, time_ns, bytes, flops8..flops64, flops."""
    root, _ = load_hatchet(path)
    return frame_of(kernel_columns(root))


def device_info(path: Path) -> dict:
    return load_hatchet(path)[1]
