"""Stage `library_ops`: one step under torch.profiler, mapping each library kernel (cuBLAS, cuDNN) to the ATen op
and shapes that launched it (their flops and bytes), and capturing the model's attention calls: the trace's ops and
kernels joined with one eager step's semantics (attention/capture.py, attention/join.py)."""
from __future__ import annotations

import gzip
import shutil

import pandas as pd

from .. import rundir
from ..attention import maskfile
from ..attention.join import join
from ..attention.shapes import from_call
from ..drivers import torch_profiler
from ..errors import one_line

MASKED = ("window", "padding", "causal_padding", "arbitrary")


def run(ctx) -> dict:
    ctx.log("mapping library kernels to ATen ops (torch.profiler, one step)")
    run_dir = ctx.run
    trace = run_dir.torch_trace   # the raw trace lives only while it is read: the run keeps it gzipped
    try:
        torch_profiler.record(ctx.target, trace)
        table, attention = torch_profiler.parse_trace(trace)
        with rundir.atomic_path(run_dir.torch_trace_gz) as tmp:
            with open(trace, "rb") as src, gzip.open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst)
    finally:
        trace.unlink(missing_ok=True)
    ctx.log("attention semantics: one eager step (torch.compiler.set_stance('force_eager'))")
    semantics = ""
    try:
        from ..attention.capture import eager_step

        spy = eager_step(ctx.target)
        attention = with_semantics(run_dir, table, attention, spy.calls, spy.keeps)
    except Exception as e:  # the trace's facts stand alone; the run says why
        semantics = one_line(e)
    rundir.write_csv(run_dir.library_ops_csv, table)
    rundir.write_json(run_dir.attention_shapes_json, attention)
    return {"library_launches": len(table), "attention_calls": len(attention),
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
