"""Reading .ncu-rep files with NVIDIA's ncu_report into short-named, unit-normalised metrics.

Reports are read in a process of their own (`python -m inductor_prof.drivers.ncu.report REPORT...` prints
JSON): ncu_report segfaulted when loaded into a process that already held torch (H100 machine, ncu 2025.3.1),
and a separate process keeps the profile run alive and the reader free of what the profiler process loaded.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ... import procs
from ...childenv import child_env
from ...errors import one_line
from .locate import import_ncu_report
from .metrics import METRICS, from_raw

TIMEOUT_S = 300


def parse_report(path: Path, index: int = 0) -> dict[str, float]:
    """Short-named metrics of the index-th profiled kernel of a .ncu-rep (ns, bytes, %, counts)."""
    return parse_report_all(path)[index]


def parse_report_all(path: Path) -> list[dict[str, float]]:
    """Metrics of every profiled kernel (ncu 'action') of a report, in profiling order; 'kernel' holds the
    mangled name. Everything is read while the report context is alive: its actions dangle once it is freed."""
    ncu_report = import_ncu_report()
    ctx = ncu_report.load_report(str(path))
    mangled = getattr(getattr(ncu_report, "IAction", None), "NameBase_MANGLED", None)
    out = []
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            action = rng.action_by_idx(a)
            present = set(action.metric_names())
            raw = {}
            for name in METRICS.values():     # only the metrics asked for are read
                if name in present:
                    metric = action.metric_by_name(name)
                    raw[name] = (metric.as_double(), metric.unit())
            metrics = from_raw(raw)
            metrics["kernel"] = action.name(mangled) if mangled is not None else action.name()
            out.append(metrics)
    del ctx
    return out


def main(argv: list[str]) -> int:
    out = {}
    for path in argv[1:]:
        try:
            out[path] = {"results": parse_report_all(Path(path))}
        except Exception as e:  # one unreadable report is that report's failure
            out[path] = {"error": one_line(e)}
    json.dump(out, sys.stdout)
    return 0


def parse_reports(paths: list[Path]) -> dict[str, dict]:
    """path -> {"results": [metrics per kernel, in profiling order]} or {"error": why}."""
    if not paths:
        return {}
    done = procs.run([sys.executable, "-m", "inductor_prof.drivers.ncu.report", *map(str, paths)], child_env(),
                     TIMEOUT_S)
    if not done.ok:
        why = f"report parser {done.why(TIMEOUT_S)}"
        return {str(p): {"error": why} for p in paths}
    return json.loads(done.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
