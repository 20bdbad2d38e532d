"""Stage `library_ops`: one step under torch.profiler, mapping each library kernel (cuBLAS, cuDNN) to the ATen op
and shapes that launched it (their flops and bytes, the modules whose extern kernel launched it), and capturing
the model's attention calls: the trace's ops and kernels joined with one eager step's semantics
(attention/semantics/capture.py, attention/semantics/join.py). A run of several input sizes records one step per size; its rows and
calls then carry the size, the first size's first (the ncu stage replays the first row of each kernel). A CUDA-graphs
run adds one step per size of the same compiled code without its graphs: its launches give the graph replays'
library kernels their ops (drivers/torch_profiler/replays.py)."""
from __future__ import annotations

import gzip
import json
import shutil
from contextlib import nullcontext

import pandas as pd

from .. import rundir
from ..attention.semantics import maskfile
from ..attention.semantics.join import join
from ..attention.semantics.shapes import from_call
from ..analysis.experiment_plan import uses_cuda_graphs
from ..drivers import torch_profiler
from ..drivers.torch_profiler import replays
from ..drivers.torch_profiler.trace import GRAPH_REPLAY
from ..errors import one_line
from ..inductor.kernel_provenance import extern_calls, library_modules

EAGER_TRACE = "torch_trace_without_graphs"   # a CUDA-graphs run: the step of its compiled code run without graphs
MASKED = ("window", "padding", "causal_padding", "window_padding", "arbitrary")


def run(ctx) -> dict:
    ctx.log("mapping library kernels to ATen ops (torch.profiler, one step per size; attention semantics eagerly)")
    run_dir = ctx.run
    tables, calls, semantics = [], [], ""
    # the modules whose extern kernel (same ATen op and input shapes) launched each library kernel
    calls_by_module = extern_calls(ctx.registry.provenance.records, ctx.registry.provenance.blocks)
    traced = [(size, step, *_traced(run_dir, step, size, _kept(run_dir, size, "")))
              for size, step in ctx.target.each_size()]
    replays: dict = {}
    # CUDA graph replays' library kernels: priced from a step of the same compiled code without graphs, taken after
    # every size's replayed step (the eager warm-up path must not come between a size's recording and replays)
    for i, (size, step, table, attention, launches) in enumerate(traced):
        if uses_cuda_graphs(ctx.opts.compile.mode) and launches["graph"].any():
            ctx.log(f"pricing {int(launches['graph'].sum())} library launches of CUDA graph replays from one step of "
                    "the same compiled code without graphs")
            table, attention, said = _without_graphs(run_dir, size, step, table, attention, launches)
            replays[size or ""] = said
            traced[i] = (size, step, table, attention, launches)
    for size, step, table, attention, _ in traced:
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
    info = {"library_launches": len(table), "attention_calls": len(calls),
            "attention_semantics": semantics or "eager capture joined"}
    if replays:
        info["graph_replays"] = replays[""] if list(replays) == [""] else replays
    return info


def _kept(run_dir: rundir.RunDir, size: str | None, what: str):
    """Where the run keeps a step's trace (gzipped): the replayed step's as always, the step without graphs beside."""
    if what:
        return run_dir.root / (f"{what}.json.gz" if size is None else f"{what}.{size}.json.gz")
    return run_dir.torch_trace_gz if size is None else run_dir.torch_trace_gz_at(size)


def _traced(run_dir: rundir.RunDir, step, size: str | None, kept, graphs=nullcontext):
    """One step under torch.profiler: (library ops table, attention calls, launches); its trace kept gzipped."""
    trace = run_dir.torch_trace   # the raw trace lives only while it is read: the run keeps it gzipped
    try:
        with graphs():
            torch_profiler.record(step, trace)
        table, attention, launches = torch_profiler.parse_trace_launches(trace)
        with rundir.atomic_path(kept) as tmp:
            with open(trace, "rb") as src, gzip.open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst)
    finally:
        trace.unlink(missing_ok=True)
    return table, attention, launches


def _without_graphs(run_dir: rundir.RunDir, size, step, table, attention, launches):
    """The replayed step's table with its graph replays' library rows priced from one step of the same compiled
    code run without its graphs (drivers/torch_profiler/replays.py); what could not be paired stays unpriced, said."""
    from ..inductor.graph_warmup import graphs_off

    try:
        eager, eager_attention, eager_launches = _traced(run_dir, step, size, _kept(run_dir, size, EAGER_TRACE),
                                                         graphs_off)
    except Exception as e:   # the replays stay unpriced, with why
        why = f"{GRAPH_REPLAY}; the step without graphs failed: {one_line(e)}"
        table = table.copy()
        table.loc[launches["graph"], "unpriced"] = why
        return table, attention, {"failed": one_line(e)}
    return with_replays_priced(table, attention, launches, eager, eager_attention, eager_launches)


def with_replays_priced(table: pd.DataFrame, attention: list[dict], launches: pd.DataFrame, eager: pd.DataFrame,
                        eager_attention: list[dict], eager_launches: pd.DataFrame
                        ) -> tuple[pd.DataFrame, list[dict], dict]:
    """(the replayed step's table and attention calls, graph replays priced from the step without graphs, the
    stage's record of it): parse_trace_launches of both steps in, pure."""
    if eager_launches["graph"].any():
        why = f"{GRAPH_REPLAY}; the step meant to run without graphs replayed graphs too"
        table = table.copy()
        table.loc[launches["graph"], "unpriced"] = why
        return table, attention, {"failed": why}
    priced = replays.price_replays(table, launches, eager, eager_launches, eager_attention)
    attention = sorted(attention + priced.attention, key=lambda c: c["row"] if c.get("row") is not None else -1)
    return priced.table, attention, priced.record()


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
