"""Every read of a run folder for the report: its tables in, the analysed RunTables out (the analysis
itself is pure and lives beside this module).

The report renders whatever is intact. A required file (manifest.json, proton/steps.hatchet) that is damaged
is an error naming it; an optional one that is missing where the run should have it, or damaged, is one
warning naming it and what the report lacks without it, and the rest renders. A stage the manifest records as
failed or interrupted is said too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ..drivers import proton
from ..drivers.proton.hatchet import frame_of, kernel_columns
from ..errors import UserError, one_line
from ..inductor.kernel_files import io_bytes
from ..inductor.kernel_provenance import merge as merge_provenance
from ..peaks import DeviceFacts, run_peaks
from ..rundir import RunDir, open_run
from .headroom import headroom
from .kernels import kernel_table
from .ncu_compare import NCU_COLUMNS, merge_ncu
from .roofline import add_derived
from .sizes import kernels_by_size, size_names, size_summary, with_size
from .summary import summarize

MANIFEST_SECTIONS = ("profile", "env", "target", "settings", "ceilings", "stages")   # each an object
LIBRARY_OPS_COLUMNS = ("kernel", "op", "flops", "flops_key", "bytes")
ATTENTION_COLUMNS = ("backend", "origin", "shape", "dtype", "available", "ms", "tflops", "pct_of_peak",
                     "speedup_vs_model", "rel_err", "ok")
# what the report lacks without each optional file
LACKING = {
    "annotated": "Inductor kernels are shown without flops and bytes (no TFLOP/s, GB/s, roofline)",
    "kernels": "Inductor kernels are shown without kind, fused ATen ops and read/write split",
    "library_ops": "library kernels (cuBLAS, cuDNN...) are shown without flops and bytes",
    "ncu": "the report has no Nsight Compute columns",
    "attention": "the report has no attention table",
}


@dataclass
class RunTables:
    run: RunDir
    manifest: dict
    kernels: pd.DataFrame          # one row per kernel name
    summary: dict[str, Any]
    attention: pd.DataFrame | None
    warnings: list[str] = field(default_factory=list)   # one line each: a missing/damaged file, a failed stage
    launches: pd.DataFrame | None = None   # the timed steps' kernel rows (name, scope path, calls, time...)
    by_size: pd.DataFrame | None = None    # a run of several input sizes: kernel table per size (sizes.py)


def kernel_records(run: RunDir) -> list[dict]:
    """kernels.json: one record per harvested kernel file (a name Inductor reused can have two); none when it is
    missing or damaged (load_run_tables warned of it)."""
    try:
        return _checked_records(json.loads(run.kernels_json.read_text())) if run.kernels_json.exists() else []
    except (OSError, ValueError):
        return []


class Damaged(ValueError):
    """A file that parses but does not hold what the run folder promises; the message says what."""


def _what(e: Exception) -> str:
    return str(e) if isinstance(e, Damaged) else one_line(e)


def _kind(x) -> str:
    return {dict: "an object", list: "a list", str: "a string"}.get(type(x), type(x).__name__)


def _json_object(path: Path) -> dict:
    data = json.loads(path.read_text())
    if not isinstance(data, dict):
        raise Damaged(f"a JSON object expected, found {_kind(data)}")
    return data


def _manifest(path: Path) -> dict:
    m = _json_object(path)
    for key in MANIFEST_SECTIONS:
        if key in m and not isinstance(m[key], dict):
            raise Damaged(f"{key!r} should be an object, found {_kind(m[key])}")
    gpu = (m.get("env") or {}).get("gpu")
    if gpu is not None and not isinstance(gpu, dict):
        raise Damaged(f"'env.gpu' should be an object, found {_kind(gpu)}")
    steps = (m.get("profile") or {}).get("steps", 1)
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise Damaged(f"'profile.steps' should be a whole number, found {steps!r}")
    return m


def _hatchet(path: Path, table: Path) -> tuple[pd.DataFrame, dict]:
    """(kernel rows, device info) of a .hatchet file, read once: from its launches table when that is current
    (a 2,000-kernel run's hatchet takes seconds to decode), else from the hatchet."""
    cached = proton.launches.read_table(path, table)
    if cached is not None:
        return cached
    root, device = proton.load_hatchet(path)
    if not isinstance(root, dict) or not isinstance(device, dict):
        raise Damaged("not a Proton hatchet (a tree of frames expected)")
    return frame_of(kernel_columns(root)), device


def _checked_records(data) -> list[dict]:
    """kernels.json's records, or Damaged saying what is wrong."""
    if not isinstance(data, list):
        raise Damaged(f"a list of kernel records expected, found {_kind(data)}")
    for i, k in enumerate(data):
        if not isinstance(k, dict):
            raise Damaged(f"record {i} should be an object, found {_kind(k)}")
        for key, kinds in (("name", str), ("kind", (str, type(None))), ("file", (str, type(None))),
                           ("aten_ops", (list, type(None))), ("provenance", (dict, type(None)))):
            if key in ("name", "kind") and key not in k:
                raise Damaged(f"record {i} has no {key!r}")
            if key in k and not isinstance(k[key], kinds):
                raise Damaged(f"record {i}: {key!r} is {_kind(k[key])}")
    return data


def _kernel_records(path: Path) -> dict[str, dict]:
    by_name: dict[str, dict] = {}
    # a name Inductor gave kernels of several graphs: the report's row has all their provenance
    for k in _checked_records(json.loads(path.read_text())):
        if k["name"] in by_name and k.get("provenance") and by_name[k["name"]].get("provenance"):
            k = {**k, "provenance": merge_provenance([by_name[k["name"]]["provenance"], k["provenance"]])}
        by_name[k["name"]] = k
    return by_name


def _csv(columns: tuple[str, ...], numeric: tuple[str, ...] = (), **read_options) -> Callable[[Path], pd.DataFrame]:
    """A reader of a CSV that must hold `columns`, the `numeric` ones numbers."""
    def read(path: Path) -> pd.DataFrame:
        df = pd.read_csv(path, **read_options)
        missing = [c for c in columns if c not in df.columns]
        if missing:
            raise Damaged(f"no column {', '.join(map(repr, missing))}")
        if not len(df):   # a header and no rows (nothing to list) is a table, not damage: its columns read as text
            return df.astype({c: float for c in numeric if c in df.columns})
        for c in numeric:
            if c in df.columns and not pd.api.types.is_numeric_dtype(df[c]):
                raise Damaged(f"column {c!r} is not numeric")
        return df
    return read


_ncu_csv = _csv(("name",), tuple(sorted(set(NCU_COLUMNS) - {"status", "reason"})))


def _library_ops(path: Path) -> pd.DataFrame:
    df = _csv(LIBRARY_OPS_COLUMNS, ("flops", "bytes"), keep_default_na=False)(path)
    for i, cell in enumerate(df["modules"] if "modules" in df.columns else []):   # runs since provenance
        try:
            modules = json.loads(cell) if cell else []
        except ValueError:
            modules = None
        if not (isinstance(modules, list) and all(isinstance(m, str) for m in modules)):
            raise Damaged(f"line {i + 2}: 'modules' is not a JSON list of module paths")
    return df


class _Reader:
    """Reads the run's files, collecting one warning per optional file that is missing or damaged."""

    def __init__(self, run: RunDir, manifest: dict):
        self.run, self.warnings = run, []
        self.stages = manifest.get("stages") or {}
        self.said: set[str] = set()      # stages a file warning already named

    def _cause(self, stage: str | None) -> str:
        entry = self.stages.get(stage) if stage else None
        if stage and entry is None:
            return f" (the profile did not get to stage {stage})"
        if isinstance(entry, dict) and entry.get("status") != "ok":
            self.said.add(stage)
            return f" ({_stage_line(stage, entry)})"
        return ""

    def optional(self, path: Path, read: Callable[[Path], Any], lacking: str, stage: str | None = None,
                 expected: bool = True):
        """read(path), or None and one warning: the file is damaged, or missing where the run should have it."""
        if not path.exists():
            if expected:
                self.warnings.append(f"{path} is missing{self._cause(stage)}; {lacking}")
            return None
        try:
            return read(path)
        except Exception as e:  # any damage: the report goes on without the file
            self.warnings.append(f"{path} is damaged ({_what(e)}); {lacking}")
            return None

    def failed_stages(self) -> None:
        for name, entry in self.stages.items():
            if isinstance(entry, dict) and entry.get("status") != "ok" and name not in self.said:
                self.warnings.append(_stage_line(name, entry))


def _stage_line(name: str, entry: dict) -> str:
    """`stage ncu failed: <its error's first sentence>`, as the manifest recorded it."""
    error = str(entry.get("error") or "").split(". ")[0]
    state = "did not finish" if entry.get("status") == "running" else entry.get("status")  # its process died
    return f"stage {name} {state}" + (f": {error[:200]}" if error else "")


def _required(path: Path, read: Callable[[Path], Any]):
    try:
        return read(path)
    except Exception as e:  # any damage: one line naming the file, not a traceback
        raise UserError(f"{path} is damaged ({_what(e)}); the report needs it") from e


def _io_split(reader: _Reader, harvested: dict[str, dict]) -> dict[str, dict | None]:
    """Per-launch read/write bytes of each harvested Inductor kernel, from its file."""
    out = {}
    for name, rec in harvested.items():
        path = reader.run.kernel_file(rec["file"]) if rec.get("file") else None
        out[name] = reader.optional(path, lambda p: io_bytes(p.read_text()),
                                    f"kernel {name} is shown without its read/write split") if path else None
    return out


def _ncu_table(reader: _Reader) -> pd.DataFrame | None:
    run = reader.run
    status = None
    if run.ncu_status_json.exists():
        status = reader.optional(run.ncu_status_json, _json_object, "the ncu table cannot be checked against it")
    expected = "ncu" in reader.stages or bool(status)
    ncu = reader.optional(run.ncu_csv, _ncu_csv, LACKING["ncu"], "ncu", expected)
    if ncu is not None and status and "stem" in ncu.columns:
        newer = {s for s, e in status.items() if isinstance(e, dict) and e.get("status") == "ok"} - set(ncu["stem"])
        if newer:
            reader.warnings.append(f"{run.ncu_csv} lacks {len(newer)} kernels that {run.ncu_status_json.name} "
                                   "lists as profiled (a call of the ncu stage did not finish; run it again)")
    return ncu


def run_peaks_of(device: dict, manifest: dict) -> dict:
    """Peaks from the device facts Proton stored with the timed steps and the ceilings measured in the run."""
    facts = DeviceFacts.from_proton(device)
    gpu = ((manifest.get("env") or {}).get("gpu") or {}).get("name", "")
    return run_peaks(facts, manifest.get("ceilings"), gpu)


def load_run_tables(path) -> RunTables:
    run = open_run(path)
    manifest = _required(run.manifest_path, _manifest)
    if not run.steps_hatchet.exists():   # say where the profile stopped, as the manifest recorded it
        stopped = [_stage_line(name, entry) for name, entry in (manifest.get("stages") or {}).items()
                   if isinstance(entry, dict) and entry.get("status") != "ok"]
        raise UserError(f"{run.root} has no Proton steps ({run.steps_hatchet.relative_to(run.root)}); "
                        "the profile did not get that far" + (f" ({stopped[0]})" if stopped else ""))
    steps, device = _required(run.steps_hatchet, lambda p: _hatchet(p, run.steps_launches))
    if not len(steps):   # a tree with no timed kernel: nothing to report (was an AttributeError of pandas)
        raise UserError(f"{run.steps_hatchet} holds no kernel launches (Proton recorded none); the report needs "
                        "them")
    n_steps = max(int((manifest.get("profile") or {}).get("steps", 1) or 1), 1)
    reader = _Reader(run, manifest)
    harvested = reader.optional(run.kernels_json, _kernel_records, LACKING["kernels"], "harvest")
    inductor_names = steps.loc[steps["name"].str.startswith("triton_"), "name"].nunique()
    if harvested == {} and inductor_names:
        reader.warnings.append(f"{run.kernels_json} lists no kernels, yet the steps ran {inductor_names} Inductor "
                               f"kernels; {LACKING['kernels']}")
    harvested = harvested or {}
    io_split = _io_split(reader, harvested)
    annotated = reader.optional(run.annotated_hatchet, lambda p: _hatchet(p, run.annotated_launches)[0],
                                LACKING["annotated"],
                                "annotated_step")
    library_ops = reader.optional(run.library_ops_csv, _library_ops, LACKING["library_ops"], "library_ops")
    df = kernel_table(steps, annotated, harvested, library_ops, io_split, n_steps)
    peaks = run_peaks_of(device, manifest)
    sizes = size_names(manifest)
    by_size = None
    if sizes:   # the launches tables carry the size of each row
        steps = with_size(steps, sizes)
        annotated = with_size(annotated, sizes) if annotated is not None else None
        by_size = kernels_by_size(steps, annotated, harvested, library_ops, io_split, n_steps, peaks, sizes)
    ncu = _ncu_table(reader)
    if len(df):
        df = add_derived(df, peaks, n_steps)
        df = merge_ncu(df, ncu)
    attention = reader.optional(run.attention_csv, _csv(ATTENTION_COLUMNS), LACKING["attention"], "attention",
                                expected="attention" in reader.stages)
    reader.failed_stages()
    summary = summarize(df, manifest, peaks)
    if len(df):
        summary["headroom"] = headroom(df, summary["step_ms_wall"], n_steps, attention)
    if sizes:
        summary["sizes"] = size_summary(by_size, manifest, sizes)
        summary["ncu_at_size"] = ((manifest.get("stages") or {}).get("ncu") or {}).get("at_size")
    return RunTables(run=run, manifest=manifest, kernels=df, summary=summary, attention=attention,
                     warnings=reader.warnings, launches=steps, by_size=by_size)
