"""Mask classification on constructed masks, kept-pair counts (the FLOP convention) by hand, masks rebuilt from
what was recognised, repeated-head (GQA) detection, and the saved mask file."""
import pytest
import torch

from inductor_prof.attention.semantics import maskfile, masks
from inductor_prof.attention.semantics.masks import CAUSAL, NONE, build, classify, MaskSpec, pairs


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
    # never causal: a window reaching Sk - Sq = 2 keys ahead (test_mask_bands.py)
    assert classify(bottom_right, 3, 5)[0] == MaskSpec("window", window=3, right=2)


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


# ---- (mutation audit) masks.py: counting ----


def test_pair_counts_are_ints():
    # flops = 4*D*Hq*pairs go into JSON/CSV: an int count must stay an int (10 pairs, not 10.0)
    assert type(masks.causal_pairs(4, 4)) is int and masks.causal_pairs(4, 4) == 10


def test_window_longer_query_than_keys():
    # window 2, Sq = 5 queries, Sk = 3 keys: row i keeps j in {i-1, i} with j < 3:
    # i=0 {0}, i=1 {0,1}, i=2 {1,2}, i=3 {2}, i=4 {} -> 1 + 2 + 2 + 1 + 0 = 6
    spec = MaskSpec("window", window=2)
    assert pairs(spec, 1, 5, 3) == 6
    assert int(build(spec, 1, 5, 3).sum()) == 6


def test_unknown_kind_is_named():
    with pytest.raises(ValueError, match=r"^unknown mask kind 'weird'$"):
        pairs(MaskSpec("weird"), 1, 2, 2)


# ---- masks.py: recognising ------------------------------------------------------------------------------


def _tril(n):
    return torch.ones(n, n, dtype=torch.bool).tril()


def test_float_mask_threshold_is_half_the_lowest():
    # masked: -inf or <= finfo.min / 2 (exactly half counts); a value between min/2 and 0 is a bias
    low = torch.finfo(torch.float32).min
    at_half = torch.zeros(4, 4).masked_fill(~_tril(4), low / 2)
    assert classify(at_half, 4, 4)[0] == CAUSAL
    above_half = torch.zeros(4, 4).masked_fill(~_tril(4), low * 0.4)    # -1.36e38 > min/2 = -1.70e38
    assert classify(above_half, 4, 4) == (MaskSpec("bias"), None)


def test_heads_alike_are_one_mask():
    # 2 heads, both causal: the mask does not differ per head -> causal, its keep kept for one head
    both = torch.stack([_tril(4), _tril(4)])[None]          # (1, 2, 4, 4)
    spec, keep = classify(both, 4, 4)
    assert spec == CAUSAL
    assert tuple(keep.shape) == (1, 1, 4, 4)


def test_heads_differing_with_one_query_row():
    # Sq = 1: head 0 keeps keys 0,1, head 1 all 4 -> per head: (2 + 4) / 2 = 3 pairs, arbitrary
    m = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 1]], dtype=torch.bool)[None, :, None, :]   # (1, 2, 1, 4)
    assert classify(m, 1, 4)[0] == MaskSpec("arbitrary", pairs=3)


def test_per_head_pairs_floor_to_an_int():
    # head 0 causal 4x4 (10 kept), head 1 causal plus (0, 3) (11 kept): 21 // 2 heads = 10 per head
    h1 = _tril(4).clone()
    h1[0, 3] = True
    spec, _ = classify(torch.stack([_tril(4), h1])[None], 4, 4)
    assert spec.kind == "arbitrary" and type(spec.pairs) is int and spec.pairs == 10


def test_everything_masked_is_padding_of_zero_keys():
    # no key kept anywhere: the last row keeps no key -> padding with 0 keys, 0 pairs (not a window of 0)
    spec, keep = classify(torch.zeros(1, 1, 3, 3, dtype=torch.bool), 3, 3)
    assert spec == MaskSpec("padding", key_lengths=(0,))
    assert pairs(spec, 1, 3, 3) == 0
    assert not bool(keep.any())


def test_diagonal_is_a_window_of_one():
    # each query sees itself only: window 1 (i - 1 < j <= i), 4 pairs
    spec, _ = classify(torch.eye(4, dtype=torch.bool), 4, 4)
    assert spec == MaskSpec("window", window=1)
    assert pairs(spec, 1, 4, 4) == 4


def test_left_and_right_padding_mixed_is_arbitrary():
    # batch 0 keeps its first 3 keys, batch 1 its last 3: no single `left` -> arbitrary, 4 rows x 3 x 2 = 24
    m = torch.tensor([[[1, 1, 1, 0, 0]] * 4, [[0, 0, 1, 1, 1]] * 4], dtype=torch.bool)[:, None]
    assert classify(m, 4, 5, B=2)[0] == MaskSpec("arbitrary", pairs=24)


# ---- masks.py: rebuilding -------------------------------------------------------------------------------


def test_build_none_bias_and_arbitrary():
    assert build(NONE, 1, 2, 2) is None and build(MaskSpec("bias"), 1, 2, 2) is None
    saved = torch.tensor([[[[1, 0], [0, 1]]]], dtype=torch.bool)
    assert torch.equal(build(MaskSpec("arbitrary", pairs=2), 1, 2, 2, saved=saved), saved)
    with pytest.raises(ValueError, match=r"^an arbitrary mask is rebuilt from its saved values: none given$"):
        build(MaskSpec("arbitrary", pairs=2), 1, 2, 2)


@pytest.mark.parametrize("spec", [CAUSAL, MaskSpec("window", window=2), MaskSpec("padding", key_lengths=(2, 3)),
                                  MaskSpec("causal_padding", key_lengths=(2,), left=True)],
                         ids=["causal", "window", "padding", "causal_padding"])
def test_build_on_the_device_asked(spec):
    # the bench rebuilds the mask on the GPU: every tensor made on `device` ("meta" stands for it here)
    assert build(spec, 2, 4, 4, device="meta").device.type == "meta"


def test_build_moves_saved_values_to_the_device():
    saved = torch.ones(1, 1, 2, 2, dtype=torch.bool)
    assert build(MaskSpec("arbitrary", pairs=4), 1, 2, 2, device="meta", saved=saved).device.type == "meta"
