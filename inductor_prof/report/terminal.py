"""The rich terminal report: a per-kernel table and a summary."""
from __future__ import annotations

import math

import pandas as pd
from rich.console import Console
from rich.table import Table

from ..analysis import RunTables


def _num(v, fmt: str = "{:.1f}") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return fmt.format(v)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def kernel_table(df: pd.DataFrame, title: str) -> Table:
    t = Table(title=title, title_justify="left", header_style="bold")
    for col, justify in [("kernel", "left"), ("kind", "left"), ("fused ATen ops", "left"), ("calls", "right"),
                         ("total ms", "right"), ("avg µs", "right"), ("% GPU", "right"), ("TFLOP/s", "right"),
                         ("GB/s", "right"), ("bound", "left"), ("% of peak", "right")]:
        t.add_column(col, justify=justify, no_wrap=col in ("kernel", "kind"), overflow="ellipsis")
    for _, r in df.iterrows():
        t.add_row(_short(r["display"], 60), str(r["kind"]), _short(str(r["aten_ops"]), 36), str(int(r["calls"])),
                  _num(r["total_ns"] / 1e6, "{:.2f}"), _num(r["avg_us"]), _num(r["pct_of_gpu_time"]),
                  _num(r["tflops"] if r["flops"] > 0 else None), _num(r["gbps"] if r["bytes"] > 0 else None, "{:.0f}"),
                  str(r["bound"] or "-"), _num(r["pct_of_peak"]))
    return t


def summary_table(summary: dict) -> Table:
    t = Table(title="Summary", title_justify="left", show_header=False)
    t.add_column(style="bold")
    t.add_column()
    peaks = summary["peaks"]
    t.add_row("target / GPU", f"{summary['target']} on {summary['gpu']}")
    t.add_row("step (wall, under Proton)", f"{_num(summary['step_ms_wall'], '{:.2f}')} ms "
              f"(plain {_num(summary['plain_step_ms'], '{:.2f}')} ms), {summary['steps']} steps")
    t.add_row("GPU kernel time per step", f"{summary['gpu_kernel_ms_per_step']:.2f} ms")
    t.add_row("work per step / overall", f"{summary['tflops_per_step']:.1f} TFLOP, "
              f"{summary['overall_tflops']:.0f} TFLOP/s over kernel time")
    t.add_row("kernels", f"{summary['kernels']} ({summary['inductor_kernels']} Inductor, "
              f"{summary['inductor_annotated']} annotated)")
    t.add_row("peaks", f"bf16 {_num(peaks['tflops'].get('flops16'), '{:.0f}')} TFLOP/s "
              f"({peaks['source']['flops16']}), fp32 {_num(peaks['tflops'].get('flops32'), '{:.0f}')} "
              f"({peaks['source']['flops32']}), DRAM {_num(peaks['dram_gbps'], '{:.0f}')} GB/s "
              f"({peaks['source']['dram_gbps']})")
    for cat, c in summary["by_category"].items():
        t.add_row(f"  {cat}", f"{c['step_ms']:.2f} ms/step  {c['pct']:.1f}%  "
                  f"{_num(c['tflops'] or None, '{:.0f}')} TFLOP/s  ({c['kernels']} kernels)")
    return t


def make_console() -> Console:
    """Wide enough for the kernel table when the output is a file or a pipe."""
    import sys

    return Console() if sys.stdout.isatty() else Console(width=190)


def render(tables: RunTables, df: pd.DataFrame, console: Console | None = None) -> None:
    console = console or make_console()
    console.print(kernel_table(df, f"Kernels of {tables.run.root} (per-kernel totals over the profiled steps)"))
    console.print(summary_table(tables.summary))
