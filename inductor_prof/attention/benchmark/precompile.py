"""The own kernels' tile configs compiled ahead of the attention stage, without running anything on the GPU.

The stage's first run compiles every tile config its tuning tries (about 17 s of compiles on the H100 at
FLUX's shape). Compiled only (Triton's warmup), they can be built while ncu measures the model's kernels on the
same GPU: no kernel of this process runs there, so ncu's counters and times are not touched. The stage that
follows finds Triton's cache holding them and only times them. The inputs are allocated, not filled (no kernel
runs to fill them): compiling depends on their dtypes, shapes and alignment, not their values.
"""
from __future__ import annotations

import math
import time

from ..semantics.shapes import Shape
from .bench import BenchOptions, check_shape, semantics, tuning_of
from .registry import backends as all_backends, cannot_take

# the own kernels whose tune compiles without running (compile_only); the CUDA kernel builds once per machine
COMPILED_ONLY = ("gluon_fa3", "triton_fa2")
# masks built with no GPU work (others are built with torch ops on the GPU, or on the host and copied there)
MASKS = ("none", "causal")


def precompile(shapes: list[tuple[Shape, int, str]], opts: BenchOptions) -> dict[str, float]:
    """Backend -> seconds spent compiling its configs at these shapes: those its tuning would try (the tuning
    cache's best alone where it has one; configs it remembers failing not at all), and its default config at
    the shape its correctness is checked at (bench.check_shape), as the check calls it. Shapes with another mask
    are left to the stage. Failures are not raised: the stage's tuning meets them again and records them."""
    seconds: dict[str, float] = {}
    for shape, _, _ in shapes:
        if shape.mask.kind not in MASKS:
            continue
        q, k, v = _empty(shape, opts.device)
        checked = check_shape(shape)
        qc, kc, vc = _empty(checked, opts.device)
        scale = shape.scale or 1.0 / math.sqrt(shape.D)   # as the stage's (a float argument: not specialised on)
        sem = semantics(shape, opts.device)
        for b in all_backends(opts.backends):
            if b.name not in COMPILED_ONLY or not b.available or cannot_take(b, shape.needs, shape.mask.kind):
                continue
            t0 = time.perf_counter()
            module, _, known, args = tuning_of(b.name, shape, q, k, sem, opts.cache)
            module.tune(q, k, v, scale, **args, **({"known": known} if known else {}), compile_only=True)
            try:   # the check's call: the default config at the checked shape
                module.launch(qc, kc, vc, scale, None, checked.causal, compile_only=True)
            except Exception:  # noqa: BLE001  (the stage's check meets it again and says it)
                pass
            seconds[b.name] = seconds.get(b.name, 0.0) + time.perf_counter() - t0
    return seconds


def _empty(shape: Shape, device: str):
    """q, k, v of the shape, allocated and not filled."""
    import torch

    dtype = getattr(torch, shape.dtype)
    q = torch.empty(shape.B, shape.H, shape.Sq, shape.D, device=device, dtype=dtype)
    return (q, *(torch.empty(shape.B, shape.kv_heads, shape.Sk, shape.D, device=device, dtype=dtype) for _ in "kv"))
