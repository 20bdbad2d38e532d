"""Harvested kernel files (text in, text out): the annotated copy that carries its launch_metadata, the file
name, the arguments its `get_args()` launches it with (`diff` matches kernels by them) and the read/write
split of one launch (compared with ncu's DRAM reads)."""
from __future__ import annotations

import math
import re

from ..aten import DTYPE_BYTES
from .metrics import KernelMetrics, loaded_in_out


def file_stem(name: str, source_sha: str, shared_name: bool) -> str:
    """Kernel file name; a name Inductor reused for different code gets its source hash appended."""
    return f"{name}.{source_sha}" if shared_name else name


_JIT_LINE = re.compile(r"^@triton\.jit\s*$", re.M)


def annotate_source(source: str, metrics: KernelMetrics) -> str:
    """The kernel source with `@triton.jit(launch_metadata=KernelMetrics(...))`: runs standalone, same results."""
    if not _JIT_LINE.search(source):
        raise ValueError("no bare @triton.jit decorator in kernel source")
    body = _JIT_LINE.sub(f"@triton.jit(launch_metadata={metrics!r})", source, count=1)
    return f"from {KernelMetrics.__module__} import KernelMetrics\n" + body


_SIGNATURE = re.compile(r"@triton\.jit[^\n]*\ndef \w+\(([^)]*)\)")
_RAND_STRIDED = re.compile(r"(arg_\d+)\s*=\s*rand_strided\(\(([^)]*)\),\s*\(([^)]*)\),[^)]*dtype=torch\.(\w+)\)")
_GET_ARGS, _RETURN = "def get_args():", "return "


def launch_args(kernel_file_text: str) -> list[tuple[str, str, tuple[str, str] | None]] | None:
    """The kernel's parameters with the values its `get_args()` passes: (parameter, value, (shape, dtype) of
    the tensor or None). None when the file has no get_args."""
    sig = _SIGNATURE.search(kernel_file_text)
    # get_args() found as text, not by a regular expression: thousands of kernel files in a large run's report
    start = kernel_file_text.find(_GET_ARGS)
    ret = kernel_file_text.find(_RETURN, start + len(_GET_ARGS)) if start >= 0 else -1
    if not sig or ret < 0:
        return None
    end = kernel_file_text.find("\n", ret)
    returned = kernel_file_text[ret + len(_RETURN):end if end >= 0 else len(kernel_file_text)]
    params = [p.split(":")[0].strip() for p in sig.group(1).split(",") if p.strip()]
    # the tensors get_args() makes, in its own body (what comes before it is the kernel)
    tensors = {m.group(1): (m.group(2), m.group(4)) for m in _RAND_STRIDED.finditer(kernel_file_text, start)}
    values = [v.strip() for v in returned.split(",") if v.strip()]
    return [(p, v, tensors.get(v)) for p, v in zip(params, values)]


def io_bytes(kernel_file_text: str) -> dict[str, int] | None:
    """Bytes one launch must read and write, from the kernel's signature and its `get_args()` shapes:
    in_ptr read, out_ptr written, in_out_ptr written (and read only if loaded); each clamped to the
    iteration space like `distinct_bytes`. None when the file has no get_args."""
    args = launch_args(kernel_file_text)
    if args is None:
        return None
    ints = {p: int(v) for p, v, _ in args if v.lstrip("-").isdigit()}
    numels = [v for p, v in ints.items() if p.endswith("numel")]
    clamp = math.prod(numels) if numels else 0   # int arguments but no *numel (a template's ks0): no clamp
    # the source searched only for a kernel with in_out_ptr arguments (most have none; thousands of files)
    loaded = loaded_in_out(kernel_file_text) if any(p.startswith("in_out_ptr") for p, _, _ in args) else frozenset()
    read = write = 0
    for p, _, tensor in args:
        if tensor is None:
            continue
        dims, dtype = tensor
        n = math.prod(int(d) for d in dims.split(",") if d.strip()) if dims.strip() else 1
        nbytes = (min(n, clamp) if clamp else n) * DTYPE_BYTES.get(dtype, 4)
        if p.startswith("in_out_ptr"):
            write += nbytes
            read += nbytes if p in loaded else 0
        elif p.startswith("out_ptr"):
            write += nbytes
        else:
            read += nbytes
    return {"read": read, "write": write}
