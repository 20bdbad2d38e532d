"""Stage `library_ops`: one step under torch.profiler, mapping each library kernel (cuBLAS, cuDNN) to the ATen
op and shapes that launched it (their flops and bytes), and capturing the model's attention calls. A run of
several input sizes records one step per size; its rows and calls then carry the size, the first size's
first (the ncu stage replays the first row of each kernel)."""
from __future__ import annotations

import gzip
import json
import shutil

import pandas as pd

from .. import rundir
from ..drivers import torch_profiler
from ..inductor.kernel_provenance import extern_calls, library_modules


def run(ctx) -> dict:
    ctx.log("mapping library kernels to ATen ops (torch.profiler, one step)")
    run_dir = ctx.run
    trace = run_dir.torch_trace   # the raw trace lives only while it is read: the run keeps it gzipped
    tables, calls = [], []
    # the modules whose extern kernel (same ATen op and input shapes) launched each library kernel
    calls_by_module = extern_calls(ctx.registry.provenance.records, ctx.registry.provenance.blocks)
    try:
        for size, step in ctx.target.each_size():
            torch_profiler.record(step, trace)
            table, attention = torch_profiler.parse_trace(trace)
            table["modules"] = [json.dumps(library_modules(op, json.loads(dims), calls_by_module))
                                for op, dims in zip(table["op"], table["dims"])]
            if size is not None:
                table.insert(0, "size", size)
                attention = [{**call, "size": size} for call in attention]
            tables.append(table)
            calls += attention
            kept = run_dir.torch_trace_gz if size is None else run_dir.torch_trace_gz_at(size)
            with rundir.atomic_path(kept) as tmp:
                with open(trace, "rb") as src, gzip.open(tmp, "wb") as dst:
                    shutil.copyfileobj(src, dst)
    finally:
        trace.unlink(missing_ok=True)
    table = pd.concat(tables, ignore_index=True) if len(tables) > 1 else tables[0]
    rundir.write_csv(run_dir.library_ops_csv, table)
    rundir.write_json(run_dir.attention_shapes_json, calls)
    return {"library_launches": len(table), "attention_calls": len(calls)}
