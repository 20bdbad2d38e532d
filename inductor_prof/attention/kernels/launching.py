"""How an own kernel's launch runs its Triton or Gluon kernel: on the GPU, or compiled only. Compiled only is
Triton's warmup: the binary is built into Triton's cache and nothing runs on the GPU, so the tile configs of a
shape can be compiled while another process measures on the same GPU (ncu), and the tuning that follows only
times them."""
from __future__ import annotations


def launcher(kernel, grid: tuple, compile_only: bool):
    """kernel[grid], or with `compile_only` its warmup at that grid (the same specialisation, the same cache
    entry as the launch would make)."""
    if compile_only:
        return lambda *args, **kwargs: kernel.warmup(*args, grid=grid, **kwargs)
    return kernel[grid]
