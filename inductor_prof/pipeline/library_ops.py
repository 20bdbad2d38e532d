"""Stage `library_ops`: one step under torch.profiler, mapping each library kernel (cuBLAS, cuDNN) to the ATen op
and shapes that launched it (their flops and bytes, the modules whose extern kernel launched it), and capturing
the model's attention calls: the trace's ops and kernels joined with one eager step's semantics
(attention/semantics/capture.py, attention/semantics/join.py). A run of several input sizes records one step per size; its rows and
calls then carry the size, the first size's first (the ncu stage replays the first row of each kernel)."""
from __future__ import annotations

import gzip
import json
import shutil

import pandas as pd

from .. import rundir
from ..attention.semantics import maskfile
from ..attention.semantics.join import join
from ..attention.semantics.shapes import from_call
from ..drivers import torch_profiler
from ..errors import one_line
from ..inductor.kernel_provenance import extern_calls, library_modules

MASKED = ("window", "padding", "causal_padding", "window_padding", "arbitrary")


def run(ctx) -> dict:
    ctx.log("mapping library kernels to ATen ops (torch.profiler, one step per size; attention semantics eagerly)")
    run_dir = ctx.run
    trace = run_dir.torch_trace   # the raw trace lives only while it is read: the run keeps it gzipped
    tables, calls, semantics = [], [], ""
    # the modules whose extern kernel (same ATen op and input shapes) launched each library kernel
    calls_by_module = extern_calls(ctx.registry.provenance.records, ctx.registry.provenance.blocks)
    for size, step in ctx.target.each_size():
        try:
            torch_profiler.record(step, trace)
            table, attention = torch_profiler.parse_trace(trace)
            kept = run_dir.torch_trace_gz if size is None else run_dir.torch_trace_gz_at(size)
            with rundir.atomic_path(kept) as tmp:
                with open(trace, "rb") as src, gzip.open(tmp, "wb") as dst:
                    shutil.copyfileobj(src, dst)
        finally:
            trace.unlink(missing_ok=True)
        table["modules"] = [json.dumps(library_modules(op, json.loads(dims), calls_by_module))
                            for op, dims in zip(table["op"], table["dims"])]
        try:   # one eager step (torch.compiler.set_stance('force_eager')) under the attention spy
            from ..attention.semantics.capture import eager_step

            # a training step's attention calls are its forward's (eager_step runs under no_grad: no backward)
            spy = eager_step(step if ctx.target.training is None else ctx.target.forward)
            attention = with_semantics(run_dir, table, attention, spy.calls, spy.keeps)
        except Exception as e:  # the trace's facts stand alone; the run says why
            semantics = one_line(e)
        if size is not None:
            table.insert(0, "size", size)
            attention = [{**call, "size": size} for call in attention]
        tables.append(table)
        calls += attention
    table = pd.concat(tables, ignore_index=True) if len(tables) > 1 else tables[0]
    rundir.write_csv(run_dir.library_ops_csv, table)
    rundir.write_json(run_dir.attention_shapes_json, calls)
    return {"library_launches": len(table), "attention_calls": len(calls),
            "attention_semantics": semantics or "eager capture joined"}


def with_semantics(run_dir: rundir.RunDir, table: pd.DataFrame, trace_calls: list[dict], eager_calls: list[dict],
                   keeps: dict) -> list[dict]:
    """The joined calls; masks that kind + parameters cannot rebuild saved under attention/masks/; each masked
    attention kernel's flops in `table` counted from its mask (contract B)."""
    calls = join(trace_calls, eager_calls)
    for c in calls:
        name = c.get("mask_file")
        if name and name in keeps:
            path = run_dir.attention_masks_dir / f"{name}.npz"
            if not path.exists():
                maskfile.save(keeps[name], path)
            c["mask_file"] = str(path.relative_to(run_dir.root))
        row = c.get("row")
        if row is not None and c.get("mask_kind") in MASKED and table.at[row, "flops"] > 0:
            table.at[row, "flops"] = from_call(c).flops
    return calls
