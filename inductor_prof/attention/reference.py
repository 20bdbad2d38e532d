"""Two torch references: float64 (the yardstick for every backend) and the blocked FlashAttention algorithm.

`blocked_attention` is the teaching version: it walks key/value blocks exactly as the fused kernels do,
keeping a running row max `m`, running denominator `l` and unnormalised output `acc` (the online softmax),
so the full Sq x Sk score matrix never exists.
"""
from __future__ import annotations

import math


def attention_float64(q, k, v, scale: float | None = None, heads_per_chunk: int = 4):
    """(out, lse) in float64, a few heads at a time so the score matrix stays small."""
    import torch

    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    B, H = q.shape[:2]
    qf, kf, vf = (t.reshape(B * H, *t.shape[2:]) for t in (q, k, v))
    outs, lses = [], []
    for i in range(0, B * H, heads_per_chunk):
        s = torch.matmul(qf[i:i + heads_per_chunk].double(), kf[i:i + heads_per_chunk].double().transpose(-1, -2))
        s = s * scale
        lse = torch.logsumexp(s, dim=-1)
        outs.append(torch.matmul(torch.exp(s - lse[..., None]), vf[i:i + heads_per_chunk].double()))
        lses.append(lse)
    return torch.cat(outs).reshape(q.shape), torch.cat(lses).reshape(q.shape[:3])


def blocked_attention(q, k, v, scale: float | None = None, block_m: int = 128, block_n: int = 128):
    """FlashAttention forward, block by block in float32: (out in q's dtype, lse float32)."""
    import torch

    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    Sq, Sk = q.shape[2], k.shape[2]
    out = torch.empty_like(q)
    lse = torch.empty(q.shape[:3], device=q.device, dtype=torch.float32)
    for m0 in range(0, Sq, block_m):
        qb = q[:, :, m0:m0 + block_m].float()
        m = torch.full(qb.shape[:3], float("-inf"), device=q.device)   # running row max
        l = torch.zeros(qb.shape[:3], device=q.device)                  # running sum of exp(s - m)
        acc = torch.zeros(qb.shape, device=q.device)                    # running sum of exp(s - m) @ v
        for n0 in range(0, Sk, block_n):
            kb, vb = k[:, :, n0:n0 + block_n].float(), v[:, :, n0:n0 + block_n].float()
            s = (qb @ kb.transpose(-1, -2)) * scale
            m_new = torch.maximum(m, s.amax(dim=-1))
            alpha = torch.exp(m - m_new)        # rescales what was summed under the old max
            p = torch.exp(s - m_new[..., None])
            l = l * alpha + p.sum(dim=-1)
            acc = acc * alpha[..., None] + p @ vb
            m = m_new
        out[:, :, m0:m0 + block_m] = (acc / l[..., None]).to(q.dtype)
        lse[:, :, m0:m0 + block_m] = m + torch.log(l)
    return out, lse
