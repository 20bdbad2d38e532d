"""What `diff` reads from one run folder beyond `load_run_tables`: the kernels' fingerprints (kernels.json and
the kernel files) and each kernel's time in each timed step (the steps hatchet, for its spread). A table a
view needs and the run lacks is named in `missing` (view, what); the other views still render."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .. import runfiles
from ..rundir import RunDir, open_run
from .load import RunTables, load_run_tables
from .match import Fingerprint, fingerprints


@dataclass
class RunSide:
    label: str                                  # "A" or "B"
    run: RunDir
    manifest: dict[str, Any]
    tables: RunTables | None                    # None: no Proton steps, no kernel views
    fingerprints: dict[str, Fingerprint] | None  # None: no kernels.json, Inductor kernels match by name only
    step_kernel_ns: pd.DataFrame | None         # kernel name x timed step, ns
    attention: pd.DataFrame | None              # attention.csv
    missing: list[tuple[str, str]] = field(default_factory=list)   # (view, what is missing)


def timed_rows(rows: pd.DataFrame) -> pd.DataFrame:
    """Kernel rows of the timed steps with their `step` (scopes step_<i>/..., or <size>/step_<i>/... in a run
    of several sizes: rows with a `size` column, sizes.with_size): step i of a run of sizes is its i-th call at
    each size."""
    parts = rows["path"].astype(str).str.split("/")
    step = (parts.str[1] if "size" in rows.columns else parts.str[0]).fillna("")
    return rows[step.str.startswith("step_")].assign(step=step)


def per_step_ns(rows: pd.DataFrame) -> pd.DataFrame:
    """Kernel rows of the steps hatchet -> time per kernel name and step, ns."""
    timed = timed_rows(rows)
    if timed.empty:
        return pd.DataFrame()
    return timed.pivot_table(index="name", columns="step", values="time_ns", aggfunc="sum", fill_value=0.0,
                             observed=True)


def _fingerprints(run: RunDir) -> tuple[dict[str, Fingerprint] | None, str]:
    """(fingerprints, "") or (None, why not): a missing or damaged kernels.json leaves kernels matched by name."""
    try:
        read = runfiles.kernel_texts(run)
    except runfiles.Damaged:   # the report warns with the details
        return None, "cannot read"
    return (None, "has no") if read is None else (fingerprints(*read), "")


def load_side(path: str | os.PathLike[str], label: str) -> RunSide:
    run = open_run(path)
    tables = load_run_tables(path) if runfiles.present(run.steps_hatchet) else None   # names a damaged file
    manifest = tables.manifest if tables is not None else runfiles.manifest(run, "diff needs it")
    side = RunSide(label=label, run=run, manifest=manifest, tables=None, fingerprints=None, step_kernel_ns=None,
                    attention=None)
    if tables is not None:
        side.tables = tables
        side.step_kernel_ns = per_step_ns(tables.launches)   # the steps the report already read
        if tables.library_ops is None:
            side.missing.append(("kernels", f"run {label} has no readable "
                                            f"{run.library_ops_csv.relative_to(run.root)}: library kernels paired "
                                            "by name"))
    else:
        for view in ("kernels", "categories"):
            side.missing.append((view, f"run {label} has no {run.steps_hatchet.relative_to(run.root)}"))
    side.fingerprints, why = _fingerprints(run)
    if side.fingerprints is None:
        side.missing.append(("kernels", f"run {label} {why} {run.kernels_json.relative_to(run.root)}: "
                                        "Inductor kernels matched by name only"))
    if side.tables is not None:
        side.attention = side.tables.attention
    else:   # read alone, through the report's checks: a damaged one is said, and the other views render
        reader = runfiles.Reader(run, manifest)
        side.attention = reader.optional(run.attention_csv, runfiles.attention_file, "no attention view",
                                         expected=False)
        side.missing += [("attention", f"run {label}: {w}") for w in reader.warnings]
    if side.attention is None and not any(view == "attention" for view, _ in side.missing):
        side.missing.append(("attention", f"run {label} has no {run.attention_csv.relative_to(run.root)}"))
    return side
