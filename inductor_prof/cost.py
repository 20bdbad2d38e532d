"""The one cost model: the flops (keyed by operand width, Proton's flops8/16/32/64) and the bytes of every op the
report prices, and the one conversion of (cost, time, ceiling) into TFLOP/s, GB/s and % of peak.

- GEMM: 2 * batch * M * N * K.
- attention (contract B): 4 * D * B * Hq * (kept query-key pairs per batch and head), the two matmuls QK^T and PV
  over the pairs a kernel that skips masked pairs must compute; the pairs of each mask kind are counted in
  mask_pairs.py (dense Sq * Sk, causal the triangle, window, padding...).
- Inductor pointwise/reduction kernels: the flops Nsight Compute counts, per launch (inductor/metrics.py, the
  launch_metadata callable, which prices its mm and attention templates here).
- collectives (NCCL): bytes moved, as nccl-tests prices them: algbw = message bytes / time, busbw = algbw times
  the collective's bus factor (`BUS_FACTOR`), comparable across collectives and group sizes with the link's rate.

Pure: numbers (or pandas Series, elementwise) in and out.
"""
from __future__ import annotations

import math
from typing import Any

from .mask_pairs import CAUSAL, NONE, MaskSpec, call_mask, pairs
from .aten import ATTENTION_OPS, GEMM_OPS, INDEX_DTYPES, PROFILER_DTYPES, attention_flags, flops_key_for_dtype
from .units import GB, TFLOP

# Proton's flops metrics by operand width (a kernel's flops sit under one of them)
FLOP_KEYS = ("flops8", "flops16", "flops32", "flops64")


# ---- cost of an op ------------------------------------------------------------------------------------------

def gemm_flops(m: int, n: int, k: int, batch: int = 1) -> int:
    """(batch, M, K) @ (batch, K, N): one multiply and one add per M * N * K."""
    return 2 * batch * m * n * k


def attention_flops(mask: MaskSpec, B: int, Hq: int, Sq: int, Sk: int, D: int) -> int:
    """4 * D * Hq * kept pairs summed over the batch: QK^T and PV, 2 * D flops each per kept pair."""
    return 4 * D * Hq * pairs(mask, B, Sq, Sk)


def attention_bytes(B: int, Hq: int, Hkv: int, Sq: int, Sk: int, D: int, size: int) -> int:
    """q read and the output written (B, Hq, Sq, D), k and v read (B, Hkv, Sk, D): `size` bytes an element."""
    return size * (2 * B * Hq * Sq * D + 2 * B * Hkv * Sk * D)


def _numel(dims) -> int:
    return math.prod(dims) if dims else 1


NO_COST = {"flops_key": "", "flops": 0, "bytes": 0, "dtype": ""}


def aten_op(op: str, dims: list, types: list, scalars: list | None = None) -> dict[str, Any]:
    """flops (with width key) and minimal bytes of an ATen op whose kernels come from libraries, from the
    torch.profiler record of its inputs (dims, types, concrete scalars). Attention: the causal triangle when the
    op's recorded is_causal is set, else every pair (an explicit mask: library_ops applies what the eager
    capture saw). Bytes: the inputs read and the output written once; 0 for an op not priced."""
    dt = next((t for t in types if t in PROFILER_DTYPES and t not in INDEX_DTYPES), "float")
    dtype, size = PROFILER_DTYPES[dt]
    # input tensors only: flat int lists (tensor lists such as cat's inputs are nested and skipped), and for a
    # GEMM its leading inputs (an `out=` tensor listed after them is the output, counted once below)
    shapes = [d for d in dims[:GEMM_OPS.get(op, len(dims))]
              if isinstance(d, list) and d and all(isinstance(x, int) for x in d)]
    flops = out_numel = 0
    name = op.split("::")[-1]
    try:
        if name in ("mm", "_mm") and len(shapes) >= 2:
            (m, k), (_, n) = shapes[0][-2:], shapes[1][-2:]
            flops, out_numel = gemm_flops(m, n, k), m * n
        elif name == "addmm" and len(shapes) >= 3:
            (m, k), (_, n) = shapes[1][-2:], shapes[2][-2:]
            flops, out_numel = gemm_flops(m, n, k), m * n
        elif name in ("bmm", "baddbmm"):
            a, b = (shapes[0], shapes[1]) if name == "bmm" else (shapes[1], shapes[2])
            flops, out_numel = gemm_flops(a[1], b[2], a[2], a[0]), a[0] * a[1] * b[2]
        elif name == "linear" and len(shapes) >= 2:
            x, w = shapes[0], shapes[1]
            m = _numel(x[:-1])
            flops, out_numel = gemm_flops(m, w[0], w[1]), m * w[0]
        elif op in ATTENTION_OPS and len(shapes) >= 3:
            (b, h, sq, d), sk = shapes[0], shapes[1][2]
            mask = CAUSAL if attention_flags(op, scalars or [])["is_causal"] else NONE
            flops, out_numel = attention_flops(mask, b, h, sq, sk, d), b * h * sq * d
    except (ValueError, IndexError, TypeError):
        flops = 0
    if not flops:
        return {**NO_COST, "dtype": dtype}
    in_bytes = sum(_numel(s) for s in shapes) * size
    return {"flops_key": flops_key_for_dtype(dtype), "flops": flops, "bytes": in_bytes + out_numel * size,
            "dtype": dtype}


def flex_kept_fraction(dense_flops: float, calls: list[dict]) -> float | None:
    """The share of a FlexAttention launch's dense flops (4 * D * B * Hq * Sq * Sk, what its launch_metadata
    sees: the mask is compiled into the kernel) that the captured FlexAttention calls of that dense cost keep:
    their kept flops over their dense flops. None when no captured call has that dense cost."""
    kept = dense = 0
    for c in calls:
        try:
            B, H, Sq, Sk, D = (int(c[k]) for k in ("B", "H", "Sq", "Sk", "D"))
            full = attention_flops(NONE, B, H, Sq, Sk, D)
            if c.get("op") == "flex_attention" and math.isclose(full, dense_flops, rel_tol=1e-9):
                kept, dense = kept + attention_flops(call_mask(c), B, H, Sq, Sk, D), dense + full
        except (KeyError, TypeError, ValueError):   # a call the capture did not finish: priced by the others
            continue
    return kept / dense if dense else None


def with_flex_masks(kernels, calls) -> Any:
    """The kernel table with each FlexAttention kernel's flops (per launch: the dense cost its launch_metadata
    gave) scaled to the kept pairs of the captured calls of that cost (attention_shapes.json), so that it reads
    as the attention table's flex_compiled row of the same call. A kernel whose launches match no captured
    call (several shapes averaged, no eager capture) keeps the dense count."""
    calls = [c for c in calls or [] if isinstance(c, dict) and c.get("op") == "flex_attention"]
    if not calls or not len(kernels) or "kind" not in kernels.columns:
        return kernels
    kernels = kernels.copy()
    for i in kernels.index[(kernels["kind"] == "flex_attention") & (kernels["flops"] > 0)]:
        share = flex_kept_fraction(kernels.at[i, "flops"] / max(kernels.at[i, "calls"], 1), calls)
        if share is not None:
            kernels.loc[i, [*FLOP_KEYS, "flops"]] = kernels.loc[i, [*FLOP_KEYS, "flops"]] * share
    # a launch whose arguments did not show Q and K (Inductor fused them into another input): priced at the
    # captured calls' kept pairs when they all cost the same, so that every FlexAttention kernel has a price
    one = flex_call_flops(calls)
    if one is not None:
        key, per_call = one
        for i in kernels.index[(kernels["kind"] == "flex_attention") & (kernels["flops"] <= 0)]:
            kernels.loc[i, key] = per_call * kernels.at[i, "calls"]
            kernels.loc[i, "flops"] = per_call * kernels.at[i, "calls"]
    return kernels


def flex_call_flops(calls: list[dict]) -> tuple[str, int] | None:
    """(width key, kept-pair flops) of the captured FlexAttention calls when they all cost the same, else None."""
    costs = set()
    for c in calls:
        try:
            B, H, Sq, Sk, D = (int(c[k]) for k in ("B", "H", "Sq", "Sk", "D"))
            costs.add((flops_key_for_dtype(c.get("dtype", "")), attention_flops(call_mask(c), B, H, Sq, Sk, D)))
        except (KeyError, TypeError, ValueError):
            return None
    return costs.pop() if len(costs) == 1 else None


# ---- cost over time, against a ceiling --------------------------------------------------------------------

def rates(flops, nbytes, seconds):
    """(TFLOP/s, GB/s) of a cost done in `seconds`."""
    return flops / seconds / TFLOP, nbytes / seconds / GB


def ridge(peak_tflops, peak_gbps):
    """The arithmetic intensity (flop per byte) where the compute roof meets the memory roof."""
    return peak_tflops * TFLOP / (peak_gbps * GB)


def pct_of_peak(tflops, gbps, compute_roof, memory_roof, compute_bound):
    """% of the roof that bounds the op: the compute roof (TFLOP/s) where `compute_bound`, else the memory roof
    (GB/s). Every table's % of peak comes from here."""
    pct_compute, pct_memory = 100 * tflops / compute_roof, 100 * gbps / memory_roof
    if hasattr(pct_memory, "where"):
        return pct_memory.where(~compute_bound, pct_compute)
    return pct_compute if compute_bound else pct_memory


def seconds_at_roofs(flops, nbytes, compute_roof, memory_roof):
    """The time at the ceilings (speed of light): flops at the compute roof or bytes at the memory roof, the
    longer; a roof not known (NaN) bounds nothing."""
    at_compute, at_memory = flops / (compute_roof * TFLOP), nbytes / (memory_roof * GB)
    if hasattr(at_compute, "fillna"):
        return at_compute.fillna(0).clip(lower=at_memory.fillna(0))
    return max(0 if math.isnan(at_compute) else at_compute, 0 if math.isnan(at_memory) else at_memory)


# ---- collectives: nccl-tests' algorithm and bus bandwidth ------------------------------------------------------
# (github.com/NVIDIA/nccl-tests, doc/PERFORMANCE.md): busbw = algbw * factor(n ranks), the share of the message
# each rank's link carries in the optimal algorithm
BUS_FACTOR = {
    "all_reduce": lambda n: 2 * (n - 1) / n,      # reduce-scatter then all-gather: 2(n-1)/n of the buffer
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "all_to_all": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
    "reduce": lambda n: 1.0,
    "send_recv": lambda n: 1.0,                   # point to point: every byte crosses the link once
}


def collective_bytes(in_elems: int, out_elems: int, elem_size: int) -> int:
    """The message size S nccl-tests divides by time: all_gather's output (n times its input), reduce_scatter's
    input (n times its output), the buffer of the others (input and output alike): the larger side each time."""
    return max(int(in_elems), int(out_elems)) * int(elem_size)


def collective_rates(collective: str, nbytes: float, group: int, seconds: float) -> tuple[float, float]:
    """(algbw, busbw) in GB/s of `collective` moving a message of `nbytes` among `group` ranks in `seconds`;
    busbw NaN for a collective without a bus factor (barrier) or a group under 1."""
    algbw = rates(0, nbytes, seconds)[1]
    factor = BUS_FACTOR.get(collective)
    return algbw, algbw * factor(group) if factor is not None and group >= 1 else float("nan")
