"""Inductor's Triton matmul template against cuBLAS at a run's GEMM shapes with the most time, side by side on
this GPU: the product's own code for both (ceilings' replay of the recorded call, gemm_templates' max-autotune
build in its own process), so the ratios are what the `gemm_templates` setting would give the report.

usage: python scripts/bench_gemm_templates.py RUN [--shapes N]
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from inductor_prof import runfiles
from inductor_prof.analysis.library_calls import call_label
from inductor_prof.drivers.ncu.replay import aten_launch
from inductor_prof.pipeline import gemm_templates
from inductor_prof.pipeline.ceilings import model_gemms
from inductor_prof.pipeline.gpu_timing import BACK_TO_BACK, bench_ms
from inductor_prof.rundir import open_run


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--shapes", type=int, default=gemm_templates.SHAPES)
    args = ap.parse_args()
    run = open_run(args.run)
    specs = model_gemms(runfiles.library_ops_file(run.library_ops_csv), args.shapes)
    cublas = [bench_ms(aten_launch(s), BACK_TO_BACK) for s in specs]
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        templates = gemm_templates.in_subprocess(specs, Path(tmp) / "cache", Path(tmp) / "log")
        seconds = time.monotonic() - t0
    print(f"{'call':<34} {'cuBLAS us':>9} {'TFLOP/s':>7} {'template us':>11} {'TFLOP/s':>7} {'cuBLAS/tpl':>10}")
    for spec, ms, t in zip(specs, cublas, templates):
        label = call_label(spec["op"], spec["dims"])
        if "template_ms" not in t:
            print(f"{label:<34} {ms * 1e3:9.1f} {spec['flops'] / ms / 1e9:7.0f}  no template: {t['template_error']}")
            continue
        tm = t["template_ms"]
        print(f"{label:<34} {ms * 1e3:9.1f} {spec['flops'] / ms / 1e9:7.0f} {tm * 1e3:11.1f} "
              f"{spec['flops'] / tm / 1e9:7.0f} {ms / tm:10.2f}")
    print(f"template process (start-up, autotuning, timing): {seconds:.1f} s for {len(specs)} shapes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
