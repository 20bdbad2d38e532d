"""The attention chart (report/charts.py) of a recorded run: its bars, colours and hover text. Data:
examples/runs/flux-h100/attention.csv (FLUX.1-dev on an H100)."""
import pandas as pd
import pytest
from inductor_prof.report import charts
from recorded import REPO
from bokeh.models import LabelSet


ROOT = REPO


@pytest.fixture
def att():
    return pd.read_csv(ROOT / "examples" / "runs" / "flux-h100" / "attention.csv")


def test_attention_chart(att):
    att.loc[att["backend"] == "sdpa_flash", "ok"] = False
    p = charts.attention_chart(att)
    (bars,) = p.renderers
    data = bars.data_source.data
    ran = att[att["available"]]       # the 11 that ran; the 4 external packages were not installed
    assert list(data["backend"]) == list(ran["backend"]) and len(ran) == 11
    assert list(data["x"]) == [("(1,24,4608,128)", b) for b in ran["backend"]]
    colour = dict(zip(data["backend"], data["colour"]))
    what = dict(zip(data["backend"], data["what"]))
    # the model's backend (sdpa_cudnn) orange, a backend that failed its check grey, the rest blue
    assert (colour["sdpa_cudnn"], what["sdpa_cudnn"]) == ("#d95f02", "the model's backend")
    assert (colour["sdpa_flash"], what["sdpa_flash"]) == ("#bbbbbb", "other backend, inaccurate")
    assert (colour["triton_fa2"], what["triton_fa2"]) == ("#1f77b4", "other backend")
    assert list(data["tflops"]) == list(ran["tflops"]) and list(data["ms"]) == list(ran["ms"])
    assert list(data["speedup_vs_model"]) == list(ran["speedup_vs_model"])
    assert (bars.glyph.x, bars.glyph.top, bars.glyph.fill_color) == ("x", "tflops", "colour")
    (hover,) = [t for t in p.tools if type(t).__name__ == "HoverTool"]
    assert hover.tooltips == [("backend", "@backend"), ("shape", "@shape"), ("TFLOP/s", "@tflops{0}"),
                              ("ms", "@ms{0.000}"), ("vs model", "@speedup_vs_model{0.00}x"),
                              ("rel err", "@rel_err{0.0e}"), ("", "@what")]
    assert p.yaxis[0].axis_label == "TFLOP/s" and p.y_range.start == 0


def test_attention_chart_without_rows(att):
    assert charts.attention_chart(None) == ("no attention benchmark in this run (attention.csv absent: "
                                            "`inductor-prof attention RUN` makes it)")
    # rows, none of which ran (a tflops without available does not count either)
    none_ran = att.assign(available=False)
    assert charts.attention_chart(none_ran) == "no attention backend could run in this run (see the reasons below)"


# The roofline names its largest points (by time) on the chart; the others only on hover.
def _kernels(times_ms):
    n = len(times_ms)
    return pd.DataFrame({"display": [f"kernel_{i}" for i in range(n)], "kind": ["pointwise"] * n,
                         "flops": [1e9] * n, "bytes": [1e8] * n, "tflops": [10.0 + i for i in range(n)],
                         "gbps": [500.0] * n, "intensity": [10.0] * n, "step_ms": times_ms,
                         "pct_of_peak": [1.0] * n, "bound": ["memory"] * n, "flops_key": ["flops16"] * n})


def test_the_five_largest_points_are_named():
    # times 3, 9, 1, 7, 5, 8, 2 ms: the five largest are kernel_1 (9), kernel_5 (8), kernel_3 (7), kernel_4 (5),
    # kernel_0 (3); kernel_6 (2) and kernel_2 (1) only on hover
    fig = charts.roofline_chart(_kernels([3, 9, 1, 7, 5, 8, 2]), {"tflops": {"flops16": 989.0}, "dram_gbps": 3350.0})
    labels = [r for r in fig.center if isinstance(r, LabelSet)]
    assert len(labels) == 1
    data = labels[0].source.data
    assert list(data["label"]) == ["kernel_1", "kernel_5", "kernel_3", "kernel_4", "kernel_0"]
    assert list(data["tflops"]) == [11.0, 15.0, 13.0, 14.0, 10.0]   # each at its own point (tflops 10 + index)
