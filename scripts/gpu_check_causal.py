#!/usr/bin/env python3
"""The Gluon kernel's causal tile orders side by side with SDPA cuDNN, one process, on a GPU (issue 51 item 4:
at or above cuDNN at every causal length; scripts/gpu_check_causal.sh runs it):

    python3 scripts/gpu_check_causal.py OUT.csv [--seqs 32768 16384 8192 4096] [--chunks 1 4 6 8 12 16]
        [--rep-ms 300] [--budget-s 110] [--no-tune] [--dry-run]

At each (1,32,S,128) causal bf16 shape, in order until --budget-s seconds have passed: gluon_fa3 at its default
config with each --chunks value forced (Config.q_chunk; 1: a tile a head, the order before chunks), the config
tune() picks from its candidates (which offers gluon_tiles.Q_CHUNKS from CHUNK_MIN_KEYS keys), and cuDNN, timed
in rounds with the order rotated each round (the median round kept, as the attention benchmark does). Each output
is checked against float64 on the first two heads (the benchmark's tolerance) and, for the own kernel, bit for
bit against q_chunk=1's (a tile's arithmetic does not depend on when it runs). A line per (S, variant): TFLOP/s
(the kept pairs' flops, the benchmark's Shape.flops), its ratio to cuDNN's, the time, the check."""
from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
import time
from pathlib import Path

ROUNDS = 3     # as the attention benchmark (bench.TIMING_ROUNDS): cuDNN's time drifts at the power cap
HEADS_CHECKED = 2   # float64 on this many heads: the whole (1,32,32768) is 34 G scores


def rotated_ms(fns: list, rep_ms: float) -> list[float]:
    """The median over ROUNDS rounds of time_ms(fn) for each fn; round r starts at fn r."""
    from inductor_prof.attention.timing import time_ms

    times: list[list[float]] = [[] for _ in fns]
    for r in range(ROUNDS):
        for j in range(len(fns)):
            i = (r + j) % len(fns)
            times[i].append(time_ms(fns[i], rep_ms=rep_ms / ROUNDS))
    return [statistics.median(t) for t in times]


def run_shape(seq: int, chunks: list[int], rep_ms: float, tune: bool) -> list[dict]:
    import torch
    from dataclasses import replace
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from inductor_prof.attention.benchmark.bench import TOLERANCE
    from inductor_prof.attention.kernels import gluon_fa, gluon_tiles
    from inductor_prof.attention.kernels.reference import attention_float64
    from inductor_prof.attention.semantics.shapes import parse_shape
    from inductor_prof.attention.timing import compile_in_parallel, compile_workers

    shape = parse_shape(f"1,32,{seq},128,causal", "bfloat16")
    g = torch.Generator(device="cuda").manual_seed(seq)
    q, k, v = (torch.randn(1, 32, seq, 128, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
    scale = 1 / math.sqrt(128)
    default = gluon_tiles.default_config(128)
    variants = {f"gluon_fa3 q_chunk={c} (forced)": replace(default, q_chunk=c) for c in chunks}
    compile_in_parallel(lambda cfg: gluon_fa.launch(q, k, v, scale, cfg, True, compile_only=True),
                        list(variants.values()), compile_workers())
    if tune:
        t0 = time.perf_counter()
        rows, best = gluon_fa.tune(q, k, v, scale, causal=True)
        tried = ", ".join(f"{r['config']} {r['ms']:.3f} ms" if r["ms"] == r["ms"] else f"{r['config']} {r['error']}"
                          for r in rows)
        print(f"S={seq} tune() in {time.perf_counter() - t0:.1f} s: {tried}", flush=True)
        if best is not None:
            variants[f"gluon_fa3 tuned ({best.label()})"] = best

    def own(cfg):
        return lambda: gluon_fa.forward(q, k, v, scale, cfg, causal=True)

    def cudnn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True, scale=scale), None

    fns = {name: own(cfg) for name, cfg in variants.items()}
    fns["sdpa_cudnn"] = cudnn
    ref, _ = attention_float64(q[:, :HEADS_CHECKED], k[:, :HEADS_CHECKED], v[:, :HEADS_CHECKED], scale, causal=True)
    plain = gluon_fa.forward(q, k, v, scale, replace(default, q_chunk=1), causal=True)[0]
    checks = {}
    for name, fn in fns.items():
        out = fn()[0]
        rel = ((out[:, :HEADS_CHECKED].double() - ref).norm() / ref.norm()).item()
        same = "" if name == "sdpa_cudnn" else f", same bits as q_chunk=1: {'yes' if torch.equal(out, plain) else 'NO'}"
        checks[name] = (rel, rel < TOLERANCE["bfloat16"], same)
        del out
    ms = dict(zip(fns, rotated_ms(list(fns.values()), rep_ms)))
    tflops = {name: shape.flops / (t * 1e-3) / 1e12 for name, t in ms.items()}
    out_rows = []
    for name in fns:
        rel, ok, same = checks[name]
        ratio = tflops[name] / tflops["sdpa_cudnn"]
        print(f"S={seq} {name}: {tflops[name]:.1f} TFLOP/s, {ratio:.3f}x cuDNN ({tflops['sdpa_cudnn']:.1f}), "
              f"{ms[name]:.3f} ms, rel_err {rel:.2e} {'ok' if ok else 'NOT OK'}{same}", flush=True)
        out_rows.append({"S": seq, "variant": name, "ms": ms[name], "tflops": tflops[name], "vs_cudnn": ratio,
                         "rel_err": rel, "ok": ok, "same_bits": same.endswith("yes") if same else ""})
    return out_rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", type=Path)
    ap.add_argument("--seqs", type=int, nargs="+", default=[32768, 16384, 8192, 4096])
    ap.add_argument("--chunks", type=int, nargs="+", default=[1, 4, 6, 8, 12, 16])
    ap.add_argument("--rep-ms", type=float, default=300.0, help="timed milliseconds a variant, over all rounds")
    ap.add_argument("--budget-s", type=float, default=110.0, help="take no new length after this many seconds")
    ap.add_argument("--no-tune", action="store_true", help="forced chunks and cuDNN only")
    ap.add_argument("--dry-run", action="store_true", help="list what would run")
    a = ap.parse_args()
    if a.dry_run:
        for s in a.seqs:
            print(f"S={s}: gluon_fa3 q_chunk in {a.chunks}{'' if a.no_tune else ', tuned'}, sdpa_cudnn")
        return 0
    from inductor_prof.attention.timing import warm_gpu

    warm_gpu(1.0)
    t0 = time.perf_counter()
    rows = []
    for i, s in enumerate(a.seqs):
        if time.perf_counter() - t0 > a.budget_s:
            print(f"budget of {a.budget_s:g} s spent: S={a.seqs[i:]} not taken", flush=True)
            break
        rows += run_shape(s, a.chunks, a.rep_ms, not a.no_tune)
        a.csv.parent.mkdir(parents=True, exist_ok=True)
        with open(a.csv, "w", newline="") as f:   # after each length: a stop keeps what ran
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        print(f"   (S={s} done at {time.perf_counter() - t0:.0f} s)", flush=True)
    bad = [r for r in rows if not r["ok"] or r["same_bits"] is False]
    print(f"{len(rows)} rows in {a.csv}; {len(bad)} failed the check" + (f": {[r['variant'] for r in bad]}" if bad
                                                                          else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
