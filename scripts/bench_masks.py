#!/usr/bin/env python3
"""The own kernels under sliding windows, padding and documents against FlexAttention compiled (the same mask as
a BlockMask) and SDPA: cuDNN with is_causal where the mask reduces to causal, SDPA's own choice with the dense
mask for documents; ratios side by side in one run, a CSV for examples/sweeps/.

    python3 scripts/bench_masks.py OUT.csv [--budget-s 240] [--sizes 4096,16384] [--head-dims 128,64]
        [--windows 256,1024,4096] [--docs 1,4,16] [--padding] [--tune-tl]

Shapes: (1, 32/8, S, D) bf16. Windows: causal windows of w keys (w >= S is plain causal: cuDNN's is_causal is
timed beside it). Documents: n documents of uneven lengths (documents()) packed in S tokens, causal within each,
given as the mask_mod a model writes, made into a BlockMask once; FlexAttention runs that BlockMask and the own
kernels take it (registry.own_mask_args: its mask_mod evaluated, the key intervals of each row); one document is
plain causal (cuDNN timed beside it). The Gluon kernel is tuned at each shape (its masked configs), the `tl`
kernel runs its default tile unless --tune-tl; every backend is timed by timing.time_ms. Ratios: flex_ms / own_ms,
cudnn_ms / own_ms, sdpa_ms / own_ms (above 1: the own kernel is faster). Shapes are taken in order until
--budget-s seconds have passed; the CSV holds those measured, written after each.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROWS = []
B, H, HKV = 1, 32, 8


def documents(S: int, n: int) -> list[int]:
    """n document lengths summing to S, uneven: cut at n - 1 points drawn with seed n (one document: [S])."""
    cuts = sorted(random.Random(n).sample(range(1, S), n - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [S])]


def cases(a):
    for S in a.sizes:
        for D in a.head_dims:
            for w in a.windows:
                yield S, D, "window", w
            for n in a.docs:
                yield S, D, "documents", n
            if a.padding:
                yield S, D, "padding", S - S // 10


def masks_of(S: int, kind: str, n: int):
    """(mask for flex and the own kernels: a bool keep or a BlockMask; the dense keep for SDPA; kept pairs;
    causal: whether it is plain causal)."""
    import torch
    from torch.nn.attention.flex_attention import create_block_mask

    from inductor_prof.attention.semantics import masks

    if kind == "documents":
        lengths = documents(S, n)
        doc = torch.repeat_interleave(torch.arange(n, device="cuda"), torch.tensor(lengths, device="cuda"))

        def document_causal(b, h, q_idx, kv_idx):
            return (doc[q_idx] == doc[kv_idx]) & (q_idx >= kv_idx)
        bm = create_block_mask(document_causal, None, None, S, S, device="cuda")
        keep = (doc[:, None] == doc[None, :]).tril()[None, None]
        return bm, keep, sum(m * (m + 1) // 2 for m in lengths), n == 1
    spec = masks.MaskSpec("window", window=n) if kind == "window" else masks.MaskSpec("padding", key_lengths=(n,))
    keep = masks.build(spec, B, S, S, "cuda")
    return keep, keep, masks.pairs(spec, B, S, S), kind == "window" and n >= S


def measure(S: int, D: int, kind: str, n: int, tune_tl: bool) -> dict:
    import torch

    from inductor_prof.attention.benchmark import library
    from inductor_prof.attention.benchmark.registry import own_mask_args
    from inductor_prof.attention.kernels import gluon_fa, triton_fa
    from inductor_prof.attention.timing import time_ms

    q = torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16)
    k, v = (torch.randn(B, HKV, S, D, device="cuda", dtype=torch.bfloat16) for _ in "kv")
    scale = 1 / math.sqrt(D)
    mask, keep, pairs, causal = masks_of(S, kind, n)
    args = own_mask_args(mask, q, k)
    row = {"S": S, "D": D, "heads": f"{H}/{HKV}", "mask": kind, "window": n if kind == "window" else 0,
           "documents": n if kind == "documents" else 0, "key_lengths": n if kind == "padding" else "",
           "own_form": ",".join(sorted(args)) or "dense", "pairs": pairs}
    for name, module in (("gluon", gluon_fa), ("tl", triton_fa)):
        if name == "tl" and not tune_tl:
            best, label = triton_fa.default_config(D, False), "default " + triton_fa.default_config(D, False).label()
        else:
            rows, best = module.tune(q, k, v, scale, **args)
            ok = [r for r in rows if r["ms"] == r["ms"]]
            label = min(ok, key=lambda r: r["ms"])["config"] if ok else ""
        row[f"{name}_config"] = label
        row[f"{name}_ms"] = time_ms(lambda: module.forward(q, k, v, scale, best, **args)) if best else math.nan
    row["flex_ms"] = time_ms(lambda: library.flex(q, k, v, scale, mask=mask))
    cudnn = library.sdpa("sdpa_cudnn")
    row["cudnn_causal_ms"] = time_ms(lambda: cudnn(q, k, v, scale, causal=True)) if causal else math.nan
    # documents beyond one: SDPA with the dense mask (PyTorch's own backend choice), what a model falls back on
    sdpa = library.sdpa(None)
    row["sdpa_mask_ms"] = (time_ms(lambda: sdpa(q, k, v, scale, mask=keep), rep_ms=30)
                           if kind == "documents" and not causal else math.nan)
    flops = 4 * D * B * H * pairs
    for name in ("gluon", "tl"):
        row[f"{name}_tflops"] = flops / (row[f"{name}_ms"] * 1e9)
        row[f"{name}_vs_flex"] = row["flex_ms"] / row[f"{name}_ms"]
        row[f"{name}_vs_cudnn"] = row["cudnn_causal_ms"] / row[f"{name}_ms"]
        row[f"{name}_vs_sdpa_mask"] = row["sdpa_mask_ms"] / row[f"{name}_ms"]
    row["flex_tflops"] = flops / (row["flex_ms"] * 1e9)
    return row


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", type=Path)
    ap.add_argument("--budget-s", type=float, default=240.0, help="stop taking new shapes after this many seconds")
    ap.add_argument("--sizes", type=_ints, default=[4096, 16384], help="tokens S, comma-separated")
    ap.add_argument("--head-dims", type=_ints, default=[128, 64])
    ap.add_argument("--windows", type=_ints, default=[256, 1024, 4096], help="causal window sizes (keys)")
    ap.add_argument("--docs", type=_ints, default=[1, 4, 16], help="document counts")
    ap.add_argument("--padding", action="store_true", help="also the last 10%% of the keys padded")
    ap.add_argument("--tune-tl", action="store_true", help="tune the tl kernel too (minutes of compiles)")
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
    for S, D, kind, n in cases(a):
        if time.monotonic() - t0 > a.budget_s:
            print(f"budget of {a.budget_s:.0f} s spent: stopping before S={S} D={D} {kind} {n}", file=sys.stderr)
            break
        r = measure(S, D, kind, n, a.tune_tl)
        ROWS.append(r)
        print(f"S={S:>5} D={D:>3} {kind:>9} {n:>5}  gluon {r['gluon_ms']:.3f} ms ({r['gluon_tflops']:.0f} TF/s)  "
              f"tl {r['tl_ms']:.3f}  flex {r['flex_ms']:.3f}  cudnn(causal) {r['cudnn_causal_ms']:.3f}  "
              f"sdpa(mask) {r['sdpa_mask_ms']:.3f}  | gluon/flex {r['gluon_vs_flex']:.2f}x  "
              f"tl/flex {r['tl_vs_flex']:.2f}x  gluon/cudnn {r['gluon_vs_cudnn']:.2f}x  "
              f"gluon/sdpa {r['gluon_vs_sdpa_mask']:.2f}x", flush=True)
        write_csv(a.csv, pd.DataFrame(ROWS))   # after each shape: a killed run keeps what it measured
    print(f"{len(ROWS)} shapes in {time.monotonic() - t0:.0f} s -> {a.csv}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
