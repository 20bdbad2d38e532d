"""The Chrome trace of one torch.profiler step, parsed (pure): which ATen op (and shapes) launched each library
kernel (Proton sees cuBLAS/cuDNN kernels but not the op behind them), their flops and bytes, and the model's
attention calls.
"""
from __future__ import annotations

import bisect
import json
import math
from pathlib import Path
from typing import Any

import pandas as pd

from ...aten import ATTENTION_OPS, GEMM_OPS, INDEX_DTYPES, PROFILER_DTYPES, attention_flags, flops_key_for_dtype
from ...attention.semantics.masks import causal_pairs


def _numel(dims) -> int:
    return math.prod(dims) if dims else 1


def op_cost(op: str, dims: list, types: list, scalars: list | None = None) -> dict[str, Any]:
    """flops (with width key) and minimal bytes for the ATen ops whose kernels come from libraries. Attention:
    4 * D * B * H * kept query-key pairs (masks.py's convention): Sq * Sk, or the causal triangle when the op's
    recorded is_causal is set (an explicit mask: the library_ops stage applies what the eager capture saw)."""
    dt = next((t for t in types if t in PROFILER_DTYPES and t not in INDEX_DTYPES), "float")
    dtype, size = PROFILER_DTYPES[dt]
    key = flops_key_for_dtype(dtype)
    # input tensors only: flat int lists (tensor lists such as cat's inputs are nested and skipped), and for a
    # GEMM its leading inputs (an `out=` tensor listed after them is the output, counted once below)
    shapes = [d for d in dims[:GEMM_OPS.get(op, len(dims))]
              if isinstance(d, list) and d and all(isinstance(x, int) for x in d)]
    flops = 0
    out_numel = 0
    name = op.split("::")[-1]
    try:
        if name in ("mm", "_mm") and len(shapes) >= 2:
            (m, k), (_, n) = shapes[0][-2:], shapes[1][-2:]
            flops, out_numel = 2 * m * n * k, m * n
        elif name == "addmm" and len(shapes) >= 3:
            (m, k), (_, n) = shapes[1][-2:], shapes[2][-2:]
            flops, out_numel = 2 * m * n * k, m * n
        elif name in ("bmm", "baddbmm"):
            a, b = (shapes[0], shapes[1]) if name == "bmm" else (shapes[1], shapes[2])
            flops, out_numel = 2 * a[0] * a[1] * a[2] * b[2], a[0] * a[1] * b[2]
        elif name in ("linear",) and len(shapes) >= 2:
            x, w = shapes[0], shapes[1]
            m = _numel(x[:-1])
            flops, out_numel = 2 * m * w[0] * w[1], m * w[0]
        elif op in ATTENTION_OPS and len(shapes) >= 3:
            q, k_ = shapes[0], shapes[1]
            b, h, sq, d = q
            kept = causal_pairs(sq, k_[2]) if attention_flags(op, scalars or [])["is_causal"] else sq * k_[2]
            flops, out_numel = 4 * b * h * kept * d, b * h * sq * d
    except (ValueError, IndexError, TypeError):
        flops = 0
    in_bytes = sum(_numel(s) for s in shapes) * size
    return {"flops_key": key if flops else "", "flops": flops,
            "bytes": (in_bytes + out_numel * size) if flops else 0, "dtype": dtype}


def attention_call(op: str, dims: list, strides: list, scalars: list, dtype: str, kernel: str) -> dict:
    """One SDPA call as (B, H, Sq, Sk, D, dtype, causal, mask, scale, layout) from the op's recorded arguments."""
    q, k = dims[0], dims[1]
    spec = ATTENTION_OPS[op]
    mask = bool(spec.mask is not None and spec.mask < len(dims) and dims[spec.mask])
    flags = attention_flags(op, scalars)
    qs = strides[0] if strides and len(strides[0]) == 4 else None
    layout = "" if qs is None else ("bshd" if qs[2] > qs[1] else "bhsd")
    return {"op": op, "B": q[0], "H": q[1], "Hkv": k[1], "Sq": q[2], "Sk": k[2], "D": q[3], "dtype": dtype,
            "causal": flags["is_causal"], "mask": mask, "scale": flags["scale"], "layout": layout, "kernel": kernel}


def parse_trace(trace_path: Path) -> tuple[pd.DataFrame, list[dict]]:
    """(one row per library kernel launch: kernel, op, dims, flops, bytes), attention calls."""
    events = json.loads(Path(trace_path).read_text()).get("traceEvents", [])
    ops_by_tid: dict[Any, list[dict]] = {}
    runtime_by_corr: dict[Any, dict] = {}
    kernels = []
    for e in events:
        cat = e.get("cat", "")
        if cat == "cpu_op":
            ops_by_tid.setdefault(e.get("tid"), []).append(e)
        elif cat == "cuda_runtime" or cat == "cuda_driver":
            corr = (e.get("args") or {}).get("correlation")
            if corr is not None:
                runtime_by_corr[corr] = e
        elif cat == "kernel":
            kernels.append(e)
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

    rows, attention = [], []
    launched_by: dict[int, list[dict]] = {}   # op instance -> the rows of the kernels it launched
    for k in kernels:
        name = k.get("name", "")
        if name.startswith("triton_"):
            continue  # Inductor kernels carry their own launch metadata
        rt = runtime_by_corr.get((k.get("args") or {}).get("correlation"))
        op = innermost_op(rt) if rt else None
        op_name = op["name"] if op else ""
        args = (op or {}).get("args", {}) or {}
        dims, types = args.get("Input Dims", []) or [], args.get("Input type", []) or []
        scalars = args.get("Concrete Inputs", []) or []
        cost = op_cost(op_name, dims, types, scalars) if op else {"flops_key": "", "flops": 0, "bytes": 0, "dtype": ""}
        rows.append({"kernel": name, "op": op_name, "dims": json.dumps(dims),
                     "strides": json.dumps(args.get("Input Strides", []) or []), "types": json.dumps(types),
                     "scalars": json.dumps(scalars if op else []),
                     "dur_ns": k.get("dur", 0) * 1e3, **cost})
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
                r.update(flops_key="", flops=0, bytes=0)
    columns = ["kernel", "op", "dims", "strides", "types", "scalars", "dur_ns", "flops_key", "flops", "bytes", "dtype"]
    return pd.DataFrame(rows, columns=columns), attention
