"""Own numba CUDA forward: one thread per query row, K/V tiles staged in shared memory, online softmax per tile.

Scalar float32 (numba has no bf16 or tensor-core access): the readable GPU version, and one that runs on a
CPU in numba's simulator (NUMBA_ENABLE_CUDASIM=1).
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from functools import lru_cache

import numpy as np
from numba import cuda, float32  # module level: the simulator swaps this `cuda` for its own

BLOCK_M = 32   # threads (query rows) per block
BLOCK_N = 16   # keys per shared-memory tile


@lru_cache(maxsize=None)
def _kernel(head_dim: int):
    D = head_dim

    @cuda.jit
    def fwd(q, k, v, o, lse, scale, nq, nk):
        bh = cuda.blockIdx.y
        tid = cuda.threadIdx.x
        row = cuda.blockIdx.x * BLOCK_M + tid
        sk = cuda.shared.array((BLOCK_N, D), float32)
        sv = cuda.shared.array((BLOCK_N, D), float32)
        qr = cuda.local.array(D, float32)
        acc = cuda.local.array(D, float32)
        s = cuda.local.array(BLOCK_N, float32)
        live = row < nq
        for d in range(D):
            acc[d] = 0.0
            qr[d] = q[bh, row, d] if live else 0.0
        m = -math.inf
        l = 0.0
        for n0 in range(0, nk, BLOCK_N):
            for i in range(tid, BLOCK_N * D, BLOCK_M):   # the block loads the tile together
                r = i // D
                c = i % D
                inside = n0 + r < nk
                sk[r, c] = k[bh, n0 + r, c] if inside else 0.0
                sv[r, c] = v[bh, n0 + r, c] if inside else 0.0
            cuda.syncthreads()
            n = min(BLOCK_N, nk - n0)
            if live:
                m_tile = -math.inf
                for j in range(n):
                    dot = 0.0
                    for d in range(D):
                        dot += qr[d] * sk[j, d]
                    s[j] = dot * scale
                    m_tile = max(m_tile, s[j])
                m_new = max(m, m_tile)
                alpha = math.exp(m - m_new)
                l *= alpha
                for d in range(D):
                    acc[d] *= alpha
                for j in range(n):
                    p = math.exp(s[j] - m_new)
                    l += p
                    for d in range(D):
                        acc[d] += p * sv[j, d]
                m = m_new
            cuda.syncthreads()
        if live:
            for d in range(D):
                o[bh, row, d] = acc[d] / l
            lse[bh, row] = m + math.log(l)

    return fwd


@contextmanager
def _numpy_row_stack():
    """np.row_stack (removed in numpy 2.5) while numba-cuda types a kernel, which still registers it; numpy
    as it was afterwards."""
    missing = not hasattr(np, "row_stack")
    if missing:
        np.row_stack = np.vstack
    try:
        yield
    finally:
        if missing:
            del np.row_stack


def forward(q, k, v, scale: float | None = None):
    """(out like q, lse float32). Accepts CUDA tensors, or CPU tensors under the simulator."""
    import torch

    B, H, NQ, D = q.shape
    NK = k.shape[2]
    scale = 1.0 / math.sqrt(D) if scale is None else scale
    qf, kf, vf = (t.reshape(B * H, t.shape[2], D).float().contiguous() for t in (q, k, v))
    o = torch.empty_like(qf)
    lse = torch.empty((B * H, NQ), dtype=torch.float32, device=q.device)
    grid = (math.ceil(NQ / BLOCK_M), B * H)
    with _numpy_row_stack():
        if q.is_cuda:
            args = [cuda.as_cuda_array(t) for t in (qf, kf, vf, o, lse)]
            stream = cuda.external_stream(torch.cuda.current_stream().cuda_stream)
            _kernel(D)[grid, BLOCK_M, stream](*args, scale, NQ, NK)
        else:  # simulator: numpy views share memory with the torch tensors
            args = [t.numpy() for t in (qf, kf, vf, o, lse)]
            _kernel(D)[grid, BLOCK_M](*args, scale, NQ, NK)
    return o.reshape(B, H, NQ, D).to(q.dtype), lse.reshape(B, H, NQ)
