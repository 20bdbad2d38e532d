"""`report RUN --html FILE`: one self-contained page (Bokeh's JavaScript inlined, no request to the network)
with the terminal report's sections in its order (a multi-rank run's ranks, the kernels with their calls by
shape, ncu and what it did not profile, attention, sizes, where to look next, the summary), the charts of
charts.py (a roofline whose largest points are numbered, a table naming them), `inspect`'s per-line sections
and each Inductor kernel's source view (html_source.py). Tables are sortable and filterable by kind; every cell
naming a column of the tables carries its value as --json writes it (data-k, data-v). Every piece of user text
goes through Jinja2's autoescape."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ..analysis import RunTables
from ..analysis.attention_training import FORWARD, TRAINING, of_pass
from ..attention.semantics.grad_layout import is_contiguous
from ..attention.semantics.qkv_layout import is_contiguous as qkv_contiguous
from ..analysis.binding import SHORT
from ..analysis.summary import Summary
from ..errors import UserError
from ..inductor.module_paths import listed
from ..rundir import write_text
from .. import runfiles
from ..units import MB, NS_PER_MS, NS_PER_US
from .format import attention_reused_line, ncu_reused_line, num, rate, reused_from, summary_rows, text
from .terminal import _ncu_flag as ncu_flag

HEADROOM_COLUMNS = ("headroom_ms_per_step", "sol_ms_per_step", "ceiling", "ceiling_why")


@dataclass(frozen=True)
class Col:
    """A table column: header, the DataFrame column (or a function of the row), its number format (None: text;
    a function of the number: format.rate), a scale applied before formatting, the column that must be > 0 for
    the value to be shown, the text shown on hover, whether a text column is left out when no row has a value,
    how a text cell is laid out (STYLES), and the window width in px below which the column is left out (as
    the terminal leaves its least important columns out at a narrow width; 0: always shown)."""
    header: str
    key: str | Callable[[pd.Series], Any]
    fmt: str | Callable[[float], str] | None = None
    scale: float = 1.0
    only_if: str | None = None
    hover: Callable[[pd.Series], str] | None = None
    optional: bool = False
    style: str = "token"
    narrow: int = 0
    off: bool = False    # not among the terminal's columns: hidden until chosen (the page's column chooser)


# how a text cell is laid out: "token" on one line, never broken (kind, bound, a shape); "name" cut in the middle
# where it does not fit, whole in the DOM (copy, find, title); "list" (comma-separated: ATen ops, modules) folded
# to its first item, the rest in a <details>; "prose" wrapped at spaces only
STYLES = ("token", "name", "list", "prose")
NARROW = (1400, 1100)   # the window widths the page's CSS leaves columns out below (a Col's `narrow`)
LEAST = 1700            # the kernel table's least column (the terminal's first left out): a wide window's only


def provenance_hover(row: pd.Series) -> str:
    """Every module and source line of the kernel, one a line (the table shows their common pattern)."""
    p = row.get("provenance")
    if not isinstance(p, dict):
        return ""
    return "\n".join([*(m or "(the compiled module itself)" for m in p.get("modules", [])),
                      *p.get("source_lines", []), *([f"({p['source']})"] if p.get("source") else [])])


# `narrow` follows the terminal's ranks (terminal.kernel_table): its least important columns go first
# the terminal's columns (terminal.kernel_table) shown, the others chosen on the page; `narrow` follows the
# terminal's ranks: its least important columns go first
KERNEL_COLUMNS = [
    Col("kernel", "display", style="name"), Col("kind", "kind", narrow=NARROW[1]),
    Col("category", "category", off=True), Col("fused ATen ops", "aten_ops", style="list", narrow=NARROW[0]),
    Col("calls", "calls", "{:.0f}", narrow=NARROW[0]),
    Col("total ms", "total_ns", "{:.2f}", 1 / NS_PER_MS, narrow=NARROW[0]),
    Col("ms/step", "step_ms", "{:.3f}", off=True), Col("avg µs", "avg_us", "{:.1f}"),
    Col("% GPU", "pct_of_gpu_time", "{:.1f}"), Col("TFLOP/s", "tflops", rate, only_if="flops"),
    Col("GB/s", "gbps", "{:.0f}", only_if="bytes"), Col("flop/B", "intensity", "{:.2f}", off=True),
    Col("bound", "bound", narrow=NARROW[1]), Col("% of peak", "pct_of_peak", "{:.1f}"),
    # from the ceilings analysis, shown when the run's tables carry them
    Col("ceiling", "ceiling", off=True), Col("SOL ms/step", "sol_ms_per_step", "{:.3f}", off=True),
    Col("headroom ms/step", "headroom_ms_per_step", "{:.3f}", off=True),
    Col("headroom to its unit ms/step", "reachable_headroom_ms_per_step", "{:.3f}", off=True),
    # the unit ncu found binding the kernel (analysis/binding.py), its evidence on hover; runs without ncu: none
    # in a word, as the terminal's column
    Col("ncu binds", lambda r: SHORT.get(text(r.get("binding_unit")), ""), optional=True,
        hover=lambda r: text(r.get("binding_evidence")), narrow=LEAST),
    Col("module", "module", hover=provenance_hover, optional=True, style="name", narrow=NARROW[0]),
]
# a library kernel's calls by shape (analysis/library_calls.shape_rows), in the expandable row under it
SHAPE_COLUMNS = [
    Col("shape", "shape"), Col("op", "op"), Col("calls/step", "calls_per_step", "{:.0f}"),
    Col("µs/call", "avg_us", "{:.1f}"), Col("ms/step", "step_ms", "{:.3f}"), Col("% GPU", "pct_of_gpu_time", "{:.1f}"),
    Col("TFLOP/s", "tflops", rate, only_if="flops_per_call"), Col("GB/s", "gbps", "{:.0f}", only_if="bytes_per_call"),
    Col("bound", "bound"), Col("% of peak", "pct_of_peak", "{:.1f}"),
    Col("best µs/call (replay)", "best_us", "{:.1f}"),
    # every module, the first in full and the others folded under it (listed(): from where they part from it)
    Col("modules", "modules", hover=lambda r: "\n".join(r["modules"] or []), style="list"),
]
NCU_COLUMNS = [
    Col("kernel", "display", style="name"), Col("kind", "kind", off=True),
    Col("ncu µs", "ncu_duration_ns", "{:.1f}", 1 / NS_PER_US), Col("read MB", "ncu_dram_read_bytes", "{:.1f}", 1 / MB),
    Col("read MB annotated", "read_bytes_per_call", "{:.1f}", 1 / MB, off=True),
    Col("read ratio", "dram_read_ratio", "{:.2f}"),
    Col("write MB", "ncu_dram_write_bytes", "{:.1f}", 1 / MB, narrow=NARROW[0]),
    Col("write MB annotated", "write_bytes_per_call", "{:.1f}", 1 / MB, off=True),
    Col("write ratio", "dram_write_ratio", "{:.2f}"),
    Col("total ratio", "dram_ratio", "{:.2f}", narrow=NARROW[1]), Col("flops ratio", "flops_ratio", "{:.2f}", off=True),
    Col("SOL mem %", "sol_memory_pct", "{:.1f}"), Col("SOL SM %", "sol_compute_pct", "{:.1f}"),
    Col("tensor %", "tensor_pipe_pct", "{:.1f}", narrow=NARROW[1]),
    Col("occup. %", "occupancy_pct", "{:.1f}", narrow=NARROW[1]), Col("regs", "registers", "{:.0f}", narrow=NARROW[1]),
    Col("replayed call", "ncu_shape", style="prose", narrow=NARROW[0]),
    Col("flag", ncu_flag, style="prose"),
    Col("reused from run", reused_from, optional=True),   # pipeline/ncu_reuse.py; none: this run measured all
]
# a run of several input sizes: its sizes, then each kernel at each size
SIZE_COLUMNS = [
    Col("size", "size"), Col("step ms (plain)", "plain_step_ms", "{:.2f}"),
    Col("step ms (Proton)", "proton_step_ms", "{:.2f}"), Col("GPU ms/step", "gpu_kernel_ms_per_step", "{:.2f}"),
    Col("TFLOP/s", "overall_tflops", rate), Col("kernels", "kernels", "{:.0f}"),
]
SIZE_KERNEL_COLUMNS = [KERNEL_COLUMNS[0], Col("size", "size"), *KERNEL_COLUMNS[1:]]
HEADROOM_LIST_COLUMNS = [
    Col("kernel", "display", style="name"), Col("kind", "kind", narrow=NARROW[1]), Col("ms/step", "step_ms", "{:.3f}"),
    Col("SOL ms/step", "sol_ms_per_step", "{:.3f}"), Col("headroom ms/step", "headroom_ms_per_step", "{:.3f}"),
    Col("headroom to its unit ms/step", "reachable_headroom_ms_per_step", "{:.3f}"), Col("ceiling", "ceiling"),
    Col("why this ceiling", "ceiling_why", style="prose"),
]
# the per-step headroom's "where to look next" list (analysis.headroom: kernels, launch gap, attention backends)
NEXT_COLUMNS = [
    Col("what", "what", style="name"), Col("headroom ms/step", "headroom_ms_per_step", "{:.3f}"),
    # the roofline's headroom beside the reachable one (its "measured against" says it too): a wide window's
    Col("roofline ms/step", "roofline_headroom_ms_per_step", "{:.3f}", narrow=LEAST), Col("do", "do", style="prose"),
    Col("measured against", "why", style="prose"), Col("category", "category"),
]
# `inductor-prof try`'s experiments (report/experiments.rows), under the advice they answer; the promise, the
# output check, the device and the ratio (before and after are beside) in the column chooser: it fits 1,400 px
EXPERIMENT_COLUMNS = [
    Col("experiment", "experiment"), Col("answers", "answers", style="prose"), Col("status", "status"),
    Col("before ms", "before_ms", "{:.3f}"), Col("after ms", "after_ms", "{:.3f}"), Col("ratio", "ratio", "{:.3f}x", off=True),
    Col("noise ± ms", "noise_ms", "{:.3f}"), Col("promised ms", "predicted_ms", "{:.2f}", off=True),
    Col("advice", "advice_verdict"), Col("output error", "output_error", "{:.2g}", off=True),
    Col("tolerance", "output_tolerance", "{:.2g}", off=True), Col("device", "device", off=True),
    Col("apply", "apply", style="prose"),
    Col("reason", "reason", style="prose", optional=True),
]
# a training run's items by phase (analysis.training_advice)
TRAINING_COLUMNS = [
    Col("phase", "phase"), Col("what", "what", style="prose"), Col("ms/step", "ms_per_step", "{:.3f}"),
    Col("headroom ms/step", "headroom_ms_per_step", "{:.3f}"), Col("do", "do", style="prose"),
    Col("measured against", "why", style="prose"),
]
def dout_said(layout: str) -> str:
    """An attention row's dout cell: its layout where not contiguous, else empty."""
    return "" if is_contiguous(layout) else layout


ATTENTION_COLUMNS = [
    Col("backend", "backend"), Col("origin", "origin"), Col("shape", "shape"), Col("ms", "ms", "{:.3f}"),
    Col("TFLOP/s", "tflops", rate), Col("% peak", "pct_of_peak", "{:.1f}"),
    Col("vs model", "speedup_vs_model", "{:.2f}x"), Col("rel err", "rel_err", "{:.1e}"),
    Col("ok", lambda r: ("yes" if r.get("ok") else "NO") if r.get("available") else "n/a"),
    Col("config / why not", lambda r: text(r.get("config") if r.get("available") else r.get("reason")),
        style="prose"),
    # q, k, v's layout in the model's call, where not contiguous
    Col("q, k, v", lambda r: "" if qkv_contiguous(text(r.get("qkv_layout"))) else text(r.get("qkv_layout")),
        style="prose", optional=True),
    # a training run's forward+backward rows: the model's upstream gradient layout, where not contiguous
    Col("dout", lambda r: dout_said(text(r.get("dout_layout"))), style="prose", optional=True),
]


def _present(df: pd.DataFrame, cols: list[Col]) -> list[Col]:
    def empty(c: Col) -> bool:   # an optional column no row has a value for
        if callable(c.key):
            return not any(c.key(r) for _, r in df.iterrows())
        return not df[c.key].astype(bool).any()
    return [c for c in cols if (callable(c.key) or c.key in df.columns) and not (c.optional and empty(c))]


TAIL = 14   # characters a cut name keeps of its end (an Inductor kernel's index, a cuBLAS kernel's layout)
LONG_PROSE, PROSE_SHOWN = 160, 110   # prose longer than this is folded after about this many characters


def _missing(v) -> bool:
    return v is None or (not isinstance(v, (list, tuple, dict)) and pd.isna(v))


def _cell(row: pd.Series, col: Col) -> dict:
    """A cell: "text" shown, "sort" a number to sort by (None: sort by the text), "title" shown on hover,
    "key" and "value": the table's column and its value as --json writes it (data-k, data-v: a test reads the
    page's numbers back), and the parts its style lays out ("head"/"tail" of a name, "items" of a list)."""
    v = col.key(row) if callable(col.key) else row.get(col.key)
    key = col.key if isinstance(col.key, str) else ""
    if col.fmt is not None:
        raw = None if _missing(v) else float(v)
        shown: Any = None if raw is None or (col.only_if and not row.get(col.only_if, 0) > 0) else raw * col.scale
        return {"text": col.fmt(shown) if callable(col.fmt) else num(shown, col.fmt), "sort": shown, "style": "num",
                "key": key, "value": "" if raw is None else repr(raw)}
    title = col.hover(row) if col.hover else ""
    if col.style == "list":
        items = [text(i) for i in v] if isinstance(v, (list, tuple)) else \
            [i for i in text(v).split(", ") if i] if not _missing(v) else []
        joined = listed(items) if col.key == "modules" else ", ".join(items)
        if len(items) > 1:
            return {"text": joined, "sort": None, "style": "list", "title": title or "\n".join(items),
                    "items": items, "key": key, "value": joined}
        v = joined
    t = text(v) if not _missing(v) else ""
    cell = {"text": t, "sort": None, "style": col.style if col.style != "list" else "token", "title": title,
            "key": key, "value": t}
    if col.style == "name":
        cut = max(len(t) - TAIL, 0) if len(t) > 2 * TAIL else 0
        while 0 < cut < len(t) and (t[cut - 1].isspace() or t[cut].isspace()):
            cut += 1    # a space at the cut would collapse at the inline-block's edge: the text read would lose it
        cut = cut if cut < len(t) else 0
        cell.update(head=t[:cut] if cut else t, tail=t[cut:] if cut else "", title=title or t)
    elif col.style == "prose" and len(t) > LONG_PROSE:
        # a long reason (an exception's message) folded after its first words, the rest on a click
        at = t.rfind(" ", 0, PROSE_SHOWN)
        at = at if at > 0 else PROSE_SHOWN
        cell.update(style="longprose", head=t[:at], rest=t[at:])
    return cell


def table(df: pd.DataFrame, cols: list[Col]) -> dict:
    """Headers, the columns' layout (numeric or the text style, the width below which each is left out), and per
    row its kind (for the filter), kernel name (for the links) and cells."""
    cols = _present(df, cols)
    return {"headers": [c.header for c in cols], "numeric": [c.fmt is not None for c in cols],
            "narrow": [c.narrow for c in cols], "off": [c.off for c in cols],
            "rows": [{"kind": text(r.get("kind")), "name": text(r.get("name")),
                      "cells": [_cell(r, c) for c in cols]} for _, r in df.iterrows()]}


def kernel_rows(df: pd.DataFrame) -> dict:
    """The kernel table (table()), each library kernel's row with its calls by shape as a table of its own."""
    t = table(df, KERNEL_COLUMNS)
    for row, shapes in zip(t["rows"], df.get("calls_by_shape", [None] * len(df))):
        row["shapes"] = table(pd.DataFrame(shapes), SHAPE_COLUMNS) if isinstance(shapes, list) and shapes else None
    return t


RANK_COLUMNS = [
    Col("rank", "rank", "{:.0f}"), Col("exit", "status"), Col("step ms", "plain_step_ms", "{:.3f}"),
    Col("under Proton ms", "proton_step_ms", "{:.3f}"), Col("compute ms", "compute_ms", "{:.3f}"),
    Col("transfer ms", "transfer_ms", "{:.3f}"), Col("wait ms", "wait_ms", "{:.3f}"),
    Col("unsplit comm ms", "unsplit_ms", "{:.3f}"), Col("idle ms", "idle_ms", "{:.3f}"),
    Col("span ms", "span_ms", "{:.3f}"), Col("NCCL kernel ms", "comm_ms", "{:.3f}"),
    Col("hidden %", "hidden_pct", "{:.1f}"),
]
COLLECTIVE_COLUMNS = [
    Col("collective", "collective"), Col("dtype", "dtype"), Col("message B", "bytes", "{:.0f}"),
    Col("ranks", "group", "{:.0f}"), Col("calls", "calls", "{:.0f}"), Col("ms/step", "step_ms", "{:.3f}"),
    Col("wait ms", "wait_ms", "{:.3f}"), Col("µs a call", "avg_us", "{:.1f}"),
    Col("algbw GB/s", "algbw_gbps", "{:.1f}"), Col("busbw GB/s", "busbw_gbps", "{:.1f}"),
    Col("% of link", "pct_of_link", "{:.1f}"), Col("busbw over", "timed_on"),
]


def ranks_view(view, shown: int) -> dict:
    """A run of several ranks (analysis.ranks.RanksView): each rank's step cut into compute, transfer, wait and
    idle, the spread and straggler lines, and rank `shown`'s collectives (report.ranks writes the lines)."""
    from ..analysis.link_reference import caption
    from .ranks import spread_line, straggler_line

    coll = view.collectives.get(shown)
    return {"rows": table(pd.DataFrame(view.rows).astype(object), RANK_COLUMNS), "shown": shown,
            "lines": [spread_line(view.spread), *([straggler_line(view.straggler)] if view.straggler else [])],
            "collectives": table(coll, COLLECTIVE_COLUMNS) if coll is not None and len(coll) else None,
            "link_caption": caption(view.link.get(shown))}


def per_step_view(h: dict) -> dict:
    """summary["headroom"] (analysis.headroom) as labelled rows and its "where to look next" table."""
    rows = [("GPU busy, ms/step", num(h.get("gpu_busy_ms_per_step"), "{:.3f}")),
            ("speed of light, ms/step", num(h.get("sol_step_ms"), "{:.3f}")),
            ("speed of light from reachable limits (each kernel's binding unit), ms/step",
             num(h.get("reachable_sol_step_ms"), "{:.3f}")),
            ("plain step, ms", num(h.get("step_ms_plain"), "{:.3f}")),
            ("launch overhead and idle, ms/step", num(h.get("launch_gap_ms_per_step"), "{:.3f}")
             + (f" ({h['launch_gap_note']})" if h.get("launch_gap_note") else "")),
            ("kernels without a speed of light (counted at their time)", num(h.get("kernels_without_sol"), "{:d}"))]
    rows += [(f"headroom in {cat}, ms/step", num(ms, "{:.3f}")) for cat, ms in (h.get("by_category") or {}).items()]
    nxt = h.get("next") or []
    return {"rows": rows, "next": table(pd.DataFrame(nxt), NEXT_COLUMNS) if nxt else None}


def headroom_view(df: pd.DataFrame, summary: Summary, top: int = 25) -> dict:
    """The ranked "where to look next" list and summary["headroom"], each only where the tables have it."""
    have = [c for c in HEADROOM_COLUMNS if c in df.columns]
    ranked = None
    if "headroom_ms_per_step" in df.columns:
        ranked = table(df[df["headroom_ms_per_step"] > 0].sort_values("headroom_ms_per_step", ascending=False)
                       .head(top), HEADROOM_LIST_COLUMNS)
    training = summary.get("training")
    return {"columns": have, "missing": [c for c in HEADROOM_COLUMNS if c not in df.columns],
            "ranked": ranked, "summary": per_step_view(summary["headroom"]) if summary.get("headroom") else None,
            "training": table(pd.DataFrame(training), TRAINING_COLUMNS) if training else None}


SHOWN_ROWS = 25   # source lines (or SASS regions) of an inspected kernel on the page


def inspect_views(tables: RunTables) -> dict[str, dict]:
    """Kernel name -> `inspect`'s view (analysis/inspect.py), for each kernel of the table the source pass
    recorded; their counters read once for the ranked sections and the source views."""
    from ..analysis.inspect import inspect_kernel, inspected

    names = inspected(tables)
    if not names:
        return {}
    status = runfiles.source_status(tables.run, "the report's per-line sections need it")
    stems = [s for s, e in status.items() if e.get("name") in names and e.get("status") == "ok"]
    # read once with the tables (the advice's causes) where they were; warnings printed after the page is written
    counters = tables.source_counters if set(stems) <= set(tables.source_counters) else \
        runfiles.source_counters(tables.run, stems, status, tables.warnings)
    return {name: inspect_kernel(tables, name, counters) for name in names}


def inspect_sections(views: dict[str, dict]) -> list[dict]:
    """A section per kernel with source counters (`inspect`'s view): its facts and its top rows."""
    from .inspect import excess_note, fact_rows, stalls_text

    out = []
    for i, (name, view) in enumerate(views.items()):
        reports = []
        for sc in view["source_counters"]:
            if "error" in sc:
                reports.append({"report": sc["report"], "error": sc["error"]})
                continue
            rows = [{**r, "top_stalls": stalls_text(r["stalls"], r["samples"], 60),
                     "l2_mb": r["l2_bytes"] / MB if r["l2_bytes"] else None} for r in sc["rows"][:SHOWN_ROWS]]
            reports.append({**sc, "rows": rows, "shown": len(rows), "total": len(sc["rows"]),
                            "warps": ", ".join(f"{st['reason']} {st['pct']:.1f}%" for st in sc["stalls"][:5]),
                            "note": (excess_note(sc) or "").removeprefix("* ")})
        out.append({"id": f"inspect-{i}", "name": name, "display": view["display"], "facts": fact_rows(view),
                    "reports": reports, "source": None})
    return out


def _charts(tables: RunTables, df: pd.DataFrame) -> tuple[dict, dict, str, str]:
    """{name: div}, {name: why not drawn}, Bokeh's inline JavaScript, and the script embedding the plots."""
    try:
        from bokeh.embed import components
        from bokeh.resources import Resources

        from . import charts
    except ImportError as e:
        raise UserError(f"report --html needs Bokeh ({e}); install it with: pip install 'inductor-prof[html]'") from e
    made = {"category": charts.category_chart(tables.summary),
            "roofline": charts.roofline_chart(df, tables.summary["peaks"]),
            "attention": charts.attention_chart(of_pass(tables.attention, FORWARD))}
    figures: dict[str, Any] = {k: v for k, v in made.items() if not isinstance(v, str)}
    missing = {k: v for k, v in made.items() if isinstance(v, str)}
    script, divs = components(figures) if figures else ("", {})
    # BokehJS itself, inlined (its core only: the page uses no widgets, tables, WebGL or MathJax)
    bokeh_js = Resources(mode="inline", components=["bokeh"], log_level="warn").render_js()
    return divs, missing, bokeh_js, script


def sizes_view(tables: RunTables, df: pd.DataFrame) -> dict | None:
    """The per-size section: the sizes' table, and the kernels at each size in the kernel table's order."""
    if tables.by_size is None:
        return None
    kernel_at = {name: i for i, name in enumerate(df["name"])}
    size_at = {s["size"]: i for i, s in enumerate(tables.summary["sizes"])}
    b = tables.by_size
    by_size = b.assign(_k=b["name"].map(kernel_at), _s=b["size"].map(size_at)).sort_values(["_k", "_s"])
    return {"sizes": table(pd.DataFrame(tables.summary["sizes"]), SIZE_COLUMNS),
            "kernels": table(by_size, SIZE_KERNEL_COLUMNS)}


def _targets(df: pd.DataFrame, sources: list[dict], inspected: list[dict]) -> dict[str, str]:
    """Kernel name -> where its name links: its source view (an Inductor kernel), else its ranked per-line
    section (a library kernel the source pass recorded)."""
    out = {k["name"]: k["id"] for k in inspected}
    out.update({k["name"]: k["id"] for k in sources})
    return out


def _link_rows(t: dict, ids: dict[str, str] | None = None, names: dict[str, str] | None = None) -> dict:
    """A table's rows given their kernel row's id (`ids`: name -> id) and, where a row names a kernel by its
    display name in its first cell (the advice), that kernel's name (`names`: display -> name)."""
    for r in t["rows"]:
        if names is not None:
            r["name"] = names.get(r["cells"][0]["text"], "")
            if not r["name"]:   # "launch overhead and idle", "waiting for rank 1 ...": prose, wrapped, never cut
                r["cells"][0].update(style="prose", head="", tail="")
        if ids is not None:
            r["id"] = ids.get(r["name"])
    return t


def _experiments(doc: dict | None) -> dict | None:
    from .experiments import ROW_COLUMNS, rows

    if not doc or not doc.get("experiments"):
        return None
    return table(pd.DataFrame(rows(doc), columns=ROW_COLUMNS).astype(object), EXPERIMENT_COLUMNS)


def render(tables: RunTables, df: pd.DataFrame, ranks: dict | None = None) -> str:
    """The page for these tables (df: the kernel table, all rows, in the order to show); ranks: ranks_view of a
    run of several ranks."""
    from jinja2 import Environment, PackageLoader, select_autoescape
    from markupsafe import Markup

    from . import charts
    from .html_sections import ncu_missed, roofline_legend
    from .html_source import kernel_sources

    divs, missing, bokeh_js, plot_script = _charts(tables, df)
    env = Environment(loader=PackageLoader("inductor_prof.report", "templates"), autoescape=select_autoescape(
        ["html", "j2"]), trim_blocks=True, lstrip_blocks=True)
    ncu_rows = df[df["ncu_duration_ns"].notna()] if "ncu_duration_ns" in df.columns else df.iloc[0:0]
    att = tables.attention
    att_fwd, att_train = of_pass(att, FORWARD), of_pass(att, TRAINING)   # a training run has both
    row_ids = {name: f"kernel-{i}" for i, name in enumerate(df.get("name", []))}
    views = inspect_views(tables)
    inspected = inspect_sections(views)
    sources = kernel_sources(tables.run, df, views, row_ids, {k["name"]: k["id"] for k in inspected})
    for k in inspected:
        k["source"] = next((s["id"] for s in sources if s["name"] == k["name"] and s["heat"]), None)
    headroom = headroom_view(df, tables.summary)
    if headroom["summary"] and headroom["summary"]["next"]:
        _link_rows(headroom["summary"]["next"], names=dict(zip(df["display"], df["name"])) if len(df) else {})
    missed, no_row = ncu_missed(df)
    return env.get_template("report.html.j2").render(
        run=str(tables.run.root), summary=summary_rows(tables.summary), plot=lambda k: Markup(divs[k]),
        has_plot=divs.__contains__, missing=missing, bokeh_js=Markup(bokeh_js), plot_script=Markup(plot_script),
        ranks=ranks,
        kinds=sorted({text(k) for k in df.get("kind", [])}), kernels=_link_rows(kernel_rows(df), row_ids),
        roofline=roofline_legend(charts.numbered_points(df), row_ids) if "roofline" in divs else [],
        ncu=table(ncu_rows, NCU_COLUMNS) if len(ncu_rows) else None, ncu_missed=missed, ncu_no_row=no_row,
        ncu_reused=ncu_reused_line(df), attention_reused=attention_reused_line(att),
        attention=table(att_fwd, ATTENTION_COLUMNS) if att_fwd is not None and len(att_fwd) else None,
        attention_training=table(att_train, ATTENTION_COLUMNS) if att_train is not None and len(att_train) else None,
        model_backend=text(att["model_backend"].iloc[0]) if att is not None and len(att) else "",
        headroom=headroom, sizes=sizes_view(tables, df), sources=sources,
        experiments=_experiments(tables.experiments),
        targets=_targets(df, sources, inspected), inspected=inspected, fmt=num,
        has_kernels_json=tables.run.kernels_json.exists(), has_ncu_csv=tables.run.ncu_csv.exists())


def write(tables: RunTables, df: pd.DataFrame, path, ranks: dict | None = None) -> None:
    path = Path(path)
    page = render(tables, df, ranks)
    try:
        write_text(path, page)
    except OSError as e:
        # name the folder when it is what failed (a file where a folder should be, one not writable)
        where = f" ({e.filename})" if e.filename and Path(e.filename) in path.parents else ""
        raise UserError(f"cannot write the HTML report to {path}: {e.strerror or e}{where}") from e
