"""The float64 yardstick of attention's backward: dq, dk, dv of out = softmax(scale * q k^T, masked) v for an
upstream gradient dout, under the bench's semantics (contract A, as reference.attention_float64).

Written out, not through autograd (a float64 autograd graph would hold every block's scores at once), one block
of heads or query rows at a time (reference.chunk_shape): per block P = softmax(S), dP = dO V^T,
delta = rowsum(dO * O), dS = P * (dP - delta), dQ = scale * dS K, dK += scale * dS^T Q, dV += P^T dO. A query row
with no key kept has P = 0: it gives nothing (dq 0), as its out 0 does. Under GQA each kv head's gradient is the sum
over the query heads that read it.
"""
from __future__ import annotations

import math

from .reference import SCORE_BLOCK_ELEMENTS, _keep4, _keep_rows, _kv_per_query_head, chunk_shape


def attention_grads_float64(q, k, v, dout, scale: float | None = None, *, causal: bool = False, mask=None,
                            budget: int = SCORE_BLOCK_ELEMENTS):
    """(dq (B, Hq, Sq, D), dk, dv (B, Hkv, Sk, D)) in float64."""
    import torch

    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    hkv = k.shape[1]
    k, v = _kv_per_query_head(q, k, v)
    B, H, Sq, Sk = q.shape[0], q.shape[1], q.shape[2], k.shape[2]
    qf, kf, vf, gf = (t.reshape(B * H, *t.shape[2:]) for t in (q, k, v, dout))
    keep = _keep4(mask, causal, Sq, Sk, q.device)
    dq = torch.zeros(B * H, Sq, q.shape[-1], dtype=torch.float64, device=q.device)
    dk = torch.zeros(B * H, Sk, k.shape[-1], dtype=torch.float64, device=q.device)
    dv = torch.zeros(B * H, Sk, v.shape[-1], dtype=torch.float64, device=q.device)
    n_heads, n_q = chunk_shape(B * H, Sq, Sk, budget)
    for i in range(0, B * H, n_heads):
        rows = torch.arange(i, min(i + n_heads, B * H), device=q.device)
        kd, vd = kf[rows].double(), vf[rows].double()
        for r0 in range(0, Sq, n_q):
            r1 = min(Sq, r0 + n_q)
            qd, gd = qf[rows, r0:r1].double(), gf[rows, r0:r1].double()
            s = torch.matmul(qd, kd.transpose(-1, -2)) * scale
            if keep is not None:
                s = s.masked_fill(~_keep_rows(keep[:, :, r0:r1], rows, H), float("-inf"))
            lse = torch.logsumexp(s, dim=-1, keepdim=True)
            p = torch.where(torch.isneginf(lse), 0.0, torch.exp(s - lse))
            o = torch.matmul(p, vd)
            dp = torch.matmul(gd, vd.transpose(-1, -2))
            ds = p * (dp - (gd * o).sum(-1, keepdim=True))
            dq[rows, r0:r1] = torch.matmul(ds, kd) * scale
            dk[rows] += torch.matmul(ds.transpose(-1, -2), qd) * scale
            dv[rows] += torch.matmul(p.transpose(-1, -2), gd)
    g = H // hkv
    dk = dk.reshape(B, hkv, g, Sk, -1).sum(2)
    dv = dv.reshape(B, hkv, g, Sk, -1).sum(2)
    return dq.reshape(*q.shape[:3], -1), dk, dv
