"""Flops and bytes per kernel launch, from the launch's real arguments (Proton's launch_metadata contract).

Pure functions, one per kernel kind, plus `KernelMetrics`: the module-level callable Triton calls as
`launch_metadata(grid, metadata, args)` (module-level so Inductor's caches can pickle it).

Formulas (documented estimates where the kernel's work is not a closed form):
- bytes, every kind: the distinct bytes the kernel must move. Each distinct tensor argument counts once,
  clamped to the elements the kernel iterates over (Inductor may pass a whole buffer of which it reads a
  slice); `in_out_ptr` arguments count twice (read and written).
- pointwise / reduction / foreach: flops = ops_per_element * (xnumel * r0_numel ...) + ops_per_row * xnumel.
  Ops are counted in the kernel source: each binary arithmetic operator and each math call
  (exp, rsqrt, erf, tanh, ...; one op each), each reduction step; loads, stores, casts, selects and index
  arithmetic are not counted. Ops that act on a reduced row count once per row. Inductor computes in
  fp32, so the key is `flops32` (`flops64` for fp64 kernels).
- mm templates: flops = 2 * batch * M * N * K from the operand shapes, keyed by operand width
  (`flops16` for bf16/fp16, `flops32` for fp32/tf32, `flops8` for fp8).
- flex-attention templates: flops = 4 * B * H * Sq * Sk * D (dense; block sparsity not discounted).
"""
from __future__ import annotations

import ast
import math
import re
import textwrap
from typing import Any, Mapping

KINDS = ("pointwise", "reduction", "persistent_reduction", "template_mm", "flex_attention", "foreach", "other")

_PREFIX_KIND = {"triton_poi_": "pointwise", "triton_red_": "reduction", "triton_per_": "persistent_reduction",
                "triton_for_": "foreach", "triton_tem_": "template_mm"}
_HEURISTIC_KIND = {"pointwise": "pointwise", "reduction": "reduction", "persistent_reduction": "persistent_reduction",
                   "template": "template_mm", "foreach": "foreach", "cooperative_reduction": "reduction",
                   "split_scan": "reduction"}
_REDUCTIONS = {"sum", "max", "min", "max2", "min2", "prod", "reduce", "argmax", "argmin", "welford",
               "welford_reduce", "welford_combine", "any", "cumsum", "cumprod", "xor_sum"}
_MATH_MODULES = {"libdevice", "tl_math", "math"}
_MATH_FUNCS = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "erf", "sigmoid", "abs",
               "maximum", "minimum", "fma", "pow", "floor", "ceil", "div_rn", "fdiv", "expm1", "log1p"}
_INDEX_CALLS = {"load", "store", "arange", "program_id", "full", "make_block_ptr", "advance"}
_NON_OPS = {"load", "store", "full", "where", "to", "broadcast_to", "reshape", "arange", "program_id",
            "zeros", "cast", "device_assert", "static_assert", "debug_barrier"}


def kernel_kind(name: str, heuristic: str | None = None, source: str = "") -> str:
    """Kind from Inductor's heuristic decorator, else from the name prefix Inductor gives each kind."""
    if "flex_attention" in name or "flex_attention" in source[:4000] or "flex_decoding" in name:
        return "flex_attention"
    if heuristic:
        kind = _HEURISTIC_KIND.get(heuristic.lower())
        if kind:
            return kind
    for prefix, kind in _PREFIX_KIND.items():
        if name.startswith(prefix):
            return kind
    return "other"


def _call_name(node: ast.Call) -> tuple[str, str]:
    f = node.func
    if isinstance(f, ast.Attribute):
        base = f.value.id if isinstance(f.value, ast.Name) else (f.value.attr if isinstance(f.value, ast.Attribute) else "")
        return base, f.attr
    if isinstance(f, ast.Name):
        return "", f.id
    return "", ""


class _OpCounter(ast.NodeVisitor):
    def __init__(self):
        self.ops = 0
        self.reduces = False

    def visit_BinOp(self, node):
        self.ops += 1
        self.generic_visit(node)

    def visit_Call(self, node):
        base, name = _call_name(node)
        if name in _REDUCTIONS and base in ("tl", "triton_helpers"):
            self.ops += 1
            self.reduces = True
        elif name in _INDEX_CALLS:
            return  # their arguments are pointer/index arithmetic
        elif name in _NON_OPS:
            pass
        elif base in _MATH_MODULES or name in _MATH_FUNCS:
            self.ops += 1
        self.generic_visit(node)


def count_ops(source: str) -> tuple[int, int]:
    """(ops per element, ops per reduced row) in an Inductor Triton kernel's body."""
    tree = ast.parse(textwrap.dedent(source))
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)), None)
    if fn is None:
        return 0, 0
    per_elem = per_row = 0
    row_vars: set[str] = set()
    constants: set[str] = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        names = [target.id] if isinstance(target, ast.Name) else \
            [e.id for e in getattr(target, "elts", []) if isinstance(e, ast.Name)]
        if not names or not all(n.lstrip("_").startswith("tmp") for n in names):
            continue  # index arithmetic, masks, offsets
        if isinstance(node.value, ast.Constant) or (isinstance(node.value, ast.UnaryOp)
                                                   and isinstance(node.value.operand, ast.Constant)):
            constants.update(names)
            continue
        counter = _OpCounter()
        counter.visit(node.value)
        used = {n.id for n in ast.walk(node.value)
                if isinstance(n, ast.Name) and n.id.lstrip("_").startswith("tmp")} - constants
        if counter.reduces:
            per_elem += counter.ops        # the reduction visits every element
            row_vars.update(names)
        elif used and used <= row_vars:
            per_row += counter.ops
            row_vars.update(names)
        else:
            per_elem += counter.ops
    return per_elem, per_row


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


def distinct_bytes(args: Mapping[str, Any], clamp_numel: int = 0, in_out_read: frozenset[str] | None = None) -> int:
    """Bytes the kernel must read and write: each distinct tensor once, twice when read and written.

    `in_out_read`: the in_out_ptr names the kernel really loads (None: assume all, the old over-count).
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
        both = name.startswith("in_out_ptr") and (in_out_read is None or name in in_out_read)
        total += n * v.element_size() * (2 if both else 1)
    return total


def flops_key_for_dtype(dtype: Any) -> str:
    name = str(dtype).replace("torch.", "")
    if "float8" in name or name.startswith("fp8"):
        return "flops8"
    if name in ("bfloat16", "float16", "bf16", "fp16", "half"):
        return "flops16"
    if name in ("float64", "fp64", "double"):
        return "flops64"
    return "flops32"


def elementwise_metrics(args: Mapping[str, Any], ops_per_element: int, ops_per_row: int,
                        in_out_read: frozenset[str] | None = None) -> dict[str, int]:
    total, rows = iteration_numel(args)
    key = "flops64" if any(_is_tensor(v) and str(v.dtype) == "torch.float64" for v in args.values()) else "flops32"
    return {key: ops_per_element * total + ops_per_row * rows, "bytes": distinct_bytes(args, total, in_out_read)}


def mm_metrics(args: Mapping[str, Any]) -> dict[str, int]:
    a, b = args.get("arg_A"), args.get("arg_B")
    if not (_is_tensor(a) and _is_tensor(b)):
        tensors = [v for v in args.values() if _is_tensor(v)]
        if len(tensors) < 2:
            return {"bytes": distinct_bytes(args)}
        a, b = tensors[0], tensors[1]
    m, k = a.shape[-2], a.shape[-1]
    n = b.shape[-1]
    batch = math.prod(a.shape[:-2]) if a.dim() > 2 else 1
    return {flops_key_for_dtype(a.dtype): 2 * batch * m * n * k, "bytes": distinct_bytes(args)}


def attention_metrics(args: Mapping[str, Any]) -> dict[str, int]:
    q, k = args.get("arg_Q"), args.get("arg_K")
    if not (_is_tensor(q) and _is_tensor(k)):
        return {"bytes": distinct_bytes(args)}
    b, h, sq, d = q.shape[0], q.shape[1], q.shape[2], q.shape[3]
    sk = k.shape[2]
    return {flops_key_for_dtype(q.dtype): 4 * b * h * sq * sk * d, "bytes": distinct_bytes(args)}


def launch_metrics(kind: str, args: Mapping[str, Any], ops_per_element: int = 0, ops_per_row: int = 0,
                   in_out_read: frozenset[str] | None = None) -> dict:
    if kind == "template_mm":
        return mm_metrics(args)
    if kind == "flex_attention":
        return attention_metrics(args)
    if kind == "other":
        total, _ = iteration_numel(args)
        return {"bytes": distinct_bytes(args, total, in_out_read)}
    return elementwise_metrics(args, ops_per_element, ops_per_row, in_out_read)


class KernelMetrics:
    """Triton `launch_metadata` callable: `(grid, metadata, args) -> {flopsNN, bytes}` for one kernel."""

    def __init__(self, kind: str, ops_per_element: int = 0, ops_per_row: int = 0,
                 in_out_read: frozenset[str] | tuple | None = None):
        self.kind = kind
        self.ops_per_element = ops_per_element
        self.ops_per_row = ops_per_row
        self.in_out_read = frozenset(in_out_read) if in_out_read is not None else None

    @classmethod
    def for_source(cls, name: str, source: str, heuristic: str | None = None) -> "KernelMetrics":
        kind = kernel_kind(name, heuristic, source)
        per_elem, per_row = count_ops(source) if kind not in ("template_mm", "flex_attention") else (0, 0)
        return cls(kind, per_elem, per_row, loaded_in_out(source))

    def __call__(self, grid, metadata, args) -> dict:
        return launch_metrics(self.kind, args, self.ops_per_element, self.ops_per_row, self.in_out_read)

    def __repr__(self) -> str:
        read = "" if self.in_out_read is None else f", in_out_read={tuple(sorted(self.in_out_read))!r}"
        return (f"KernelMetrics(kind={self.kind!r}, ops_per_element={self.ops_per_element}, "
                f"ops_per_row={self.ops_per_row}{read})")


# ---- annotated source copies --------------------------------------------------------------------------

_JIT_LINE = re.compile(r"^@triton\.jit\s*$", re.M)


def annotate_source(source: str, metrics: KernelMetrics) -> str:
    """The kernel source with `@triton.jit(launch_metadata=KernelMetrics(...))`: runs standalone, same results."""
    if not _JIT_LINE.search(source):
        raise ValueError("no bare @triton.jit decorator in kernel source")
    body = _JIT_LINE.sub(f"@triton.jit(launch_metadata={metrics!r})", source, count=1)
    return "from inductor_prof.annotate import KernelMetrics\n" + body


# ---- read / write split from a harvested kernel file (for comparing with ncu's DRAM reads) -------------

_SIGNATURE = re.compile(r"@triton\.jit[^\n]*\ndef \w+\(([^)]*)\)")
_RAND_STRIDED = re.compile(r"(arg_\d+)\s*=\s*rand_strided\(\(([^)]*)\),\s*\(([^)]*)\),[^)]*dtype=torch\.(\w+)\)")
_RETURN = re.compile(r"def get_args\(\):.*?return ([^\n]*)", re.S)
_ITEMSIZE = {"bfloat16": 2, "float16": 2, "float32": 4, "float64": 8, "int64": 8, "int32": 4, "int8": 1,
             "uint8": 1, "bool": 1, "float8_e4m3fn": 1, "float8_e5m2": 1}


def io_bytes(kernel_file_text: str) -> dict[str, int] | None:
    """Bytes one launch must read and write, from the kernel's signature and its `get_args()` shapes:
    in_ptr read, out_ptr written, in_out_ptr written (and read only if loaded); each clamped to the
    iteration space like `distinct_bytes`. None when the file has no get_args."""
    sig, ret = _SIGNATURE.search(kernel_file_text), _RETURN.search(kernel_file_text)
    if not sig or not ret:
        return None
    params = [p.split(":")[0].strip() for p in sig.group(1).split(",") if p.strip()]
    tensors = {m.group(1): (m.group(2), m.group(4)) for m in _RAND_STRIDED.finditer(kernel_file_text)}
    values = [v.strip() for v in ret.group(1).split(",") if v.strip()]
    ints = {p: int(v) for p, v in zip(params, values) if v.lstrip("-").isdigit()}
    clamp = math.prod(v for p, v in ints.items() if p.endswith("numel")) if ints else 0
    loaded = loaded_in_out(kernel_file_text)
    read = write = 0
    for p, v in zip(params, values):
        if v not in tensors:
            continue
        dims, dtype = tensors[v]
        n = math.prod(int(d) for d in dims.split(",") if d.strip()) if dims.strip() else 1
        nbytes = (min(n, clamp) if clamp else n) * _ITEMSIZE.get(dtype, 4)
        if p.startswith("in_out_ptr"):
            write += nbytes
            read += nbytes if p in loaded else 0
        elif p.startswith("out_ptr"):
            write += nbytes
        else:
            read += nbytes
    return {"read": read, "write": write}
