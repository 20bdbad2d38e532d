"""Machine-readable outputs: CSV of the kernel table, one JSON object for the whole report. Each library
kernel's calls by shape: JSON `calls_by_shape` in its record, CSV a row per shape after the kernels (column
`shape`: the call, "all" for a kernel's own row). A run of several input sizes adds its per-size kernel tables:
JSON `kernels_by_size`, CSV rows per size after those (column `size`: the size, or "all" for the totals over
every size)."""
from __future__ import annotations

import json
import math
import sys
from json.encoder import encode_basestring_ascii as _quoted   # json.dumps' own (ensure_ascii)
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..analysis import RunTables
from ..rundir import write_csv

JSON_KERNEL_COLUMNS = ["name", "kind", "category", "origin", "aten_ops", "calls", "total_ns", "avg_us", "step_ms",
                       "pct_of_gpu_time", "flops", "flops_key", "bytes", "tflops", "gbps", "intensity", "bound",
                       "pct_of_peak", "annotated", "unpriced", "module", "provenance", "calls_by_shape"]


_PLAIN = frozenset((str, int, bool, type(None)))   # JSON holds these as they are


def _plain(x: Any) -> bool:
    """x needs no cleaning: a str, int, bool, None or finite float (x - x is 0 for no NaN and no infinity)."""
    t = type(x)
    return t in _PLAIN or (t is float and x - x == 0)


def _clean(v: Any) -> Any:
    """A value JSON can hold: NaN and infinities become null (json.dumps would write NaN and Infinity, which
    are not JSON), numpy scalars Python ones, nested dicts, lists and tuples cleaned throughout."""
    t = type(v)
    if t in _PLAIN:   # most cells, at once (a large run has a million)
        return v
    if t is float:
        return None if math.isnan(v) or math.isinf(v) else v
    # a plain cell (as _plain says) kept without a call: most of a large report's nested values
    if t is dict:
        return {k: x if type(x) in _PLAIN or (type(x) is float and x - x == 0) else _clean(x) for k, x in v.items()}
    if t is list:
        return [x if type(x) in _PLAIN or (type(x) is float and x - x == 0) else _clean(x) for x in v]
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x) for x in v]
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if hasattr(v, "item"):
        return _clean(v.item())
    return v


def json_text(obj: Any, cleaned: tuple[str, ...] = ()) -> str:
    """obj as a JSON document that every JSON reader takes (allow_nan=False: a value left unclean raises
    here rather than writing NaN or Infinity); `cleaned`: keys of obj whose values are clean already (records:
    not walked twice), but for nested lists and dicts, which the writer checks as it goes (a NaN, an infinity or
    a numpy scalar there: the whole is cleaned and written again). Laid out as json.dumps(indent=1) does, except
    that an object in a list is one line (a kernel, a shape, an advice item: one line each, which grep and diff
    read too)."""
    if cleaned:
        try:
            return _indented({k: v if k in cleaned else _clean(v) for k, v in obj.items()})
        except (_NotPlain, ValueError, TypeError):
            pass
    clean = _clean(obj)
    try:
        return _indented(clean)
    except (_NotPlain, ValueError, TypeError):   # json's own writer says what is wrong, or writes what is left
        return json.dumps(clean, indent=1, allow_nan=False, default=_clean)


class _NotPlain(Exception):
    """A value _indented leaves to json.dumps."""


def _not_plain(v: Any) -> Any:
    raise _NotPlain


# json's C writer, which cannot indent: 30 times faster than its Python one on a 2,000-kernel report's records
_one_line = json.JSONEncoder(allow_nan=False, check_circular=False, default=_not_plain).encode


def _indented(doc: Any) -> str:
    """doc laid out as json.dumps(doc, indent=1, allow_nan=False) would, but each object in a list on one line
    (json's C writer); a document of dicts with str keys, lists, str, int, finite float, bool and None, else
    _NotPlain (or ValueError: NaN, infinity)."""
    out: list[str] = []
    put = out.append

    def write(v: Any, nl: str) -> None:
        t = type(v)
        if t is dict:
            if not v:
                put("{}")
                return
            inner, sep = nl + " ", "{"
            for k, x in v.items():
                if type(k) is not str:
                    raise _NotPlain
                put(sep + inner + _quoted(k) + ": ")
                sep = ","
                write(x, inner)
            put(nl + "}")
        elif t is list or t is tuple:
            if not v:
                put("[]")
                return
            inner, sep = nl + " ", "["
            for x in v:
                put(sep + inner)
                sep = ","
                if type(x) is dict:   # keys not str: json.dumps' own conversion, as its Python writer
                    put(_one_line(x))
                else:
                    write(x, inner)
            put(nl + "]")
        elif t is str or v is None or v is True or v is False or t is int or t is float:
            put(_one_line(v))
        else:
            raise _NotPlain
    write(doc, "\n")
    return "".join(out)


def _column_cells(col: pd.Series, nested: bool = True) -> list:
    """A column's cells as JSON holds them (_clean): numbers and flags at once by their numpy dtype, the rest a
    cell at a time; nested=False: lists and dicts as they are."""
    kind = col.dtype.kind if isinstance(col.dtype, np.dtype) else "O"
    if kind == "f":
        values = col.to_numpy()
        cells = values.tolist()
        for i in np.flatnonzero(~np.isfinite(values)).tolist():
            cells[i] = None
        return cells
    if kind in "biu":
        return col.to_numpy().tolist()
    if isinstance(col.dtype, pd.StringDtype) and isinstance(col.dtype.na_value, float):   # text, or NaN: missing
        return [None if type(v) is float else v for v in col.tolist()]
    if not nested:
        return [v if _plain(v) or type(v) is list or type(v) is dict else _clean(v) for v in col.tolist()]
    return [v if _plain(v) else _clean(v) for v in col.tolist()]


def records(df: pd.DataFrame, columns: list[str], nested: bool = True) -> list[dict]:
    """df's rows as dicts of clean cells (_clean), `columns` first; nested=False leaves the lists and dicts in
    cells as they are, for json_text(cleaned=...) to check as it writes them."""
    cols = [c for c in columns if c in df.columns] + [c for c in df.columns if c not in columns]
    # a column at a time, each by its own dtype (a row at a time cost most of a large report's output)
    cells = [_column_cells(df.iloc[:, df.columns.get_loc(c)], nested) for c in cols]
    return [dict(zip(cols, row)) for row in zip(*cells)] if cols else [{} for _ in range(len(df))]


def to_json(tables: RunTables, df: pd.DataFrame, total: int | None = None, ranks: dict | None = None) -> str:
    """The report as one JSON object; `df` the kernels shown (--top), `total` how many the run has (default:
    len(df)), so a cut list says that it is one; `ranks`: a multi-rank run's ranks (report/ranks.to_json)."""
    obj = {"run": str(tables.run.root), "warnings": tables.warnings, **({"ranks": ranks} if ranks else {}),
           "summary": tables.summary,
           "kernels_total": len(df) if total is None else total, "kernels_shown": len(df),
           "kernels": records(df, JSON_KERNEL_COLUMNS, nested=False),
           "attention": records(tables.attention, [], nested=False) if tables.attention is not None else []}
    if tables.by_size is not None:
        obj["kernels_by_size"] = records(tables.by_size, ["size", *JSON_KERNEL_COLUMNS], nested=False)
    if tables.experiments:   # `inductor-prof try`: experiments.json as written, NaN as null
        from .experiments import clean

        obj["experiments"] = clean(tables.experiments)
    return json_text(obj, cleaned=("kernels", "attention", "kernels_by_size"))


ALL_SIZES = ALL_SHAPES = "all"
# a shape row carries its kernel's identity; its other columns are its own (avg_us a call, step_ms per step...)
SHAPE_ROW_KERNEL = ["name", "display", "origin", "kind", "category"]
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


def shape_table(df: pd.DataFrame) -> pd.DataFrame:
    """The kernels' calls_by_shape as CSV rows: the kernel's identity, `shape`, its op as `aten_ops`, and the
    shape's own numbers; dims and modules as JSON text, as library_ops.csv holds them."""
    rows: list[dict] = []
    if "calls_by_shape" not in df.columns:      # a table the run could not build (no kernels)
        return pd.DataFrame(rows)
    for k, shapes in zip(df[SHAPE_ROW_KERNEL].to_dict("records"), df["calls_by_shape"]):
        for s in shapes if isinstance(shapes, list) else []:
            rows.append({**k, **{c: v for c, v in s.items() if c != "op"}, "aten_ops": s["op"],
                         "dims": json.dumps(s["dims"]),
                         "modules": "" if s["modules"] is None else json.dumps(s["modules"])})
    return pd.DataFrame(rows)


def experiments_csv_path(path) -> Path:
    """Where `report --csv FILE` writes the experiments' rows (`inductor-prof try`): FILE.experiments.csv."""
    path = Path(path)
    return path.with_name(f"{path.stem}.experiments.csv")


def experiments_to_csv(doc: dict, path) -> None:
    from .experiments import ROW_COLUMNS, rows

    write_table(path, pd.DataFrame(rows(doc), columns=ROW_COLUMNS))


def to_csv(df: pd.DataFrame, path, by_size: pd.DataFrame | None = None) -> None:
    # integer counts stay integers beside the shape rows' empty cells
    frames = [df.astype({"calls": "Int64"}, errors="ignore").assign(shape=ALL_SHAPES), shape_table(df)]
    if by_size is not None:
        frames = [f.assign(size=ALL_SIZES) for f in frames] + [by_size.assign(shape=ALL_SHAPES)]
    table = pd.concat([f for f in frames if len(f)], ignore_index=True) if any(len(f) for f in frames) else frames[0]
    first = [c for c in ("size", "name", "shape") if c in table.columns]
    table = table[first + [c for c in table.columns if c not in first]]
    write_table(path, table.drop(columns=["provenance", "calls_by_shape"], errors="ignore"))   # nested: in --json
