#!/usr/bin/env python3
"""Wall time of the commands a user runs on the recorded FLUX example, each in a fresh process as from the
shell (Python start-up and imports included), against the issue's targets: `report RUN --html FILE` < 3 s.

    python3 scripts/bench_html_diff.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "runs" / "flux-h100"


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv: list[str], repeat: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each run (CPU time: what wall time is on an idle machine, as the process runs
    on one core; on a shared machine the wall time also counts the waits for a core)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    walls, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), _child_cpu()
        subprocess.run(argv, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
        walls.append(time.perf_counter() - t0)
        cpus.append(_child_cpu() - c0)
    return walls, cpus


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "flux.html"
        cases = [("report --html", [sys.executable, "-m", "inductor_prof", "report", str(EXAMPLE), "--html",
                                    str(page)], 3.0)]
        for label, argv, limit in cases:
            walls, cpus = timed(argv, args.repeat)
            ok = statistics.median(walls) < limit
            failed |= not ok
            print(f"{label}: wall median {statistics.median(walls):.2f} s (min {min(walls):.2f}), CPU median "
                  f"{statistics.median(cpus):.2f} s over {len(walls)} runs (target < {limit:.0f} s wall: "
                  f"{'ok' if ok else 'MISSED'}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        print(f"HTML page: {page.stat().st_size / 1e6:.2f} MB (target < 5 MB)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
