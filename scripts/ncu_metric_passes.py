#!/usr/bin/env python3
"""How many replay passes ncu needs for the metric pass's metrics (drivers/ncu/metrics.METRICS) and for subsets
of them, on one elementwise kernel: what each group of metrics costs the ncu stage per kernel. Not a test.

    python3 scripts/ncu_metric_passes.py

On the H100 (2026-11-25, ncu 2025.3.1): all 21 metrics 11 passes; without the 9 SASS op counters (fadd...dfma)
10; the SASS counters alone 1.
"""
from __future__ import annotations

import re
import subprocess
import sys
import time

from inductor_prof.drivers.ncu.locate import find_ncu
from inductor_prof.drivers.ncu.metrics import METRICS

SASS = {"fadd", "fmul", "ffma", "hadd", "hmul", "hfma", "dadd", "dmul", "dfma"}
SUBSETS = {
    "all": list(METRICS),
    "no_fp64": [k for k in METRICS if k not in {"dadd", "dmul", "dfma"}],
    "no_sass": [k for k in METRICS if k not in SASS],
    "sass_only": [k for k in METRICS if k in SASS],
}
PROGRAM = ("import torch; x = torch.ones(1 << 24, device='cuda'); torch.cuda.synchronize(); y = x * 2; "
           "torch.cuda.synchronize()")


def main() -> int:
    ncu = find_ncu(None)
    for name, keys in SUBSETS.items():
        cmd = [ncu, "--clock-control", "base", "--cache-control", "all", "-k", "regex:elementwise", "-c", "1",
               "--metrics", ",".join(METRICS[k] for k in keys), sys.executable, "-c", PROGRAM]
        t0 = time.monotonic()
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        passes = re.search(r"(\d+) pass", done.stdout + done.stderr)
        print(f"{name:10s} {len(keys):2d} metrics  {passes.group(1) if passes else '?'} passes  "
              f"{time.monotonic() - t0:.1f} s")
        if not passes:
            print((done.stdout + done.stderr)[-800:], file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
