"""Floating-point operations ncu counts per element for each math call Inductor writes in Triton kernels.

ncu counts SASS FP instructions (fadd, fmul, ffma x2, and their half/double forms); a libdevice call such as
tanh or erf is a polynomial of several of them, while exp or rsqrt are mostly MUFU ops that ncu does not count
as FP. Each call is put alone in a tiny fp32 Triton kernel, profiled under ncu with inductor-prof's metrics,
and its derived flops divided by the elements: the table `inductor/ops.py` uses (MATH_FLOPS).

usage (needs a GPU and ncu): python3 scripts/calibrate_math_flops.py [--out FILE.json]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

N = 1 << 22   # elements per kernel: 4 M, x ~ N(0, 1) like the activations Inductor's kernels see

# name -> the expression as Inductor writes it (x, y: fp32 blocks; libdevice, tl_math as in Inductor's code)
CALLS = {
    "copy": "x", "add": "x + y", "mul": "x * y", "sub": "x - y", "div": "x / y", "neg": "-x",
    "fma": "libdevice.fma(x, y, x)", "exp": "tl_math.exp(x)", "exp2": "libdevice.exp2(x)",
    "log": "tl_math.log(tl_math.abs(x) + 1.0)", "sqrt": "libdevice.sqrt(tl_math.abs(x))",
    "rsqrt": "libdevice.rsqrt(tl_math.abs(x) + 1.0)", "sin": "tl_math.sin(x)", "cos": "tl_math.cos(x)",
    "tanh": "libdevice.tanh(x)", "erf": "libdevice.erf(x)", "sigmoid": "tl.sigmoid(x)", "abs": "tl_math.abs(x)",
    "maximum": "triton_helpers.maximum(x, y)", "minimum": "triton_helpers.minimum(x, y)",
    "floor": "libdevice.floor(x)", "ceil": "libdevice.ceil(x)", "expm1": "libdevice.expm1(x)",
    "log1p": "libdevice.log1p(tl_math.abs(x))", "pow": "libdevice.pow(tl_math.abs(x), y)",
    "div_rn": "libdevice.div_rn(x, y)",
}
# the argument-preparing ops some expressions need (abs, + 1.0), measured on their own and subtracted
PREP = {"log": "add1", "rsqrt": "add1", "log1p": None, "sqrt": None, "pow": None}

KERNEL = '''
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math


@triton.jit
def k_{name}(X, Y, OUT, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask)
    y = tl.load(Y + offs, mask)
    tl.store(OUT + offs, {expr}, mask)
'''


def write_module(folder: Path) -> Path:
    text = "".join(KERNEL.format(name=name, expr=expr) for name, expr in CALLS.items())
    text += KERNEL.format(name="add1", expr="tl_math.abs(x) + 1.0")
    path = folder / "math_kernels.py"
    path.write_text(text)
    return path


def run_kernels(module_path: str) -> None:
    """Under ncu: each kernel compiled and run once, then once more inside its own profiler range."""
    import importlib.util

    import torch

    spec = importlib.util.spec_from_file_location("math_kernels", module_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(N, device="cuda", generator=g)
    y = torch.randn(N, device="cuda", generator=g).abs() + 0.5
    out = torch.empty_like(x)
    grid = (N // 1024,)
    for name in [*CALLS, "add1"]:
        kernel = getattr(mod, f"k_{name}")
        kernel[grid](x, y, out, N, BLOCK=1024)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStart()
        kernel[grid](x, y, out, N, BLOCK=1024)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--run-kernels", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run_kernels:
        run_kernels(args.run_kernels)
        return 0
    from inductor_prof.drivers.ncu.locate import find_ncu
    from inductor_prof.drivers.ncu.metrics import METRICS
    from inductor_prof.drivers.ncu.report import parse_reports

    folder = Path(tempfile.mkdtemp(prefix="mathflops-"))
    module = write_module(folder)
    report = folder / "math"
    cmd = [find_ncu(None), "--target-processes", "all", "--profile-from-start", "off", "--clock-control", "none",
           "--metrics", ",".join(METRICS.values()), "-f", "-o", str(report),
           sys.executable, __file__, "--run-kernels", str(module)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=dict(os.environ))
    if proc.returncode != 0:
        print(proc.stdout[-2000:], proc.stderr[-2000:], file=sys.stderr)
        return 1
    results = parse_reports([report.with_suffix(".ncu-rep")])[str(report.with_suffix(".ncu-rep"))]["results"]
    per_elem = {r["kernel"].removeprefix("k_"): r.get("flops", 0.0) / N for r in results}
    table = {}
    for name in CALLS:
        value = per_elem[name] - (per_elem["add1"] if PREP.get(name) == "add1" else 0.0)
        table[name] = round(value, 3)
    print(json.dumps({"elements": N, "per_element_flops": table, "raw": per_elem}, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps({"elements": N, "per_element_flops": table, "raw": per_elem}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
