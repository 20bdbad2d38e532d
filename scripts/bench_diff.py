#!/usr/bin/env python3
"""Wall time of `inductor-prof diff RUN_A RUN_B` as a user runs it: a fresh process each time (imports
included), terminal output to /dev/null; prints the median and the fastest wall time of --repeat runs, and
the median CPU time (user + system: less sensitive to other load on a shared machine). The target (issue 10):
under 2 s for the two example runs on the CPU machine.

    python3 scripts/bench_diff.py [RUN_A [RUN_B]] [--repeat 5]

Default RUN_A: examples/runs/flux-h100; default RUN_B: the other run folder under examples/runs/ when there is
exactly one, else RUN_A itself (said in the output).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNS = REPO / "examples" / "runs"
TARGET_S = 2.0


def default_b(a: Path) -> Path:
    others = [p for p in sorted(RUNS.iterdir()) if (p / "manifest.json").is_file() and p.resolve() != a.resolve()]
    return others[0] if len(others) == 1 else a


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def time_once(a: Path, b: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one diff."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cpu0, t0 = _children_cpu(), time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "inductor_prof", "diff", str(a), str(b)], env=env, cwd=REPO,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if out.returncode != 0:
        raise SystemExit(f"diff failed (exit {out.returncode}): {out.stderr[-2000:]}")
    return wall, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_a", nargs="?", type=Path, default=RUNS / "flux-h100")
    ap.add_argument("run_b", nargs="?", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    b = args.run_b or default_b(args.run_a)
    if b == args.run_a:
        print(f"note: one example run only; timing {args.run_a} against itself")
    runs = [time_once(args.run_a, b) for _ in range(args.repeat)]
    wall = [w for w, _ in runs]
    med = statistics.median(wall)
    print(f"diff {args.run_a.name} {b.name}: wall median {med:.2f} s, fastest {min(wall):.2f} s; CPU median "
          f"{statistics.median(c for _, c in runs):.2f} s; {len(runs)} runs, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; target < {TARGET_S:.0f} s: "
          f"{'met' if med < TARGET_S else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
