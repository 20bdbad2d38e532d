"""A small encoder with local attention (a test model, not an example); `encoder` returns (model, kwargs) as a
`module:factory` target does.

Three layers over 2 sequences of 64 tokens, 4 heads of 16; the second sequence full, the first left-padded (its
first 16 tokens are padding, as a tokenizer pads on the left):
  0  SDPA, a symmetric window |i - j| <= 8 (Longformer-style local attention) and the key padding, as a bool mask
  1  SDPA, an asymmetric window i - 16 <= j <= i + 4 and the key padding, as a float mask (0 / -inf)
  2  FlexAttention, the symmetric window as a mask_mod, no padding
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

BATCH, SEQ, HEADS, HEAD_DIM = 2, 64, 4, 16
PADDED = (16, 0)       # left padding per sequence: the first kept key of sequence b is PADDED[b]
SYMMETRIC = 8          # layers 0 and 2: |i - j| <= 8
BACK, AHEAD = 16, 4    # layer 1: i - 16 <= j <= i + 4


def band(S: int, back: int, ahead: int):
    i, j = torch.arange(S)[:, None], torch.arange(S)[None]
    return (j >= i - back) & (j <= i + ahead)


class Attention(torch.nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.out = torch.nn.Linear(dim, dim)

    def split(self, x):
        B, S, _ = x.shape
        return self.qkv(x).view(B, S, 3, self.heads, -1).permute(2, 0, 3, 1, 4)   # 3 x (B, H, S, D)

    def merge(self, o):
        return self.out(o.transpose(1, 2).flatten(2))


class SdpaLocal(Attention):
    def __init__(self, dim: int, heads: int, back: int, ahead: int, additive: bool):
        super().__init__(dim, heads)
        self.back, self.ahead, self.additive = back, ahead, additive

    def forward(self, x, key_kept):
        q, k, v = self.split(x)
        keep = band(x.shape[1], self.back, self.ahead).to(x.device) & key_kept[:, None, None, :]   # (B, 1, S, S)
        mask = torch.zeros(keep.shape, dtype=x.dtype, device=x.device).masked_fill(~keep, float("-inf")) \
            if self.additive else keep
        return x + self.merge(F.scaled_dot_product_attention(q, k, v, attn_mask=mask))


class FlexLocal(Attention):
    def __init__(self, dim: int, heads: int, S: int, w: int, device):
        from torch.nn.attention.flex_attention import create_block_mask

        super().__init__(dim, heads)

        def local(b, h, q_idx, kv_idx):
            return (q_idx - kv_idx <= w) & (kv_idx - q_idx <= w)
        self.block_mask = create_block_mask(local, None, None, S, S, device=device)

    def forward(self, x):
        from torch.nn.attention.flex_attention import flex_attention

        q, k, v = self.split(x)
        return x + self.merge(flex_attention(q, k, v, block_mask=self.block_mask))


class Encoder(torch.nn.Module):
    def __init__(self, device="cpu"):
        super().__init__()
        dim = HEADS * HEAD_DIM
        self.layers = torch.nn.ModuleList([SdpaLocal(dim, HEADS, SYMMETRIC, SYMMETRIC, additive=False),
                                           SdpaLocal(dim, HEADS, BACK, AHEAD, additive=True)])
        self.flex = FlexLocal(dim, HEADS, SEQ, SYMMETRIC, device)

    def forward(self, x, attention_mask):
        key_kept = attention_mask.bool()
        for layer in self.layers:
            x = layer(x, key_kept)
        return self.flex(x)


def encoder(device: str = "cpu"):
    """(model, kwargs): random weights, float32; attention_mask 1 = token, 0 = padding (left)."""
    with torch.device(device):
        model = Encoder(device).eval().requires_grad_(False)
    x = torch.randn(BATCH, SEQ, HEADS * HEAD_DIM, generator=torch.Generator().manual_seed(0)).to(device)
    mask = (torch.arange(SEQ)[None] >= torch.tensor(PADDED)[:, None]).long().to(device)
    return model, {"x": x, "attention_mask": mask}
