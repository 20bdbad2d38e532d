"""row_dicts builds what pandas' to_dict builds, value for value and type for type: pandas' own to_dict is the
reference (the module only builds the same dicts a column at a time)."""
import math

import numpy as np
import pandas as pd
import pytest

from inductor_prof.analysis import row_dicts

NAN = float("nan")


def _frame() -> pd.DataFrame:
    # every kind of column the analysis tables hold: floats with NaN, ints, flags, text with a missing cell,
    # objects (lists, dicts, None, a numpy number left in an object cell)
    return pd.DataFrame({
        "name": ["a", "b", None], "total_ns": [1.5, NAN, 3.0], "calls": [1, 2, 3], "ok": [True, False, True],
        "calls_by_shape": [[{"shape": "x"}], [], None], "provenance": [{"block": "b"}, None, np.float64(2.5)],
    }, index=["k1", "k2", "k3"])


def _same(a, b) -> bool:
    """Equal, NaN equal to NaN, and of the same type (a numpy number is not Python's)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return type(a) is type(b)
    return type(a) is type(b) and a == b


def test_records_are_pandas_records():
    df = _frame()
    got, want = row_dicts.records(df), df.to_dict("records")
    assert _same(got, want)
    assert type(got[2]["provenance"]) is float   # the numpy number boxed, as to_dict does
    assert type(got[0]["calls"]) is int and type(got[0]["ok"]) is bool


def test_by_index_is_pandas_index_orient():
    df = _frame()
    assert _same(row_dicts.by_index(df), df.to_dict("index"))
    sums = pd.DataFrame({"name": ["x", "y", "x"], "calls": [1, 2, 3], "time_ns": [1.0, 2.0, 4.0]}).groupby("name").sum()
    assert _same(row_dicts.by_index(sums), sums.to_dict("index"))
    assert row_dicts.by_index(sums)["x"] == {"calls": 4, "time_ns": 5.0}


def test_edges():
    assert row_dicts.records(pd.DataFrame()) == [] and row_dicts.by_index(pd.DataFrame()) == {}
    no_columns = pd.DataFrame(index=[0, 1])
    assert row_dicts.records(no_columns) == no_columns.to_dict("records") == [{}, {}]
    repeated = pd.DataFrame({"a": [1, 2]}, index=["k", "k"])
    with pytest.raises(ValueError):   # a row would be lost: refused, as to_dict refuses
        row_dicts.by_index(repeated)
    with pytest.raises(ValueError):
        repeated.to_dict("index")
