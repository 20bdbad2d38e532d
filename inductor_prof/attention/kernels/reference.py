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


SCORE_BLOCK_ELEMENTS = 1 << 27   # float64 scores held at once: 1 GiB, ~3 GiB with exp and the zeroed rows


def chunk_shape(n_rows: int, Sq: int, Sk: int, budget: int = SCORE_BLOCK_ELEMENTS) -> tuple[int, int]:
    """(heads, query rows) per float64 score block of at most `budget` elements (at least one row of one head):
    a whole head's Sq x Sk scores at 16,384 tokens are 2 GiB, and a few heads at once ran a 23 GB CPU machine
    out of memory, so long heads are cut along their query rows (softmax is per row: the cut is exact)."""
    per_head = Sq * Sk
    if per_head <= budget:
        return min(n_rows, budget // per_head), Sq
    return 1, max(1, budget // Sk)


def attention_float64(q, k, v, scale: float | None = None, *, causal: bool = False, mask=None,
                      budget: int = SCORE_BLOCK_ELEMENTS):
    """(out, lse) in float64, a block of heads or of one head's query rows at a time (chunk_shape), so the
    score matrix stays within `budget` elements."""
    import torch

    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    k, v = _kv_per_query_head(q, k, v)
    B, H, Sq, Sk = q.shape[0], q.shape[1], q.shape[2], k.shape[2]
    qf, kf, vf = (t.reshape(B * H, *t.shape[2:]) for t in (q, k, v))
    keep = _keep4(mask, causal, Sq, Sk, q.device)
    out = torch.empty(B * H, Sq, v.shape[-1], dtype=torch.float64, device=q.device)
    lse = torch.empty(B * H, Sq, dtype=torch.float64, device=q.device)
    n_heads, n_q = chunk_shape(B * H, Sq, Sk, budget)
    for i in range(0, B * H, n_heads):
        rows = torch.arange(i, min(i + n_heads, B * H), device=q.device)
        kd, vd = kf[rows].double(), vf[rows].double()
        for r0 in range(0, Sq, n_q):
            r1 = min(Sq, r0 + n_q)
            s = torch.matmul(qf[rows, r0:r1].double(), kd.transpose(-1, -2)) * scale
            if keep is not None:
                s = s.masked_fill(~_keep_rows(keep[:, :, r0:r1], rows, H), float("-inf"))
            l = torch.logsumexp(s, dim=-1)
            p = torch.exp(s - l[..., None])
            p = torch.where(torch.isneginf(l)[..., None], 0.0, p)   # a row with no key kept: out 0
            out[rows, r0:r1] = torch.matmul(p, vd)
            lse[rows, r0:r1] = l
    return out.reshape(*q.shape[:3], v.shape[-1]), lse.reshape(q.shape[:3])


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
