"""Per input size (pure): a run of several sizes times each under a Proton scope named after it, the first
component of each kernel row's scope path. The kernel table of one size is the run's kernel table built from
that size's rows alone; its summary takes that size's step times from the manifest (profile.sizes).

A run of one size has no size scopes and no breakdown: `size_names` is empty."""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..cost import with_flex_masks
from ..runfiles.sections import StepTimes, sections
from .kernels import kernel_table
from .roofline import add_derived
from .summary import work
from ..peaks import Peaks

SIZE = "size"


def size_names(manifest: dict[str, Any]) -> list[str]:
    """The run's input sizes in order (the first the default); [] for a run of one size."""
    sizes = (manifest.get("profile") or {}).get("sizes")
    return list(sizes) if isinstance(sizes, dict) and len(sizes) > 1 else []


def with_size(rows: pd.DataFrame, sizes: list[str]) -> pd.DataFrame:
    """Kernel rows with a `size` column: the first scope of their path when it is one of `sizes`, else None."""
    first = rows["path"].astype(str).str.split("/", n=1).str[0]
    return rows.assign(**{SIZE: first.where(first.isin(sizes), None)})


def _of(rows: pd.DataFrame | None, size: str) -> pd.DataFrame | None:
    if rows is None or SIZE not in rows.columns:
        return rows
    return rows[rows[SIZE] == size]


def kernels_by_size(steps: pd.DataFrame, annotated: pd.DataFrame | None, harvested: dict[str, dict[str, Any]],
                    library_ops: pd.DataFrame | None, io_split: dict[str, Any], n_steps: int, peaks: Peaks,
                    sizes: list[str], attention_calls: list[Any] | None = None) -> pd.DataFrame:
    """One kernel table per size (kernels.kernel_table + roofline.add_derived over that size's rows), stacked
    with a `size` column first. steps/annotated carry `size` (with_size); library_ops its own `size` column;
    attention_calls (attention_shapes.json) price FlexAttention kernels (cost.with_flex_masks)."""
    frames = []
    for size in sizes:
        df = with_flex_masks(kernel_table(_of(steps, size), _of(annotated, size), harvested, _of(library_ops, size),
                                          io_split, n_steps), attention_calls)
        if len(df):
            frames.append(add_derived(df, peaks, n_steps).assign(**{SIZE: size}))
    if not frames:
        return pd.DataFrame(columns=[SIZE])
    out = pd.concat(frames, ignore_index=True)
    return out[[SIZE] + [c for c in out.columns if c != SIZE]]


def size_summary(by_size: pd.DataFrame, manifest: dict[str, Any], sizes: list[str], n_steps: int) -> list[dict[str, Any]]:
    """Per size: its step times (medians, from the manifest), GPU kernel time and work per step (n_steps:
    runfiles.n_steps), kernels."""
    recorded = sections(manifest).profile.sizes
    out = []
    for size in sizes:
        times = recorded.get(size, StepTimes())
        df = by_size[by_size[SIZE] == size]
        out.append({"size": size, "plain_step_ms": times.plain_step_ms, "proton_step_ms": times.proton_step_ms,
                    **work(df, n_steps), "kernels": int(len(df))})
    return out
