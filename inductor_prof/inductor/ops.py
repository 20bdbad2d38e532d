"""Arithmetic ops per element and per reduced row, counted in an Inductor Triton kernel's source.

Each binary arithmetic operator and each math call (exp, rsqrt, erf, tanh, ...) counts one op, each reduction
step one; loads, stores, casts, selects and index arithmetic count none. Ops that act only on a reduced row
count once per row.
"""
from __future__ import annotations

import ast
import textwrap

_REDUCTIONS = {"sum", "max", "min", "max2", "min2", "prod", "reduce", "argmax", "argmin", "welford",
               "welford_reduce", "welford_combine", "any", "cumsum", "cumprod", "xor_sum"}
_MATH_MODULES = {"libdevice", "tl_math", "math"}
_MATH_FUNCS = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh", "erf", "sigmoid", "abs",
               "maximum", "minimum", "fma", "pow", "floor", "ceil", "div_rn", "fdiv", "expm1", "log1p"}
_INDEX_CALLS = {"load", "store", "arange", "program_id", "full", "make_block_ptr", "advance"}
_NON_OPS = {"load", "store", "full", "where", "to", "broadcast_to", "reshape", "arange", "program_id",
            "zeros", "cast", "device_assert", "static_assert", "debug_barrier"}


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
