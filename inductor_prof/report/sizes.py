"""The per-input-size section of the terminal report (a run of several sizes): step times and GPU time per
size, then the kernels shown above with their time per step at each size."""
from __future__ import annotations

import pandas as pd
from rich.table import Table

from .format import num, rate
from .layout import Col, fit

NAME_WIDTH = (24, 64)


def sizes_table(sizes: list[dict], width: int) -> Table:
    return fit([
        Col("size", [s["size"] for s in sizes], 0),
        Col("step ms (plain)", [num(s["plain_step_ms"], "{:.2f}") for s in sizes], 1, right=True),
        Col("step ms (Proton)", [num(s["proton_step_ms"], "{:.2f}") for s in sizes], 3, right=True),
        Col("GPU ms/step", [f"{s['gpu_kernel_ms_per_step']:.2f}" for s in sizes], 2, right=True),
        Col("TFLOP/s", [rate(s["overall_tflops"]) for s in sizes], 4, right=True),
        Col("kernels", [str(s["kernels"]) for s in sizes], 5, right=True),
    ], width, "Per input size (medians of the timed steps at each size; TFLOP/s over its kernel time)")


def size_kernels_table(by_size: pd.DataFrame, shown: pd.DataFrame, sizes: list[str], width: int) -> Table:
    """The kernels of `shown` (the kernel table's rows, in its order): ms per step and TFLOP/s at each size."""
    names = list(shown["name"])
    at = {size: by_size[by_size["size"] == size].set_index("name") for size in sizes}

    def cell(size: str, name: str, key: str, fmt) -> str:
        table = at[size]
        if name not in table.index:
            return "-"
        row = table.loc[name]
        v = row[key] if key != "tflops" or row["flops"] > 0 else None
        return fmt(v) if callable(fmt) else num(v, fmt)
    cols = [Col("kernel", list(shown["display"]), 0, flex=NAME_WIDTH, names=True)]
    for i, size in enumerate(sizes):
        cols.append(Col(f"{size} ms/step", [cell(size, n, "step_ms", "{:.3f}") for n in names], 1 + i, right=True))
        cols.append(Col(f"{size} TFLOP/s", [cell(size, n, "tflops", rate) for n in names], 10 + i,
                        right=True))
    return fit(cols, width, "Kernels per input size (ms per step at each size; - : not launched at that size)")
