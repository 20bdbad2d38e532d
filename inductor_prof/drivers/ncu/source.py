"""Reading the source counters of a .ncu-rep (the source pass: SourceCounters and its neighbours) with NVIDIA's
ncu_report: per instruction address (PC), its source file and line (Triton kernels carry line info; library
kernels have none), its SASS, the instructions it executed, its warp-state samples by reason and the L2
sectors its global accesses asked for; and the kernel's launch statistics.

As report.py does, reports are read in a worker process of their own (report_process.py says why).
"""
from __future__ import annotations

from pathlib import Path

from .locate import import_ncu_report
from .metrics import FUNCTION_PC, LAUNCH_METRICS, PC_METRICS, STALL_PREFIX
from .report_process import each_action, read_in_child


def _per_pc(action, raw: str) -> dict[int, float]:
    """{PC: value} of a metric with one instance per instruction address; {} when the report lacks it."""
    metric = action.metric_by_name(raw)
    if metric is None or not metric.has_correlation_ids():
        return {}
    pcs = metric.correlation_ids()
    return {pcs.as_uint64(i): metric.as_double(i) for i in range(metric.num_instances())}


def _stall_names(action) -> list[str]:
    return sorted(n for n in action.metric_names() if n.startswith(STALL_PREFIX) and not n.endswith("_not_issued"))


def _launch(action) -> dict[str, float]:
    out = {}
    for short, raw in LAUNCH_METRICS.items():
        metric = action.metric_by_name(raw)
        if metric is not None:
            out[short] = metric.as_double()
    return out


def read_action(action) -> dict:
    """The source counters of one profiled kernel: {"kernel", "function_pc", "files": {path: imported text},
    "pcs": [one record per PC, in address order], "launch": {short name: value}}. A PC record: offset (from
    the kernel's first instruction), file and line (None without line info), sass, inst, samples, stalls
    ({reason: samples}, reasons with samples only), l2_sectors and l2_sectors_ideal where it accessed global
    memory."""
    counters = {short: _per_pc(action, raw) for short, raw in PC_METRICS.items()}
    stalls = {name[len(STALL_PREFIX):]: _per_pc(action, name) for name in _stall_names(action)}
    every = sorted(set().union(*counters.values(), *stalls.values()))
    start = action.metric_by_name(FUNCTION_PC)
    first = start.as_uint64(0) if start is not None and start.num_instances() else (every[0] if every else 0)
    pcs = []
    for pc in every:
        info = action.source_info(pc)
        rec = {"offset": pc - first, "file": info.file_name() if info else None, "line": info.line() if info else None,
               "sass": action.sass_by_pc(pc).strip(), "inst": counters["inst"].get(pc, 0.0),
               "samples": counters["samples"].get(pc, 0.0),
               "stalls": {r: v[pc] for r, v in stalls.items() if v.get(pc)}}
        for key in ("l2_sectors", "l2_sectors_ideal"):
            if pc in counters[key]:
                rec[key] = counters[key][pc]
        pcs.append(rec)
    return {"kernel": action.name(action.NameBase_MANGLED), "function_pc": first,
            "files": dict(action.source_files().items()), "pcs": pcs, "launch": _launch(action)}


def read_kernels(path: Path) -> list[dict]:
    """read_action of every kernel of a report, in the report's order."""
    return each_action(import_ncu_report(), path, read_action)


def read_report(path: Path, index: int = 0) -> dict:
    """read_action of the index-th kernel of a report."""
    kernels = read_kernels(path)
    if index >= len(kernels):
        raise ValueError(f"the report holds {len(kernels)} kernels, not a kernel {index}")
    return kernels[index]


def read_all(paths: list[Path]) -> dict[str, dict]:
    """path -> {"kernels": [read_action of each kernel]} or {"error": why}; read in a child process."""
    return read_in_child("source", paths, "source counter reader")


def kernel_at(read: dict, index: int) -> dict:
    """The index-th kernel of one report as read_all read it, or {"error": why}."""
    if "error" in read:
        return read
    kernels = read.get("kernels") or []
    return kernels[index] if 0 <= index < len(kernels) else \
        {"error": f"the report holds {len(kernels)} kernels, not a kernel {index}"}


def read_reports(paths: list[Path]) -> dict[str, dict]:
    """path -> its first kernel's read_action, or {"error": why} (a report of one kernel each)."""
    return {p: kernel_at(r, 0) for p, r in read_all(paths).items()}

