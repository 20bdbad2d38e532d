"""masks.classify on windows with a bound on both sides (local attention: |i - j| <= w, or i - left <= j <= i + right),
windows with padding, and left padding (the kept keys are the last ones) with ragged lengths, causal and the
bottom-right causal of a query block placed after a cache: each mask written out by hand, its kind, label and
kept pairs counted by hand, the mask rebuilt from what was recognised."""
import pytest
import torch

from inductor_prof.attention.semantics.masks import MaskSpec, build, classify, pairs


def _keep(rows):
    """(b, Sq, Sk) nested lists of 0/1 -> bool (b, 1, Sq, Sk)."""
    return torch.tensor(rows, dtype=torch.bool)[:, None]


def _check(mask, B, expected: MaskSpec, kept: int):
    """classify gives `expected`; its pairs and its rebuilt mask agree with the mask written out."""
    Sq, Sk = mask.shape[-2:]
    spec, keep = classify(mask, Sq, Sk, B)
    assert spec == expected
    assert pairs(spec, B, Sq, Sk) == kept == B // mask.shape[0] * int(mask.sum())
    assert torch.equal(build(spec, B, Sq, Sk).expand(B, 1, Sq, Sk), mask.expand(B, 1, Sq, Sk))
    return spec, keep


# ---- two-sided windows ------------------------------------------------------------------------------------

def test_symmetric_window():
    # |i - j| <= 1 on 5 x 5: rows keep {0,1}, {0,1,2}, {1,2,3}, {2,3,4}, {3,4} = 2+3+3+3+2 = 13;
    # 2 keys up to the query's own (i-1, i) and 1 after (i+1)
    m = _keep([[[1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [0, 1, 1, 1, 0], [0, 0, 1, 1, 1], [0, 0, 0, 1, 1]]])
    spec, _ = _check(m, 1, MaskSpec("window", window=2, right=1), 13)
    assert spec.label == ",window=2+1"


def test_asymmetric_window_fewer_queries_than_keys():
    # i - 2 <= j <= i + 1, Sq = 4, Sk = 6: rows {0,1}, {0,1,2}, {0..3}, {1..4} = 2+3+4+4 = 13
    m = _keep([[[1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 0, 0], [0, 1, 1, 1, 1, 0]]])
    _check(m, 1, MaskSpec("window", window=3, right=1), 13)


def test_causal_window_keeps_its_label():
    # i - 1 <= j <= i (no key ahead): the causal window of 2 keys, label as before
    m = _keep([[[1, 0, 0], [1, 1, 0], [0, 1, 1]]])
    spec, _ = _check(m, 1, MaskSpec("window", window=2), 5)
    assert spec.label == ",window=2"


def test_window_wider_than_the_sequence_is_causal_or_none():
    # |i - j| <= 9 on 4 x 4 keeps every pair: none; i - 9 <= j <= i: causal (the window bounds nothing)
    i, j = torch.arange(4)[:, None], torch.arange(4)[None]
    assert classify((i - j).abs() <= 9, 4, 4)[0].kind == "none"
    assert classify((j <= i) & (i - j <= 9), 4, 4)[0].kind == "causal"
    # i - 9 <= j <= i + 1: the left bound cuts nothing -> recorded as Sq = 4 keys back (i - 3 <= 0 <= j)
    # rows keep 2, 3, 4, 4 = 13
    _check(((j <= i + 1) & (i - j <= 9))[None, None], 1, MaskSpec("window", window=4, right=1), 13)


def test_window_with_right_padding_ragged():
    # |i - j| <= 1 on 5 x 5, batch 0 keeps its first 3 keys, batch 1 all 5
    # batch 0 rows: {0,1}, {0,1,2}, {1,2}, {2}, {} = 2+3+2+1+0 = 8; batch 1: 13 (above) -> 21
    b0 = [[1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [0, 1, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0]]
    b1 = [[1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [0, 1, 1, 1, 0], [0, 0, 1, 1, 1], [0, 0, 0, 1, 1]]
    spec, _ = _check(_keep([b0, b1]), 2, MaskSpec("window_padding", window=2, right=1, key_lengths=(3, 5)), 21)
    assert spec.label == ",window=2+1,padding"


def test_window_with_left_padding_and_a_full_batch():
    # |i - j| <= 1 on 5 x 5, batch 0 keeps its last 3 keys (2, 3, 4), batch 1 all 5 (the longest sequence of
    # a left-padded batch has no padding). batch 0 rows: {}, {2}, {2,3}, {2,3,4}, {3,4} = 0+1+2+3+2 = 8; +13 -> 21
    b0 = [[0, 0, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 1, 0], [0, 0, 1, 1, 1], [0, 0, 0, 1, 1]]
    b1 = [[1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [0, 1, 1, 1, 0], [0, 0, 1, 1, 1], [0, 0, 0, 1, 1]]
    _check(_keep([b0, b1]), 2, MaskSpec("window_padding", window=2, right=1, key_lengths=(3, 5), left=True), 21)


# ---- left padding ------------------------------------------------------------------------------------------

def test_left_padding_ragged_with_a_full_batch():
    # batch 0 keeps its last 2 of 5 keys, batch 1 all 5: 4 rows x (2 + 5) = 28. The full batch reads as a prefix
    # as much as a suffix: it must not make the batch "mixed" (it did: arbitrary)
    m = _keep([[[0, 0, 0, 1, 1]] * 4, [[1, 1, 1, 1, 1]] * 4])
    _check(m, 2, MaskSpec("padding", key_lengths=(2, 5), left=True), 28)


def test_left_padding_ragged_with_an_empty_batch():
    # batch 0 keeps nothing, batch 1 its last 3 of 4 keys: 0 + 2 rows x 3 = 6
    m = _keep([[[0, 0, 0, 0]] * 2, [[0, 1, 1, 1]] * 2])
    _check(m, 2, MaskSpec("padding", key_lengths=(0, 3), left=True), 6)


def test_causal_left_padding_with_a_full_batch():
    # a left-padded prompt (transformers' prefill): causal j <= i and batch 0's last 3 of 5 keys (2, 3, 4),
    # batch 1 all 5. batch 0 rows keep 0, 0, 1, 2, 3 = 6; batch 1 1+2+3+4+5 = 15 -> 21
    tri = torch.ones(5, 5, dtype=torch.bool).tril()
    keys = torch.tensor([[0, 0, 1, 1, 1], [1, 1, 1, 1, 1]], dtype=torch.bool)
    _check((tri & keys[:, None, :])[:, None], 2, MaskSpec("causal_padding", key_lengths=(3, 5), left=True), 21)


def test_causal_left_padding_fewer_queries_than_keys():
    # top-left causal (SDPA's is_causal), Sq = 3, Sk = 5, the last 3 keys (2, 3, 4) kept: rows keep j in
    # [2, i]: {}, {}, {2} -> 1 pair. The last row sees keys 2..2 only: neither a prefix nor a suffix of the keys,
    # yet the causal bound hides keys 3, 4 from every row: left padding of 3 keys (it was arbitrary)
    m = _keep([[[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 1, 0, 0]]])
    _check(m, 1, MaskSpec("causal_padding", key_lengths=(3,), left=True), 1)


def test_bottom_right_causal_with_left_padding_is_a_window_ahead():
    # 2 new queries after a cache (bottom-right causal: query i at position i + Sk - Sq = i + 3 sees keys up to
    # i + 3), the last 3 of 5 keys kept (left padding): row 0 keeps {2, 3}, row 1 {2, 3, 4} -> 5 pairs.
    # Not SDPA's top-left causal: a window reaching 3 keys ahead (Sk - Sq) with no bound back (recorded as
    # Sq = 2 keys up to the query's own: i - 1 <= 0 <= j), and the key range
    m = _keep([[[0, 0, 1, 1, 0], [0, 0, 1, 1, 1]]])
    spec, _ = _check(m, 1, MaskSpec("window_padding", window=2, right=3, key_lengths=(3,), left=True), 5)
    assert spec.label == ",window=2+3,padding"


def test_bottom_right_causal_is_not_top_left():
    # Sq = 3, Sk = 5: rows keep 3, 4, 5 keys (0..i+2) = 12: a window 2 keys ahead, never "causal"
    m = _keep([[[1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]])
    _check(m, 1, MaskSpec("window", window=3, right=2), 12)


# ---- what stays arbitrary ------------------------------------------------------------------------------------

@pytest.mark.parametrize("rows, why", [
    ([[[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0]]], "keys before the query's own only (j < i)"),
    ([[[0, 1, 1, 0]] * 3], "kept keys in the middle: neither a prefix nor a suffix"),
    ([[[1, 1, 0, 0]] * 2, [[0, 0, 1, 1]] * 2], "batch 0 right padding, batch 1 left: no one side"),
    ([[[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 0]]], "a row with a hole"),
])
def test_what_no_band_and_key_range_rebuild_is_arbitrary(rows, why):
    m = _keep(rows)
    b, _, Sq, Sk = m.shape
    assert classify(m, Sq, Sk, b)[0] == MaskSpec("arbitrary", pairs=int(m.sum())), why


# ---- where the recognised window travels: the captured call's fields, FlexAttention's mask_mod -----------------

def test_call_mask_reads_the_right_bound():
    from inductor_prof.mask_pairs import call_mask

    c = {"mask_kind": "window_padding", "window": 3, "window_right": 2, "key_lengths": [4], "padding_left": True}
    assert call_mask(c) == MaskSpec("window_padding", window=3, right=2, key_lengths=(4,), left=True)


def test_flex_mask_mod_of_two_sided_windows():
    from inductor_prof.attention.benchmark.flex_mask import mask_mod

    q, k = torch.arange(5)[:, None].expand(5, 5), torch.arange(5)[None, :].expand(5, 5)
    for spec, B, Sq, Sk in [(MaskSpec("window", window=2, right=1), 1, 5, 5),
                            (MaskSpec("window_padding", window=2, right=1, key_lengths=(3, 5)), 2, 5, 5),
                            (MaskSpec("window_padding", window=2, right=1, key_lengths=(3, 5), left=True), 2, 5, 5)]:
        fn = mask_mod(spec, None, Sk, "cpu")
        want = build(spec, B, Sq, Sk).expand(B, 1, Sq, Sk)
        for b in range(B):   # the mask_mod over every pair == the mask rebuilt (checked by hand above)
            assert torch.equal(fn(torch.tensor(b), torch.tensor(0), q, k), want[b, 0]), (spec, b)
