"""The attnbwd branch's GPU checks, one per subcommand (scripts/gpu_check_attnbwd.sh runs them, each in its own
process with its own time limit). Each prints the figures it checks, one labelled line each.

  flux WORK     the probe and the forward+backward rows at FLUX's attention shape (1,24,4608,128), bf16: cuDNN's
                backward hit an illegal memory access there on the H200; its row must carry that error and the
                others must still be checked and timed (each probe worker's log under WORK/flux-run/attention/)
  ncu RUN       ncu over the decoder training run's attention backward (its bprop kernel, replayed as autograd's
                backward of cuDNN's forward), its forward (replayed computing its logsumexp, as a training step's
                does) and one foreach kernel (no get_args: a failed row with the reason)
  cpu WORK      what of `flux` runs on a CPU (the dry run): sdpa_math and an own kernel at a small shape, no probe
"""
from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path

FLUX_CALL = {"op": "aten::_scaled_dot_product_flash_attention", "B": 1, "H": 24, "Hkv": 24, "Sq": 4608, "Sk": 4608,
             "D": 128, "dtype": "bfloat16", "causal": False, "mask": False, "scale": 128 ** -0.5, "layout": "bhsd",
             "kernel": "", "row": 0, "kv_repeated": False, "enable_gqa": False, "dropout": 0.0, "mask_kind": "none",
             "window": 0, "window_right": 0, "key_lengths": [], "padding_left": False, "mask_pairs": 4608 * 4608,
             "mask_file": "", "mask_dtype": "", "captured": "trace+eager"}
BPROP = "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0"


def show(label: str, rows: list[dict]) -> None:
    for r in rows:
        ms = r["ms"]
        print(f"{label} {r['pass']} {r['backend']}: ms {ms:.3f} TFLOP/s {r['tflops']:.1f} rel_err {r['rel_err']:.2e} "
              f"ok {r['ok']} vs model {r['speedup_vs_model']:.2f}x" if ms == ms else
              f"{label} {r['pass']} {r['backend']}: not run: {r['reason']}", flush=True)


def flux(work: Path, device: str = "cuda", call: dict | None = None, names: list[str] | None = None) -> None:
    from inductor_prof import rundir
    from inductor_prof.attention.benchmark import registry
    from inductor_prof.attention.benchmark.backward import bench_shape
    from inductor_prof.attention.benchmark.bench import BenchOptions, BenchResult
    from inductor_prof.attention.semantics.shapes import from_call
    from inductor_prof.inductor.cache import isolated_cache
    from inductor_prof.pipeline.attention_backward import probe
    from inductor_prof.settings import Settings

    call = call or FLUX_CALL
    run = rundir.RunDir(work / "flux-run")
    run.attention_dir.mkdir(parents=True, exist_ok=True)
    rundir.write_json(run.attention_shapes_json, [call])
    shape = from_call(call)
    print(f"shape {shape.label}: forward {shape.flops:,} flops, forward+backward {shape.training_flops:,} "
          f"(ratio {shape.training_flops / shape.flops:.2f})", flush=True)

    def probed(s, n):
        t0 = time.perf_counter()
        said = probe(run, Settings(), s, n)
        for name in n:
            print(f"probe {s.label} {name}: {said.get(name) or 'ok'}", flush=True)
        print(f"probe seconds: {time.perf_counter() - t0:.1f}", flush=True)
        return said
    names = names or ["sdpa_cudnn", "sdpa_flash", "sdpa_efficient", "gluon_fa3"]
    opts = BenchOptions(device=device, backward=True, rep_ms=30.0, tune=False,
                        probe=probed if device == "cuda" else None)
    t0 = time.perf_counter()
    with isolated_cache(run.attention_cache):
        rows = bench_shape(shape, 57, call["op"], registry.backends(names), opts, BenchResult())
    print(f"forward+backward bench seconds: {time.perf_counter() - t0:.1f}", flush=True)
    show("flux", rows)
    rundir.write_json(work / "flux_rows.json", [{k: (None if isinstance(v, float) and math.isnan(v) else v)
                                                 for k, v in r.items()} for r in rows])


def ncu(run_path: Path) -> None:
    from inductor_prof.pipeline import ncu as ncu_stage
    from inductor_prof.rundir import open_run
    from inductor_prof.settings import resolve

    run = open_run(run_path)
    every = ncu_stage.targets
    foreach = []

    def chosen(r, *a, **k):
        ts = every(r, *a, **k)
        foreach[:] = [t for t in ts if t.name.startswith("triton_for_")][:1]
        fprop = [t for t in ts if t.name.startswith("cudnn_generated_fort_native_sdpa_sm90_flash_fprop")][:1]
        return [t for t in ts if t.name == BPROP] + fprop + foreach
    ncu_stage.targets = chosen
    summary = ncu_stage.run_ncu(run, resolve({"fresh": True})[0], log=print)   # measured here, not reused
    print(f"ncu summary: {json.dumps(summary)}", flush=True)
    import pandas as pd

    table = pd.read_csv(run.ncu_csv)
    for r in table.to_dict("records"):
        keep = {k: r.get(k) for k in ("status", "reason", "shape", "duration_ns", "model_us", "dram_bytes",
                                      "model_bytes", "calls") if k in r}
        print(f"ncu row {r['name'][:70]}: {json.dumps(keep, default=str)}", flush=True)
        if r.get("status") == "ok" and r.get("model_us") == r.get("model_us"):
            print(f"ncu replay vs model {r['name'][:60]}: {r['duration_ns'] / 1e3:.1f} us vs {r['model_us']:.1f} us a call "
                  f"({r['duration_ns'] / 1e3 / r['model_us']:.2f}x); DRAM bytes {r.get('dram_bytes')} vs priced "
                  f"{r.get('model_bytes')}", flush=True)


if __name__ == "__main__":
    what, where = sys.argv[1], Path(sys.argv[2])
    if what == "flux":
        flux(where)
    elif what == "ncu":
        ncu(where)
    elif what == "cpu":   # the dry run: a small causal GQA shape on the CPU, SDPA math and an own kernel
        small = {**FLUX_CALL, "op": "aten::_scaled_dot_product_flash_attention_for_cpu", "B": 1, "H": 4, "Hkv": 2,
                 "Sq": 256, "Sk": 256, "D": 64, "causal": True, "mask_kind": "causal", "mask_pairs": 256 * 257 // 2,
                 "scale": 0.125}
        flux(where, "cpu", small, ["sdpa_math", "gluon_fa3"])
    else:
        raise SystemExit(f"unknown check {what!r}: flux, ncu or cpu")
