#!/usr/bin/env python3
"""The own kernels under sliding windows and padding against FlexAttention compiled (the same mask as a BlockMask)
and, where the mask reduces to causal, SDPA cuDNN with is_causal; ratios side by side, a CSV for examples/sweeps/.

    python3 scripts/bench_masks.py OUT.csv [--budget-s 240] [--quick]

Shapes: (1, 32/8, S, D) bf16, S in 4,096 / 16,384 (--quick: 4,096 only), D 64 and 128; causal windows of 256,
1,024 and 4,096 keys (4,096 at 4,096 tokens is plain causal: cuDNN's is_causal is timed beside it) and a padding
of the last 10% of the keys. Each own kernel is tuned at each shape (its band configs), then every backend is
timed by timing.time_ms. Ratios: flex_ms / own_ms and cudnn_ms / own_ms (above 1: the own kernel is faster).
Shapes are taken in order until --budget-s seconds have passed; the CSV holds those measured.
Documents (causal within each document) have no own kernel yet: not timed here.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROWS = []


def shapes(quick: bool):
    from inductor_prof.attention.semantics.masks import MaskSpec

    for S in (4096,) if quick else (4096, 16384):
        for D in (128, 64):
            for w in (256, 1024, 4096):
                yield S, D, MaskSpec("window", window=w)
            yield S, D, MaskSpec("padding", key_lengths=(S - S // 10,))


def measure(S: int, D: int, spec) -> dict:
    import torch

    from inductor_prof.attention.benchmark import library
    from inductor_prof.attention.benchmark.registry import own_mask_args
    from inductor_prof.attention.kernels import gluon_fa, triton_fa
    from inductor_prof.attention.semantics import masks
    from inductor_prof.attention.timing import time_ms

    B, H, HKV = 1, 32, 8
    q = torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16)
    k, v = (torch.randn(B, HKV, S, D, device="cuda", dtype=torch.bfloat16) for _ in "kv")
    scale = 1 / math.sqrt(D)
    keep = masks.build(spec, B, S, S, "cuda")
    args = own_mask_args(keep, q, k)
    # a window as long as the sequence is causal: cuDNN's is_causal is the yardstick there
    causal = spec.kind == "window" and spec.window >= S
    row = {"S": S, "D": D, "heads": f"{H}/{HKV}", "mask": spec.kind, "window": spec.window,
           "key_lengths": ",".join(map(str, spec.key_lengths)), "pairs": masks.pairs(spec, B, S, S)}
    for name, module in (("gluon", gluon_fa), ("tl", triton_fa)):
        rows, best = module.tune(q, k, v, scale, **args)
        ok = [r for r in rows if r["ms"] == r["ms"]]
        row[f"{name}_config"] = min(ok, key=lambda r: r["ms"])["config"] if ok else ""
        row[f"{name}_ms"] = time_ms(lambda: module.forward(q, k, v, scale, best, **args)) if best else math.nan
    row["flex_ms"] = time_ms(lambda: library.flex(q, k, v, scale, mask=keep))
    cudnn = library.sdpa("sdpa_cudnn")
    row["cudnn_causal_ms"] = time_ms(lambda: cudnn(q, k, v, scale, causal=True)) if causal else math.nan
    flops = 4 * D * B * H * row["pairs"]
    for name in ("gluon", "tl"):
        row[f"{name}_tflops"] = flops / (row[f"{name}_ms"] * 1e9)
        row[f"{name}_vs_flex"] = row["flex_ms"] / row[f"{name}_ms"]
        row[f"{name}_vs_cudnn"] = row["cudnn_causal_ms"] / row[f"{name}_ms"]
    row["flex_tflops"] = flops / (row["flex_ms"] * 1e9)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", type=Path)
    ap.add_argument("--budget-s", type=float, default=240.0, help="stop taking new shapes after this many seconds")
    ap.add_argument("--quick", action="store_true", help="4,096 tokens only")
    a = ap.parse_args()
    import pandas as pd
    import torch

    from inductor_prof.attention.timing import warm_gpu
    from inductor_prof.rundir import write_csv

    if not torch.cuda.is_available():
        print("bench_masks: needs a CUDA GPU", file=sys.stderr)
        return 1
    warm_gpu()
    t0 = time.monotonic()
    for S, D, spec in shapes(a.quick):
        if time.monotonic() - t0 > a.budget_s:
            print(f"budget of {a.budget_s:.0f} s spent: stopping before S={S} D={D} {spec.label}", file=sys.stderr)
            break
        r = measure(S, D, spec)
        ROWS.append(r)
        print(f"S={S:>5} D={D:>3} {spec.kind:>8}{spec.label:>14}  gluon {r['gluon_ms']:.3f} ms "
              f"({r['gluon_tflops']:.0f} TF/s)  tl {r['tl_ms']:.3f}  flex {r['flex_ms']:.3f}  "
              f"cudnn(causal) {r['cudnn_causal_ms']:.3f}  | gluon/flex {r['gluon_vs_flex']:.2f}x  "
              f"tl/flex {r['tl_vs_flex']:.2f}x  gluon/cudnn {r['gluon_vs_cudnn']:.2f}x", flush=True)
        write_csv(a.csv, pd.DataFrame(ROWS))   # after each shape: a killed run keeps what it measured
    print(f"{len(ROWS)} shapes in {time.monotonic() - t0:.0f} s -> {a.csv}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
