"""Library calls of two runs paired by op and shape (pure: two call tables in, pairs out).

cuBLAS picks a kernel per shape, and may pick another one for the same shape in the next run: pairing library
kernels by name then shows the work moving to a "new" kernel that no gate judges. So a library call (one
(kernel, op, dims) of library_ops.csv) pairs, in order, each tier over the calls left by the ones before:
  1. "op+shape": same op and input shapes, same kernel;
  2. "op+shape (other kernel)": same op and shapes, another kernel (the moved call: one row, both names);
  3. "op (one size differs)": same op, shapes that differ in one size only (each differing dimension a -> b,
     for one a and one b: a GEMM's M, an attention's sequence length); a GEMM keeps its weight matrix [K,N].
     Calls of different modules (library_ops.csv `modules`, when both name some) never pair; among the
     candidates the same modules, the same calls per step, the same kernel, then the nearest size win.
A library kernel with no row in library_ops.csv is one call of op "" and pairs by kernel name ("name").
What is left is removed (only in run A) or new (only in run B).
"""
from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ..aten import GEMM_OPS
from ..runfiles.cells import json_cell

PAIR_COLUMNS = ["id_a", "id_b", "matched_by"]


def _dims(cell: object) -> list[Any]:
    return json_cell(cell) if isinstance(cell, str) and cell else []


def _flat(dims: object) -> tuple[list[Any], list[Any]]:
    """(the structure with every size blanked, the sizes in order) of a dims cell."""
    sizes: list[Any] = []

    def walk(x: Any) -> Any:
        if isinstance(x, list):
            return [walk(y) for y in x]
        sizes.append(x)
        return None
    return walk(dims), sizes


def size_change(op: str, dims_a: object, dims_b: object) -> tuple[int, int] | None:
    """(a, b) when the two calls' shapes differ in one size only (every differing dimension is a in A, b in B),
    a GEMM's weight matrix (its last matrix input) the same; else None."""
    da, db = _dims(dims_a), _dims(dims_b)
    (sa, va), (sb, vb) = _flat(da), _flat(db)
    if sa != sb:
        return None
    changed = {(x, y) for x, y in zip(va, vb) if x != y}
    if len(changed) != 1:
        return None
    if op in GEMM_OPS:
        mats = [[d for d in dims[:GEMM_OPS[op]] if isinstance(d, list) and len(d) >= 2] for dims in (da, db)]
        if not all(mats) or mats[0][-1] != mats[1][-1]:
            return None
    return next(iter(changed))


def _modules(cell: object) -> set[str]:
    try:
        return set(json_cell(cell)) if isinstance(cell, str) and cell else set()
    except ValueError:
        return set()


def _log_ratio(x: float, y: float) -> float:
    return abs(math.log(x / y)) if x > 0 and y > 0 else math.inf


def match_calls(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """a, b: call tables indexed by call id (columns kernel, op, dims, modules, calls_per_step, step_ms). Rows
    id_a, id_b, matched_by: a pair, or id_b None (removed) or id_a None (new)."""
    ra, rb = a.to_dict("index"), b.to_dict("index")
    left_a, left_b = list(ra), list(rb)
    pairs: list[tuple[Any, ...]] = []

    def take(tier: str, candidates: list[tuple[Any, Any, Any]]) -> None:
        """Pairs in the order of `candidates` ((rank, id_a, id_b)), each call once."""
        for _, x, y in sorted(candidates, key=lambda c: c[0]):
            if x in left_a and y in left_b:
                pairs.append((x, y, tier))
                left_a.remove(x)
                left_b.remove(y)

    def ms_rank(x: Any, y: Any) -> float:
        return _log_ratio(ra[x]["step_ms"], rb[y]["step_ms"])

    take("name", [((), x, y) for x in left_a for y in left_b
                  if ra[x]["op"] == rb[y]["op"] == "" and ra[x]["kernel"] == rb[y]["kernel"]])
    same_call = [(x, y) for x in left_a for y in left_b if ra[x]["op"] != "" and
                 (ra[x]["op"], ra[x]["dims"]) == (rb[y]["op"], rb[y]["dims"])]
    take("op+shape", [((), x, y) for x, y in same_call if ra[x]["kernel"] == rb[y]["kernel"]])
    take("op+shape (other kernel)", [(ms_rank(x, y), x, y) for x, y in same_call])
    loose = []
    for x in [x for x in left_a if ra[x]["op"] != ""]:
        for y in [y for y in left_b if rb[y]["op"] == ra[x]["op"]]:
            change = size_change(ra[x]["op"], ra[x]["dims"], rb[y]["dims"])
            ma, mb = _modules(ra[x].get("modules")), _modules(rb[y].get("modules"))
            if change is None or (ma and mb and not ma & mb):
                continue
            rank = (ma != mb, ra[x]["calls_per_step"] != rb[y]["calls_per_step"], ra[x]["kernel"] != rb[y]["kernel"],
                    _log_ratio(*change), ms_rank(x, y))
            loose.append((rank, x, y))
    take("op (one size differs)", loose)
    pairs += [(x, None, "") for x in left_a] + [(None, y, "") for y in left_b]
    return pd.DataFrame(pairs, columns=PAIR_COLUMNS, dtype=object)
