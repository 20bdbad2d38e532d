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


# The roofline numbers its largest points (by time) on the chart, in the order of the table under it; the
# others only on hover. The numbers are placed so that no two overlap, nor a number and a point.
def _kernels(times_ms, intensity=None, tflops=None):
    n = len(times_ms)
    return pd.DataFrame({"name": [f"k{i}" for i in range(n)], "display": [f"kernel_{i}" for i in range(n)],
                         "kind": ["pointwise"] * n, "flops": [1e9] * n, "bytes": [1e8] * n,
                         "tflops": tflops or [10.0 + i for i in range(n)], "gbps": [500.0] * n,
                         "intensity": intensity or [10.0] * n, "step_ms": times_ms, "pct_of_peak": [1.0] * n,
                         "bound": ["memory"] * n, "flops_key": ["flops16"] * n})


PEAKS = {"tflops": {"flops16": 989.0}, "dram_gbps": 3350.0}


def _labels(fig):
    labels = [r for r in fig.center if isinstance(r, LabelSet)]
    assert len(labels) == 1
    return labels[0].source.data


def test_the_largest_points_are_numbered_by_time(monkeypatch):
    # times 3, 9, 1, 7, 5, 8, 2 ms, five numbered: 1 kernel_1 (9), 2 kernel_5 (8), 3 kernel_3 (7), 4 kernel_4 (5),
    # 5 kernel_0 (3); kernel_6 (2) and kernel_2 (1) only on hover
    monkeypatch.setattr(charts, "NUMBERED", 5)
    df = _kernels([3, 9, 1, 7, 5, 8, 2])
    data = _labels(charts.roofline_chart(df, PEAKS))
    assert list(data["label"]) == ["1", "2", "3", "4", "5"]
    assert list(data["tflops"]) == [11.0, 15.0, 13.0, 14.0, 10.0]   # each at its own point (tflops 10 + index)
    assert list(charts.numbered_points(df)["display"]) == ["kernel_1", "kernel_5", "kernel_3", "kernel_4", "kernel_0"]


def _boxes(df, data):
    """Each number's box in px (labels.CHAR_PX wide a digit), from its point and its offsets."""
    from inductor_prof.report.labels import CHAR_PX, LINE_PX, Box

    pts = charts.plotted(df)
    fig = charts.roofline_chart(df, PEAKS)
    xr, yr = (fig.x_range.start, fig.x_range.end), (fig.y_range.start, fig.y_range.end)
    xs = charts._px(data["intensity"], *xr, charts.FRAME[0])
    ys = charts._px(data["tflops"], *yr, charts.FRAME[1])
    out = []
    for x, y, dx, dy, t in zip(xs, ys, data["x_offset"], data["y_offset"], data["label"]):
        w = CHAR_PX * len(t) + 2
        out.append(Box(x + dx - w / 2, y + dy - LINE_PX / 2, x + dx + w / 2, y + dy + LINE_PX / 2))
    discs = list(zip(charts._px(pts["intensity"], *xr, charts.FRAME[0]),
                     charts._px(pts["tflops"], *yr, charts.FRAME[1]), pts["size"] / 2))
    return out, discs


def test_numbers_of_points_in_one_place_do_not_overlap():
    # 15 kernels at one point (the worst case: every number wants the same place): each number finds its own
    df = _kernels(list(range(15, 0, -1)), intensity=[10.0] * 15, tflops=[20.0] * 15)
    boxes, _ = _boxes(df, _labels(charts.roofline_chart(df, PEAKS)))
    assert len(boxes) == 15
    assert all(a.overlap(b) == 0 for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_flux_numbers_overlap_neither_each_other_nor_a_point():
    from inductor_prof.analysis import load_run_tables
    from inductor_prof.report.labels import _disc_overlap

    tables = load_run_tables(ROOT / "examples" / "runs" / "flux-h100")
    df = tables.kernels.sort_values("step_ms", ascending=False)
    fig = charts.roofline_chart(df, tables.summary["peaks"])
    data = [r for r in fig.center if isinstance(r, LabelSet)][0].source.data
    boxes, discs = _boxes(df, data)
    assert len(boxes) == charts.NUMBERED == 15
    assert all(a.overlap(b) == 0 for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert sum(_disc_overlap(b, *d) > 0 for b in boxes for d in discs) == 0
