#!/usr/bin/env python3
"""The own attention kernels against SDPA cuDNN across head dims and causal lengths, one process, one CSV (the
attention sweep of examples/sweeps/, re-recorded by one command):

    python3 scripts/sweep_attention.py OUT.csv [--groups head-dims,causal-lengths] [--dtypes bfloat16,float16]
        [--backends triton_fa2,gluon_fa3,sdpa_cudnn] [--rep-ms 30] [--budget-s 480] [--dry-run] [--shape S ...]

Groups: `head-dims`: (4,16,2048,D) dense and causal at every head dim the own kernels take (64, 80, 96, 128,
192, 256), in each of --dtypes; `causal-lengths`: (1,32,S,128) causal at S = 1,024 ... 32,768 in bfloat16. Each
shape is benchmarked as `inductor-prof attention --shape ...` does (the own kernels tuned and checked against
float64, the backends timed in rotated rounds), its rows appended to OUT.csv as it finishes (the columns of
attention-h100.csv; `speedup_vs_model` is over SDPA cuDNN), and a line printed per own kernel: TFLOP/s against
cuDNN's. Shapes are taken in order until --budget-s seconds have passed. --dry-run lists the shapes and exits;
--shape (repeatable, as `inductor-prof attention --shape`, in the first of --dtypes) runs those instead of groups.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from inductor_prof.attention.kernels.head_dims import SUPPORTED as HEAD_DIMS   # plain Python: --dry-run needs no torch

CAUSAL_LENGTHS = (1024, 2048, 4096, 8192, 16384, 32768)
GROUPS = ("head-dims", "causal-lengths")
CUDNN_OP = "aten::_cudnn_attention_forward"   # speed-ups over the backend that runs it: sdpa_cudnn


def shapes(groups: list[str], dtypes: list[str]) -> list[tuple[str, str]]:
    """(--shape text, dtype) in the order they run: each group's in turn."""
    out = []
    for group in groups:
        if group == "head-dims":
            out += [(f"4,16,2048,{d}{mask}", dtype) for dtype in dtypes for d in HEAD_DIMS for mask in ("", ",causal")]
        elif group == "causal-lengths":
            out += [(f"1,32,{s},128,causal", "bfloat16") for s in CAUSAL_LENGTHS]
        else:
            raise SystemExit(f"sweep_attention: unknown group {group!r} (known: {', '.join(GROUPS)})")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", type=Path)
    ap.add_argument("--groups", default=",".join(GROUPS))
    ap.add_argument("--dtypes", default="bfloat16", help="of the head-dims group, comma-separated")
    ap.add_argument("--backends", default="triton_fa2,gluon_fa3,sdpa_cudnn")
    ap.add_argument("--rep-ms", type=float, default=30.0)
    ap.add_argument("--budget-s", type=float, default=480.0, help="stop taking new shapes after this many seconds")
    ap.add_argument("--dry-run", action="store_true", help="list the shapes, run nothing")
    ap.add_argument("--shape", action="append", default=[], help="B,H,S,D[,causal]: this shape, not the groups")
    a = ap.parse_args()
    dtypes = [d for d in a.dtypes.split(",") if d]
    todo = ([(text, dtypes[0]) for text in a.shape] if a.shape
            else shapes([g for g in a.groups.split(",") if g], dtypes))
    if a.dry_run:
        for text, dtype in todo:
            print(f"--shape {text} --dtype {dtype}")
        return 0

    import pandas as pd

    from inductor_prof.attention.semantics.shapes import parse_shape
    from inductor_prof.pipeline.attention import benchmark, options
    from inductor_prof.report.export import write_table
    from inductor_prof.settings import resolve

    opts = options(resolve({})[0], a.backends.split(","), rep_ms=a.rep_ms, device="cuda")
    t0 = time.perf_counter()
    frames = []
    for i, (text, dtype) in enumerate(todo):
        if time.perf_counter() - t0 > a.budget_s:
            print(f"budget of {a.budget_s:g} s spent: {len(todo) - i} shapes not taken, from --shape {text}",
                  flush=True)
            break
        shape = parse_shape(text, dtype)
        df, _ = benchmark(None, [shape], opts, model_op=CUDNN_OP)
        frames.append(df)
        write_table(a.csv, pd.concat(frames, ignore_index=True))   # after each shape: a stop keeps what ran
        by = {r["backend"]: r for r in df.to_dict("records")}
        cudnn = by.get("sdpa_cudnn", {}).get("tflops", float("nan"))
        for name, r in by.items():
            if r["origin"] != "own":
                continue
            said = (f"{r['tflops']:.0f} TFLOP/s, {r['speedup_vs_model']:.3f}x cuDNN ({cudnn:.0f}), {r['config']}"
                    if r["ok"] else f"not ok: {r['reason'] or 'rel_err %.3g' % r['rel_err']}")
            print(f"{shape.label} {dtype} {name}: {said}", flush=True)
    print(f"{sum(len(f) for f in frames)} rows in {a.csv} ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
