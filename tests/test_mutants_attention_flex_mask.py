"""FlexAttention's mask_mod and BlockMask for the bench's semantics (attention/flex_mask.py), on the CPU: each
recognised mask kind's mask_mod evaluated over every (query, key) pair against the keep worked out by hand, and
the BlockMask's batch/head dims and cache. Flagged by a mutation audit (no CPU test reached the module)."""
import pytest
import torch

from inductor_prof.attention import flex_mask
from inductor_prof.attention.masks import MaskSpec

Sq = Sk = 4


def grid(fn, b=0, h=0):
    q = torch.arange(Sq)[:, None].expand(Sq, Sk)
    k = torch.arange(Sk)[None, :].expand(Sq, Sk)
    return fn(torch.tensor(b), torch.tensor(h), q, k).int().tolist()


def test_mask_mods():
    causal = [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [1, 1, 1, 1]]
    assert grid(flex_mask.mask_mod(MaskSpec("causal"), None, Sk, "cpu")) == causal
    # window 2: j <= i and i - j < 2
    assert grid(flex_mask.mask_mod(MaskSpec("window", window=2), None, Sk, "cpu")) == \
        [[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]]
    pad = MaskSpec("padding", key_lengths=(3, 1))
    assert grid(flex_mask.mask_mod(pad, None, Sk, "cpu"), b=0) == [[1, 1, 1, 0]] * 4       # batch 0: 3 keys
    assert grid(flex_mask.mask_mod(pad, None, Sk, "cpu"), b=1) == [[1, 0, 0, 0]] * 4       # batch 1: 1 key
    left = MaskSpec("padding", key_lengths=(3,), left=True)                             # the last 3 kept, any b
    assert grid(flex_mask.mask_mod(left, None, Sk, "cpu"), b=1) == [[0, 1, 1, 1]] * 4
    both = MaskSpec("causal_padding", key_lengths=(2,))
    assert grid(flex_mask.mask_mod(both, None, Sk, "cpu")) == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 0, 0],
                                                              [1, 1, 0, 0]]
    keep = torch.tensor([[1, 0, 1, 0], [0, 1, 0, 1]] * 2, dtype=torch.bool)
    keep2 = torch.stack([keep, ~keep])[None]          # (1, 2 heads, Sq, Sk)
    fn = flex_mask.mask_mod(MaskSpec("arbitrary"), keep2, Sk, "cpu")
    assert grid(fn, b=3, h=1) == (~keep).int().tolist()   # batch 3 reads the one batch; head 1 its own
    assert grid(fn, b=0, h=0) == keep.int().tolist()


def test_block_mask():
    q = torch.zeros(2, 3, 256, 16)
    k = torch.zeros(2, 3, 256, 16)
    assert flex_mask.block_mask(q, k, False, None) is None
    flex_mask._CACHE.clear()
    bm = flex_mask.block_mask(q, k, True, None)
    # causal: one mask for every batch and head; 128-blocks: 2 x 2, the one above the diagonal skipped
    assert bm.shape == (1, 1, 256, 256) and bm.to_dense().int().tolist() == [[[[1, 0], [1, 1]]]]
    assert flex_mask.block_mask(q, k, True, None) is bm                  # the same call: cached
    pad = torch.ones(2, 1, 1, 256, dtype=torch.bool)
    pad[1, ..., 128:] = False
    bp = flex_mask.block_mask(q, k, False, pad)
    # key padding per batch (batch 1 keeps 128 keys): a batch dim, no head dim; batch 1's second key block empty
    assert bp.shape == (2, 1, 256, 256)
    assert bp.to_dense().int().tolist() == [[[[1, 1], [1, 1]]], [[[1, 0], [1, 0]]]]
    with pytest.raises(ValueError, match="float bias"):
        flex_mask.block_mask(q, k, False, torch.full((256, 256), 0.5))   # neither 0 nor -inf: a bias
    assert flex_mask.block_mask(q, k, False, torch.ones(256, 256, dtype=torch.bool)) is None   # keeps all
    assert len(flex_mask._CACHE) == 2
