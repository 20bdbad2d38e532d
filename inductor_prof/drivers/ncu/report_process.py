"""What both report readers (report.py: the metrics, source.py: the source counters) share: walking a loaded
report's kernels, and reading reports in a worker process of their own (`python -m inductor_prof.worker SPEC`, a
ReportReadSpec), whose result event is the reports read.

ncu_report segfaulted when loaded into a process that already held torch (H100 machine, ncu 2025.3.1); a child
also keeps the profile run alive and the reader free of what the profiler process loaded.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Callable

from ... import procs
from ...errors import one_line
from ...specs import ReportReadSpec

TIMEOUT_S = 300


def each_action(ncu_report: Any, path: Path, read: Callable[[Any], Any]) -> list:
    """`read` of every profiled kernel (ncu 'action') of a report, in profiling order. Everything is read while
    the report context is alive: its actions dangle once it is freed."""
    ctx = ncu_report.load_report(str(path))
    out = [read(ctx.range_by_idx(r).action_by_idx(a)) for r in range(ctx.num_ranges())
           for a in range(ctx.range_by_idx(r).num_actions())]
    del ctx
    return out


# a ReportReadSpec's reader -> (its module, the function reading one report, the key of what it read)
READERS = {"metrics": ("inductor_prof.drivers.ncu.report", "parse_report_all", "results"),
           "source": ("inductor_prof.drivers.ncu.source", "read_kernels", "kernels")}


def read_each(paths: list[str], read: Callable[[Path], list], key: str) -> dict[str, dict]:
    """{path: {key: read(path)} or {"error": why}}: one unreadable report is that report's error."""
    out: dict[str, dict] = {}
    for path in paths:
        try:
            out[path] = {key: read(Path(path))}
        except Exception as e:  # one unreadable report is that report's failure
            out[path] = {"error": one_line(e)}
    return out


def work(spec: ReportReadSpec, events) -> dict[str, dict]:
    """The worker's side (worker.py, kind `ncu_report`)."""
    module, function, key = READERS[spec.reader]
    return read_each(spec.paths, getattr(importlib.import_module(module), function), key)


def read_in_child(reader: str, paths: list[Path], what: str) -> dict[str, dict]:
    """The parent's side: the reports read by a worker (READERS[reader]); a failed worker is every report's
    error, said as `what` failed."""
    if not paths:
        return {}
    done = procs.run_worker(ReportReadSpec(reader=reader, paths=[str(p) for p in paths]), None, TIMEOUT_S)
    if not done.ok:
        why = f"{what} {done.why()}"
        return {str(p): {"error": why} for p in paths}
    return done.result
