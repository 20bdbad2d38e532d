"""Two torch references: float64 (the yardstick for every backend) and the blocked FlashAttention algorithm.

Both take the bench's semantics (contract A): q (B, Hq, Sq, D), k/v (B, Hkv, Sk, D) with query head h reading
kv head h // (Hq // Hkv); causal = SDPA's is_causal (top-left: query i attends keys j <= i); mask a bool keep
broadcastable to (B, Hq, Sq, Sk). A query row with no key kept gives out 0 and lse -inf.

`blocked_attention` is the teaching version: it walks key/value blocks exactly as the fused kernels do,
keeping a running row max `m`, running denominator `l` and unnormalised output `acc` (the online softmax),
so the full Sq x Sk score matrix never exists.
"""
from __future__ import annotations

import math


def _keep4(mask, causal: bool, Sq: int, Sk: int, device):
    """The keep as a 4-D bool broadcastable to (B, Hq, Sq, Sk) (no copy per head), or None: every pair kept."""
    import torch

    keep = None
    if mask is not None:
        keep = mask
        while keep.dim() < 4:
            keep = keep[None]
    if causal:
        tri = torch.ones(Sq, Sk, dtype=torch.bool, device=device).tril()[None, None]
        keep = tri if keep is None else keep & tri
    return None if keep is None else keep.expand(keep.shape[0], keep.shape[1], Sq, Sk)


def _keep_rows(keep, rows, Hq: int):
    """The keep (len(rows), Sq, Sk) of flattened (batch * Hq) rows `rows`."""
    return keep[(rows // Hq) % keep.shape[0], (rows % Hq) % keep.shape[1]]


def _kv_per_query_head(q, k, v):
    """k and v with each kv head repeated for the query heads that read it (GQA)."""
    g = q.shape[1] // k.shape[1]
    return (k, v) if g == 1 else (k.repeat_interleave(g, dim=1), v.repeat_interleave(g, dim=1))


def attention_float64(q, k, v, scale: float | None = None, heads_per_chunk: int = 4, *, causal: bool = False,
                      mask=None):
    """(out, lse) in float64, a few heads at a time so the score matrix stays small."""
    import torch

    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    k, v = _kv_per_query_head(q, k, v)
    B, H = q.shape[:2]
    qf, kf, vf = (t.reshape(B * H, *t.shape[2:]) for t in (q, k, v))
    keep = _keep4(mask, causal, q.shape[2], k.shape[2], q.device)
    outs, lses = [], []
    for i in range(0, B * H, heads_per_chunk):
        rows = torch.arange(i, min(i + heads_per_chunk, B * H), device=q.device)
        s = torch.matmul(qf[rows].double(), kf[rows].double().transpose(-1, -2)) * scale
        if keep is not None:
            s = s.masked_fill(~_keep_rows(keep, rows, H), float("-inf"))
        lse = torch.logsumexp(s, dim=-1)
        p = torch.exp(s - lse[..., None])
        p = torch.where(torch.isneginf(lse)[..., None], 0.0, p)   # a row with no key kept: out 0
        outs.append(torch.matmul(p, vf[rows].double()))
        lses.append(lse)
    return torch.cat(outs).reshape(q.shape), torch.cat(lses).reshape(q.shape[:3])


def blocked_attention(q, k, v, scale: float | None = None, block_m: int = 128, block_n: int = 128, *,
                      causal: bool = False, mask=None):
    """FlashAttention forward, block by block in float32: (out in q's dtype, lse float32)."""
    import torch

    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    k, v = _kv_per_query_head(q, k, v)
    Sq, Sk = q.shape[2], k.shape[2]
    keep = _keep4(mask, causal, Sq, Sk, q.device)
    out = torch.empty_like(q)
    lse = torch.empty(q.shape[:3], device=q.device, dtype=torch.float32)
    for m0 in range(0, Sq, block_m):
        qb = q[:, :, m0:m0 + block_m].float()
        m = torch.full(qb.shape[:3], float("-inf"), device=q.device)   # running row max
        l = torch.zeros(qb.shape[:3], device=q.device)                  # running sum of exp(s - m)
        acc = torch.zeros(qb.shape, device=q.device)                    # running sum of exp(s - m) @ v
        # causal: key blocks past the block's last query hold no kept key: skipped, as a causal kernel does
        n_end = min(Sk, m0 + block_m) if causal else Sk
        for n0 in range(0, n_end, block_n):
            kb, vb = k[:, :, n0:n0 + block_n].float(), v[:, :, n0:n0 + block_n].float()
            s = (qb @ kb.transpose(-1, -2)) * scale
            if keep is not None:
                s = s.masked_fill(~keep[..., m0:m0 + block_m, n0:n0 + block_n], float("-inf"))
            m_new = torch.maximum(m, s.amax(dim=-1))
            m_safe = torch.where(torch.isneginf(m_new), 0.0, m_new)   # no key kept yet: nothing to rescale
            alpha = torch.exp(m - m_safe)        # rescales what was summed under the old max
            p = torch.exp(s - m_safe[..., None])
            l = l * alpha + p.sum(dim=-1)
            acc = acc * alpha[..., None] + p @ vb
            m = m_new
        o = torch.where((l > 0)[..., None], acc / l.clamp_min(1e-30)[..., None], 0.0)
        out[:, :, m0:m0 + block_m] = o.to(q.dtype)
        lse[:, :, m0:m0 + block_m] = m + torch.log(l)
    return out, lse
