#!/usr/bin/env python3
"""Attention backends side by side in one process at one shape (default FLUX.1-dev's), with the ratios the
project targets: own Triton >= 0.95x SDPA cuDNN (printed for the `tl` kernel triton_fa2 and for the Gluon
kernel gluon_fa3, both Triton), own CUDA C++ >= 0.5x SDPA cuDNN.

    python3 scripts/bench_attention.py [--shape 1,24,4608,128] [--dtype bfloat16] [--csv out.csv]
"""
from __future__ import annotations

import argparse
import sys

import pandas as pd

from inductor_prof.attention.benchmark.bench import BenchOptions
from inductor_prof.attention.semantics.shapes import parse_shape
from inductor_prof.pipeline.attention import benchmark
from inductor_prof.report.terminal import attention_table, make_console

TARGETS = {"triton_fa2": 0.95, "gluon_fa3": 0.95, "cuda_mma_fa2": 0.5}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shape", default="1,24,4608,128")
    ap.add_argument("--dtype", default="bfloat16")
    ap.add_argument("--backends", default=None, help="comma-separated (default: all)")
    ap.add_argument("--csv", default=None)
    ap.add_argument("--tuning-csv", default=None)
    args = ap.parse_args()
    shape = parse_shape(args.shape, args.dtype)
    opts = BenchOptions(backends=args.backends.split(",") if args.backends else None)
    df, summary = benchmark(None, [shape], opts, model_op="aten::_cudnn_attention_forward",
                            on_backend=lambda i, n, label: print(f"[{i}/{n}] {label}", file=sys.stderr, flush=True))
    tuning = pd.DataFrame(summary["tuning"])
    if args.csv:
        df.to_csv(args.csv, index=False)
    if args.tuning_csv and len(tuning):
        tuning.to_csv(args.tuning_csv, index=False)
    console = make_console()
    if len(tuning):
        with pd.option_context("display.width", 200, "display.max_rows", 200):
            print(tuning[["backend", "config", "ms", "tflops", "error"]].to_string(index=False))
    console.print(attention_table(df, f"Attention at {shape.label} {shape.dtype} (vs model: over SDPA cuDNN)",
                                  width=console.width))
    by = {r["backend"]: r for r in df.to_dict("records")}
    base = by.get("sdpa_cudnn")
    if not base or not base["ok"]:
        print("SDPA cuDNN did not run here: no ratios")
        return 1
    for name, target in TARGETS.items():
        r = by.get(name)
        if not r or not r["ok"]:
            print(f"{name}: did not run or failed its check ({r and r['reason']})")
            continue
        ratio = base["ms"] / r["ms"]
        print(f"{name}: {r['tflops']:.0f} TFLOP/s vs SDPA cuDNN {base['tflops']:.0f}: ratio {ratio:.3f} "
              f"(target >= {target}) {'MET' if ratio >= target else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
