"""Performance of `inductor-prof profile flux` on this GPU, printed as a table.

1. The profile itself (a subprocess, wall time) and its parts from the manifest: build, compile,
   harvest, profiled steps, ncu.
2. In that one process: the step time under Proton over the plain compiled step time (target <= 1.03),
   and the annotated step over the plain step.
3. With --baseline: a plain torch.compile of the same model in another process (Inductor's static
   launcher on, no hooks), to show what instrumenting for annotations costs across processes.

usage: python scripts/bench_profile.py OUT [--ncu] [--baseline] [extra profile args, e.g. --height 768]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

BASELINE = r"""
import statistics, sys, time, torch
from inductor_prof.targets import FluxOptions, resolve
from inductor_prof.pipeline.compile import CompileOptions, compile_target
t = resolve("flux", FluxOptions())
compile_target(t, CompileOptions())
for _ in range(3): t()
times = []
for _ in range(int(sys.argv[1])):
    torch.cuda.synchronize(); t0 = time.perf_counter(); t(); torch.cuda.synchronize()
    times.append((time.perf_counter() - t0) * 1e3)
print("PLAIN_MS", statistics.median(times))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--ncu", action="store_true")
    ap.add_argument("--baseline", action="store_true")
    ap.add_argument("--steps", type=int, default=10)
    a, extra = ap.parse_known_args()   # the rest goes to `inductor-prof profile` (--height 768 ...)
    cmd = [sys.executable, "-m", "inductor_prof", "profile", "flux", "--out", a.out, "--force",
           "--steps", str(a.steps), *(["--ncu"] if a.ncu else []), *extra]
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, timeout=3600).returncode
    wall = time.perf_counter() - t0
    m = json.loads((Path(a.out) / "manifest.json").read_text())
    print(f"\nprofile flux: exit {rc}, wall {wall:.1f} s")
    for name, st in m["stages"].items():
        print(f"  {name:16s} {st['status']:7s} {st.get('seconds', float('nan')):8.1f} s")
    p = m.get("profile", {})
    print(f"plain compiled step     {p.get('plain_step_ms', float('nan')):8.2f} ms (median of {p.get('steps')})")
    print(f"profiled step (Proton)  {p.get('proton_step_ms', float('nan')):8.2f} ms  "
          f"ratio {p.get('proton_over_plain', float('nan')):.3f} (target <= 1.03)")
    if p.get("annotated_step_ms"):
        print(f"annotated step          {p['annotated_step_ms']:8.2f} ms  "
              f"ratio {p['annotated_step_ms'] / p['plain_step_ms']:.3f} (one step, Proton launch hook)")
    if a.baseline:
        out = subprocess.run([sys.executable, "-c", BASELINE, str(a.steps)], capture_output=True, text=True,
                             timeout=1800)
        line = [ln for ln in out.stdout.splitlines() if ln.startswith("PLAIN_MS")]
        if line:
            base = float(line[0].split()[1])
            print(f"plain compile, own process (static launcher) {base:8.2f} ms; profiled step over it "
                  f"{p['proton_step_ms'] / base:.3f}")
        else:
            print("baseline failed:", out.stderr[-2000:])
    return rc


if __name__ == "__main__":
    sys.exit(main())
