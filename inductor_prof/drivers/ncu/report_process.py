"""What both report readers (report.py: the metrics, source.py: the source counters) share: walking a loaded
report's kernels, and reading reports in a child process of their own, which prints JSON.

ncu_report segfaulted when loaded into a process that already held torch (H100 machine, ncu 2025.3.1); a child
also keeps the profile run alive and the reader free of what the profiler process loaded.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

from ... import procs
from ...childenv import child_env
from ...errors import one_line

TIMEOUT_S = 300


def each_action(ncu_report: Any, path: Path, read: Callable[[Any], Any]) -> list:
    """`read` of every profiled kernel (ncu 'action') of a report, in profiling order. Everything is read while
    the report context is alive: its actions dangle once it is freed."""
    ctx = ncu_report.load_report(str(path))
    out = [read(ctx.range_by_idx(r).action_by_idx(a)) for r in range(ctx.num_ranges())
           for a in range(ctx.range_by_idx(r).num_actions())]
    del ctx
    return out


def child_main(argv: list[str], read: Callable[[Path], list], key: str) -> int:
    """The child's side: prints {path: {key: read(path)} or {"error": why}} as JSON."""
    out: dict[str, dict[str, Any]] = {}
    for path in argv[1:]:
        try:
            out[path] = {key: read(Path(path))}
        except Exception as e:  # one unreadable report is that report's failure
            out[path] = {"error": one_line(e)}
    json.dump(out, sys.stdout)
    return 0


def read_in_child(module: str, paths: list[Path], what: str) -> dict[str, dict]:
    """The parent's side: `python -m module PATH...` (a child_main) -> its JSON; a failed child is every
    report's error, said as `what` failed."""
    if not paths:
        return {}
    done = procs.run([sys.executable, "-m", module, *map(str, paths)], child_env(), TIMEOUT_S)
    if not done.ok:
        why = f"{what} {done.why(TIMEOUT_S)}"
        return {str(p): {"error": why} for p in paths}
    return json.loads(done.stdout)
