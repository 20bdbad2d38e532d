"""Part of stage `ceilings`: the matmul Inductor writes itself (its Triton template, as `max-autotune` tunes it,
Triton choices only) timed at the model's GEMM shapes with the most time, so that a GEMM's best time for its shape
includes the kernel Inductor would write for it, not only cuBLAS's.

It runs in a worker process of its own (`python -m inductor_prof.worker SPEC`, a GemmTemplatesSpec, `work`), with
an Inductor cache of its own: the templates it builds are not the model's kernels (harvest must not find them),
and max-autotune's compile workers end with it. Each shape is a progress event (and a result line in its log);
the list of results is its result event.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from .. import procs
from ..childenv import child_env
from ..errors import one_line
from ..inductor.cache import cache_env
from ..specs import GemmTemplatesSpec

SHAPES = 4            # the model's GEMM shapes (by time) timed as templates: 5-16 s of autotuning each on an H100
TIMEOUT_S = 600
RESULT = "gemm_template:"   # the mark of a result line in the child's log (for a person: the events carry them)
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


def work(spec: GemmTemplatesSpec, events) -> list[dict]:
    """The process (worker.py, kind `gemm_templates`): each shape timed, a progress event each."""
    out = []
    for i, shape in enumerate(spec.shapes):
        out.append(time_one(shape))
        print(RESULT, json.dumps(out[-1]), flush=True)
        events.progress(i + 1, len(spec.shapes), shape.get("op", ""))
    return out


def in_subprocess(specs: list[dict], cache_dir: Path, log_path: Path) -> list[dict]:
    """`work` over `specs` (ceilings.model_gemms entries) in a fresh worker process with its own Inductor cache;
    its whole output kept in `log_path`. Raises RuntimeError naming the log when it fails or hangs."""
    done = procs.run_worker(GemmTemplatesSpec(shapes=specs), log_path, TIMEOUT_S, env=child_env(cache_env(cache_dir)))
    if not done.ok:
        raise RuntimeError(f"Inductor GEMM templates: {done.failure()}")
    return list(done.result)
