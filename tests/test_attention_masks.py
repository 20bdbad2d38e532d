"""Mask classification on constructed masks, kept-pair counts (the FLOP convention) by hand, masks rebuilt from
what was recognised, repeated-head (GQA) detection, and the saved mask file."""
import pytest
import torch

from inductor_prof.attention.semantics import maskfile, masks
from inductor_prof.attention.semantics.masks import MaskSpec, classify, pairs


def _keep(rows):
    """(b, Sq, Sk) nested lists of 0/1 -> bool (b, 1, Sq, Sk)."""
    return torch.tensor(rows, dtype=torch.bool)[:, None]


def test_none_and_all_kept():
    assert classify(None, 4, 4)[0] == masks.NONE
    assert classify(torch.ones(2, 1, 4, 4, dtype=torch.bool), 4, 4)[0] == masks.NONE


def test_causal_top_left():
    tril = torch.ones(4, 4, dtype=torch.bool).tril()
    assert classify(tril, 4, 4)[0] == masks.CAUSAL                  # 2-D mask, broadcast
    # Sq=3, Sk=5: row i keeps keys 0..i (top-left), not the last keys (bottom-right)
    top_left = _keep([[[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0]]])
    assert classify(top_left, 3, 5)[0].kind == "causal"
    bottom_right = _keep([[[1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]])
    assert classify(bottom_right, 3, 5)[0].kind == "arbitrary"


def test_float_masks():
    tril = torch.ones(4, 4, dtype=torch.bool).tril()
    neg_inf = torch.zeros(4, 4).masked_fill(~tril, float("-inf"))
    assert classify(neg_inf, 4, 4)[0].kind == "causal"
    lowest = torch.zeros(4, 4, dtype=torch.bfloat16).masked_fill(~tril, torch.finfo(torch.bfloat16).min)
    assert classify(lowest, 4, 4)[0].kind == "causal"
    bias = neg_inf.clone()
    bias[2, 0] = 0.5                       # a value neither 0 nor masked: an additive bias
    assert classify(bias, 4, 4) == (MaskSpec("bias"), None)


def test_sliding_window():
    # Sq = Sk = 5, window 2: row i keeps keys i-1 and i -> rows keep 1, 2, 2, 2, 2 keys = 9 pairs
    w = _keep([[[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 0], [0, 0, 0, 1, 1]]])
    spec, _ = classify(w, 5, 5)
    assert spec == MaskSpec("window", window=2)
    assert pairs(spec, 1, 5, 5) == 9
    assert spec.label == ",window=2"


def test_padding_right_and_left():
    # keys kept per batch: batch 0 the first 3 of 5, batch 1 all 5; every query row alike
    right = _keep([[[1, 1, 1, 0, 0]] * 4, [[1, 1, 1, 1, 1]] * 4])
    spec, _ = classify(right, 4, 5)
    assert spec == MaskSpec("padding", key_lengths=(3, 5))
    assert pairs(spec, 2, 4, 5) == 4 * 3 + 4 * 5                     # 32
    # a key mask broadcast over queries and batch (1, 1, 1, Sk): the last 2 keys kept (left padding)
    left = torch.tensor([0, 0, 0, 1, 1], dtype=torch.bool)[None, None, None]
    spec, _ = classify(left, 4, 5)
    assert spec == MaskSpec("padding", key_lengths=(2,), left=True)
    assert pairs(spec, 3, 4, 5) == 3 * 4 * 2                          # B=3 batches of 4 rows x 2 keys: 24
    holes = _keep([[[1, 0, 1, 0, 1]] * 4])                              # kept keys not one run: arbitrary
    assert classify(holes, 4, 5)[0] == MaskSpec("arbitrary", pairs=12)


def test_causal_padding():
    # Sq = Sk = 5, right padding: batch 0 keeps 2 keys, batch 1 keeps 4
    # batch 0 rows keep min(i+1, 2): 1,2,2,2,2 = 9; batch 1 min(i+1, 4): 1,2,3,4,4 = 14; total 23
    tri = torch.ones(5, 5, dtype=torch.bool).tril()
    keys = torch.tensor([[1, 1, 0, 0, 0], [1, 1, 1, 1, 0]], dtype=torch.bool)
    m = (tri[None] & keys[:, None, :])[:, None]
    spec, _ = classify(m, 5, 5)
    assert spec == MaskSpec("causal_padding", key_lengths=(2, 4))
    assert pairs(spec, 2, 5, 5) == 23
    # left padding, 3 keys kept (2, 3, 4): rows 0..4 keep 0, 0, 1, 2, 3 = 6
    m = (tri & torch.tensor([0, 0, 1, 1, 1], dtype=torch.bool))[None, None]
    spec, _ = classify(m, 5, 5)
    assert spec == MaskSpec("causal_padding", key_lengths=(3,), left=True)
    assert pairs(spec, 1, 5, 5) == 6


def test_arbitrary_and_per_head():
    checker = (torch.arange(4)[:, None] + torch.arange(4)[None]) % 2 == 0      # 8 of 16 kept
    assert classify(checker, 4, 4)[0] == MaskSpec("arbitrary", pairs=8)
    assert classify(checker, 4, 4, B=3)[0].pairs == 24        # broadcast over 3 batches: 3 x 8
    two = torch.stack([checker, ~checker])[:, None]             # one per batch: 8 + 8 kept, B not multiplied
    assert classify(two, 4, 4, B=2)[0].pairs == 16
    # causal on head 0, all kept on head 1: differs between heads -> arbitrary; pairs per head (10 + 16) / 2
    per_head = torch.stack([torch.ones(4, 4, dtype=torch.bool).tril(), torch.ones(4, 4, dtype=torch.bool)])[None]
    assert classify(per_head, 4, 4)[0] == MaskSpec("arbitrary", pairs=13)


@pytest.mark.parametrize("Sq,Sk,expected", [(4, 4, 10), (5, 3, 12), (3, 5, 6), (1, 7, 1)])
def test_causal_pairs_by_hand(Sq, Sk, expected):
    # row i keeps min(i + 1, Sk) keys: (4,4) 1+2+3+4; (5,3) 1+2+3+3+3; (3,5) 1+2+3; (1,7) 1
    assert masks.causal_pairs(Sq, Sk) == expected
    assert pairs(masks.CAUSAL, 2, Sq, Sk) == 2 * expected


@pytest.mark.parametrize("mask", [
    torch.ones(6, 6, dtype=torch.bool).tril(),
    (torch.ones(6, 6, dtype=torch.bool).tril() & ~torch.ones(6, 6, dtype=torch.bool).tril(-3)),   # window 3
    torch.tensor([[1] * 4 + [0] * 2, [1] * 6], dtype=torch.bool)[:, None, None].expand(2, 1, 6, 6),
    torch.tensor([[0] * 2 + [1] * 4, [0] + [1] * 5], dtype=torch.bool)[:, None, None] & torch.ones(6, 6).tril().bool(),
], ids=["causal", "window", "padding", "causal_padding_left"])
def test_build_rebuilds_what_was_recognised(mask):
    spec, keep = classify(mask, 6, 6)
    assert spec.kind not in ("arbitrary", "none")
    rebuilt = masks.build(spec, 2, 6, 6)
    assert torch.equal(rebuilt.expand(2, 1, 6, 6), keep.expand(2, 1, 6, 6))
    assert int(rebuilt.expand(2, 1, 6, 6).sum()) == pairs(spec, 2, 6, 6)      # closed form == counted


def test_repeated_kv_heads():
    g = torch.Generator().manual_seed(0)
    kv = torch.randn(2, 2, 8, 4, generator=g)          # 2 distinct kv heads
    k = kv.repeat_interleave(4, dim=1)                  # repeat_kv: heads 0-3 = kv 0, heads 4-7 = kv 1
    v = (kv + 1).repeat_interleave(4, dim=1)
    assert masks.repeated_kv_groups(k, v) == 4
    assert masks.repeated_kv_groups(kv.repeat(1, 4, 1, 1), kv.repeat(1, 4, 1, 1)) == 1   # tiled, not in groups
    v2 = v.clone()
    v2[0, 1] += 1                                        # v's heads no longer repeat in groups of 4 or 2
    assert masks.repeated_kv_groups(k, v2) == 1
    mqa = kv[:, :1].expand(2, 8, 8, 4)
    assert masks.repeated_kv_groups(mqa, mqa) == 8


def test_mask_file_round_trip(tmp_path):
    keep = torch.rand(2, 1, 9, 13, generator=torch.Generator().manual_seed(1)) > 0.5
    maskfile.save(keep, tmp_path / "m.npz")
    assert torch.equal(maskfile.load(tmp_path / "m.npz"), keep)
