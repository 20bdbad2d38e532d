"""The Chrome trace of one torch.profiler step, parsed (pure): which ATen op (and shapes) launched each library
kernel (Proton sees cuBLAS/cuDNN kernels but not the op behind them), their flops and bytes (cost.aten_op), and
the model's attention calls.
"""
from __future__ import annotations

import bisect
import json
from pathlib import Path
from typing import Any

import pandas as pd

from ...aten import ATTENTION_OPS, as_bhsd, attention_dims, attention_flags
from ...cost import NO_COST, aten_op as op_cost   # op_cost: this package's name for it
from ...units import NS_PER_US
from .record import PHASE_RANGE


def attention_call(op: str, dims: list, strides: list, scalars: list, dtype: Any, kernel: str) -> dict:
    """One SDPA call as (B, H, Sq, Sk, D, dtype, causal, mask, scale, layout) from the op's recorded arguments."""
    spec = ATTENTION_OPS[op]
    b, h, sq, d, hkv, sk = attention_dims(spec.layout, dims[0], dims[1])
    mask = bool(spec.mask is not None and spec.mask < len(dims) and dims[spec.mask])
    flags = attention_flags(op, scalars)
    qs = strides[0] if strides and len(strides[0]) == 4 else None
    # the query's memory layout: heads outermost (bhsd) or sequence outermost (bshd), whatever the op's dim order
    _, h_stride, s_stride, _ = as_bhsd(spec.layout, qs) if qs else (0, 0, 0, 0)
    layout = "" if qs is None else ("bshd" if s_stride > h_stride else "bhsd")
    return {"op": op, "B": b, "H": h, "Hkv": hkv, "Sq": sq, "Sk": sk, "D": d, "dtype": dtype,
            "causal": flags["is_causal"], "mask": mask, "scale": flags["scale"], "layout": layout, "kernel": kernel}


# the runtime calls that launch a CUDA graph: every kernel of the replay carries their correlation id
GRAPH_LAUNCHES = ("cudaGraphLaunch", "cuGraphLaunch")
GRAPH_REPLAY = "a CUDA graph replay launched it (no ATen op around the launch)"
# host ranges around compiled code: Dynamo's frame (forward) and Inductor's call of a compiled graph (forward and
# backward); a kernel launched inside one ran compiled code
COMPILED_RANGES = ("Torch-Compiled Region", "## Call CompiledFxGraph")
LAUNCH_COLUMNS = ["graph", "compiled", "grid", "block", "ts"]


def is_library_kernel(name: str) -> bool:
    """A kernel that library_ops.csv has a row for (one per launch, in the trace's order): all but Inductor's."""
    return not name.startswith("triton_")


def parse_trace(trace_path: Path) -> tuple[pd.DataFrame, list[dict]]:
    """(one row per library kernel launch: kernel, op, dims, flops, bytes), attention calls."""
    table, attention, _ = parse_trace_launches(trace_path)
    return table, attention


def parse_trace_launches(trace_path: Path) -> tuple[pd.DataFrame, list[dict], pd.DataFrame]:
    """parse_trace's table and attention calls, and each table row's launch (same index): launched by a CUDA
    graph replay (`graph`), inside compiled code (`compiled`), its grid and block (JSON text), its start (us)."""
    events = json.loads(Path(trace_path).read_text()).get("traceEvents", [])
    ops_by_tid: dict[Any, list[dict]] = {}
    runtime_by_corr: dict[Any, dict] = {}
    kernels = []
    phases: list[tuple[float, float, str]] = []   # a training step's (start, end, phase) on the host
    compiled_by_tid: dict[Any, list[tuple[float, float]]] = {}
    for e in events:
        cat = e.get("cat", "")
        if cat in ("cpu_op", "user_annotation") and str(e.get("name", "")).startswith(COMPILED_RANGES):
            compiled_by_tid.setdefault(e.get("tid"), []).append((e["ts"], e["ts"] + e.get("dur", 0)))
        if cat == "cpu_op":
            ops_by_tid.setdefault(e.get("tid"), []).append(e)
        elif cat == "cuda_runtime" or cat == "cuda_driver":
            corr = (e.get("args") or {}).get("correlation")
            if corr is not None:
                runtime_by_corr[corr] = e
        elif cat == "kernel":
            kernels.append(e)
        elif cat == "user_annotation" and str(e.get("name", "")).startswith(PHASE_RANGE):
            phases.append((e["ts"], e["ts"] + e.get("dur", 0), e["name"][len(PHASE_RANGE):]))
    for ops in ops_by_tid.values():
        ops.sort(key=lambda e: e["ts"])
    starts = {tid: [o["ts"] for o in ops] for tid, ops in ops_by_tid.items()}

    def innermost_op(rt: dict) -> dict | None:
        ops = ops_by_tid.get(rt.get("tid"), [])
        i = bisect.bisect_right(starts.get(rt.get("tid"), []), rt["ts"])
        best = None
        for o in reversed(ops[max(0, i - 200):i]):   # enclosing ops start shortly before the launch
            if o["ts"] <= rt["ts"] and o["ts"] + o.get("dur", 0) >= rt["ts"] + rt.get("dur", 0):
                if best is None or o["ts"] > best["ts"]:
                    best = o
        return best

    def compiled(rt: dict) -> bool:
        return any(start <= rt["ts"] and rt["ts"] + rt.get("dur", 0) <= end
                   for start, end in compiled_by_tid.get(rt.get("tid"), []))

    rows, attention, launches = [], [], []
    launched_by: dict[int, list[dict]] = {}   # op instance -> the rows of the kernels it launched
    for k in kernels:
        name = k.get("name", "")
        if not is_library_kernel(name):
            continue  # Inductor kernels carry their own launch metadata
        kargs = k.get("args") or {}
        rt = runtime_by_corr.get(kargs.get("correlation"))
        graph = rt is not None and rt.get("name") in GRAPH_LAUNCHES
        # a replay's kernel: the op around cudaGraphLaunch is the compiled region, not the kernel's own op
        op = innermost_op(rt) if rt and not graph else None
        op_name = op["name"] if op else ""
        args = (op or {}).get("args", {}) or {}
        dims, types = args.get("Input Dims", []) or [], args.get("Input type", []) or []
        scalars = args.get("Concrete Inputs", []) or []
        why = GRAPH_REPLAY if graph else "no ATen op launched it"
        cost = op_cost(op_name, dims, types, scalars, args.get("Input Strides", []) or []) if op else {**NO_COST, "unpriced": why}
        launches.append({"graph": graph, "compiled": rt is not None and compiled(rt),
                         "grid": json.dumps(kargs.get("grid")), "block": json.dumps(kargs.get("block")),
                         "ts": float(k.get("ts", 0))})
        rows.append({"kernel": name, "op": op_name, "phase": phase_at(phases, rt["ts"]) if rt else "",
                     "dims": json.dumps(dims),
                     "strides": json.dumps(args.get("Input Strides", []) or []), "types": json.dumps(types),
                     "scalars": json.dumps(scalars if op else []),
                     "dur_ns": k.get("dur", 0) * NS_PER_US, **cost})
        if op is not None:
            launched_by.setdefault(id(op), []).append(rows[-1])
        if op_name in ATTENTION_OPS:
            attention.append({**attention_call(op_name, dims, args.get("Input Strides", []) or [], scalars,
                                               cost["dtype"], name), "row": len(rows) - 1})
    # an op that launched several kernels (a split-K GEMM and its reduction) did its work once: the cost goes
    # to its longest kernel, the others carry none
    for launched in launched_by.values():
        main = max(launched, key=lambda r: r["dur_ns"])
        for r in launched:
            if r is not main:
                r.update(flops_key="", flops=0, bytes=0, unpriced="")   # priced: on the op's main kernel
    columns = ["kernel", "op", "phase", "dims", "strides", "types", "scalars", "dur_ns", "flops_key", "flops", "bytes", "dtype",
               "unpriced"]
    return pd.DataFrame(rows, columns=columns), attention, pd.DataFrame(launches, columns=LAUNCH_COLUMNS)


def phase_at(phases: list[tuple[float, float, str]], ts: float) -> str:
    """The training phase whose host range holds a launch at `ts` (the launch's runtime call: backward runs on
    the calling thread, and the calling thread waits inside its range in any case); "" outside every phase (an
    inference step)."""
    return next((name for start, end, name in phases if start <= ts <= end), "")
