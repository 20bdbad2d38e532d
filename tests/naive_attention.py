"""The yardstick for causal and GQA kernels: plain softmax attention in float64 with the mask built here.

Written apart from the library's references on purpose: kv heads repeated (query head h uses kv head
h // (Hq // Hkv), as SDPA's enable_gqa) and the top-left causal mask (query i sees keys j <= i, also when
Sq != Sk) spelled out with torch.tril.
"""
import torch


def naive_attention(q, k, v, scale: float, causal: bool):
    """(out, lse) float64; out (B,Hq,Sq,D), lse (B,Hq,Sq) natural log."""
    group = q.shape[1] // k.shape[1]
    k = k.double().repeat_interleave(group, dim=1)
    v = v.double().repeat_interleave(group, dim=1)
    s = (q.double() @ k.transpose(-1, -2)) * scale
    if causal:
        sq, sk = s.shape[-2:]
        s = s.masked_fill(~torch.ones(sq, sk, dtype=torch.bool, device=s.device).tril(), float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    return torch.exp(s - lse[..., None]) @ v, lse
