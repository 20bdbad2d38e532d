"""The one cost model: the flops (keyed by operand width, Proton's flops8/16/32/64) and the bytes of every op the
report prices, and the one conversion of (cost, time, ceiling) into TFLOP/s, GB/s and % of peak.

- GEMM: 2 * batch * M * N * K (grouped GEMMs: the grouped dim counted once); fp8 and int8 operands are 8-bit work.
- convolution: 2 * N * C_out * output pixels * (C_in / groups) * kernel window (transposed: by its input).
- any other library op (copies, indexing, sorts): the bytes it moves, no flops.
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

import json
import math
from typing import Any, Callable, Sequence

from .mask_pairs import CAUSAL, NONE, MaskSpec, call_mask, pairs
from .aten import (ATTENTION_BACKWARD_OPS, ATTENTION_OPS, CONV_OPS, DTYPE_BYTES, GEMM_OPS, GEMM_OUT_DTYPE, INDEX_DTYPES, PROFILER_DTYPES,
                   SCALAR_TYPES, attention_backward_causal, attention_dims, attention_flags, flops_key_for_dtype)
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


def attention_backward_flops(mask: MaskSpec, B: int, Hq: int, Sq: int, Sk: int, D: int) -> int:
    """The backward of attention over the same kept pairs: 10 * D * Hq * kept pairs, 2.5 times the forward's.
    Per kept pair the forward runs two matmul products of length D (S = QK^T, O = PV: 2 * 2D flops). The
    backward runs five: S = QK^T again (recomputed from Q, K and the saved logsumexp, as the flash/cuDNN
    kernels do instead of keeping P), dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q: 5 * 2D flops."""
    return 10 * D * Hq * pairs(mask, B, Sq, Sk)


def attention_backward_bytes(B: int, Hq: int, Hkv: int, Sq: int, Sk: int, D: int, size: int) -> int:
    """q, out and dO read and dq written (B, Hq, Sq, D each), k and v read and dk, dv written (B, Hkv, Sk, D
    each), at `size` bytes an element; the float32 logsumexp (B, Hq, Sq) read."""
    return size * (4 * B * Hq * Sq * D + 4 * B * Hkv * Sk * D) + 4 * B * Hq * Sq


def _attention_backward(op: str, inputs: list[Any], scalars: list[Any]) -> tuple[int, int]:
    """(flops, bytes) of an SDPA backward op from its recorded grad_out, query and key."""
    spec = ATTENTION_BACKWARD_OPS[op]
    b, h, sq, d, hkv, sk = attention_dims(spec.layout, inputs[1][0], inputs[2][0])
    size = inputs[1][2]
    causal = attention_backward_causal(op, scalars)
    return (attention_backward_flops(CAUSAL if causal else NONE, b, h, sq, sk, d),
            attention_backward_bytes(b, h, hkv, sq, sk, d, size))


def attention_bytes(B: int, Hq: int, Hkv: int, Sq: int, Sk: int, D: int, size: int) -> int:
    """q read and the output written (B, Hq, Sq, D), k and v read (B, Hkv, Sk, D): `size` bytes an element."""
    return size * (2 * B * Hq * Sq * D + 2 * B * Hkv * Sk * D)


def _numel(dims: Sequence[int] | None) -> int:
    return math.prod(dims) if dims else 1


def conv_output(spatial: list[int], kernel: list[int], stride: list[int], padding: list[int], dilation: list[int],
                transposed: bool = False, output_padding: list[int] | None = None) -> list[int]:
    """A convolution's output size per spatial dim (torch's formula: floor((in + 2p - d(k-1) - 1) / s) + 1; a
    transposed one inverts it: (in - 1)s - 2p + d(k-1) + output_padding + 1)."""
    out_pad = output_padding or [0] * len(spatial)
    if transposed:
        return [(i - 1) * s - 2 * p + d * (k - 1) + op + 1
                for i, k, s, p, d, op in zip(spatial, kernel, stride, padding, dilation, out_pad)]
    return [(i + 2 * p - d * (k - 1) - 1) // s + 1 for i, k, s, p, d in zip(spatial, kernel, stride, padding, dilation)]


def conv_flops(n: int, c_in: int, c_out: int, groups: int, kernel: list[int], out_spatial: list[int],
               in_spatial: list[int], transposed: bool = False) -> int:
    """2 flops (a multiply-add) per output element per (c_in / groups) x kernel-window input: a forward
    convolution's output is N x C_out x out; a transposed one scatters each of its N x C_in x in inputs to
    c_out / groups x kernel outputs (the same count as the forward convolution it is the gradient of)."""
    if transposed:
        return 2 * n * c_in * _numel(in_spatial) * (c_out // groups) * _numel(kernel)
    return 2 * n * c_out * _numel(out_spatial) * (c_in // groups) * _numel(kernel)


def grouped_gemm(a: list[int], b: list[int]) -> tuple[int, list[int]]:
    """(flops, output shape) of a grouped GEMM (torch._grouped_mm): with offsets, a 2-D operand is split into
    groups along its M (or K, or N) dim, so its size counts once, not once per group: A (M, K) x B (G, K, N)
    -> (M, N); A (G, M, K) x B (G, K, N) -> (G, M, N); A (M, K) x B (K, N), offsets over K -> (G, M, N);
    A (G, M, K) x B (K, N), offsets over N -> (M, N)."""
    if len(a) == 2 and len(b) == 3:
        return gemm_flops(a[0], b[2], a[1]), [a[0], b[2]]
    if len(a) == 3 and len(b) == 3:
        return gemm_flops(a[1], b[2], a[2], a[0]), [a[0], a[1], b[2]]
    if len(a) == 2 and len(b) == 2:   # the groups' count is the offsets' length, not known here: out (M, N) each
        return gemm_flops(a[0], b[1], a[1]), [a[0], b[1]]
    if len(a) == 3 and len(b) == 2:
        return gemm_flops(a[1], b[1], a[2]), [a[1], b[1]]
    raise ValueError(f"grouped GEMM of a {len(a)}-D and a {len(b)}-D operand")


NO_COST = {"flops_key": "", "flops": 0, "bytes": 0, "dtype": "", "unpriced": ""}


def _tensors(dims: list[Any], types: list[Any], n: int) -> list[tuple[list[int], str, int, str]]:
    """The first `n` recorded arguments that are tensors of a known dtype: (shape, dtype name, element size, the
    profiler's type name). A tensor argument is a flat int list with a dtype (a 0-d tensor is [] with one; a
    tensor list such as cat's inputs is nested and skipped); an unknown dtype name raises (the op is then said
    unpriced, never 0)."""
    out = []
    for d, t in zip(dims[:n], types[:n]):
        if not isinstance(d, list) or not all(isinstance(x, int) for x in d) or t in ("", "Scalar", "ScalarList"):
            continue
        if t not in PROFILER_DTYPES:
            raise ValueError(f"unknown dtype {t!r}")
        out.append((d, *PROFILER_DTYPES[t], t))
    return out


def _ints(scalars: list[Any], i: int | None, n: int, default: int) -> list[int]:
    """An int-list argument as torch.profiler records it ("[1, 1]", or one int for every dim), n long."""
    text = scalars[i] if i is not None and i < len(scalars) else ""
    if text in ("", "None"):
        return [default] * n
    value = json.loads(text)
    value = value if isinstance(value, list) else [value]
    return value * n if len(value) == 1 else value


def _conv(op: str, inputs: list[Any], scalars: list[Any]) -> tuple[int, int, str]:
    """(flops, output elements, operand dtype) of a convolution op from its input and weight and recorded
    stride, padding, dilation, groups, transposed and output padding."""
    spec = CONV_OPS[op]
    (x, dtype, _, _), (w, _, _, _) = inputs[0], inputs[1]
    nd = len(w) - 2
    transposed = spec.transposed if isinstance(spec.transposed, bool) else scalars[spec.transposed] == "True"
    groups = int(scalars[spec.groups]) if spec.groups < len(scalars) and scalars[spec.groups] else 1
    padding_text = scalars[spec.padding] if spec.padding < len(scalars) else ""
    batched = len(x) == nd + 2
    n, c_in, spatial = (x[0], x[1], x[2:]) if batched else (1, x[0], x[1:])
    kernel = w[2:]
    stride, dilation = _ints(scalars, spec.stride, nd, 1), _ints(scalars, spec.dilation, nd, 1)
    if padding_text in ('"same"', "same"):
        padding = [d * (k - 1) // 2 for d, k in zip(dilation, kernel)]
    elif padding_text in ('"valid"', "valid"):
        padding = [0] * nd
    else:
        padding = _ints(scalars, spec.padding, nd, 0)
    out_pad = _ints(scalars, spec.output_padding, nd, 0)
    c_out = w[1] * groups if transposed else w[0]
    out = conv_output(spatial, kernel, stride, padding, dilation, transposed, out_pad)
    if min(out, default=1) <= 0:
        raise ValueError(f"output size {out}")
    return conv_flops(n, c_in, c_out, groups, kernel, out, spatial, transposed), n * c_out * _numel(out), dtype


def _out_size(op: str, scalars: list[Any], operand_size: int) -> int:
    """Bytes of a GEMM's output element: the out_dtype the op was given, int32 for torch._int_mm, else the
    operands' width."""
    pos = GEMM_OUT_DTYPE.get(op)
    code = scalars[pos] if pos is not None and pos < len(scalars) else ""
    if code not in ("", "None"):
        return DTYPE_BYTES[SCALAR_TYPES[int(code)]]
    if op == "aten::_int_mm":
        return DTYPE_BYTES["int32"]
    return operand_size


def _gemm(op: str, inputs: list[Any], scalars: list[Any], operand_size: int) -> tuple[int, int, int]:
    """(flops, output elements, output element bytes) of a GEMM op's recorded inputs."""
    name = op.split("::")[-1]
    mats = [s for s, _, _, _ in inputs]
    if name in ("mm", "_int_mm", "_scaled_mm", "matmul") or (name == "addmm" and len(mats) >= 3):
        a, b = (mats[1], mats[2]) if name == "addmm" else (mats[0], mats[1])
        (m, k), n = a[-2:], b[-1]
        flops, out = gemm_flops(m, n, k), [m, n]
    elif name in ("bmm", "baddbmm"):
        a, b = (mats[0], mats[1]) if name == "bmm" else (mats[1], mats[2])
        flops, out = gemm_flops(a[1], b[2], a[2], a[0]), [a[0], a[1], b[2]]
    elif name == "linear":
        x, w = mats[0], mats[1]
        flops, out = gemm_flops(_numel(x[:-1]), w[0], w[1]), [*x[:-1], w[0]]
    elif name in ("_grouped_mm", "_scaled_grouped_mm"):
        flops, out = grouped_gemm(mats[0], mats[1])
    else:
        raise ValueError(f"no GEMM formula for {op}")
    return flops, _numel(out), _out_size(op, scalars, operand_size)


def _memory_op(name: str, inputs: list[Any]) -> int:
    """Bytes of an op priced by the data it moves (no flops formula: copies, fills, indexing, sorts...): every
    tensor input read once and an output as large as the largest input written once; a copy into `self` reads
    only its source; a fill only writes. A documented estimate, not a count: ncu's DRAM bytes say how close."""
    sizes: list[int] = [_numel(s) * size for s, _, size, _ in inputs]
    if name in ("fill_", "zero_", "normal_", "uniform_", "random_"):
        return sizes[0]
    if name in ("copy_", "_copy_from", "_copy_from_and_resize"):
        return sum(sizes[:2])
    return sum(sizes) + max(sizes)


GATHER_OPS = ("gather", "take_along_dim", "embedding", "index_select", "nll_loss_forward", "nll_loss_backward",
              "nll_loss2d_forward", "nll_loss2d_backward")


def _distinct_numel(shape: list[int], strides: Any) -> int:
    """Elements a tensor really holds: a broadcast (stride-0) dimension repeats one (an expanded index)."""
    if not isinstance(strides, list) or len(strides) != len(shape):
        return _numel(shape)
    return int(math.prod(n for n, st in zip(shape, strides) if st != 0))


def _gather(name: str, dims: list[Any], types: list[Any], scalars: list[Any], strides: list[Any]) -> int:
    """Bytes of a gather: the elements it picks read from the source (not the whole source: an embedding table
    of 128256 rows gives 4096 of them), its index read (each distinct element once), its output written."""
    at = [i for i, (d, t) in enumerate(zip(dims, types)) if isinstance(d, list) and t in PROFILER_DTYPES]
    if len(at) < 2:
        raise ValueError("no source and index tensors recorded")
    src, idx = at[0], next(i for i in at[1:] if types[i] in INDEX_DTYPES)
    if name.startswith("nll_loss"):   # (grad_output,) self [N, C], target [N]: one class's value a row, each
        src = next(i for i in at if len(dims[i]) == len(dims[idx]) + 1)   # read (forward) or written (backward)
    size: int = PROFILER_DTYPES[types[src]][1]
    idx_size: int = PROFILER_DTYPES[types[idx]][1]
    index_bytes = _distinct_numel(dims[idx], strides[idx] if idx < len(strides) else None) * idx_size
    if name.startswith("nll_loss"):
        return _numel(dims[idx]) * size + index_bytes
    if name == "embedding":     # (weight [V, D], indices): D elements a looked-up index
        picked = _numel(dims[idx]) * int(dims[src][-1])
    elif name == "index_select":   # (self, dim, index [k]): self with dimension dim k long
        dim = int(scalars[1]) % len(dims[src])
        picked = _numel(dims[src]) // max(dims[src][dim], 1) * _numel(dims[idx])
    else:                       # gather, take_along_dim: the output has the index's shape
        picked = _numel(dims[idx])
    return 2 * picked * size + index_bytes


def aten_op(op: str, dims: list[Any], types: list[Any], scalars: list[Any] | None = None,
            strides: list[Any] | None = None) -> dict[str, Any]:
    """flops (with width key) and minimal bytes of an ATen op whose kernels come from libraries, from the
    torch.profiler record of its inputs (dims, types, concrete scalars): GEMMs (dense, batched, grouped; bf16,
    fp8 with any scaling, int8), convolutions (any dims, groups, stride, dilation, transposed), attention (the
    causal triangle when the op's recorded is_causal is set, else every pair: an explicit mask is applied by
    library_ops from the eager capture), and every other op by the bytes it moves (_memory_op). Bytes: each
    input read and the output written once, each at its own dtype's width. `unpriced`: why an op has no cost
    (no tensor inputs recorded, an unknown dtype, a shape no formula fits), "" when priced."""
    scalars = scalars or []
    name = op.split("::")[-1]
    op = "aten::mm" if name == "_mm" else f"aten::{name}"   # the name after the last '::' is the op
    try:
        inputs = _tensors(dims, types, GEMM_OPS.get(op, len(dims)))
        if not inputs:
            listed = "TensorList" in types   # cat's inputs: shapes recorded, their dtype not
            return {**NO_COST, "unpriced": f"{op}: " + ("a tensor list, recorded without its dtype" if listed else
                                                        "no tensor inputs recorded")}
        # the op's dtype: its first operand that is not an index (a GEMM of int8 operands is int8 work)
        operand_dtype = next((dt for _, dt, _, profiled in inputs if profiled not in INDEX_DTYPES), inputs[0][1])
        flops = 0
        if op in CONV_OPS:
            flops, out_numel, operand_dtype = _conv(op, inputs, scalars)
            nbytes = sum(_numel(s) * size for s, _, size, _ in inputs[:2]) + out_numel * inputs[0][2]
        elif op in GEMM_OPS:
            flops, out_numel, out_size = _gemm(op, inputs, scalars, DTYPE_BYTES[operand_dtype])
            nbytes = sum(_numel(s) * size for s, _, size, _ in inputs) + out_numel * out_size
        elif op in ATTENTION_BACKWARD_OPS and len(inputs) >= 3:
            flops, nbytes = _attention_backward(op, inputs, scalars)
            operand_dtype = inputs[1][1]
        elif op in ATTENTION_OPS and len(inputs) >= 3:
            b, h, sq, d, _, sk = attention_dims(ATTENTION_OPS[op].layout, inputs[0][0], inputs[1][0])
            size = inputs[0][2]
            mask = CAUSAL if attention_flags(op, scalars)["is_causal"] else NONE
            flops = attention_flops(mask, b, h, sq, sk, d)
            nbytes = sum(_numel(s) * sz for s, _, sz, _ in inputs) + b * h * sq * d * size
        elif name in GATHER_OPS:
            nbytes = _gather(name, dims, types, scalars, strides or [])
        else:
            nbytes = _memory_op(name, inputs)
    except (ValueError, IndexError, TypeError, KeyError, StopIteration) as e:
        return {**NO_COST, "unpriced": f"{op}: {e}" if str(e) else f"{op}: its recorded shapes fit no formula"}
    if not flops and not nbytes:
        return {**NO_COST, "dtype": operand_dtype, "unpriced": f"{op}: its recorded tensors are empty (an out= the "
                                                                  "op resizes)"}
    return {"flops_key": flops_key_for_dtype(operand_dtype) if flops else "", "flops": flops, "bytes": nbytes,
            "dtype": operand_dtype, "unpriced": ""}


def flex_kept_fraction(dense_flops: float, calls: list[dict[str, Any]]) -> float | None:
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


def with_flex_masks(kernels: Any, calls: list[Any] | None) -> Any:   # a pandas DataFrame in and out
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


def flex_call_flops(calls: list[dict[str, Any]]) -> tuple[str, int] | None:
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

# the rates, roofs and times below take floats or pandas Series alike (the tables price whole columns at once)
Num = Any


def rates(flops: Num, nbytes: Num, seconds: Num) -> tuple[Num, Num]:
    """(TFLOP/s, GB/s) of a cost done in `seconds`."""
    return flops / seconds / TFLOP, nbytes / seconds / GB


def ridge(peak_tflops: Num, peak_gbps: Num) -> Num:
    """The arithmetic intensity (flop per byte) where the compute roof meets the memory roof."""
    return peak_tflops * TFLOP / (peak_gbps * GB)


def pct_of_peak(tflops: Num, gbps: Num, compute_roof: Num, memory_roof: Num, compute_bound: Num) -> Num:
    """% of the roof that bounds the op: the compute roof (TFLOP/s) where `compute_bound`, else the memory roof
    (GB/s). Every table's % of peak comes from here."""
    pct_compute, pct_memory = 100 * tflops / compute_roof, 100 * gbps / memory_roof
    if hasattr(pct_memory, "where"):
        return pct_memory.where(~compute_bound, pct_compute)
    return pct_compute if compute_bound else pct_memory


def seconds_at_roofs(flops: Num, nbytes: Num, compute_roof: Num, memory_roof: Num) -> Num:
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
    factor: Callable[[int], float] | None = BUS_FACTOR.get(collective)
    return algbw, algbw * factor(group) if factor is not None and group >= 1 else float("nan")
