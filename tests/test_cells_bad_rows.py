"""cells.bad_rows finds each bad number of a column however the column is held: numpy whole numbers, floats (with
and without NaN), or text. Each row below is bad for one reason only; the reasons follow cells.why_bad."""
import math

import numpy as np
import pandas as pd

from inductor_prof.runfiles import cells

NAN, INF = float("nan"), math.inf


def bad(values, nonneg=True, needed=False) -> dict[int, str]:
    return cells.bad_rows(pd.DataFrame({"t": values}), ["t"], ["t"] if nonneg else [], ["t"] if needed else [])


def test_intact_columns_have_no_bad_rows():
    assert bad(np.arange(250_000, dtype=np.int64)) == {}
    assert bad(np.linspace(0.0, 1e9, 1000)) == {}
    assert bad([1.0, NAN, 2.0]) == {}            # an empty cell where none is needed
    assert bad([-1, -2], nonneg=False) == {}     # a signed column
    assert bad(np.array([], dtype=float)) == {}


def test_each_bad_number_is_found():
    assert bad(np.array([3, -1, 2], dtype=np.int64)) == {1: "'t' is -1 (negative)"}
    assert bad([0.5, -0.5]) == {1: "'t' is -0.5 (negative)"}
    assert bad([1.0, INF]) == {1: "'t' is inf (infinite)"}
    assert bad([-INF, 1.0], nonneg=False) == {0: "'t' is -inf (infinite)"}
    assert bad([NAN, INF, 2.0]) == {1: "'t' is inf (infinite)"}         # an infinity beside an empty cell
    assert bad([NAN, -3.0, 2.0]) == {1: "'t' is -3.0 (negative)"}
    assert bad([1.0, NAN], needed=True) == {1: "'t' is nan (missing)"}
    assert bad(["1", "x"]) == {1: "'t' is 'x' (not a number)"}
