#!/usr/bin/env python3
"""The metric pass's metrics, the source pass's sections, and both in one ncu process, over the same 10 kernels
(Triton, cuBLAS and ATen ones): passes per kernel, seconds, report size, and the metrics' values side by side.
Why the source pass stays a process of its own (docs/architecture.md, stage ncu_source). Not a test.

    python3 scripts/ncu_pass_union.py OUT_DIR

On the H100 (2026-11-25, ncu 2025.3.1, second round): metrics 11 passes a kernel, 14.8 s; source sections 12
passes, 16.7 s; both 20 passes, 18.4 s; the metrics' values alike in the metrics-only and the combined process
(durations within 2%, DRAM bytes within 1%).
"""
from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from inductor_prof.drivers.ncu import source
from inductor_prof.drivers.ncu.locate import find_ncu
from inductor_prof.drivers.ncu.metrics import METRICS, SOURCE_SECTIONS
from inductor_prof.drivers.ncu.report import parse_reports

PROGRAM = """
import torch, torch.nn.functional as F
x = torch.randn(4096, 3072, device='cuda', dtype=torch.bfloat16)
w = torch.randn(3072, 3072, device='cuda', dtype=torch.bfloat16)
f = torch.compile(lambda x: F.gelu(x * 1.5 + 0.5))
g = torch.compile(lambda x: F.layer_norm(x, (3072,)))
f(x); g(x); torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
for _ in range(2):
    y = f(x); z = g(x); m = x @ w; s = torch.softmax(x.float(), -1); c = x.float().sum(0)
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
"""
SECTIONS = [a for s in SOURCE_SECTIONS for a in ("--section", s)] + ["--import-source", "yes"]
VARIANTS = {"metrics": ["--metrics", ",".join(METRICS.values())], "source": SECTIONS,
            "both": ["--metrics", ",".join(METRICS.values()), *SECTIONS]}


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "ncu-pass-union")
    out.mkdir(parents=True, exist_ok=True)
    program = out / "program.py"
    program.write_text(PROGRAM)
    base = [find_ncu(None), "--clock-control", "none", "--profile-from-start", "off", "-c", "10", "-f"]
    for rnd in range(2):    # the first round also compiles the program's kernels
        for name, extra in VARIANTS.items():
            report = out / f"{name}.ncu-rep"
            t0 = time.monotonic()
            done = subprocess.run([*base, "-o", str(report.with_suffix("")), *extra, sys.executable, str(program)],
                                  capture_output=True, text=True, timeout=600)
            wall = time.monotonic() - t0
            passes = sorted(set(re.findall(r"(\d+) pass", done.stdout + done.stderr)))
            print(f"round {rnd} {name:8s} {wall:5.1f} s  passes a kernel {','.join(passes)}  "
                  f"{report.stat().st_size / 1e6:.1f} MB" if report.exists() else f"{name}: no report", flush=True)
            if done.returncode:
                print((done.stdout + done.stderr)[-1500:], file=sys.stderr)
            elif rnd == 1 and name != "source":
                rows = parse_reports([report])[str(report)].get("results", [])
                print("   duration ns, DRAM MB:",
                      [(round(r.get("duration_ns", 0)), round(r.get("dram_bytes", 0) / 1e6, 1)) for r in rows])
            elif rnd == 1:
                kernels = source.read_all([report])[str(report)].get("kernels") or []
                print(f"   source counters of {len(kernels)} kernels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
