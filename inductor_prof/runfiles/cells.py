"""The numbers in a run file's cells. A value no run writes (text where a number belongs, NaN or inf where one is
measured, a negative time, size or count) leaves its row out with one warning naming the file, the line and the
value: never a crash further on, never a made-up number. The lines go with the table (DataFrame.attrs) to the
Reader, which says them."""
from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np
import pandas as pd

LEFT_OUT = "inductor_prof.left_out"   # DataFrame.attrs key: what a validator left out, one line each
SHOWN = 3                             # bad cells named in a warning; the rest are counted


@functools.lru_cache(maxsize=None)
def json_cell(text: str) -> Any:
    """A JSON cell (library_ops.csv's dims, strides, types, scalars, modules) decoded, once per distinct text: a
    run of thousands of kernels repeats a few hundred cells in tens of thousands of rows, and each reader of the
    table decoded them again (most of a large report's time). Raises ValueError as json.loads does. The value is
    shared by every row holding that text: read it, never change it."""
    return json.loads(text)


@functools.lru_cache(maxsize=None)
def canonical_cell(text: str) -> str:
    """A JSON cell in one spelling (json.dumps of its value): a key that matches however the cell was written."""
    return json.dumps(json_cell(text))


class Noted(list[Any]):
    """A list a validator read, with the lines of what it left out (as a DataFrame's attrs)."""

    def __init__(self, items: Iterable[Any] = ()) -> None:
        super().__init__(items)
        self.attrs: dict[str, Any] = {}


class NoNumbers(ValueError):
    """A column that should hold numbers holds none (the whole file is unusable, not a row of it)."""


def why_bad(value: Any, nonneg: bool) -> str | None:
    """What is wrong with one cell's value (None: a number, or empty); `nonneg`: a time, size or count."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        return "not a number"
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return "not a number"
    elif isinstance(value, (int, float)):
        number = float(value)
    else:
        return "not a number"
    if math.isnan(number):
        return None if isinstance(value, float) else "NaN"   # pandas' empty cell is NaN; a written 'nan' is not
    if math.isinf(number):
        return "infinite"
    if nonneg and number < 0:
        return "negative"
    return None


def why_bad_json(value: Any, nonneg: bool) -> str | None:
    """What is wrong with a JSON value where a number (or null) belongs."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "not a number"
    if math.isnan(value):
        return "NaN"
    return why_bad(value, nonneg)


def _suspect(values: pd.Series, nonneg: bool, needed: bool) -> bool:
    """Whether a column may hold a bad cell (False: none can be bad; True: look at each). A numpy numbers column
    in a pass or two without copies (a launches table's 250,000 rows in each of eight columns)."""
    if not pd.api.types.is_numeric_dtype(values):
        return True
    a = values.to_numpy()
    if not len(a):
        return False
    if a.dtype.kind in "iu":   # whole numbers: never infinite, never NaN
        return nonneg and bool(a.min() < 0)
    if a.dtype.kind == "f":
        low, high = a.min(), a.max()   # NaN anywhere makes both NaN: then look at each
        if low != low:
            return bool(np.isinf(a).any() or (nonneg and (a < 0).any()) or needed)
        return bool(high == math.inf or low == -math.inf or (nonneg and low < 0))
    v = values.astype(float)
    return bool(((v.abs() == math.inf) | ((v < 0) if nonneg else False) | (v.isna() if needed else False)).any())


def bad_rows(df: pd.DataFrame, numeric: Iterable[str], nonneg: Iterable[str] = (),
             needed: Iterable[str] = ()) -> dict[int, str]:
    """Row position -> "'col' is 'value' (why)" for the first bad cell of each row with one; `needed`: columns
    where an empty cell is bad too (a call's sizes)."""
    nonneg, needed, out = set(nonneg), set(needed), {}
    for col in numeric:
        if col not in df.columns:
            continue
        values = df[col]
        if not _suspect(values, col in nonneg, col in needed):   # the common, intact case: one vectorised look
            continue
        for i, value in enumerate(values.tolist()):
            why = why_bad(value, col in nonneg)
            if why is None and col in needed and (value is None or value != value or str(value).strip() == ""):
                why = "missing"
            if why and i not in out:
                out[i] = f"{col!r} is {value!r} ({why})"
    return out


def keep_good_rows(df: pd.DataFrame, path: Path, numeric: Iterable[str], nonneg: Iterable[str] = (),
                   first_line: int = 2, unit: str = "line", needed: Iterable[str] = ()) -> pd.DataFrame:
    """`df` without the rows holding a bad number, its numeric columns numbers; what was left out is a line in
    attrs[LEFT_OUT]. An intact table comes back as it is. NoNumbers when a column has no number left at all."""
    numeric = [c for c in numeric if c in df.columns]
    bad = bad_rows(df, numeric, nonneg, needed)
    text_cols = [c for c in numeric if not pd.api.types.is_numeric_dtype(df[c])]
    if not bad and not text_cols:
        return df
    for c in text_cols:   # not one number in the column: the file is not what the run wrote, not a row of it
        written = df[c].replace("", None).dropna()
        if len(written) and pd.to_numeric(written, errors="coerce").isna().all():
            raise NoNumbers(f"column {c!r} is not numeric")
    kept = df.drop(index=df.index[sorted(bad)]) if bad else df
    for c in text_cols:
        kept = kept.assign(**{c: pd.to_numeric(kept[c].replace("", None))})
    if bad:
        kept = kept.reset_index(drop=True)
        kept.attrs[LEFT_OUT] = [left_out_line(path, {i + first_line: w for i, w in bad.items()}, unit)]
    return kept


def left_out_line(path: Path, bad: Mapping[Any, str], unit: str) -> str:
    """One warning for a file's bad values: `unit` names where each is (line, call, record)."""
    named = "; ".join(f"{unit} {at}: {what}" for at, what in list(bad.items())[:SHOWN])
    more = f"; and {len(bad) - SHOWN} more" if len(bad) > SHOWN else ""
    rows = "row" if unit == "line" else unit
    return (f"{path} holds values no run writes ({named}{more}); {len(bad)} {rows}{'s' if len(bad) > 1 else ''} "
            "left out")


def left_out(obj: object) -> list[str]:
    """The lines a validator attached to what it read (and removes them: they are said once)."""
    attrs = getattr(obj, "attrs", None)
    return list(attrs.pop(LEFT_OUT, [])) if isinstance(attrs, dict) else []
