"""Machine-readable outputs: CSV of the kernel table, one JSON object for the whole report. A run of several
input sizes adds its per-size kernel tables: JSON `kernels_by_size`, CSV rows per size after the totals
(column `size`: the size, or "all" for the totals over every size)."""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis import RunTables
from ..rundir import write_csv

JSON_KERNEL_COLUMNS = ["name", "kind", "category", "origin", "aten_ops", "calls", "total_ns", "avg_us", "step_ms",
                       "pct_of_gpu_time", "flops", "flops_key", "bytes", "tflops", "gbps", "intensity", "bound",
                       "pct_of_peak", "annotated", "module", "provenance"]


def _clean(v: Any) -> Any:
    """A value JSON can hold: NaN and infinities become null (json.dumps would write NaN and Infinity, which
    are not JSON), numpy scalars Python ones, nested dicts, lists and tuples cleaned throughout."""
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x) for x in v]
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if hasattr(v, "item"):
        return _clean(v.item())
    return v


def json_text(obj: Any) -> str:
    """obj as a JSON document that every JSON reader takes (allow_nan=False: a value left unclean raises
    here rather than writing NaN or Infinity)."""
    return json.dumps(_clean(obj), indent=1, allow_nan=False, default=_clean)


def records(df: pd.DataFrame, columns: list[str]) -> list[dict]:
    cols = [c for c in columns if c in df.columns] + [c for c in df.columns if c not in columns]
    at = [df.columns.get_loc(c) for c in cols]
    # the rows of df.values, as iterrows gives them (one common dtype), without a Series per row
    return [{c: _clean(row[i]) for c, i in zip(cols, at)} for row in df.values]


def to_json(tables: RunTables, df: pd.DataFrame, total: int | None = None) -> str:
    """The report as one JSON object; `df` the kernels shown (--top), `total` how many the run has (default:
    len(df)), so a cut list says that it is one."""
    obj = {"run": str(tables.run.root), "warnings": tables.warnings, "summary": tables.summary,
           "kernels_total": len(df) if total is None else total, "kernels_shown": len(df),
           "kernels": records(df, JSON_KERNEL_COLUMNS),
           "attention": records(tables.attention, []) if tables.attention is not None else []}
    if tables.by_size is not None:
        obj["kernels_by_size"] = records(tables.by_size, ["size", *JSON_KERNEL_COLUMNS])
    return json_text(obj)


ALL_SIZES = "all"
STDOUT = "-"   # `--csv -`: the table on stdout, as other Unix tools read "-" (it wrote a file named "-")


def to_stdout(path) -> bool:
    return path is not None and str(path) == STDOUT


def write_table(path, df: pd.DataFrame) -> None:
    """df as CSV to `path`, atomically, or to stdout when `path` is "-"."""
    if to_stdout(path):
        df.to_csv(sys.stdout, index=False)
        sys.stdout.flush()
    else:
        write_csv(Path(path), df)


def to_csv(df: pd.DataFrame, path, by_size: pd.DataFrame | None = None) -> None:
    if by_size is not None:
        df = pd.concat([df.assign(size=ALL_SIZES), by_size], ignore_index=True)
        df = df[["size"] + [c for c in df.columns if c != "size"]]
    write_table(path, df.drop(columns=["provenance"], errors="ignore"))   # nested: in --json
