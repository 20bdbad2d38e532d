"""The launches table: a hatchet's kernel rows (hatchet.COLUMNS) and device info, stored once as compact JSON
columns beside it by the profile, so that `report` of a large run reads a small file instead of walking a
tree of hundreds of thousands of frames. Runs without the table (older runs) read the hatchet itself.

Kernel names and scope paths are stored once each and referenced by position; numbers that are whole are
written as integers (exact both ways for every float64): on a 250,000-row table that made the file a third
smaller and its parse three times faster than floats written as "2944.0". A column of one value throughout is
that value alone (format 2: the timed steps' bytes and flops columns are all 0, six of ten columns, which took
half the parse). A run's table is read, and checked against its hatchet, by runfiles.hatchet_rows; a tool that
knows only format 1 reads the hatchet instead.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ...rundir import stamped, write_text
from .hatchet import COLUMNS, frame_of, kernel_columns, load_hatchet

FORMAT = "inductor-prof launches 2"
FORMATS = ("inductor-prof launches 1", FORMAT)   # read: format 1 has no one-value columns
_CODED = ("name", "path")                  # stored as positions in "names" / "paths"
_NUMBERS = COLUMNS[2:]


def _whole_as_int(values: list) -> list:
    return [int(v) if isinstance(v, float) and v.is_integer() else v for v in values]


def _column(values: list):
    """A numbers column as stored: its one value where every row holds it (NaN equals nothing: kept a list)."""
    values = _whole_as_int(values)
    first = values[0] if values else None
    return first if values and all(v == first and type(v) is type(first) for v in values) else values


def to_table(rows: pd.DataFrame, device: dict, source_bytes: int) -> dict:
    """The table of kernel rows (columns COLUMNS) and device info, from a hatchet of `source_bytes` bytes."""
    codes, uniques = {}, {}
    for col in _CODED:
        found, seen = pd.factorize(rows[col])
        codes[col], uniques[col] = found.tolist(), list(seen)
    return {"format": FORMAT, "source_bytes": source_bytes, "device": device,
            "names": uniques["name"], "paths": uniques["path"],
            "columns": {**codes, **{c: _column(rows[c].tolist()) for c in _NUMBERS}}}


def from_table(table: dict) -> tuple[pd.DataFrame, dict]:
    """(kernel rows, device info) of a table to_table made; ValueError if it is not one."""
    if not isinstance(table, dict) or table.get("format") not in FORMATS:
        raise ValueError(f"not a launches table of format {FORMAT!r}")
    cols = table["columns"]
    n = len(cols["name"])

    def numbers(c: str, dtype) -> np.ndarray:
        v = cols[c]
        if table["format"] == FORMAT and isinstance(v, (int, float)) and not isinstance(v, bool):
            return np.full(n, v, dtype=dtype)   # one value throughout
        return np.asarray(v, dtype=dtype)
    out = {"name": np.asarray(table["names"], dtype=object).take(np.asarray(cols["name"], dtype=np.int64)),
           "path": np.asarray(table["paths"], dtype=object).take(np.asarray(cols["path"], dtype=np.int64)),
           "calls": numbers("calls", np.int64)}
    out.update({c: numbers(c, np.float64) for c in _NUMBERS[1:]})
    return frame_of(out), table["device"]      # columns of different lengths: pandas' ValueError


def write(hatchet: Path, table_path: Path) -> int:
    """Writes the launches table of a hatchet file (atomically); returns its kernel rows."""
    root, device = load_hatchet(hatchet)
    rows = frame_of(kernel_columns(root))
    table = stamped(table_path, to_table(rows, device, hatchet.stat().st_size))   # with its run's id
    write_text(table_path, json.dumps(table, separators=(",", ":")))
    return len(rows)
