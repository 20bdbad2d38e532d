"""Reading .ncu-rep files with NVIDIA's ncu_report into short-named, unit-normalised metrics, in a process of
their own (a worker: report_process.py says why).
"""
from __future__ import annotations

from pathlib import Path

from .locate import import_ncu_report
from .metrics import METRICS, from_raw
from .report_process import each_action, read_in_child


def parse_report(path: Path, index: int = 0) -> dict[str, float]:
    """Short-named metrics of the index-th profiled kernel of a .ncu-rep (ns, bytes, %, counts)."""
    return parse_report_all(path)[index]


def parse_report_all(path: Path) -> list[dict[str, float]]:
    """Metrics of every profiled kernel of a report, in profiling order; 'kernel' holds the mangled name."""
    ncu_report = import_ncu_report()
    mangled = getattr(getattr(ncu_report, "IAction", None), "NameBase_MANGLED", None)

    def metrics_of(action) -> dict:
        present = set(action.metric_names())
        raw = {}
        for name in METRICS.values():     # only the metrics asked for are read
            if name in present:
                metric = action.metric_by_name(name)
                raw[name] = (metric.as_double(), metric.unit())
        metrics = from_raw(raw)
        metrics["kernel"] = action.name(mangled) if mangled is not None else action.name()
        return metrics
    return each_action(ncu_report, path, metrics_of)


def parse_reports(paths: list[Path]) -> dict[str, dict]:
    """path -> {"results": [metrics per kernel, in profiling order]} or {"error": why}."""
    return read_in_child("metrics", paths, "report parser")
