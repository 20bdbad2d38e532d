"""Stage `library_ops`: one step under torch.profiler, mapping each library kernel (cuBLAS, cuDNN) to the ATen
op and shapes that launched it (their flops and bytes), and capturing the model's attention calls."""
from __future__ import annotations

import gzip
import json
import shutil

from .. import rundir
from ..drivers import torch_profiler
from ..inductor.kernel_provenance import extern_calls, library_modules


def run(ctx) -> dict:
    ctx.log("mapping library kernels to ATen ops (torch.profiler, one step)")
    run_dir = ctx.run
    trace = run_dir.torch_trace   # the raw trace lives only while it is read: the run keeps it gzipped
    try:
        torch_profiler.record(ctx.target, trace)
        table, attention = torch_profiler.parse_trace(trace)
        # the modules whose extern kernel (same ATen op and input shapes) launched each library kernel
        calls = extern_calls(ctx.registry.provenance.records, ctx.registry.provenance.blocks)
        table["modules"] = [json.dumps(library_modules(op, json.loads(dims), calls))
                            for op, dims in zip(table["op"], table["dims"])]
        rundir.write_csv(run_dir.library_ops_csv, table)
        rundir.write_json(run_dir.attention_shapes_json, attention)
        with rundir.atomic_path(run_dir.torch_trace_gz) as tmp:
            with open(trace, "rb") as src, gzip.open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst)
    finally:
        trace.unlink(missing_ok=True)
    return {"library_launches": len(table), "attention_calls": len(attention)}
