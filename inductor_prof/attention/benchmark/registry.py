"""The attention backends: name, origin (own / library / compiler), availability with a reason, what semantics
each takes, a callable.

Every callable follows contract A: fn(q, k, v, scale, config=None, *, causal=False, mask=None) with q (B, Hq, Sq, D),
k and v (B, Hkv, Sk, D) (GQA when Hkv < Hq: query head h reads kv head h // (Hq // Hkv)), causal = SDPA's
is_causal (top-left), mask a bool keep broadcastable to (B, Hq, Sq, Sk); it returns (out (B, Hq, Sq, D),
lse (B, Hq, Sq) natural log-sum-exp, or None where the backend does not give one). `supports` says which of
"causal", "gqa", "mask" it takes; the bench lists a backend that cannot take a shape's semantics with the reason.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from ..kernels import mask_schedule as _schedule
from . import library


@dataclass
class Backend:
    name: str
    origin: str               # own | library | compiler
    fn: Callable | None
    available: bool
    reason: str = ""          # why it is not available
    description: str = ""
    gives_lse: bool = False
    supports: frozenset = frozenset()     # of "causal", "gqa", "mask"
    score_bytes: float = 0    # bytes held per score of the whole (B, Hq, Sq, Sk) matrix; 0: never all at once
    mask_kinds: tuple = ()    # without "mask" in supports: the recognised mask kinds (masks.py) it takes
    has_backward: bool = True  # its output differentiable (autograd): timed forward+backward in a training run

    def __call__(self, q, k, v, scale, config=None, *, causal: bool = False, mask=None):
        """config: a tile config from the backend's own `tune` (own kernels only; None: its default). causal and
        mask are passed on only when set."""
        semantics = {**({"causal": True} if causal else {}), **({"mask": mask} if mask is not None else {})}
        assert self.fn is not None, f"{self.name} is not installed"
        return self.fn(q, k, v, scale, *(() if config is None else (config,)), **semantics)


ALL = frozenset({"causal", "gqa", "mask"})


def cannot_take(backend: Backend, needs: frozenset, mask_kind: str) -> str:
    """Why `backend` cannot run a shape needing `needs` (Shape.needs) with a mask of `mask_kind`; "" when it can."""
    missing = set(needs - backend.supports)
    if "mask" in missing and mask_kind in backend.mask_kinds:
        missing.discard("mask")
    if not missing:
        return ""
    takes = sorted(backend.supports) + [f"{k} masks" for k in backend.mask_kinds]
    return f"cannot take {' + '.join(sorted(missing))} (takes: {', '.join(takes) or 'dense only'})"


_MASK_ARGS: list[tuple] = []    # (keep tensor, (B, Sq, Sk), kernel arguments): the latest few, by identity
_MASK_ARGS_SIZE = 4


def own_mask_args(mask, q, k) -> dict:
    """The own kernels' keyword arguments (causal, band, key_ranges: kernel_args below; key_intervals for a mask
    keeping one run of keys a row, such as documents: key_intervals.intervals_of) for a bool keep or a
    FlexAttention BlockMask (its mask_mod evaluated), recognised once per mask (masks.classify; the bench reuses
    one keep for its check, tuning and timed calls). ValueError for a mask they do not take."""
    from ..kernels import key_intervals, mask_schedule
    from ..semantics import masks

    if mask is None:
        return {}
    dims = (q.shape[0], q.shape[2], k.shape[2])
    for m, d, args in _MASK_ARGS:
        if m is mask and d == dims:
            return args
    keep = mask
    if hasattr(mask, "mask_mod"):      # a BlockMask
        if tuple(mask.seq_lengths) != dims[1:]:
            raise ValueError(f"a BlockMask of {tuple(mask.seq_lengths)} (queries, keys) for {dims[1:]}")
        keep = key_intervals.keep_of_block_mask(mask, dims[0], q.shape[1])
    spec, _ = masks.classify(keep, dims[1], dims[2], dims[0])
    if spec.kind in mask_schedule.INTERVAL_KINDS:
        args = {"key_intervals": key_intervals.intervals_of(keep, *dims)}
    else:
        args = kernel_args(spec, dims[0], dims[2])
    _MASK_ARGS.insert(0, (mask, dims, args))
    del _MASK_ARGS[_MASK_ARGS_SIZE:]
    return args


def kernel_args(spec, B: int, n_kv: int) -> dict:
    """The own kernels' keyword arguments for a recognised mask (masks.MaskSpec): mask_schedule.kernel_args."""
    from ..kernels import mask_schedule

    return mask_schedule.kernel_args(spec.kind, spec.window, spec.key_lengths, spec.left, B, n_kv, spec.right)


# SDPA's math backend holds the scores, their softmax and its output at once: measured 10.3-10.5 bytes a score
# (peak RSS, CPU, torch 2.13, (1,4,4096,64) bf16/fp16/fp32, causal and not), rounded up
MATH_SCORE_BYTES = 12
# The own kernels take causal (top-left) and GQA (kv head h // (Hq/Hkv)); the Triton and Gluon ones also the
# mask kinds they run as a band (mask_schedule.KINDS: sliding windows, padding, both) and arbitrary masks keeping
# one run of keys a row (mask_schedule.INTERVAL_KINDS: documents, windows in documents), checked per mask: other
# masks, a row says so (own_mask_args's ValueError).
OWN_SUPPORTS = {n: frozenset({"causal", "gqa"}) for n in ("triton_fa2", "gluon_fa3", "cuda_mma_fa2")}
_OWN_MASKS = _schedule.KINDS + _schedule.INTERVAL_KINDS
OWN_MASK_KINDS = {"triton_fa2": _OWN_MASKS, "gluon_fa3": _OWN_MASKS}


def _own(forward, takes_masks: bool = True):
    """An own kernel's forward(q, k, v, scale, config=None, causal=False, band=None, key_ranges=None) under
    contract A (causal only passed when set: a kernel without it still runs dense shapes; a mask as
    own_mask_args gives it, where the kernel takes masks)."""
    def run(q, k, v, s, config=None, *, causal=False, mask=None):
        if mask is not None and not takes_masks:
            raise ValueError("the own kernels take no explicit mask")
        args = own_mask_args(mask, q, k)
        if causal:
            args = {**args, "causal": True}
        return forward(q, k, v, s, config, **args)
    return run


def _cuda() -> tuple[bool, str]:
    try:
        import torch
    except ImportError as e:
        return False, f"torch: {e}"
    return (True, "") if torch.cuda.is_available() else (False, "no CUDA GPU")


def _own_triton() -> Backend:
    from ..kernels import triton_fa

    ok, why = _cuda()
    if os.environ.get("TRITON_INTERPRET") == "1":
        ok, why = True, ""
    elif ok:
        import torch

        if torch.cuda.get_device_capability()[0] < 9:
            ok, why = False, "needs sm_90+ (TMA tensor descriptors)"
    return Backend("triton_fa2", "own", _own(triton_fa.forward), ok, why,
                   "own Triton FlashAttention-2, TMA descriptors, autotuned tiles", gives_lse=True,
                   supports=OWN_SUPPORTS["triton_fa2"], mask_kinds=OWN_MASK_KINDS["triton_fa2"],
                   has_backward=False)


def _own_gluon() -> Backend:
    ok, why = _cuda()
    err = library.import_error("triton.experimental.gluon.language.nvidia.hopper")
    if err:
        ok, why = False, err
    elif ok:
        import torch

        if torch.cuda.get_device_capability()[0] != 9:
            ok, why = False, "needs sm_90 (wgmma and TMA through Gluon's Hopper ops)"

    def forward(q, k, v, s, config=None, **semantics):
        from ..kernels import gluon_fa

        return gluon_fa.forward(q, k, v, s, config, **semantics)
    return Backend("gluon_fa3", "own", _own(forward), ok, why,
                   "own Gluon (Triton's tile language) FlashAttention-3 style: warp-specialised TMA producer, "
                   "two consumer warpgroups, QK^T of block j overlapping PV of block j-1", gives_lse=True,
                   supports=OWN_SUPPORTS["gluon_fa3"], mask_kinds=OWN_MASK_KINDS["gluon_fa3"],
                   has_backward=False)


def _own_cuda() -> Backend:
    ok, why = _cuda()
    if ok:
        from torch.utils.cpp_extension import CUDA_HOME

        if CUDA_HOME is None:
            ok, why = False, "no CUDA toolkit (nvcc) to build the extension"
    from ..kernels import cuda_fa

    return Backend("cuda_mma_fa2", "own", _own(cuda_fa.forward, takes_masks=False), ok, why,
                   "own CUDA C++ FlashAttention-2, mma.sync m16n8k16, built by cpp_extension", gives_lse=True,
                   supports=OWN_SUPPORTS["cuda_mma_fa2"], has_backward=False)


NUMBA_NO_GPU = "numba sees no CUDA GPU (NUMBA_ENABLE_CUDASIM=1: numba's simulator, on the CPU)"


def _own_numba() -> Backend:
    # numba's own module, not numba_fa: listing backends must not change numpy (numba_fa's shim does, while
    # a kernel is typed)
    err = library.import_error("numba.cuda")
    if err:
        return Backend("numba_fa", "own", None, False, err, has_backward=False)
    from numba import cuda

    ok = cuda.is_available() or os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"

    def run(q, k, v, s):   # dense only: supports nothing more
        from ..kernels import numba_fa

        return numba_fa.forward(q, k, v, s)
    return Backend("numba_fa", "own", run, ok, "" if ok else NUMBA_NO_GPU,
                   "own numba CUDA kernel, scalar float32, one thread per query row", gives_lse=True,
                   has_backward=False)


def _own_reference() -> Backend:
    from ..kernels import reference

    def run(q, k, v, s, *, causal=False, mask=None):
        return reference.blocked_attention(q, k, v, s, causal=causal, mask=mask)
    return Backend("torch_blocked", "own", run, True, "",
                   "torch, FlashAttention's blocks and online softmax step by step (teaching)", gives_lse=True,
                   supports=ALL, has_backward=False)


# Backends that show how attention works, not ones a model would switch to: at FLUX's shape on the H100 numba_fa
# 156 ms a call, torch_blocked 303 ms, sdpa_math 11.9 ms, against 0.4 ms for cuDNN. `profile`'s attention stage
# leaves them out unless asked (the attention_teaching setting); the `attention` command keeps them.
TEACHING = ("numba_fa", "torch_blocked", "sdpa_math")


def stage_names(teaching: bool = False) -> list[str]:
    """The backends `profile`'s attention stage runs, in display order: all, or all but TEACHING."""
    return [b.name for b in backends() if teaching or b.name not in TEACHING]


def backends(names: list[str] | None = None) -> list[Backend]:
    """All backends in display order, or those named (unknown names raise ValueError)."""
    cuda_ok, cuda_why = _cuda()
    out = [_own_triton(), _own_gluon(), _own_cuda(), _own_numba(), _own_reference()]
    out.append(Backend("sdpa", "library", library.sdpa(None), cuda_ok, cuda_why,
                       "F.scaled_dot_product_attention, PyTorch's own backend choice", supports=ALL))
    for name in library.SDPA_BACKENDS:
        # sdpa_math runs on a CPU too (the CPU tests' bench)
        ok, why = (True, "") if name == "sdpa_math" else (cuda_ok, cuda_why)
        out.append(Backend(name, "library", library.sdpa(name), ok, why, f"SDPA forced to {library.SDPA_BACKENDS[name]}",
                           supports=ALL - {"mask"} if name == "sdpa_flash" else ALL,
                           score_bytes=MATH_SCORE_BYTES if name == "sdpa_math" else 0))
    out.append(Backend("flex_compiled", "compiler", library.flex, cuda_ok, cuda_why,
                       "torch.compile(flex_attention): an Inductor Triton template, a BlockMask for the mask",
                       supports=ALL))
    for name, (module, fn, supports) in library.EXTERNAL.items():
        err = library.import_error(module) or cuda_why
        out.append(Backend(name, "library", fn, not err, err, f"{module}", supports=supports))
    if names:
        known = {b.name: b for b in out}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ValueError(f"unknown backend(s) {', '.join(unknown)}; known: {', '.join(known)}")
        out = [known[n] for n in names]
    return out
