"""The launches table: a hatchet's kernel rows (hatchet.COLUMNS) and device info, stored once as compact JSON
columns beside it by the profile, so that `report` of a large run reads a small file instead of walking a
tree of hundreds of thousands of frames. Runs without the table (older runs) read the hatchet itself.

Kernel names and scope paths are stored once each and referenced by position. A column of one value throughout
is that value alone (format 2: the timed steps' bytes and flops columns are all 0, six of ten columns). Format 3
stores every other column as its values' bytes (little-endian, base64) in the narrowest type that holds them
exactly: positions and whole numbers as unsigned or signed integers of 1 to 8 bytes, other numbers as float64.
On a 250,000-row table JSON's lists of numbers took ~90 ms to parse (a million numbers, each a Python object),
the bytes ~3 ms, in a file a third smaller. A run's table is read, and checked against its hatchet, by
runfiles.hatchet_rows; a tool that knows only formats 1 and 2 reads the hatchet instead, and formats 1 and 2
still read.
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pandas as pd

from ...rundir import stamped, write_text
from .hatchet import COLUMNS, frame_of, kernel_columns, load_hatchet

FORMAT = "inductor-prof launches 3"
FORMATS = ("inductor-prof launches 1", "inductor-prof launches 2", FORMAT)   # format 1: no one-value columns
_ONE_VALUE = FORMATS[1:]                   # formats with columns of one value stored once
_CODED = ("name", "path")                  # stored as positions in "names" / "paths"
_NUMBERS = COLUMNS[2:]
# the integer types a whole-number column is stored in, the narrowest first (little-endian: the file's bytes
# mean the same on every machine)
_INTS = ("<u1", "<u2", "<u4", "<i1", "<i2", "<i4", "<i8")
# each type's range as [low, high): bounds a float64 holds exactly (int64's highest, 2**63 - 1, it does not)
_RANGE = {t: (int(np.iinfo(t).min), int(np.iinfo(t).max) + 1) for t in _INTS}
_FLOAT = "<f8"


def _scalar(v):
    """A number as JSON holds it: a whole float as an integer (exact both ways for every float64)."""
    v = v.item() if isinstance(v, np.generic) else v
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _packed(values: np.ndarray) -> dict:
    """A column's values as {"dtype", "base64"}: whole numbers in the narrowest integer type that holds them
    (-0.0 becomes 0, as formats 1 and 2 wrote it), other columns (fractions, NaN, infinities) as float64."""
    dtype = _FLOAT
    if values.dtype.kind in "iub" or bool(np.isfinite(values).all() and (values == np.trunc(values)).all()):
        lo, hi = (values.min(), values.max()) if len(values) else (0, 0)
        dtype = next((t for t in _INTS if _RANGE[t][0] <= lo and hi < _RANGE[t][1]), _FLOAT)
    return {"dtype": dtype, "base64": base64.b64encode(values.astype(dtype).tobytes()).decode("ascii")}


def _column(values: np.ndarray):
    """A numbers column as stored: its one value where every row holds it (NaN equals nothing: kept packed)."""
    if len(values) and values.dtype.kind in "iub" and (values == values[0]).all():
        return _scalar(values[0])
    if len(values) and values.dtype.kind == "f":
        first = values[0]
        same = values == first   # NaN: never; -0.0 == 0.0, written 0 both ways
        if same.all():
            return _scalar(first)
    return _packed(values)


def _unpacked(v, n: int, dtype, one_value: bool) -> np.ndarray:
    """A column as stored (a list, one value, or packed bytes) as n values of `dtype`; ValueError if damaged."""
    if isinstance(v, dict):
        if v.get("dtype") not in (*_INTS, _FLOAT) or not isinstance(v.get("base64"), str):
            raise ValueError(f"a packed column of unknown type {v.get('dtype')!r}")
        return np.frombuffer(base64.b64decode(v["base64"], validate=True), dtype=v["dtype"]).astype(dtype)
    if one_value and isinstance(v, (int, float)) and not isinstance(v, bool):
        return np.full(n, v, dtype=dtype)   # one value throughout
    return np.asarray(v, dtype=dtype)


def to_table(rows: pd.DataFrame, device: dict, source_bytes: int) -> dict:
    """The table of kernel rows (columns COLUMNS) and device info, from a hatchet of `source_bytes` bytes."""
    codes, uniques = {}, {}
    for col in _CODED:
        found, seen = pd.factorize(rows[col])
        codes[col], uniques[col] = _packed(found), list(seen)
    return {"format": FORMAT, "source_bytes": source_bytes, "device": device,
            "names": uniques["name"], "paths": uniques["path"],
            "columns": {**codes, **{c: _column(rows[c].to_numpy()) for c in _NUMBERS}}}


def _text_column(uniques: list, codes: np.ndarray) -> pd.Categorical:
    """Each row's text by its position in `uniques`, as hatchet.frame_of makes it (categorical, categories
    sorted); ValueError for a position outside it, or texts that repeat."""
    if len(codes) and (codes.min() < 0 or codes.max() >= len(uniques)):
        raise ValueError("a row points past the table's names or paths")
    texts = pd.Index(uniques, dtype="str")
    order = texts.argsort()
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return pd.Categorical.from_codes(rank[codes], categories=texts[order])   # not unique: its ValueError


def from_table(table: dict) -> tuple[pd.DataFrame, dict]:
    """(kernel rows, device info) of a table to_table made; ValueError if it is not one."""
    if not isinstance(table, dict) or table.get("format") not in FORMATS:
        raise ValueError(f"not a launches table of format {FORMAT!r}")
    cols, one_value = table["columns"], table["format"] in _ONE_VALUE
    codes = {c: _unpacked(cols[c], 0, np.int64, False) for c in _CODED}
    n = len(codes["name"])
    out = {c: _text_column(table[f"{c}s"], codes[c]) for c in _CODED}
    out["calls"] = _unpacked(cols["calls"], n, np.int64, one_value)
    out.update({c: _unpacked(cols[c], n, np.float64, one_value) for c in _NUMBERS[1:]})
    return frame_of(out), table["device"]      # columns of different lengths: pandas' ValueError


def write(hatchet: Path, table_path: Path) -> int:
    """Writes the launches table of a hatchet file (atomically); returns its kernel rows."""
    root, device = load_hatchet(hatchet)
    rows = frame_of(kernel_columns(root))
    table = stamped(table_path, to_table(rows, device, hatchet.stat().st_size))   # with its run's id
    write_text(table_path, json.dumps(table, separators=(",", ":")))
    return len(rows)
