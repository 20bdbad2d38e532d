"""Stage `library_ops`: one step under torch.profiler, mapping each library kernel (cuBLAS, cuDNN) to the ATen
op and shapes that launched it (their flops and bytes), and capturing the model's attention calls."""
from __future__ import annotations

import gzip
import shutil

from .. import rundir
from ..drivers import torch_profiler


def run(ctx) -> dict:
    ctx.log("mapping library kernels to ATen ops (torch.profiler, one step)")
    run_dir = ctx.run
    torch_profiler.record(ctx.target, run_dir.torch_trace)
    table, attention = torch_profiler.parse_trace(run_dir.torch_trace)
    rundir.write_csv(run_dir.library_ops_csv, table)
    rundir.write_json(run_dir.attention_shapes_json, attention)
    with rundir.atomic_path(run_dir.torch_trace_gz) as tmp:
        with open(run_dir.torch_trace, "rb") as src, gzip.open(tmp, "wb") as dst:
            shutil.copyfileobj(src, dst)
    run_dir.torch_trace.unlink()
    return {"library_launches": len(table), "attention_calls": len(attention)}
