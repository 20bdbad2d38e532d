"""`inspect RUN KERNEL`: one kernel's view. Its row of the report's kernel table (time, roofline position,
ncu's registers and occupancy: analysis.load computed them), its Inductor launch config and provenance, and
its source counters (the source pass's reports, read through runfiles) ranked per line or SASS region by
hotspots.py. A JSON-able dict: the terminal, --json and the HTML page all render it."""
from __future__ import annotations

import math
import shlex
from pathlib import PurePath
from typing import Any

import pandas as pd

from .. import runfiles
from ..rundir import RunDir
from .hotspots import hotspots
from .load import RunTables
from .pick import kernel_names, pick_kernel
from ..peaks import Peaks

NEED = "`inspect` needs it"
ROW_FIELDS = ("name", "display", "origin", "kind", "category", "module", "aten_ops", "calls_per_step", "avg_us",
              "step_ms", "pct_of_gpu_time")
ROOFLINE_FIELDS = ("flops_key", "tflops", "gbps", "intensity", "bound", "ceiling", "ceiling_why", "pct_of_peak",
                   "sol_ms_per_step", "headroom_ms_per_step", "reachable_headroom_ms_per_step", "binding_unit",
                   "headroom_vs", "do")
NCU_FIELDS = {"ncu_duration_ns": "duration_ns", "registers": "registers", "occupancy_pct": "occupancy_pct",
              "ncu_shape": "replayed_call"}


def _value(v: Any) -> Any:
    if isinstance(v, float) and math.isnan(v):
        return None
    return v.item() if hasattr(v, "item") else v


def collect_command(run: str, name: str) -> str:
    """The command that records a kernel's source counters (on a machine with the GPU and ncu)."""
    return f"inductor-prof ncu {shlex.quote(run)} --source {shlex.quote(name)}"


def ceiling_rate(row: dict[str, Any], peaks: Peaks) -> tuple[float | None, str]:
    """The rate of the ceiling the report judged the kernel by (its `ceiling` label names which), and its unit."""
    if row.get("bound") == "memory":
        return (peaks.get("l2_gbps") if str(row.get("ceiling") or "").startswith("L2")
                else peaks.get("dram_gbps")), "GB/s"
    if row.get("bound") == "compute":
        return (peaks.get("tflops") or {}).get(row.get("flops_key") or ""), "TFLOP/s"
    return None, ""


def _code_lines(counters: dict[str, Any], kernel_file: str | None, kernel_text: str | None) -> dict[str, list[str]]:
    """Each source file's lines, as imported into the report; the kernel's own from the run where it was not."""
    out = {f: t.splitlines() for f, t in (counters.get("files") or {}).items() if t}
    if kernel_file and kernel_file not in out and kernel_text is not None:
        out[kernel_file] = kernel_text.splitlines()
    return out


def _with_code(rows: list[dict[str, Any]], lines: dict[str, list[str]]) -> list[dict[str, Any]]:
    for r in rows:
        text = lines.get(r.get("file") or "", [])
        line = r.get("line") or 0
        r["code"] = text[line - 1].strip() if 1 <= line <= len(text) else None
    return rows


def _kernel_text(run: RunDir, records: list[dict[str, Any]], kernel_file: str | None) -> str | None:
    """The harvested file of the run that ncu replayed (same file name), for a report without imported text."""
    for rec in records:
        if kernel_file and rec.get("file") and PurePath(rec["file"]).name == PurePath(kernel_file).name:
            return runfiles.kernel_source(run, rec)
    return None


def source_view(tables: RunTables, stem: str, counters: dict[str, Any], records: list[dict[str, Any]], entry: dict[str, Any] | None = None) -> dict[str, Any]:
    """One kernel's source counters (`entry`: its source-pass status, naming its report): ranked rows (with
    their source text), totals, launch statistics."""
    view = {"stem": stem, "report": str(runfiles.source_report(tables.run, stem, entry)[0])}
    if "error" in counters:
        return {**view, "error": counters["error"]}
    spots = hotspots(counters)
    text = _kernel_text(tables.run, records, spots["kernel_file"]) if spots["by"] == "line" else None
    _with_code(spots["rows"], _code_lines(counters, spots["kernel_file"], text))
    for r in spots["rows"]:
        r.pop("order", None)
    return {**view, **spots, "launch": counters.get("launch") or {}}


def inspect_kernel(tables: RunTables, name: str, counters: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The view of kernel `name` (a row of tables.kernels). `counters`: stem -> its source report's counters
    (runfiles.source_counters) when the caller read them already."""
    df = tables.kernels
    row = {k: _value(v) for k, v in df[df["name"] == name].iloc[0].items()}
    status = runfiles.source_status(tables.run, NEED)
    mine = {stem: e for stem, e in status.items() if e.get("name") == name}
    ok = [stem for stem, e in mine.items() if e.get("status") == "ok"]
    read_warnings: list[str] = []   # a damaged counters file, read from its report instead
    if counters is None and set(ok) <= set(tables.source_counters):   # read with the tables, warned there
        counters = tables.source_counters
    counters = counters if counters is not None else runfiles.source_counters(tables.run, ok, status, read_warnings)
    records = [r for r in runfiles.kernel_records(tables.run) if r.get("name") == name]
    no_peaks: Peaks = {}
    rate, unit = ceiling_rate(row, tables.summary.get("peaks") or no_peaks)
    view: dict[str, Any] = {
        "run": str(tables.run.root), **{k: row.get(k) for k in ROW_FIELDS},
        "roofline": {**{k: row.get(k) for k in ROOFLINE_FIELDS}, "ceiling_rate": rate, "ceiling_unit": unit},
        "ncu": {short: row.get(col) for col, short in NCU_FIELDS.items() if row.get(col) is not None},
        "inductor_config": (records[0].get("launch_config") or {}) if records else {},
        "provenance": row.get("provenance") or (records[0].get("provenance") if records else None) or {},
        "source_counters": [source_view(tables, stem, counters.get(stem, {"error": "not read"}), records, mine[stem])
                            for stem in ok],
        "missing": None, "collect": None, "warnings": [*tables.warnings, *read_warnings],
    }
    failed = [f"{e.get('status')}: {e.get('reason')}" for e in mine.values() if e.get("status") != "ok"]
    if not ok:
        view["collect"] = collect_command(str(tables.run.root), name)
        view["missing"] = (f"no source counters for this kernel in {tables.run.root} (the source pass "
                           + (f"{failed[0]}" if failed else "did not run for it")
                           + f"); record them on the GPU machine: {view['collect']}")
    view["warnings"] += [f"{s['report']}: {s['error']}" for s in view["source_counters"] if "error" in s]
    return view


def inspected(tables: RunTables) -> list[str]:
    """The kernels of the table with source counters, in the table's order (the HTML report's sections)."""
    status = runfiles.source_status(tables.run, "the report's per-line sections need it")
    have = {e.get("name") for e in status.values() if e.get("status") == "ok"}
    return [n for n in tables.kernels.get("name", pd.Series(dtype=str)) if n in have]


def inspect(tables: RunTables, query: str) -> dict[str, Any]:
    """The view of the kernel `query` names (pick.py: exact, unique prefix, unique substring)."""
    return inspect_kernel(tables, pick_kernel(query, kernel_names(tables.kernels), str(tables.run.root)))
