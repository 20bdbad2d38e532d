"""A library call in short, as every table names it: a GEMM's [M,K]x[K,N], else its op and input shapes."""
from __future__ import annotations

from typing import Any

from ..aten import GEMM_OPERANDS_FIRST, GEMM_OPS
from ..runfiles.cells import json_cell


def call_label(op: str, dims: Any) -> str:
    """A library call in short: a GEMM's [M,K]x[K,N] (addmm's first input is the bias, and an out= tensor follows
    the inputs), else the op's name and its input tensors' shapes."""
    dims = json_cell(dims) if isinstance(dims, str) else dims
    inputs = [d for d in dims[:GEMM_OPS.get(op, len(dims))] if isinstance(d, list) and d and
              all(isinstance(x, int) for x in d)]
    name = op.split("::")[-1]
    mats = [d for d in inputs if len(d) >= 2]
    if op in GEMM_OPERANDS_FIRST:   # a row-wise scale is a matrix too
        mats = mats[:2]
    if op in GEMM_OPS and len(mats) >= 2:
        (m, k), (_, n) = mats[-2][-2:], mats[-1][-2:]
        batch = f"{mats[-2][0]}x" if len(mats[-2]) == 3 else ""
        return f"{batch}[{m},{k}]x[{k},{n}]"
    return " ".join([name, *("[" + ",".join(map(str, d)) + "]" for d in inputs[:3])])
