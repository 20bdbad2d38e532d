"""The noise rule of `diff` (analysis/noise.py) on values written by hand: the spread, the verdict's edges and
unknown noise."""
import math

import numpy as np
import pandas as pd

from inductor_prof.analysis import noise


def test_spread_is_the_interquartile_range_over_the_median():
    # 1, 2, 3, 4: quartiles 1.75 and 3.25, median 2.5: 1.5 / 2.5 = 60 %
    assert noise.spread_pct([1, 2, 3, 4]) == 60.0
    # one step a row: no spread, a NaN per row (not per step)
    got = noise.spreads_pct(np.array([[1.0], [2.0], [3.0]]))
    assert got.shape == (3,) and np.isnan(got).all()
    # a median of 0 (or below): no spread, even where the quartiles differ
    assert np.isnan(noise.spreads_pct(np.array([[-1.0, 0.0, 1.0]]))[0])
    assert np.isnan(noise.spread_pct([0, 0, 0]))


def test_spreads_by_name():
    steps = pd.DataFrame([[1.0, 2.0, 3.0, 4.0], [5.0, 5.0, 5.0, 5.0]], index=["a", "b"])
    assert noise.spreads_by_name(steps) == {"a": 60.0, "b": 0.0}
    assert noise.spreads_by_name(None) == {} and noise.spreads_by_name(pd.DataFrame()) == {}


def test_verdict_edges_and_unknown_noise():
    assert noise.verdict(float("nan"), 1.0) == ""
    # unknown noise counts as none: any change is one
    assert noise.verdict(0.5, float("nan")) == "slower" and noise.verdict(-0.5, float("nan")) == "faster"
    assert noise.verdict(0.0, float("nan")) == "within noise"
    # at exactly the noise: within it, either way
    assert noise.verdict(2.0, 2.0) == "within noise" and noise.verdict(-2.0, 2.0) == "within noise"
    assert noise.verdict(2.1, 2.0) == "slower" and noise.verdict(-2.1, 2.0) == "faster"
    assert noise.beyond_noise(7.0, float("nan")) == 7.0 and noise.beyond_noise(7.0, 2.0) == 5.0


def test_change_and_noise_of():
    assert noise.change_pct(100.0, 110.0) == 10.0
    assert math.isnan(noise.change_pct(0.0, 1.0)) and math.isnan(noise.change_pct(float("nan"), 1.0))
    assert math.isnan(noise.change_pct(1.0, float("nan")))
    assert noise.noise_of(1.0, 3.0) == 3.0 and noise.noise_of(float("nan"), 2.0) == 2.0
    assert math.isnan(noise.noise_of(float("nan"), float("nan")))
    row = noise.change_row("x", 100.0, 90.0, 1.0, 2.0)
    assert row == {"what": "x", "a": 100.0, "b": 90.0, "delta": -10.0, "change_pct": -10.0, "noise_pct": 2.0,
                   "verdict": "faster"}
