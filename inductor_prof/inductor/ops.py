"""Floating-point operations per element and per reduced row, counted in an Inductor Triton kernel's source,
the way Nsight Compute counts them (FP add, mul and FMA instructions, an FMA being two).

- An arithmetic operator (+ - * /, unary minus) on floats counts one; integer index and mask arithmetic
  (x0 + 512, r0_mask & xmask, comparisons) counts none: ncu counts no integer instruction as a flop.
- A math call counts what its code executes, measured with ncu on an H100 (MATH_FLOPS below): a libdevice
  tanh is a polynomial of about 9 FP instructions, erf 22, while exp, rsqrt or sqrt are special-function-unit
  ops that ncu does not count (exp's one is the multiply by log2(e)).
- A Welford update in a reduction loop (welford_reduce: sub, add, div, add, sub, and an FMA) counts seven per
  element. A reduction across a row's lanes (tl.sum, triton_helpers.welford, max2...) counts its combine once
  per lane: a sum one add, a Welford combine ten, a max none (FMNMX is no FP arithmetic). The lanes of a row
  are its R0_BLOCK (the launch's block; a persistent reduction's block is the row rounded up to a power of 2),
  and the per-element ops of a reduction loop run on every lane of the last, partly masked block too.
- Loads, stores, casts, selects (tl.where) and tl.full constants count none. An op whose float inputs are all
  reduced rows (or constants) runs once per row.
"""
from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass

# fp32 flops per element ncu counted for each call alone in a kernel (scripts/calibrate_math_flops.py, H100,
# ncu 2025.3.1, triton 3.6, 2026-11-22; examples/calibration/math-flops-h100.json); a call not listed counts 1
MATH_FLOPS = {
    "exp": 1.0, "exp2": 0.0, "log": 24.25, "log2": 0.0, "sqrt": 0.0, "rsqrt": 0.0, "sin": 18.28, "cos": 18.87,
    "tanh": 9.26, "erf": 22.0, "sigmoid": 4.25, "abs": 0.0, "maximum": 0.0, "minimum": 0.0, "floor": 0.0,
    "ceil": 0.0, "expm1": 21.13, "log1p": 27.25, "pow": 63.25, "div_rn": 10.0, "fma": 2.0,
}
# cross-lane reductions -> flops of one combine (welford_combine: 2 sub/add, a div, 2 FMA, an add, 2 mul)
COMBINE_FLOPS = {"sum": 1.0, "prod": 1.0, "cumsum": 1.0, "cumprod": 1.0, "xor_sum": 0.0, "max": 0.0,
                 "min": 0.0, "max2": 0.0, "min2": 0.0, "argmax": 0.0, "argmin": 0.0, "any": 0.0, "reduce": 1.0,
                 "welford": 10.0, "welford_combine": 10.0}
WELFORD_UPDATE_FLOPS = 7.0   # welford_reduce, per element of a reduction loop
_MATH_MODULES = {"libdevice", "tl_math", "math"}
_FLOAT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.Mod, ast.FloorDiv)
_INDEX_CALLS = {"load", "store", "arange", "program_id", "make_block_ptr", "advance"}
_NON_OPS = {"where", "to", "broadcast_to", "reshape", "zeros", "full", "cast", "device_assert", "static_assert",
            "debug_barrier", "zeros_like"}
_INT_TYPES = {"int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}


def _call_name(node: ast.Call) -> tuple[str, str]:
    f = node.func
    if isinstance(f, ast.Attribute):
        base = f.value.id if isinstance(f.value, ast.Name) else (f.value.attr if isinstance(f.value, ast.Attribute) else "")
        return base, f.attr
    if isinstance(f, ast.Name):
        return "", f.id
    return "", ""


def _is_tmp(name: str) -> bool:
    return name.lstrip("_").startswith("tmp")


class _Types:
    """Which tmp variables hold integers (index arithmetic, masks) rather than floats."""

    def __init__(self):
        self.ints: set[str] = set()

    def is_int(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (int, bool))
        if isinstance(node, ast.Name):
            return node.id in self.ints or not _is_tmp(node.id)   # x0, r0_1, xindex: indices
        if isinstance(node, ast.UnaryOp):
            return self.is_int(node.operand)
        if isinstance(node, (ast.Compare, ast.BoolOp)):
            return True
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)):
                return True
            return self.is_int(node.left) and self.is_int(node.right)
        if isinstance(node, ast.Subscript):
            return self.is_int(node.value)
        if isinstance(node, ast.Call):
            base, name = _call_name(node)
            if name in ("full", "zeros") and node.args:
                dtype = node.args[-1]
                return isinstance(dtype, ast.Attribute) and dtype.attr in _INT_TYPES
            if name == "to" and node.args:
                dtype = node.args[0]
                return isinstance(dtype, ast.Attribute) and dtype.attr in _INT_TYPES
            if name in ("where", "broadcast_to", "reshape") and node.args:
                args = node.args[1:] if name == "where" else node.args[:1]
                return all(self.is_int(a) for a in args)
        return False


class _OpCounter(ast.NodeVisitor):
    def __init__(self, types: _Types):
        self.types = types
        self.ops = 0.0          # per element
        self.combine = 0.0      # per lane, for a reduction across a row
        self.reduces = False

    def visit_BinOp(self, node):
        if isinstance(node.op, _FLOAT_OPS) and not self.types.is_int(node):
            self.ops += 1
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.USub) and not self.types.is_int(node.operand) \
                and not isinstance(node.operand, ast.Constant):
            self.ops += 1
        self.generic_visit(node)

    def visit_Call(self, node):
        base, name = _call_name(node)
        if name == "welford_reduce" and base == "triton_helpers":
            self.ops += WELFORD_UPDATE_FLOPS
            self.reduces = True
        elif name in COMBINE_FLOPS and base in ("tl", "triton_helpers"):
            self.combine += COMBINE_FLOPS[name]
            self.reduces = True
        elif name in _INDEX_CALLS:
            return  # their arguments are pointer/index arithmetic
        elif name in _NON_OPS:
            pass
        elif base in _MATH_MODULES or name in MATH_FLOPS:
            self.ops += MATH_FLOPS.get(name, 1.0)
        self.generic_visit(node)


def _is_constant(value: ast.AST) -> bool:
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Constant):
        return True
    # Inductor writes scalars as tl.full([1, 1], 3072.0, tl.float32)
    return isinstance(value, ast.Call) and _call_name(value)[1] == "full" and len(value.args) >= 2 \
        and isinstance(value.args[1], (ast.Constant, ast.UnaryOp))


@dataclass(frozen=True)
class OpCounts:
    per_element: float = 0.0   # on each element (each lane of each block, for a reduction loop)
    per_lane: float = 0.0      # once per lane of a row: the combines of a cross-lane reduction
    per_row: float = 0.0       # on a reduced row


def count_ops(source: str) -> OpCounts:
    """Flops per element, per reduction lane and per reduced row in an Inductor Triton kernel's body."""
    tree = ast.parse(textwrap.dedent(source))
    fn = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)), None)
    if fn is None:
        return OpCounts()
    per_elem = per_lane = per_row = 0.0
    row_vars: set[str] = set()
    constants: set[str] = set()
    types = _Types()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        names = [target.id] if isinstance(target, ast.Name) else \
            [e.id for e in getattr(target, "elts", []) if isinstance(e, ast.Name)]
        if not names or not all(_is_tmp(n) for n in names):
            continue  # index arithmetic, masks, offsets
        if types.is_int(node.value):
            types.ints.update(names)
        if _is_constant(node.value):
            constants.update(names)
            continue
        counter = _OpCounter(types)
        counter.visit(node.value)
        used = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name) and _is_tmp(n.id)} - constants
        per_lane += counter.combine
        if counter.reduces:
            per_elem += counter.ops        # a Welford update visits every element
            row_vars.update(names)
        elif used and used <= row_vars:
            per_row += counter.ops
            row_vars.update(names)
        else:
            per_elem += counter.ops
    return OpCounts(per_elem, per_lane, per_row)
