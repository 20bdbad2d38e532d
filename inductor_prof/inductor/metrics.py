"""Flops and bytes per kernel launch, from the launch's real arguments (Proton's launch_metadata contract).

Pure functions, one per kernel kind, plus `KernelMetrics`: the module-level callable Triton calls as
`launch_metadata(grid, metadata, args)` (module-level so Inductor's caches can pickle it).

Formulas (documented estimates where the kernel's work is not a closed form):
- bytes, every kind: the distinct bytes the kernel must move. Each distinct tensor argument counts once,
  clamped to the elements the kernel iterates over (Inductor may pass a whole buffer of which it reads a
  slice); an `in_out_ptr` argument counts twice (read and written) when the kernel loads it, once when it
  only stores to it.
- pointwise / reduction / foreach: the flops Nsight Compute counts (see `ops.py`): ops per element x the
  elements (for a reduction, every lane of each block of R0_BLOCK, the last one partly masked) + ops per lane
  x R0_BLOCK x rows + ops per row x rows. Inductor computes in fp32, so the key is `flops32` (`flops64` for
  fp64 kernels).
- mm templates: flops = 2 * batch * M * N * K from the operand shapes, keyed by operand width
  (`flops16` for bf16/fp16, `flops32` for fp32/tf32, `flops8` for fp8); cost.gemm_flops.
- flex-attention templates: flops = 4 * B * Hq * Sq * Sk * D, every pair (cost.attention_flops): the mask is
  compiled into the kernel, not an argument; the report keeps the captured calls' kept pairs
  (cost.flex_kept_fraction).
"""
from __future__ import annotations

import math
import re
from typing import Any, Iterable, Mapping

from ..aten import flops_key_for_dtype
from ..mask_pairs import NONE
from ..cost import attention_flops, gemm_flops
from .ops import OpCounts, count_ops

KINDS = ("pointwise", "reduction", "persistent_reduction", "template_mm", "flex_attention", "foreach", "other")

_PREFIX_KIND = {"triton_poi_": "pointwise", "triton_red_": "reduction", "triton_per_": "persistent_reduction",
                "triton_for_": "foreach", "triton_tem_": "template_mm"}
_HEURISTIC_KIND = {"pointwise": "pointwise", "reduction": "reduction", "persistent_reduction": "persistent_reduction",
                   "template": "template_mm", "foreach": "foreach", "cooperative_reduction": "reduction",
                   "split_scan": "reduction"}


def kernel_kind(name: str, heuristic: str | None = None, source: str = "") -> str:
    """Kind from Inductor's heuristic decorator, else from the name prefix Inductor gives each kind."""
    if "flex_attention" in name or "flex_attention" in source[:4000] or "flex_decoding" in name:
        return "flex_attention"
    if name.startswith("triton_for_"):   # a foreach kernel's autotuner says TEMPLATE (triton_heuristics.foreach)
        return "foreach"
    if heuristic:
        kind = _HEURISTIC_KIND.get(heuristic.lower())
        if kind:
            return kind
    for prefix, kind in _PREFIX_KIND.items():
        if name.startswith(prefix):
            return kind
    return "other"


# ---- per-launch formulas: pure functions of the launch arguments -------------------------------------

def _is_tensor(v: Any) -> bool:
    return hasattr(v, "data_ptr") and hasattr(v, "element_size") and hasattr(v, "numel")


def iteration_numel(args: Mapping[str, Any]) -> tuple[int, int]:
    """(all iterations, rows): product of every *numel argument, and xnumel*ynumel alone."""
    total = rows = 1
    seen = False
    for name, v in args.items():
        if isinstance(v, int) and not isinstance(v, bool) and name.endswith("numel"):
            seen = True
            total *= v
            if name[0] in "xyz":
                rows *= v
    return (total, rows) if seen else (0, 0)


_LOAD_PTR = re.compile(r"tl\.load\(\s*(in_out_ptr\d+)\b")


def loaded_in_out(source: str) -> frozenset[str]:
    """The in_out_ptr arguments a kernel loads from; the others are only stored to (read once, not twice)."""
    return frozenset(_LOAD_PTR.findall(source))


_MUTATED = re.compile(r"'mutated_arg_names':\s*\[([^\]]*)\]")


def mutated_inputs(source: str) -> frozenset[str]:
    """The in_ptr arguments Inductor's inductor_meta says the kernel mutates (a foreach optimizer step updates
    parameters and states in place): read and written, not read only."""
    m = _MUTATED.search(source)
    return frozenset(n for n in re.findall(r"'(in_ptr\d+)'", m.group(1))) if m else frozenset()


def distinct_bytes(args: Mapping[str, Any], clamp_numel: int = 0, in_out_read: frozenset[str] | None = None,
                   mutated: frozenset[str] = frozenset()) -> int:
    """Bytes the kernel must read and write: each distinct tensor once, twice when read and written.

    `in_out_read`: the in_out_ptr names the kernel really loads (None: assume all, the old over-count).
    `mutated`: in_ptr names the kernel also writes (mutated_inputs): counted twice.
    """
    seen: set[int] = set()
    total = 0
    for name, v in args.items():
        if not _is_tensor(v):
            continue
        ptr = v.data_ptr()
        if ptr in seen:
            continue
        seen.add(ptr)
        n = v.numel()
        if clamp_numel:
            n = min(n, clamp_numel)
        both = (name.startswith("in_out_ptr") and (in_out_read is None or name in in_out_read)) or name in mutated
        total += n * v.element_size() * (2 if both else 1)
    return total


def reduction_lanes(args: Mapping[str, Any]) -> tuple[int, int]:
    """(elements a reduction computes on: each row padded to whole blocks, lanes per row). A row's block is the
    launch's R0_BLOCK when it is an argument, else the row rounded up to a power of 2 (a persistent
    reduction's block). (all iterations, 0) for a kernel without a reduction."""
    total, rows = iteration_numel(args)
    per_row = total // rows if rows else 0
    if per_row <= 1:
        return total, 0
    block = args.get("R0_BLOCK")
    if not isinstance(block, int) or block < 1:
        block = 1 << (per_row - 1).bit_length()
    return rows * math.ceil(per_row / block) * block, block


def elementwise_metrics(args: Mapping[str, Any], ops: OpCounts, in_out_read: frozenset[str] | None = None,
                        mutated: frozenset[str] = frozenset()) -> dict:
    total, rows = iteration_numel(args)
    padded, lanes = reduction_lanes(args)
    # Inductor computes in fp32, in fp64 where a tensor is fp64
    wide = any(_is_tensor(v) and flops_key_for_dtype(v.dtype) == "flops64" for v in args.values())
    key = "flops64" if wide else "flops32"
    flops = ops.per_element * padded + ops.per_lane * lanes * rows + ops.per_row * rows
    return {key: round(flops), "bytes": distinct_bytes(args, total, in_out_read, mutated)}


def mm_metrics(args: Mapping[str, Any]) -> dict[str, int]:
    a: Any = args.get("arg_A")
    b: Any = args.get("arg_B")
    if not (_is_tensor(a) and _is_tensor(b)):
        tensors = [v for v in args.values() if _is_tensor(v)]
        if len(tensors) < 2:
            return {"bytes": distinct_bytes(args)}
        a, b = tensors[0], tensors[1]
    if a.dim() < 2 or b.dim() < 2:   # not a matmul's operands: what it moves only
        return {"bytes": distinct_bytes(args)}
    m, k = a.shape[-2], a.shape[-1]
    n = b.shape[-1]
    batch = math.prod(a.shape[:-2]) if a.dim() > 2 else 1
    return {flops_key_for_dtype(a.dtype): gemm_flops(m, n, k, batch), "bytes": distinct_bytes(args)}


def attention_metrics(args: Mapping[str, Any]) -> dict[str, int]:
    q: Any = args.get("arg_Q")
    k: Any = args.get("arg_K")
    if not (_is_tensor(q) and _is_tensor(k)):
        return {"bytes": distinct_bytes(args)}
    b, h, sq, d = q.shape[0], q.shape[1], q.shape[2], q.shape[3]
    flops = attention_flops(NONE, b, h, sq, k.shape[2], d)
    return {flops_key_for_dtype(q.dtype): flops, "bytes": distinct_bytes(args)}


def launch_metrics(kind: str, args: Mapping[str, Any], ops: OpCounts = OpCounts(),
                   in_out_read: frozenset[str] | None = None, mutated: frozenset[str] = frozenset()) -> dict:
    if kind == "template_mm":
        return mm_metrics(args)
    if kind == "flex_attention":
        return attention_metrics(args)
    if kind == "other":
        total, _ = iteration_numel(args)
        return {"bytes": distinct_bytes(args, total, in_out_read, mutated)}
    return elementwise_metrics(args, ops, in_out_read, mutated)


class KernelMetrics:
    """Triton `launch_metadata` callable: `(grid, metadata, args) -> {flopsNN, bytes}` for one kernel."""

    def __init__(self, kind: str, ops_per_element: float = 0, ops_per_row: float = 0,
                 in_out_read: frozenset[str] | tuple | None = None, ops_per_lane: float = 0,
                 mutated: frozenset[str] | tuple = ()):
        self.kind = kind
        self.ops = OpCounts(ops_per_element, ops_per_lane, ops_per_row)
        self.in_out_read = frozenset(in_out_read) if in_out_read is not None else None
        self.mutated = frozenset(mutated)

    @property
    def ops_per_element(self) -> float: return self.ops.per_element
    @property
    def ops_per_row(self) -> float: return self.ops.per_row
    @property
    def ops_per_lane(self) -> float: return self.ops.per_lane

    @classmethod
    def for_source(cls, name: str, source: str, heuristic: str | None = None,
                   mutated_arg_names: Iterable[str] | None = None) -> "KernelMetrics":
        """`mutated_arg_names`: the inductor_meta entry where the caller has it (a JITFunction's `src` is the
        def alone, without the decorator that names them); else read from `source` (a whole module's text)."""
        kind = kernel_kind(name, heuristic, source)
        ops = count_ops(source) if kind not in ("template_mm", "flex_attention") else OpCounts()
        mutated = (mutated_inputs(source) if mutated_arg_names is None
                   else frozenset(n for n in mutated_arg_names if str(n).startswith("in_ptr")))
        return cls(kind, ops.per_element, ops.per_row, loaded_in_out(source), ops.per_lane, mutated)

    def __call__(self, grid, metadata, args) -> dict:
        return launch_metrics(self.kind, args, self.ops, self.in_out_read, getattr(self, "mutated", frozenset()))

    def __repr__(self) -> str:
        read = "" if self.in_out_read is None else f", in_out_read={tuple(sorted(self.in_out_read))!r}"
        lane = f", ops_per_lane={self.ops.per_lane:g}" if self.ops.per_lane else ""
        lane += f", mutated={tuple(sorted(self.mutated))!r}" if self.mutated else ""
        return (f"KernelMetrics(kind={self.kind!r}, ops_per_element={self.ops.per_element:g}, "
                f"ops_per_row={self.ops.per_row:g}{read}{lane})")
