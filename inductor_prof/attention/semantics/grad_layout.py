"""The upstream gradient's layout (dout) of each attention shape, as the model's backward got it (pure).

A benchmark on a contiguous dout times a call the model never makes: FLUX's single blocks hand SDPA's backward a
slice of the [attn, mlp] concat's gradient (row pitch 15360, not 3072), and a backend can crash on one layout and
run on the other. So the forward+backward comparison runs each backend on the strides the run's library_ops.csv
recorded for the backward op's grad_out (argument 0 of every aten.ATTENTION_BACKWARD_OPS op), joined to the forward
shape by B, H, Hkv, Sq, Sk, D and dtype; several layouts for one shape: the one with the most calls, the others
counted. Strides are kept as the (B, H, S, D) view's (aten.attention_dims' convention), the view SDPA takes.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

from ...aten import ATTENTION_BACKWARD_OPS, PROFILER_DTYPES, as_bhsd, attention_dims
from .shapes import Shape

DIMS = "BHSD"
PITCH = {"B": "batch", "H": "head", "S": "row", "D": "element"}   # what a dim's gap is called in words


@dataclass(frozen=True)
class GradLayout:
    """dout's strides as the (B, H, S, D) view (elements), at the shape recorded; how many backward calls had
    them; the other layouts recorded at the same shape: ((strides, calls), ...), most calls first."""
    strides: tuple[int, int, int, int]
    calls: int
    others: tuple[tuple[tuple[int, int, int, int], int], ...] = ()


def _cell(value: Any) -> list:
    return json.loads(value) if isinstance(value, str) else list(value)


def _key(B: int, H: int, Hkv: int, Sq: int, Sk: int, D: int, dtype: str) -> tuple:
    return (B, H, Hkv, Sq, Sk, D, dtype)


def _shape_key(s: Shape) -> tuple:
    # a model that repeated its kv heads before the call passed H of them to the op
    return _key(s.B, s.H, s.H if s.kv_repeated else s.kv_heads, s.Sq, s.Sk, s.D, s.dtype)


def recorded(rows: Iterable[dict], shapes: Iterable[Shape]) -> dict[str, GradLayout]:
    """Shape label -> dout's layout from library_ops.csv rows (records: op, kernel, dims, strides, types; cells as
    JSON text or lists). A row is one kernel launch; a call launches each of its kernels at least once (cuDNN's
    backward launches its reduction twice a call), so a layout's calls are the fewest rows of one of its kernels.
    Shapes with no backward row recorded are left out (their dout stays contiguous)."""
    launches: dict[tuple, Counter] = {}   # (join key, strides) -> rows per kernel
    for r in rows:
        spec = ATTENTION_BACKWARD_OPS.get(str(r.get("op", "")))
        if spec is None:
            continue
        dims, strides, types = _cell(r["dims"]), _cell(r["strides"]), _cell(r.get("types") or "[]")
        if len(dims) < 3 or len(strides) < 1 or len(dims[0]) != 4 or len(strides[0]) != 4:
            continue
        q, k = dims[1], dims[2]
        b, h, sq, d, hkv, sk = attention_dims(spec.layout, q, k)
        dtype = PROFILER_DTYPES.get(types[0], (str(r.get("dtype", "")), 0))[0] if types else str(r.get("dtype", ""))
        key = (_key(b, h, hkv, sq, sk, d, dtype), as_bhsd(spec.layout, strides[0]))
        launches.setdefault(key, Counter())[str(r.get("kernel", ""))] += 1
    by_shape: dict[tuple, list[tuple[tuple[int, int, int, int], int]]] = {}
    for (key, strides), kernels in launches.items():
        by_shape.setdefault(key, []).append((strides, min(kernels.values())))
    out: dict[str, GradLayout] = {}
    for s in shapes:
        found = sorted(by_shape.get(_shape_key(s), []), key=lambda x: (-x[1], x[0]))
        if found:
            out[s.label] = GradLayout(found[0][0], found[0][1], tuple(found[1:]))
    return out


def at(layout: GradLayout | None, recorded_shape: Shape, shape: Shape) -> tuple[int, ...] | None:
    """dout's (B, H, S, D) strides for `shape` (the recorded one, or its reduced check shape): the recorded
    layout's dim order and the gap after each dim kept (a gap is elements of other tensors between rows, such as
    the MLP's columns of a concat: it does not depend on the sequence length). None: contiguous (nothing
    recorded). At the recorded shape these are the recorded strides."""
    if layout is None:
        return None
    old = (recorded_shape.B, recorded_shape.H, recorded_shape.Sq, recorded_shape.D)
    new = (shape.B, shape.H, shape.Sq, shape.D)
    order = sorted(range(4), key=lambda i: (layout.strides[i], old[i]))   # innermost first
    out = [0] * 4
    old_extent = new_extent = 1   # elements spanned by the dims inside this one
    for i in order:
        stride = layout.strides[i]
        if stride == 0:   # a broadcast dim stays one
            continue
        gap = max(stride - old_extent, 0)
        out[i] = new_extent + gap
        old_extent, new_extent = stride * old[i], out[i] * new[i]
    return tuple(out)


def storage_size(sizes: tuple[int, ...], strides: tuple[int, ...]) -> int:
    """Elements a buffer needs to hold a view of these sizes and strides (offset 0)."""
    return 1 + sum((n - 1) * st for n, st in zip(sizes, strides)) if all(sizes) else 0


def words(strides: tuple[int, ...] | None, shape: Shape) -> str:
    """dout's layout for a person: "contiguous" for the dense (B, H, S, D) tensor; else the dims in memory
    order, outer first, where it is not (B,H,S,D) ("(B,S,H,D)"), and each gap as its pitch ("row pitch 15360":
    the stride of a token where the dims inside it span 3072)."""
    if strides is None:
        return "contiguous"
    sizes = (shape.B, shape.H, shape.Sq, shape.D)
    dims = [i for i in range(4) if sizes[i] > 1]   # a dim of one element has no layout
    order = sorted(dims, key=lambda i: strides[i])   # innermost first
    said, extent = [], 1
    for i in order:
        if strides[i] != extent:
            said.append(f"{PITCH[DIMS[i]]} pitch {strides[i]}" if DIMS[i] != "D" else f"D stride {strides[i]}")
        extent = strides[i] * sizes[i]
    outer_first = [DIMS[i] for i in reversed(order)]
    if outer_first != [d for d in DIMS if d in outer_first]:
        full = [DIMS[i] for i in sorted(range(4), key=lambda i: (strides[i], -i), reverse=True)]
        said.insert(0, f"({','.join(full)})")
    return ", ".join(said) or "contiguous"


def describe(layout: GradLayout | None, shape: Shape) -> str:
    """The row's `dout_layout`: words() of what the benchmark used, and where the run recorded several layouts
    at this shape, how many calls had which: "(B,S,H,D), row pitch 15360 (38 of 40 calls; 2: (B,S,H,D))";
    "contiguous (no backward call recorded)" where it recorded none."""
    if layout is None:
        return "contiguous (no backward call recorded)"
    used = words(layout.strides, shape)
    if not layout.others:
        return used
    total = layout.calls + sum(n for _, n in layout.others)
    rest = "; ".join(f"{n}: {words(s, shape)}" for s, n in layout.others)
    return f"{used} ({layout.calls} of {total} calls; {rest})"


def is_contiguous(text: str) -> bool:
    """Whether a row's dout_layout says the dense (B, H, S, D) tensor (or nothing: a forward row, an older run)."""
    return not text or text.startswith("contiguous")
