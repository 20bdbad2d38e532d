"""The float64 reference in score blocks of bounded size: the block sizes, worked by hand, and the result of a
tiny budget (blocks of a few query rows) against one block holding every head."""
import torch

from inductor_prof.attention.kernels.reference import (SCORE_BLOCK_ELEMENTS, attention_float64, blocked_attention,
                                                       chunk_shape)
import math
import pytest


def test_budget_is_one_gib_of_float64():
    assert SCORE_BLOCK_ELEMENTS * 8 == 1 << 30


def test_chunk_shape_by_hand():
    # FLUX: 4608 x 4608 = 21,233,664 scores a head; 2**27 = 134,217,728 // that = 6 heads, all rows
    assert chunk_shape(24, 4608, 4608) == (6, 4608)
    # 16,384 tokens: 268,435,456 a head, over the budget: one head, 2**27 // 16384 = 8192 rows at a time
    assert chunk_shape(4, 16384, 16384) == (1, 8192)
    # small heads: all of them fit (64 x 64 = 4096 a head; 2 heads asked for)
    assert chunk_shape(2, 64, 64) == (2, 64)
    # exactly one head fits: 1 head, every row
    assert chunk_shape(3, 100, 10, budget=1000) == (1, 100)
    # keys alone over the budget: still one row at a time
    assert chunk_shape(1, 8, 5000, budget=1000) == (1, 1)
    # 7 rows of 10 keys per 70-element block: 1 head, 7 rows
    assert chunk_shape(2, 20, 10, budget=70) == (1, 7)


def test_tiny_budget_matches_one_block():
    g = torch.Generator().manual_seed(3)
    q = torch.randn(2, 4, 37, 16, generator=g)
    k = torch.randn(2, 2, 29, 16, generator=g)     # GQA: two query heads per kv head
    v = torch.randn(2, 2, 29, 16, generator=g)
    keep = torch.rand(2, 1, 37, 29, generator=g) > 0.3
    keep[1, 0, 5] = False                           # a row with no key kept: out 0, lse -inf in both
    whole = attention_float64(q, k, v, 0.4, causal=True, mask=keep, budget=8 * 37 * 29)
    rows = attention_float64(q, k, v, 0.4, causal=True, mask=keep, budget=3 * 29)   # 3 query rows a block
    assert chunk_shape(8, 37, 29, 3 * 29) == (1, 3)
    # the same sums in another BLAS blocking: equal to float64 rounding, not bit for bit
    torch.testing.assert_close(rows[0], whole[0], rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(rows[1], whole[1], rtol=1e-12, atol=1e-12)
    assert bool(torch.isneginf(rows[1][1, 0, 5])) and bool((rows[0][1, 0, 5] == 0).all())
    assert bool(torch.isneginf(rows[1][1, 1, 5]))   # head 1 of batch 1 shares the broadcast mask row


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

REFS = [attention_float64, lambda *a, **kw: blocked_attention(*a, block_m=2, block_n=2, **kw)]


def qkv(dtype=torch.float64):
    # D = 1, scale 1: score(i, j) = q_i * k_j; q = (0, 0, 0), so every kept key weighs the same and a row's output
    # is the mean of its kept v's, its lse log(number kept)
    q = torch.zeros(1, 1, 3, 1, dtype=dtype)
    k = torch.zeros(1, 1, 3, 1, dtype=dtype)
    v = torch.tensor([1.0, 2.0, 4.0], dtype=dtype).reshape(1, 1, 3, 1)
    return q, k, v


@pytest.mark.parametrize("ref", REFS)
def test_a_2d_mask_and_causal_with_a_mask(ref):
    keep = torch.tensor([[True, False, True]] * 3)          # (Sq, Sk): key 1 dropped for every query
    out, lse = ref(*qkv(), 1.0, mask=keep)
    # rows keep keys 0 and 2: mean(1, 4) = 2.5, log 2
    assert out.flatten().tolist() == [2.5, 2.5, 2.5]
    assert lse.flatten().tolist() == pytest.approx([math.log(2)] * 3)
    out, lse = ref(*qkv(), 1.0, causal=True, mask=keep[None])   # 3-D, and causal: row i keeps j <= i and j != 1
    # row 0: {0} -> 1; row 1: {0} -> 1; row 2: {0, 2} -> 2.5
    assert out.flatten().tolist() == [1.0, 1.0, 2.5]
    assert lse.flatten().tolist() == pytest.approx([0.0, 0.0, math.log(2)])


@pytest.mark.parametrize("ref", REFS)
def test_rows_far_apart_keep_their_own_max(ref):
    # scores: row 0 (q=1) [1, 2]; row 1 (q=100) [100, 200]. With one max over both rows, row 0's exp(2 - 200)
    # underflows float32 and the row would come out 0
    q = torch.tensor([1.0, 100.0]).reshape(1, 1, 2, 1)
    k = torch.tensor([1.0, 2.0]).reshape(1, 1, 2, 1)
    v = torch.tensor([0.0, 1.0]).reshape(1, 1, 2, 1)
    out, lse = ref(q, k, v, 1.0)
    # row 0: e^2 / (e + e^2) = 1 / (1 + e^-1); lse log(e + e^2) = 2 + log(1 + e^-1). row 1: ~1, lse ~200
    assert out.flatten().tolist() == pytest.approx([1 / (1 + math.exp(-1)), 1.0], rel=1e-6)
    assert lse.flatten().tolist() == pytest.approx([2 + math.log(1 + math.exp(-1)), 200.0], rel=1e-6)
