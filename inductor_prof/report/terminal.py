"""The rich terminal report: a per-kernel table and a summary, fitted to the console's width (layout.py)."""
from __future__ import annotations

import math
import os
import sys

import pandas as pd
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..analysis import RunTables
from ..analysis.attention_layout import qkv_lines
from ..analysis.attention_training import dout_lines
from ..analysis.binding import SHORT
from ..analysis.library_calls import top_shapes
from ..analysis.summary import Summary
from ..units import MB, NS_PER_MS, NS_PER_US
from .format import attention_reused_line, ncu_reused_line, num as _num, off_flag, rate, reused_from, short as _short, summary_rows, \
    text as _text
from .layout import Col, fit, fit_names

PIPE_WIDTH = 200   # output to a file or a pipe with no COLUMNS: every column
NAME_WIDTH = (32, 64)   # kernel names: fewest and most cells


# each library kernel's calls by shape, under its row: from this width (at 80 they would crowd out the kernels),
# for kernels of at least this % of GPU time that ran two or more shapes, the first few by time and the rest in
# one line (every shape: --json, --csv, --html)
SHAPE_ROWS_WIDTH = 100
SHAPE_ROWS_MIN_PCT = 1.0
SHAPE_ROWS_TOP = 3
MODULE_LINE = 2 * NAME_WIDTH[0] - 2   # a shape's modules: two lines of the narrowest kernel column at most


def module_text(text: str) -> str:
    """A shape's modules within MODULE_LINE characters (all of them: --json, --csv)."""
    return text if len(text) <= MODULE_LINE else text[:MODULE_LINE - 10] + "… (--json)"


def shape_lines(r) -> list[dict]:
    """The sub-rows under kernel row `r`: its shapes (library_calls.top_shapes), each with its `label`, and a
    line for the rest; [] for a kernel under SHAPE_ROWS_MIN_PCT or of fewer than two shapes."""
    shapes = r.get("calls_by_shape")
    if not isinstance(shapes, list) or len(shapes) < 2 or not r["pct_of_gpu_time"] >= SHAPE_ROWS_MIN_PCT:
        return []
    shown, rest = top_shapes(shapes, SHAPE_ROWS_TOP)
    # the modules on a line of their own under the shape: the kernel column is the one wide enough for them
    # (and the op only where it is not the kernel's own: most of a GEMM kernel's calls are of one op)
    lines = [{**s, "label": f"↳ {s['shape']} {s['calls_per_step']:.0f}/step" +
              (f"\n  {module_text(s['module'])}" if s["module"] not in ("", "-") else ""),
              "other_op": s["op"] if s["op"] != r["aten_ops"] else ""} for s in shown]
    if rest:
        lines.append({"label": f"↳ {rest['shapes']} more shapes, {rest['step_ms']:.2f} ms/step",
                      "pct_of_gpu_time": rest["pct_of_gpu_time"]})
    return lines


def kernel_table(df: pd.DataFrame, title: str, width: int = PIPE_WIDTH, shapes: bool = False) -> Table:
    """The kernel table; with `shapes`, each library kernel's calls by shape in sub-rows under it (shape_lines)."""
    rows = [(r, shape_lines(r) if shapes else []) for _, r in df.iterrows()]

    def col(header, kernel_cell, rank, shape_cell=None, **kw):
        cells = []
        for r, subs in rows:
            cells.append(kernel_cell(r))
            cells.extend(_sub_cell(shape_cell, s) for s in subs)
        return Col(header, cells, rank, **kw)
    # the module each kernel came from (runs with provenance): after the 80-column set, before the minor columns
    module = [col("module", lambda r: str(r.get("module") or ""), 5.6, flex=(14, 40))]
    # a training run: the phases each kernel ran in (analysis/phases.py), beside its name
    phase = [col("phase", lambda r: str(r.get("phase") or ""), 1.5)]
    # the unit ncu found busy (analysis/binding.py): runs with ncu rows; the least column, left out first
    binds = [col("ncu binds", lambda r: SHORT.get(_text(r.get("binding_unit")), ""), 10.5)]
    return fit([
        # a sub-row's label is Text: prose, never shortened or numbered as a kernel name
        col("kernel", lambda r: r["display"], 0, lambda s: Text(s["label"]), flex=NAME_WIDTH, names=True,
            prefer=(5.5, 48)),
        *(phase if any(r.get("phase") for r, _ in rows) else []),
        *(module if any(r.get("module") for r, _ in rows) else []),
        col("kind", lambda r: str(r["kind"]), 9),
        col("fused ATen ops", lambda r: str(r["aten_ops"]), 10, lambda s: s["other_op"], flex=(16, 60)),
        col("calls", lambda r: str(int(r["calls"])), 7, right=True),
        col("total ms", lambda r: _num(r["total_ns"] / NS_PER_MS, "{:.2f}"), 8, right=True),
        col("avg µs", lambda r: _num(r["avg_us"]), 2, lambda s: _num(s["avg_us"]), right=True),
        col("% GPU", lambda r: _num(r["pct_of_gpu_time"]), 1, lambda s: _num(s["pct_of_gpu_time"]), right=True),
        col("TFLOP/s", lambda r: rate(r["tflops"] if r["flops"] > 0 else None), 3,
            lambda s: rate(s["tflops"] if s["flops_per_call"] > 0 else None), right=True),
        col("GB/s", lambda r: _num(r["gbps"] if r["bytes"] > 0 else None, "{:.0f}"), 4,
            lambda s: _num(s["gbps"] if s["bytes_per_call"] > 0 else None, "{:.0f}"), right=True),
        col("bound", lambda r: str(r["bound"] or "-"), 6, lambda s: str(s["bound"] or "-")),
        col("% of peak", lambda r: _num(r["pct_of_peak"]), 5, lambda s: _num(s["pct_of_peak"]), right=True),
        *(binds if any(r.get("binding_unit") for r, _ in rows) else []),
    ], width, title)


def _sub_cell(shape_cell, s: dict) -> str | Text:
    """A sub-row's cell: "" in a column without one, or where the line lacks the value (the rest's line has
    only its label and % GPU)."""
    try:
        return shape_cell(s) if shape_cell else ""
    except KeyError:
        return ""


def summary_table(summary: Summary, width: int = PIPE_WIDTH) -> Table:
    t = Table(title="Summary", title_justify="left", show_header=False)
    rows = summary_rows(summary)
    # a value's longest word (a kernel name: what reached a roof) is never cut with "…": where it does not fit
    # beside the labels, the labels wrap at their spaces to make room (not below their own longest word)
    longest = max((cell_len(w) for _, value in rows for w in value.split()), default=0)
    label_words = max((cell_len(w) for label, _ in rows for w in label.split()), default=0)
    t.add_column(style="bold", max_width=max(label_words, width - longest - 7))   # 7: borders and padding
    t.add_column()
    for label, value in rows:
        t.add_row(label, Text(value))   # Text: a target or GPU name is never markup
    return t


def headroom_table(summary: Summary, width: int = PIPE_WIDTH, kernels: set[str] | None = None) -> Table | None:
    """Where to look next: the largest gaps to the ceilings per step, the launch/idle gap, attention backends.
    A row naming one of `kernels` (their display names; None: every row), or a kernel in the model vs alone, is cut
    as a kernel name; the others
    ("launch overhead and idle ...", "attention (shape): A instead of B") wrap, never cut."""
    h = summary.get("headroom")
    if not h or not h["next"]:
        return None
    rows = h["next"]
    reach = h.get("reachable_sol_step_ms", h["sol_step_ms"])
    sol = f"{reach:.1f} ms/step" + (f" reachable, {h['sol_step_ms']:.1f} on the roofline" if
                                     abs(reach - h["sol_step_ms"]) >= 0.05 else "")
    title = (f"Where to look next (speed of light {sol} vs {h['gpu_busy_ms_per_step']:.1f} "
             f"ms GPU busy, {_num(h.get('step_ms_plain'), '{:.1f}')} ms plain step)")
    # the roofline's headroom beside the reachable one, where one item's differs
    differs = any(abs(r.get("roofline_headroom_ms_per_step", r["headroom_ms_per_step"]) - r["headroom_ms_per_step"])
                  >= 0.005 for r in rows)
    return fit([
        Col("headroom ms/step", [f"{r['headroom_ms_per_step']:.2f}" for r in rows], 0, right=True),
        *([Col("roofline ms/step", [_num(r.get("roofline_headroom_ms_per_step"), "{:.2f}") for r in rows], 5,
               right=True)] if differs else []),
        # a kernel's name is cut (an in-model item's starts with one), other words wrap
        Col("what", [r["what"] if kernels is None or r["what"] in kernels or r["category"] == "in model"
                     else Text(r["what"]) for r in rows], 1,
            flex=(24, 60), names=True),
        Col("do", [r.get("do", "") for r in rows], 2, flex=(_word_room(r.get("do", "") for r in rows), 40)),
        Col("measured against", [r["why"] for r in rows], 3, flex=(_word_room(r["why"] for r in rows), 50)),
        Col("category", [r["category"] for r in rows], 4),
    ], width, title)


def training_table(summary: Summary, width: int = PIPE_WIDTH) -> Table | None:
    """A training run's phase items (analysis/training_advice.py): backward against forward, the backward
    kernel with the most headroom, the optimizer's launches, the activations kept for backward."""
    rows = summary.get("training")
    if not rows:
        return None
    return fit([
        Col("phase", [r["phase"] for r in rows], 0),
        Col("what", [Text(r["what"]) for r in rows], 1, flex=(24, 60)),
        Col("ms/step", [f"{r['ms_per_step']:.2f}" for r in rows], 2, right=True),
        Col("headroom", [_num(r["headroom_ms_per_step"], "{:.2f}") for r in rows], 3, right=True),
        Col("do", [r["do"] for r in rows], 4, flex=(_word_room(r["do"] for r in rows), 40)),
        Col("measured against", [r["why"] for r in rows], 5, flex=(_word_room(r["why"] for r in rows), 50)),
    ], width, "Training step: where to look next by phase")


def _word_room(texts, least: int = 12) -> int:
    """The fewest cells a wrapped advice column takes: `least`, or its longest word (a shape such as
    "(1,24,4608,128)"), which wraps whole and is never folded in two."""
    return max([least, *(cell_len(w) for t in texts for w in str(t).split())])


def _ncu_flag(r) -> str:
    """What disagrees: the annotation (bytes, flops), or a library call's replay time vs the profiled one."""
    flags = [off_flag(r)] if r.get("annotation_off") else []
    if r.get("ncu_time_off") is True:
        flags.append(f"time {r['ncu_duration_ns'] / NS_PER_US:.1f} vs {r['ncu_model_us']:.1f} µs profiled")
    return "; ".join(flags)


def ncu_table(df: pd.DataFrame, width: int = PIPE_WIDTH, name_width: int = NAME_WIDTH[1]) -> Table | None:
    """Nsight Compute per kernel: measured vs annotated DRAM bytes, speed of light, occupancy. Kernel names
    are shortened to `name_width` over all of `df`, as in the kernel table, so the two tables name a kernel
    alike."""
    if "ncu_duration_ns" not in df or not df["ncu_duration_ns"].notna().any():
        return None
    measured = df["ncu_duration_ns"].notna().tolist()
    names = [n for n, m in zip(fit_names(df["display"].tolist(), name_width), measured) if m]
    rows = [r for _, r in df[df["ncu_duration_ns"].notna()].iterrows()]

    def pair(measured, annotated) -> str:
        if measured is None or (isinstance(measured, float) and math.isnan(measured)):
            return "-"
        return f"{measured / MB:.1f}/{_num(annotated / MB if annotated == annotated else None)}"

    def col(header, values, rank, right=True, **kw):
        return Col(header, list(values), rank, right=right, **kw)
    nan = float("nan")
    return fit([
        col("kernel", names, 0, right=False, flex=(name_width, name_width), names=True),
        col("ncu µs", (_num(r["ncu_duration_ns"] / NS_PER_US) for r in rows), 1),
        col("read MB", (pair(r.get("ncu_dram_read_bytes"), r.get("read_bytes_per_call", nan)) for r in rows), 11),
        col("read ratio", (_num(r.get("dram_read_ratio"), "{:.2f}") for r in rows), 4),
        col("write MB", (pair(r.get("ncu_dram_write_bytes"), r.get("write_bytes_per_call", nan)) for r in rows), 12),
        col("write ratio", (_num(r.get("dram_write_ratio"), "{:.2f}") for r in rows), 5),
        col("total ratio", (_num(r.get("dram_ratio"), "{:.2f}") for r in rows), 7),
        col("SOL mem %", (_num(r.get("sol_memory_pct")) for r in rows), 2),
        col("SOL SM %", (_num(r.get("sol_compute_pct")) for r in rows), 3),
        col("tensor %", (_num(r.get("tensor_pipe_pct")) for r in rows), 8),
        col("occup. %", (_num(r.get("occupancy_pct")) for r in rows), 9),
        col("regs", (_num(r.get("registers"), "{:.0f}") for r in rows), 10),
        col("replayed call", (_text(r.get("ncu_shape")) for r in rows), 13, right=False),
        col("flag", (_ncu_flag(r) for r in rows), 6, right=False),
        *([col("reused from", (reused_from(r) for r in rows), 14, right=False)]
          if any(reused_from(r) for r in rows) else []),
    ], width, "Nsight Compute, one replay per unique kernel, a library kernel's costliest call (DRAM MB measured / "
       "annotated; writes still dirty in "
       "the write-back L2 at kernel end never reach DRAM, so the write ratio runs low)")


NOT_PROFILED = {"failed": "failed", "not_tried": "not tried", "timeout": "timed out"}
NO_ROW = {"library": "library kernels not replayed (ncu replays those with the most time: --library-kernels)",
          "inductor": "Inductor kernels with no file to replay (never launched, or not harvested)"}


def ncu_left_out(df: pd.DataFrame, width: int = PIPE_WIDTH, name_width: int = NAME_WIDTH[1]) -> list:
    """What ncu did not profile among `df`'s kernels, in a run that has ncu rows: a table of those it tried or
    meant to (status, reason), and one line counting those it had no row for, by origin. Empty without ncu."""
    if "ncu_status" not in df or not df["ncu_status"].notna().any():
        return []
    missed = df[df["ncu_status"].notna() & (df["ncu_status"] != "ok")]
    out: list = []
    if len(missed):
        names = fit_names(missed["display"].tolist(), name_width)
        out.append(fit([
            Col("kernel", names, 0, flex=(min(24, name_width), name_width), names=True),
            Col("status", [NOT_PROFILED.get(s, str(s)) for s in missed["ncu_status"]], 1),
            Col("reason", [_text(r) for r in missed.get("ncu_reason", pd.Series("", index=missed.index))], 2,
                flex=(16, 120)),
        ], width, f"Not profiled by Nsight Compute ({len(missed)} of {len(df)} kernels shown)"))
    no_row = df[df["ncu_status"].isna()]
    counts = no_row["origin"].value_counts() if "origin" in no_row else pd.Series(dtype=int)
    parts = [f"{n} {NO_ROW.get(origin, f'{origin} kernels')}" for origin, n in counts.items()]
    if parts:
        out.append(Text("No Nsight Compute row: " + "; ".join(parts)))
    return out


def shapes_line(df: pd.DataFrame, shown: bool) -> Text | None:
    """What the ↳ rows are, where the table has them; where the width left them out, where to find them."""
    n = sum(bool(shape_lines(r)) for _, r in df.iterrows())
    if not n:
        return None
    if shown:
        return Text("↳ a library kernel's calls by shape, timed in the torch.profiler step (library_ops.csv)")
    return Text(f"calls by shape of {n} library kernel{'s' if n > 1 else ''}: --width {SHAPE_ROWS_WIDTH} or more, "
                "--json, --csv, --html")


def shown_line(shown: int, total: int) -> Text | None:
    """'30 of 57 kernels (--top; 0: all)' when the table is cut, else None."""
    return Text(f"{shown} of {total} kernels (--top; --top 0 shows all)") if shown < total else None


def attention_table(df: pd.DataFrame, title: str = "Attention backends", width: int = PIPE_WIDTH) -> Table:
    rows = [r for _, r in df.iterrows()]
    avail = [bool(r["available"]) for r in rows]

    def col(header, values, rank, right=False, **kw):
        return Col(header, list(values), rank, right=right, **kw)

    def measured(key, fmt):
        return (_num(r[key], fmt) if a else "-" for r, a in zip(rows, avail))

    def varies(key) -> bool:   # a shape or dtype that differs between rows tells them apart: shown first
        return df[key].astype(str).nunique() > 1 if key in df else False
    ok = [(Text("yes", "green") if r["ok"] else Text("NO", "red")) if a else "n/a" for r, a in zip(rows, avail)]
    columns = [
        col("backend", (str(r["backend"]) for r in rows), 0),
        col("origin", (str(r["origin"]) for r in rows), 11),
        col("shape", (str(r["shape"]) for r in rows), 0.1 if varies("shape") else 6),
        col("dtype", (str(r["dtype"]) for r in rows), 0.2 if varies("dtype") else 9),
        col("calls/step", (_num(r.get("calls_per_step") or None, "{:.0f}") for r in rows), 10, right=True),
        col("ms", measured("ms", "{:.3f}"), 1, right=True),
        col("TFLOP/s", (rate(r["tflops"]) if a else "-" for r, a in zip(rows, avail)), 2, right=True),
        col("% peak", measured("pct_of_peak", "{:.1f}"), 5, right=True),
        col("vs model", measured("speedup_vs_model", "{:.2f}x"), 3, right=True),
        col("rel err", measured("rel_err", "{:.1e}"), 8, right=True),
        col("ok", ok, 4),
        col("config / why not", (_text(r.get("config")) if a else _text(r.get("reason")) for r, a in zip(rows, avail)),
            7, flex=(16, 60)),
    ]
    # a number column with no number in it (no backend ran here, no model backend to compare with) says
    # nothing, and at 80 columns it pushed out the reasons why the backends did not run
    return fit([c for c in columns if not c.right or any(v != "-" for v in c.cells)], width, title)


ATTENTION_TITLE = "Attention backends at the model's shapes (vs model: speed-up over the backend the model used, same run)"
TRAINING_TITLE = ("Attention backends, forward+backward at the model's shapes (a training step's call: ms of both, "
                  "TFLOP/s at the forward's flops + the backward's, 3.5x the forward's; vs model: speed-up over the "
                  "backend the model used)")


def attention_tables(att: pd.DataFrame | None) -> list[tuple[str, pd.DataFrame]]:
    """(title, rows) of each attention table to show: the forward comparison, and a training run's
    forward+backward one (attention_training.passes)."""
    from ..analysis.attention_training import FORWARD, TRAINING, passes

    if att is None or not len(att):
        return []
    which = passes(att)
    return [(title, att[which == p]) for title, p in ((ATTENTION_TITLE, FORWARD), (TRAINING_TITLE, TRAINING))
            if (which == p).any()]


def backends_table(backends, width: int = PIPE_WIDTH) -> Table:
    return fit([Col("backend", [b.name for b in backends], 0), Col("origin", [b.origin for b in backends], 2),
                Col("available", ["yes" if b.available else "no" for b in backends], 1),
                Col("what / why not", [b.description if b.available else b.reason for b in backends], 3,
                    flex=(16, 100))], width, "Attention backends")


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """stdout's reader left (`report | head -1`): rich would exit 1 here, unsaid; the CLI's exit path
        decides instead (cli/core.py: quietly, 141)."""
        self.quiet = True
        raise BrokenPipeError


def make_console(width: int | None = None, pipe_width: int = PIPE_WIDTH) -> Console:
    """The report's console: `width` when given, else the terminal's width, else COLUMNS (rich reads it), else
    pipe_width. Markup and emoji codes off: paths, kernel names and messages are printed as they are."""
    if width is None and not sys.stdout.isatty() and not os.environ.get("COLUMNS", "").isdigit():
        width = pipe_width
    return _Console(width=width, markup=False, emoji=False)


def render(tables: RunTables, df: pd.DataFrame, console: Console | None = None, total: int | None = None) -> None:
    """The report of `df`, the kernels shown; `total`: how many the run has (more: the cut is said)."""
    console = console or make_console()
    shapes = console.width >= SHAPE_ROWS_WIDTH
    kernels = kernel_table(df, f"Kernels of {tables.run.root} (per-kernel totals over the profiled steps)",
                           console.width, shapes)
    console.print(kernels)
    cut = shown_line(len(df), len(df) if total is None else total)
    if cut is not None:
        console.print(cut)
    note = shapes_line(df, shapes)
    if note is not None:
        console.print(note)
    name_width = kernels.columns[0].width
    assert name_width is not None   # layout.fit gives every column its width
    ncu = ncu_table(df, console.width, name_width)
    if ncu is not None:
        console.print(ncu)
        reused = ncu_reused_line(df)
        if reused is not None:
            console.print(reused, markup=False, highlight=False)
    for part in ncu_left_out(df, console.width, name_width):
        console.print(part)
    for title, rows in attention_tables(tables.attention):
        console.print(attention_table(rows, title, console.width))
    # the comparison on the model's q, k, v layout, and a training run's on its dout layout
    for line in qkv_lines(tables.attention) + dout_lines(tables.attention):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    reused = attention_reused_line(tables.attention) if tables.attention is not None else None
    if reused is not None:
        console.print(reused, markup=False, highlight=False)
    if tables.by_size is not None:
        from .sizes import size_kernels_table, sizes_table

        names = [s["size"] for s in tables.summary["sizes"]]
        console.print(sizes_table(tables.summary["sizes"], console.width))
        console.print(size_kernels_table(tables.by_size, df, names, console.width))
    headroom = headroom_table(tables.summary, console.width, set(df["display"]) if len(df) else set())
    if headroom is not None:
        console.print(headroom)
    if tables.experiments:
        from .experiments import render as render_experiments

        render_experiments(tables.experiments, console)
    training = training_table(tables.summary, console.width)
    if training is not None:
        console.print(training)
    console.print(summary_table(tables.summary, console.width))
