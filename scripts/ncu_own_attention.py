#!/usr/bin/env python3
"""The own attention kernels and SDPA cuDNN at one shape, each tuned, then launched once inside an NVTX range
`prof` for Nsight Compute: what bounds each (tensor-pipe utilisation, warp stalls, occupancy, spills).

    ncu --nvtx --nvtx-include "prof/" --section SpeedOfLight --section ComputeWorkloadAnalysis \
        --section WarpStateStats --section Occupancy --section LaunchStats \
        python3 scripts/ncu_own_attention.py [--shape 1,24,4608,128] [--kv-heads 8] [--causal]

Without ncu it prints each kernel's tuned config and time (the tuning is the same as the attention stage's).
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KERNELS = ("triton_fa", "gluon_fa", "cuda_fa")


def main() -> int:
    import importlib

    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shape", default="1,24,4608,128", help="B,H,S,D")
    ap.add_argument("--kv-heads", type=int, default=None, help="GQA: K/V heads (default: H)")
    ap.add_argument("--causal", action="store_true")
    a = ap.parse_args()
    b, h, s, d = (int(x) for x in a.shape.split(","))
    h_kv = a.kv_heads or h
    q = torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16)
    k, v = (torch.randn(b, h_kv, s, d, device="cuda", dtype=torch.bfloat16) for _ in "kv")
    scale = 1 / math.sqrt(d)
    chosen = {}
    for name in KERNELS:
        module = importlib.import_module(f"inductor_prof.attention.kernels.{name}")
        rows, best = module.tune(q, k, v, scale, causal=a.causal)
        ok = [r for r in rows if r["ms"] == r["ms"]]
        fastest = min(ok, key=lambda r: r["ms"]) if ok else None
        print(f"{name}: {fastest['config'] if fastest else 'no config ran'} "
              f"{fastest['ms'] * 1e3 if fastest else float('nan'):.1f} us", flush=True)
        chosen[name] = (module, best)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push("prof")
    for name, (module, best) in chosen.items():
        if best is not None:
            module.forward(q, k, v, scale, best, causal=a.causal)
    with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
        F.scaled_dot_product_attention(q, k, v, scale=scale, is_causal=a.causal, enable_gqa=h_kv != h)
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
