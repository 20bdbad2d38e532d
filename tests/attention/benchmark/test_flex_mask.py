"""FlexAttention's mask_mod and BlockMask for the bench's semantics (attention/benchmark/flex_mask.py), on the CPU: each
recognised mask kind's mask_mod evaluated over every (query, key) pair against the keep worked out by hand, and
the BlockMask's batch/head dims and cache. Flagged by a mutation audit (no CPU test reached the module)."""
import pytest
import torch

from inductor_prof.attention.benchmark import flex_mask
from inductor_prof.attention.semantics.masks import MaskSpec

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
    per_batch = flex_mask.mask_mod(MaskSpec("arbitrary"), torch.stack([keep, ~keep])[:, None], Sk, "cpu")
    assert grid(per_batch, b=1, h=5) == (~keep).int().tolist()     # batch 1 its own, any head the one
    keep2 = torch.stack([keep, ~keep])[None]          # (1, 2 heads, Sq, Sk)
    fn = flex_mask.mask_mod(MaskSpec("arbitrary"), keep2, Sk, "cpu")
    assert grid(fn, b=3, h=1) == (~keep).int().tolist()   # batch 3 reads the one batch; head 1 its own
    assert grid(fn, b=0, h=0) == keep.int().tolist()


def test_block_mask():
    q = torch.zeros(2, 3, 256, 16)
    k = torch.zeros(2, 3, 256, 16)
    assert flex_mask.block_mask(q, k, False, None) is None
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
    with pytest.raises(ValueError, match="^a float bias is not a mask: FlexAttention would take it as a score_mod$"):
        flex_mask.block_mask(q, k, False, torch.full((256, 256), 0.5))   # neither 0 nor -inf: a bias
    assert flex_mask.block_mask(q, k, False, torch.ones(256, 256, dtype=torch.bool)) is None   # keeps all
    # calls that give no block mask (dense, a mask keeping every pair, a bias) take no room in the cache of four:
    # after three more of each, both block masks built above are still the cached ones
    for _ in range(3):
        flex_mask.block_mask(q, k, False, None)
        flex_mask.block_mask(q, k, False, torch.ones(256, 256, dtype=torch.bool))
        with pytest.raises(ValueError):
            flex_mask.block_mask(q, k, False, torch.full((256, 256), 0.5))
    assert flex_mask.block_mask(q, k, True, None) is bm and flex_mask.block_mask(q, k, False, pad) is bp


def test_block_mask_per_head_and_per_batch_masks():
    q = torch.zeros(2, 2, 256, 16)
    # arbitrary, per head (the same for both batches): head h keeps key block h only -> a head dim, no batch dim
    keep = torch.zeros(1, 2, 256, 256, dtype=torch.bool)
    for h in range(2):
        keep[0, h, :, 128 * h:128 * (h + 1)] = True
    keep[0, 0, 0, 200] = True       # not a padding pattern: stays arbitrary
    bm = flex_mask.block_mask(q, q, False, keep)
    assert bm.shape == (1, 2, 256, 256)
    assert bm.to_dense().int().tolist() == [[[[1, 1], [1, 0]], [[0, 1], [0, 1]]]]
    # arbitrary, per batch (the same for both heads): batch b keeps key block b -> a batch dim, no head dim
    per_b = keep.transpose(0, 1)                                   # (2, 1, Sq, Sk)
    bb = flex_mask.block_mask(q, q, False, per_b)
    assert bb.shape == (2, 1, 256, 256)
    assert bb.to_dense().int().tolist() == [[[[1, 1], [1, 0]]], [[[0, 1], [0, 1]]]]
    # arbitrary 2-D (Sq, Sk): the same everywhere; the lower-left key block only (plus one pair in the upper left)
    flat = torch.zeros(256, 256, dtype=torch.bool)
    flat[128:, :128] = True
    flat[0, 5] = True
    b2 = flex_mask.block_mask(q, q, False, flat)
    assert b2.shape == (1, 1, 256, 256) and b2.to_dense().int().tolist() == [[[[1, 0], [1, 0]]]]
    # left padding, one length for every batch: the last 100 keys kept -> key block 0 empty (keys 0-127 < 156)
    left = torch.zeros(1, 1, 1, 256, dtype=torch.bool)
    left[..., 156:] = True
    b3 = flex_mask.block_mask(q, q, False, left)
    assert b3.shape == (1, 1, 256, 256) and b3.to_dense().int().tolist() == [[[[0, 1], [0, 1]]]]


def test_block_mask_cache_keeps_the_latest_four():
    qs = [torch.zeros(1, 1, 128 * n, 16) for n in range(1, 6)]
    first = [flex_mask.block_mask(q, q, True, None) for q in qs]     # five lengths: the first is evicted
    assert flex_mask.block_mask(qs[4], qs[4], True, None) is first[4]
    assert flex_mask.block_mask(qs[1], qs[1], True, None) is first[1]    # the oldest of the four kept
    assert flex_mask.block_mask(qs[0], qs[0], True, None) is not first[0]
    # a mask is cached by identity: an equal tensor of its own is built anew; causal and its mask apart
    keep = torch.ones(1, 1, 1, 256, dtype=torch.bool)
    keep[..., 200:] = False
    q = torch.zeros(1, 1, 256, 16)
    bk = flex_mask.block_mask(q, q, False, keep)
    assert flex_mask.block_mask(q, q, False, keep) is bk and flex_mask.block_mask(q, q, False, keep.clone()) is not bk
    assert flex_mask.block_mask(q, q, True, None) is not bk
