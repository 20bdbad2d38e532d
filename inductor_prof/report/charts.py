"""The HTML report's charts, drawn by Bokeh (its JavaScript is inlined by html.py): time by category, the
roofline, attention backends. Each function takes the analysed tables and returns a Bokeh model, or a
sentence saying why the chart cannot be drawn from this run."""
from __future__ import annotations

import math

import pandas as pd
from bokeh.models import ColumnDataSource, FactorRange, HoverTool
from bokeh.models.annotations import LabelSet
from bokeh.palettes import Category10_10
from bokeh.plotting import figure
from bokeh.transform import factor_cmap

from ..analysis.summary import Summary
from ..cost import ridge
from ..peaks import Peaks
from .labels import place

WIDTH = 1100
# Roof lines: one dark colour per flops width (none of the kinds' Category10 colours); the spec roof dashed,
# the roof this report judges against solid.
ROOF_COLOURS = {"flops8": "#4a1486", "flops16": "#8b0000", "flops32": "#00441b", "flops64": "#7f2704"}
WIDTH_NAMES = {"flops8": "8-bit", "flops16": "bf16/fp16", "flops32": "fp32", "flops64": "fp64"}
# the model's own attention backend in orange: a colour no roof and no other bar uses
MODEL_BACKEND, OTHER_BACKEND, INACCURATE = "#d95f02", "#1f77b4", "#bbbbbb"
CATEGORY_BAR = "#4c72b0"
NUMBERED = 15   # the roofline numbers its 15 largest points by time; the table under it names them
FRAME = (700, 520)   # the roofline's plotting area, px (the labels are placed in it)


def _figure(**kw) -> figure:
    if "width" not in kw:   # as wide as the window up to WIDTH: a laptop's window holds it
        kw.update(sizing_mode="stretch_width", max_width=WIDTH)
    p = figure( toolbar_location="right", tools="pan,wheel_zoom,box_zoom,reset,save", **kw)
    p.toolbar.logo = None     # the logo is a link to a web site: the page makes no request, even on a click
    return p


def category_chart(summary: Summary) -> figure | str:
    """GPU kernel time per step by category (horizontal bars)."""
    cats = summary.get("by_category") or {}
    if not cats:
        return "no kernels in this run"
    names = list(cats)[::-1]
    src = ColumnDataSource({"category": names, "ms": [cats[c]["step_ms"] for c in names],
                            "pct": [cats[c]["pct"] for c in names], "kernels": [cats[c]["kernels"] for c in names]})
    p = _figure(height=60 + 36 * len(names), y_range=names, x_axis_label="GPU kernel time per step (ms)")
    p.hbar(y="category", right="ms", height=0.7, source=src, color=CATEGORY_BAR)
    p.add_tools(HoverTool(tooltips=[("category", "@category"), ("ms per step", "@ms{0.00}"),
                                    ("% of GPU time", "@pct{0.0}"), ("kernels", "@kernels")]))
    p.x_range.start = 0  # type: ignore[attr-defined]  # a DataRange1d: bokeh types it as the Range base
    return p


L2_ROOF_COLOUR = "#7f7f7f"


def _roof(p: figure, x_lo: float, x_hi: float, tflops: float, gbps: float, label: str, colour: str,
          dash: str) -> None:
    """min(peak TFLOP/s, intensity x bandwidth): the bandwidth roof reaches the peak at the ridge."""
    at_ridge = ridge(tflops, gbps)
    xs = [x_lo, min(max(at_ridge, x_lo), x_hi), x_hi]
    p.line(xs, [min(tflops, tflops * x / at_ridge) for x in xs], color=colour, line_dash=dash, line_width=2,
           legend_label=label)


def plotted(df: pd.DataFrame) -> pd.DataFrame:
    """The kernels the roofline draws (flops, bytes and a rate), the largest by time numbered 1..NUMBERED in
    column `n` (0: not numbered), with their diameter in px (`size`: area ~ time)."""
    pts = df[(df["flops"] > 0) & (df["bytes"] > 0) & (df["tflops"] > 0)].copy() if len(df) else df.iloc[0:0]
    if not len(pts):
        return pts.assign(n=[], size=[])
    pts["size"] = 6 + 40 * (pts["step_ms"] / pts["step_ms"].max()) ** 0.5
    pts["n"] = 0
    top = pts.sort_values("step_ms", ascending=False, kind="stable").index[:NUMBERED]
    pts.loc[top, "n"] = range(1, len(top) + 1)
    return pts


def numbered_points(df: pd.DataFrame) -> pd.DataFrame:
    """The roofline's numbered points, in their numbers' order."""
    pts = plotted(df)
    return pts[pts["n"] > 0].sort_values("n")


def _decades(lo: float, hi: float) -> tuple[float, float]:
    return 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))


def _px(v, lo: float, hi: float, size: float):
    """A log axis's value in px from the frame's edge."""
    return (pd.Series(v).map(math.log10) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * size


def number_labels(pts: pd.DataFrame, x_range: tuple[float, float], y_range: tuple[float, float]) -> pd.DataFrame:
    """Each numbered point's label: its number at a place beside it that overlaps no other label and no point
    (labels.place), as offsets in px from the point (x_offset, y_offset: what Bokeh's LabelSet takes)."""
    order = pd.concat([pts[pts["n"] > 0].sort_values("n"), pts[pts["n"] == 0]])
    xs, ys = _px(order["intensity"], *x_range, FRAME[0]), _px(order["tflops"], *y_range, FRAME[1])
    discs = list(zip(xs, ys, order["size"] / 2))
    numbered = order[order["n"] > 0]
    boxes = place(discs, [str(n) for n in numbered["n"]], FRAME)
    return pd.DataFrame({"intensity": numbered["intensity"].tolist(), "tflops": numbered["tflops"].tolist(),
                         "label": [str(n) for n in numbered["n"]],
                         "x_offset": [(b.x0 + b.x1) / 2 - x for b, x in zip(boxes, xs)],
                         "y_offset": [(b.y0 + b.y1) / 2 - y for b, y in zip(boxes, ys)]})


def roofline_chart(df: pd.DataFrame, peaks: Peaks) -> figure | str:
    """Each kernel with flops and bytes at (flop/B, TFLOP/s), its area proportional to its time, the largest
    numbered (numbered_points: the page's table under the chart names them); the roofs of each flops width the
    plotted kernels use: spec (dashed) and the ones this run is judged against (solid)."""
    if not len(df):
        return "no kernels in this run"
    pts = plotted(df)
    if not len(pts):
        return "no kernel has both flops and bytes (annotation or library-op table missing)"
    kinds = sorted(pts["kind"].astype(str).unique())
    pts["kind"] = pts["kind"].astype(str)
    widths = [k for k in ROOF_COLOURS if (pts["flops_key"] == k).any()]
    spec = peaks.get("spec") or {}
    ridges = [ridge(peaks["tflops"][k], peaks["dram_gbps"]) for k in widths
              if peaks["tflops"].get(k) and peaks.get("dram_gbps")]
    x_range = _decades(pts["intensity"].min() / 2, max([pts["intensity"].max() * 2, *(4 * r for r in ridges)]))
    # a fixed y range (the decades around the points and the roofs): the labels are placed in px against it
    roofs = [v for k in widths for v in ((peaks.get("tflops") or {}).get(k), spec.get(k)) if v]
    y_range = _decades(pts["tflops"].min() / 2, max([pts["tflops"].max() * 1.5, *(1.2 * r for r in roofs)]))
    p = _figure(width=None, frame_width=FRAME[0], frame_height=FRAME[1], x_axis_type="log", y_axis_type="log",
                x_range=x_range, y_range=y_range, x_axis_label="arithmetic intensity (flop/B)",
                y_axis_label="TFLOP/s")
    x_lo, x_hi = x_range
    tflops, dram, l2 = peaks.get("tflops") or {}, peaks.get("dram_gbps"), peaks.get("l2_gbps")
    src_of = peaks.get("source") or {}
    for k in widths:
        spec_k, spec_dram, roof = spec.get(k), spec.get("dram_gbps"), tflops.get(k)
        if spec_k and spec_dram:
            _roof(p, x_lo, x_hi, spec_k, spec_dram,
                  f"{WIDTH_NAMES[k]} spec: {spec_k:.0f} TFLOP/s, {spec_dram:.0f} GB/s", ROOF_COLOURS[k], "dashed")
        if roof and dram:
            _roof(p, x_lo, x_hi, roof, dram,
                  f"{WIDTH_NAMES[k]} judged against: {roof:.0f} TFLOP/s ({src_of.get(k)}), "
                  f"{dram:.0f} GB/s ({src_of.get('dram_gbps')})", ROOF_COLOURS[k], "solid")
    first = tflops.get(widths[0]) if widths else None
    if l2 and first:
        # the memory roof of kernels whose inputs were still in L2 (measured in the run, or reached by an op)
        _roof(p, x_lo, x_hi, first, l2, f"L2: {l2:.0f} GB/s ({src_of.get('l2_gbps', 'measured')})", L2_ROOF_COLOUR,
              "dotted")
    points = ColumnDataSource(pts[["display", "kind", "intensity", "tflops", "gbps", "step_ms", "pct_of_peak",
                                   "bound", "size", "n"]])
    dots = p.scatter(x="intensity", y="tflops", size="size", source=points, fill_alpha=0.6, line_color="black",
                     color=factor_cmap("kind", Category10_10, kinds), legend_group="kind")
    p.add_tools(HoverTool(renderers=[dots], tooltips=[
        ("#", "@n"), ("kernel", "@display"), ("kind", "@kind"), ("flop/B", "@intensity{0.00}"),
        ("TFLOP/s", "@tflops{0.0}"), ("GB/s", "@gbps{0}"), ("ms per step", "@step_ms{0.000}"),
        ("% of peak", "@pct_of_peak{0.0}"), ("bound", "@bound")]))
    # the numbers: readable in print, where no hover is (the table under the chart names each)
    p.add_layout(LabelSet(x="intensity", y="tflops", text="label", x_offset="x_offset", y_offset="y_offset",
                          text_font_size="11px", text_font_style="bold", text_align="center",
                          text_baseline="middle", source=ColumnDataSource(number_labels(pts, x_range, y_range))))
    p.legend.click_policy = "hide"
    p.add_layout(p.legend[0], "below")   # under the plot, not over the points, nor widening the page
    return p


def attention_chart(att: pd.DataFrame | None) -> figure | str:
    """TFLOP/s of each backend that ran at each captured shape; the model's own backend in orange."""
    if att is None or not len(att):
        return "no attention benchmark in this run (attention.csv absent: `inductor-prof attention RUN` makes it)"
    ran = att[att["available"].astype(bool) & att["tflops"].notna()].copy()
    if not len(ran):
        return "no attention backend could run in this run (see the reasons below)"
    ran["shape"] = ran["shape"].astype(str)
    ran["backend"] = ran["backend"].astype(str)
    ran["x"] = list(zip(ran["shape"], ran["backend"]))
    is_model = ran["backend"] == ran["model_backend"].astype(str)
    ok = ran["ok"].astype(bool)
    ran["colour"] = [MODEL_BACKEND if m else (OTHER_BACKEND if o else INACCURATE) for m, o in zip(is_model, ok)]
    ran["what"] = ["the model's backend" if m else ("other backend" if o else "other backend, inaccurate")
                   for m, o in zip(is_model, ok)]
    keep = ["x", "backend", "shape", "tflops", "ms", "speedup_vs_model", "rel_err", "colour", "what"]
    src = ColumnDataSource(ran[keep])
    p = _figure(height=420, x_range=FactorRange(*ran["x"]), y_axis_label="TFLOP/s")
    p.vbar(x="x", top="tflops", width=0.8, source=src, color="colour", legend_group="what")
    p.add_tools(HoverTool(tooltips=[("backend", "@backend"), ("shape", "@shape"), ("TFLOP/s", "@tflops{0}"),
                                    ("ms", "@ms{0.000}"), ("vs model", "@speedup_vs_model{0.00}x"),
                                    ("rel err", "@rel_err{0.0e}"), ("", "@what")]))
    p.xaxis.major_label_orientation = 0.9
    p.y_range.start = 0  # type: ignore[attr-defined]  # a DataRange1d: bokeh types it as the Range base
    p.add_layout(p.legend[0], "right")   # beside the plot: inside, it hid the tallest bars
    return p
