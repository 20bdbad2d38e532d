"""The rich terminal report: a per-kernel table and a summary."""
from __future__ import annotations

import math

import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..analysis import RunTables
from .format import num as _num, short as _short, summary_rows, text as _text


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
    for label, value in summary_rows(summary):
        t.add_row(label, Text(value))   # Text: a target or GPU name is never markup
    return t


def ncu_table(df: pd.DataFrame) -> Table | None:
    """Nsight Compute per kernel: measured vs annotated DRAM bytes, speed of light, occupancy."""
    if "ncu_duration_ns" not in df or not df["ncu_duration_ns"].notna().any():
        return None
    t = Table(title="Nsight Compute, one replay per unique kernel (DRAM MB measured / annotated; writes still "
              "dirty in the write-back L2 at kernel end never reach DRAM, so the write ratio runs low)",
              title_justify="left", header_style="bold")
    for col in ["kernel", "ncu µs", "read MB", "read ratio", "write MB", "write ratio", "total ratio", "SOL mem %",
                "SOL SM %", "tensor %", "occup. %", "regs", "flag"]:
        t.add_column(col, justify="left" if col in ("kernel", "flag") else "right",
                     no_wrap=col in ("kernel", "read MB", "write MB", "flag"))

    def pair(measured, annotated) -> str:
        if measured is None or (isinstance(measured, float) and math.isnan(measured)):
            return "-"
        return f"{measured / 1e6:.1f}/{_num(annotated / 1e6 if annotated == annotated else None)}"
    for _, r in df[df["ncu_duration_ns"].notna()].iterrows():
        t.add_row(_short(r["display"], 48), _num(r["ncu_duration_ns"] / 1e3),
                  pair(r.get("ncu_dram_read_bytes"), r.get("read_bytes_per_call", float("nan"))),
                  _num(r.get("dram_read_ratio"), "{:.2f}"),
                  pair(r.get("ncu_dram_write_bytes"), r.get("write_bytes_per_call", float("nan"))),
                  _num(r.get("dram_write_ratio"), "{:.2f}"), _num(r.get("dram_ratio"), "{:.2f}"),
                  _num(r.get("sol_memory_pct")), _num(r.get("sol_compute_pct")), _num(r.get("tensor_pipe_pct")),
                  _num(r.get("occupancy_pct")), _num(r.get("registers"), "{:.0f}"),
                  f"{r.get('annotation_off_in')} >25% off" if r.get("annotation_off") else "")
    return t


def attention_table(df: pd.DataFrame, title: str = "Attention backends") -> Table:
    t = Table(title=title, title_justify="left", header_style="bold")
    for col in ["backend", "origin", "shape", "dtype", "calls/step", "ms", "TFLOP/s", "% peak", "vs model",
                "rel err", "ok", "config / why not"]:
        t.add_column(col, justify="right" if col in ("calls/step", "ms", "TFLOP/s", "% peak", "vs model",
                                                     "rel err") else "left", no_wrap=col in ("backend", "shape"))
    for _, r in df.iterrows():
        avail = bool(r["available"])
        note = _text(r.get("config")) if avail else _short(_text(r.get("reason")), 60)
        t.add_row(str(r["backend"]), str(r["origin"]), str(r["shape"]), str(r["dtype"]),
                  _num(r.get("calls_per_step") or None, "{:.0f}"),
                  _num(r["ms"], "{:.3f}") if avail else "-", _num(r["tflops"], "{:.0f}") if avail else "-",
                  _num(r["pct_of_peak"]) if avail else "-",
                  _num(r["speedup_vs_model"], "{:.2f}x") if avail else "-",
                  _num(r["rel_err"], "{:.1e}") if avail else "-",
                  ("[green]yes[/green]" if r["ok"] else "[red]NO[/red]") if avail else "n/a", note)
    return t


def backends_table(backends) -> Table:
    t = Table(title="Attention backends", title_justify="left", header_style="bold")
    for col in ("backend", "origin", "available", "what / why not"):
        t.add_column(col)
    for b in backends:
        t.add_row(b.name, b.origin, "yes" if b.available else "no", b.description if b.available else b.reason)
    return t


def make_console() -> Console:
    """Wide enough for the kernel table when the output is a file or a pipe."""
    import sys

    return Console() if sys.stdout.isatty() else Console(width=190)


def render(tables: RunTables, df: pd.DataFrame, console: Console | None = None) -> None:
    console = console or make_console()
    console.print(kernel_table(df, f"Kernels of {tables.run.root} (per-kernel totals over the profiled steps)"))
    ncu = ncu_table(df)
    if ncu is not None:
        console.print(ncu)
    if tables.attention is not None and len(tables.attention):
        console.print(attention_table(tables.attention, "Attention backends at the model's shapes "
                                      "(vs model: speed-up over the backend the model used, same run)"))
    console.print(summary_table(tables.summary))
