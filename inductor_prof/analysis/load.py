"""Every read of a run folder for the report: its tables in, the analysed RunTables out (the analysis
itself is pure and lives beside this module)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..drivers import proton
from ..errors import UserError
from ..inductor.kernel_files import io_bytes
from ..peaks import DeviceFacts, run_peaks
from ..rundir import RunDir, open_run
from .kernels import kernel_table
from .ncu_compare import merge_ncu
from .roofline import add_derived
from .summary import summarize


@dataclass
class RunTables:
    run: RunDir
    manifest: dict
    kernels: pd.DataFrame          # one row per kernel name
    summary: dict[str, Any]
    attention: pd.DataFrame | None


def _harvested(run: RunDir) -> dict[str, dict]:
    return {k["name"]: k for k in json.loads(run.kernels_json.read_text())} if run.kernels_json.exists() else {}


def _io_split(run: RunDir, harvested: dict[str, dict]) -> dict[str, dict | None]:
    """Per-launch read/write bytes of each harvested Inductor kernel, from its file."""
    out = {}
    for name, rec in harvested.items():
        path = run.kernel_file(rec["file"]) if rec.get("file") else None
        out[name] = io_bytes(path.read_text()) if path is not None and path.is_file() else None
    return out


def _csv(path) -> pd.DataFrame | None:
    return pd.read_csv(path, keep_default_na=False) if path.exists() else None


def run_peaks_of(run: RunDir, manifest: dict, device: dict | None = None) -> dict:
    """Peaks from the device facts Proton stored with the timed steps (`device`, when already read) and the
    ceilings measured in the run."""
    facts = DeviceFacts.from_proton(device if device is not None else proton.device_info(run.steps_hatchet))
    gpu = (manifest.get("env", {}).get("gpu") or {}).get("name", "")
    return run_peaks(facts, manifest.get("ceilings"), gpu)


def load_run_tables(path) -> RunTables:
    run = open_run(path)
    manifest = run.read_manifest()
    if not run.steps_hatchet.exists():
        raise UserError(f"{run.root} has no Proton steps ({run.steps_hatchet.relative_to(run.root)}); "
                        "the profile did not get that far")
    n_steps = max(int(manifest.get("profile", {}).get("steps", 1) or 1), 1)
    harvested = _harvested(run)
    steps, device = proton.launches.read(run.steps_hatchet, run.steps_launches)
    annotated = (proton.launches.read(run.annotated_hatchet, run.annotated_launches)[0]
                 if run.annotated_hatchet.exists() else None)
    df = kernel_table(steps, annotated, harvested, _csv(run.library_ops_csv), _io_split(run, harvested), n_steps)
    peaks = run_peaks_of(run, manifest, device)
    if len(df):
        df = add_derived(df, peaks, n_steps)
        df = merge_ncu(df, pd.read_csv(run.ncu_csv) if run.ncu_csv.exists() else None)
    attention = pd.read_csv(run.attention_csv) if run.attention_csv.exists() else None
    return RunTables(run=run, manifest=manifest, kernels=df, summary=summarize(df, manifest, peaks),
                     attention=attention)
