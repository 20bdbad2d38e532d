"""The two torch references (attention/kernels/reference.py) on inputs small enough to work out by hand, where a mutation
audit found them unpinned: masks of fewer than 4 dims, causal and a mask together, and rows whose scores lie far
apart (the running max must be per row)."""
import math

import pytest
import torch

from inductor_prof.attention.kernels.reference import attention_float64, blocked_attention

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
