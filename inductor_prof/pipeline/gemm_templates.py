"""Part of stage `ceilings`: the matmul Inductor writes itself (its Triton template, as `max-autotune` tunes it,
Triton choices only) timed at the model's GEMM shapes with the most time, so that a GEMM's best time for its shape
includes the kernel Inductor would write for it, not only cuBLAS's.

It runs in a process of its own (`python -m inductor_prof.pipeline.gemm_templates SPECS_JSON`, `main`), with an
Inductor cache of its own: the templates it builds are not the model's kernels (harvest must not find them), and
max-autotune's compile workers end with it. It prints one result line per shape.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from .. import procs, rundir
from ..childenv import child_env
from ..errors import one_line
from ..inductor.cache import cache_env

SHAPES = 4            # the model's GEMM shapes (by time) timed as templates: 5-16 s of autotuning each on an H100
TIMEOUT_S = 600
RESULT = "gemm_template:"   # the mark of a result line on the child's stdout
TEMPLATE_KERNEL = re.compile(r"\b(triton_tem_\w+)")
MODE = "max-autotune-no-cudagraphs"


def wanted(compile_mode: str, setting: bool) -> bool:
    """Templates are timed when asked (the gemm_templates setting) or when the model compiles with max-autotune,
    where Inductor itself chose between its template and cuBLAS for each GEMM."""
    return setting or compile_mode.startswith("max-autotune")


def time_one(spec: dict) -> dict:
    """{"op", "dims" (as library_ops.csv writes them), "template_ms", "template_kernel"} or with "template_error".
    A shape where Inductor found no Triton config that fits, or fell back to ATen, is an error, not a time."""
    import torch
    from torch._inductor import config
    from torch._inductor.utils import run_and_get_code

    from ..drivers.ncu.replay import recorded_args
    from .gpu_timing import BACK_TO_BACK, bench_ms

    out = {"op": spec["op"], "dims": spec["dims_key"]}
    try:
        op, inputs = recorded_args(spec)
        torch._dynamo.reset()
        compiled = torch.compile(lambda *a: op(*a), mode=MODE, dynamic=False, fullgraph=True)
        with config.patch(max_autotune_gemm_backends="TRITON"):
            _, code = run_and_get_code(compiled, *inputs)
        names = sorted({m for c in code for m in TEMPLATE_KERNEL.findall(c)})
        if not names:
            return {**out, "template_error": "Inductor wrote no Triton template for it (fell back to ATen)"}
        return {**out, "template_ms": bench_ms(lambda: compiled(*inputs), BACK_TO_BACK), "template_kernel": names[0]}
    except Exception as e:   # one shape that does not compile must not cost the others their time
        return {**out, "template_error": one_line(e)}


def main(argv: list[str]) -> int:
    for spec in json.loads(argv[1]):
        print(RESULT, json.dumps(time_one(spec)), flush=True)
    return 0


def results(stdout: str) -> list[dict]:
    """The child's result lines (anything else it printed is the compiler's, kept in the log only)."""
    return [json.loads(ln[len(RESULT):]) for ln in stdout.splitlines() if ln.startswith(RESULT)]


def in_subprocess(specs: list[dict], cache_dir: Path, log_path: Path) -> list[dict]:
    """This module's `main` over `specs` (ceilings.model_gemms entries) in a fresh process with its own Inductor
    cache; its whole output kept in `log_path`. Raises RuntimeError naming the log when it fails or hangs."""
    cmd = [sys.executable, "-m", __name__, json.dumps(specs)]
    done = procs.run(cmd, child_env(cache_env(cache_dir)), TIMEOUT_S)
    rundir.write_text(log_path, done.stdout + done.stderr)
    if not done.ok:
        raise RuntimeError(f"Inductor GEMM templates: {done.why(TIMEOUT_S)} (log: {log_path})")
    return results(done.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
