"""The attention chart (report/charts.py) of a recorded run: its bars, colours and hover text. Data:
examples/runs/flux-h100/attention.csv (FLUX.1-dev on an H100)."""
import pandas as pd
import pytest
from inductor_prof.report import charts
from recorded import REPO


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
