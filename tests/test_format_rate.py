"""TFLOP/s in the attention table: whole numbers from 10 up (an H100's 632.4 -> 632), two significant digits
below (a CPU's 0.0234 -> 0.023, not 0)."""
from inductor_prof.report.format import rate


def test_rate_by_hand():
    assert rate(632.4) == "632"
    assert rate(10.0) == "10"          # the boundary: whole
    assert rate(9.96) == "10"          # two significant digits of 9.96 round up to 10
    assert rate(5.349) == "5.3"
    assert rate(0.0234) == "0.023"
    assert rate(0.0) == "0"
    assert rate(float("nan")) == "-" and rate(None) == "-"
