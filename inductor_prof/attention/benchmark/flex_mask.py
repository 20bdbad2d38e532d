"""FlexAttention's BlockMask for the bench's semantics: causal, and each recognised mask kind (masks.py) as the
mask_mod a user would write (sliding window, key padding from per-batch lengths, causal or a window with padding),
an arbitrary mask through a mask_mod reading the mask tensor. create_block_mask marks the key blocks with nothing kept, so
the kernel skips them. Built once per (mask, shape): the timed calls reuse it."""
from __future__ import annotations

from ..semantics import masks

_CACHE: list[tuple] = []      # (mask tensor or None, causal, dims, block mask): the latest few, by identity
_CACHE_SIZE = 4


def mask_mod(spec: masks.MaskSpec, keep, Sk: int, device):
    """The mask_mod(b, h, q_idx, kv_idx) -> bool of a recognised mask; `keep` (b, h, Sq, Sk) read when arbitrary."""
    import torch

    def causal(b, h, q_idx, kv_idx):
        return q_idx >= kv_idx

    if spec.kind == "causal":
        return causal
    w, r = spec.window, spec.right

    def sliding_window(b, h, q_idx, kv_idx):    # w keys up to the query's own, r after it
        return (kv_idx - q_idx <= r) & (q_idx - kv_idx < w)
    if spec.kind == "window":
        return sliding_window
    if spec.kind in ("padding", "causal_padding", "window_padding"):
        lengths = torch.tensor(spec.key_lengths, device=device)
        one = len(spec.key_lengths) == 1
        left = spec.left
        band = {"causal_padding": causal, "window_padding": sliding_window}.get(spec.kind)

        def key_padding(b, h, q_idx, kv_idx):
            n = lengths[0] if one else lengths[b]
            kept = (kv_idx >= Sk - n) if left else (kv_idx < n)
            return kept & band(b, h, q_idx, kv_idx) if band else kept
        return key_padding
    one_b, one_h = keep.shape[0] == 1, keep.shape[1] == 1

    def mask_tensor(b, h, q_idx, kv_idx):
        return keep[0 if one_b else b, 0 if one_h else h, q_idx, kv_idx]
    return mask_tensor


def block_mask(q, k, causal: bool, mask):
    """The BlockMask for q (B, Hq, Sq, D), k (B, Hkv, Sk, D) with SDPA's causal flag or a bool keep (a BlockMask
    itself, as a model built it, is used as given); None when dense."""
    from torch.nn.attention.flex_attention import BlockMask, create_block_mask

    if isinstance(mask, BlockMask):
        return mask
    if not causal and mask is None:
        return None
    B, H, Sq, Sk = q.shape[0], q.shape[1], q.shape[2], k.shape[2]
    dims = (B, H, Sq, Sk, str(q.device))
    for m, c, d, bm in _CACHE:
        if m is mask and c == causal and d == dims:
            return bm
    if causal:
        spec, keep = masks.CAUSAL, None
    else:
        spec, keep = masks.classify(mask, Sq, Sk)
        if spec.kind == "none":
            return None
        if spec.kind == "bias":
            raise ValueError("a float bias is not a mask: FlexAttention would take it as a score_mod")
    if keep is not None:
        while keep.dim() < 4:
            keep = keep[None]
        keep = keep.expand(keep.shape[0], keep.shape[1], Sq, Sk)
    fn = mask_mod(spec, keep, Sk, q.device)
    per_batch = keep is not None and keep.shape[0] > 1 or len(spec.key_lengths) > 1
    per_head = keep is not None and keep.shape[1] > 1 and spec.kind == "arbitrary"
    bm = create_block_mask(fn, B if per_batch else None, H if per_head else None, Sq, Sk, device=q.device)
    _CACHE.insert(0, (mask, causal, dims, bm))
    del _CACHE[_CACHE_SIZE:]
    return bm
