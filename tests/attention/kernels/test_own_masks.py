"""The own kernels' band masks (sliding windows with left and right bounds, with and without causal; per-batch key
ranges: padding): which key blocks each query tile visits (mask_schedule, worked out by hand on small masks), and
the `tl` kernel in Triton's interpreter against float64 at ragged sizes, with fully masked rows and tiles."""
import json

import isolated
import pytest

from inductor_prof.attention.kernels import mask_schedule as ms
from inductor_prof.attention.kernels.mask_schedule import NO_BOUND, Band


def test_causal_schedule_is_the_causal_kernels():
    # 8 queries and keys, 4-row tiles, 2-key blocks. Rows 0-3 keep keys 0..row: blocks 0 (keys 0,1) and 1 (2,3),
    # neither kept by row 0 whole: both partial. Rows 4-7: blocks 0, 1 kept by every row (full); 2 (4,5): row 4
    # drops 5; 3 (6,7): partial
    assert ms.schedule(8, 4, 2, 8, ms.CAUSAL) == [([], [0, 1]), ([0, 1], [2, 3])]


def test_window_schedule():
    # a causal window of 3 keys (left 2, right 0), 12 x 12, tiles of 4, blocks of 2. Rows 4-7: row 4 keeps 2..4,
    # row 7 keeps 5..7: blocks 1, 2, 3 visited, none kept whole by every row
    assert ms.tile_blocks(4, 4, 2, 12, ms.window(3)) == (1, 3, 3, 4)
    assert ms.schedule(12, 4, 2, 12, ms.window(3))[1] == ([], [1, 2, 3])
    # a window of 8 (left 7): rows 8-11, row 8 keeps 1..8, row 11 keeps 4..11: blocks 0..5 visited; every row keeps
    # keys 4..8, so blocks 2 (4,5) and 3 (6,7) are full; 0, 1, 4, 5 partial
    assert ms.schedule(12, 4, 2, 12, ms.window(8))[2] == ([2, 3], [0, 1, 4, 5])
    # keys 0..11 after the tile's rows skipped: rows 0-3 of window 8 visit blocks 0, 1 (keys up to row 3) only
    assert ms.schedule(12, 4, 2, 12, ms.window(8))[0] == ([], [0, 1])


def test_two_sided_window_schedule():
    # left 2, right 3 (i - 2 <= j <= i + 3), 16 x 16, tiles of 4, blocks of 2. Rows 4-7: row 4 keeps 2..7,
    # row 7 keeps 5..10: blocks 1..5 (keys 2..11; 11 is kept by no row but shares block 5 with 10); every row
    # keeps 5..7, so block 3 (6,7) is full and 1, 2, 4, 5 partial
    assert ms.schedule(16, 4, 2, 16, Band(2, 3))[1] == ([3], [1, 2, 4, 5])
    # left 5, right 5, rows 8-11: row 8 keeps 3..13, row 11 keeps 6..16 (up to 15): every row keeps 6..13: blocks
    # 3 (6,7) .. 6 (12,13) full; 1 (keys 2,3), 2 (4,5) and 7 (14,15) partial
    assert ms.schedule(16, 4, 2, 16, Band(5, 5))[2] == ([3, 4, 5, 6], [1, 2, 7])


def test_padding_schedule():
    # 8 keys, blocks of 2, a tile of 4 rows. The first 5 kept (right padding): blocks 0, 1 full, 2 (keys 4,5)
    # partial, block 3 never visited
    assert ms.schedule(4, 4, 2, 8, ms.DENSE, 0, 5) == [([0, 1], [2])]
    # the last 3 kept (left padding, keys 5..7): block 2 (4,5) partial, 3 full; 0 and 1 skipped
    assert ms.schedule(4, 4, 2, 8, ms.DENSE, 5, 8) == [([3], [2])]
    # causal with the first 5 kept: rows 4-7 keep 0..min(row, 4): blocks 0, 1 full, 2 partial (row 4 drops 5)
    assert ms.schedule(8, 4, 2, 8, ms.CAUSAL, 0, 5)[1] == ([0, 1], [2])
    # no key kept: one block, fully masked (the producer hands Q over inside the key loop)
    assert ms.schedule(4, 4, 2, 8, ms.DENSE, 0, 0) == [([], [0])]
    assert ms.key_ranges((5, 0), False, 2, 8) == [(0, 5), (0, 0)]
    assert ms.key_ranges((3,), True, 2, 8) == [(5, 8), (5, 8)]      # one length for every batch, the last keys
    assert ms.key_ranges((9,), False, 1, 8) == [(0, 8)]             # no more keys than there are


def test_a_tile_whose_window_holds_no_key_visits_one_block():
    # keys i+6 .. i+7 of 8 (left -6, right 7): rows 0, 1 keep keys 6..7; rows 2..7 none. Tile 0 (rows 0-3) visits
    # block 3 (keys 6, 7) partial; tile 1 (rows 4-7) keeps nothing and still visits block 3, masked
    assert ms.schedule(8, 4, 2, 8, Band(-6, 7)) == [([], [3]), ([], [3])]


def test_the_last_tile_fetches_keys_for_its_existing_rows_only():
    # 10 queries, tiles of 8, causal: tile 1 holds rows 8, 9 (rows 10..15 do not exist): keys up to 9, blocks
    # 0..4 of 2, block 4 (8,9) partial; 5..7 never fetched
    assert ms.schedule(10, 8, 2, 16, ms.CAUSAL)[1] == ([0, 1, 2, 3], [4])


def test_no_bound_keeps_int32_arithmetic():
    # the kernels compute m0 + rows + right in int32: 2^30 + a million rows stays below 2^31
    assert NO_BOUND + (1 << 20) + 256 < 2 ** 31
    assert ms.tile_blocks(1 << 20, 256, 128, (1 << 20) + 256, ms.DENSE) == (0, 0, 8194, 8194)


def test_band_keeps():
    # a causal window of 2 keys: row 2 keeps keys 1 and 2; left 0, right 1: row 1 keeps keys 1 and 2
    assert [j for j in range(5) if ms.window(2).keeps(2, j)] == [1, 2]
    assert [j for j in range(5) if Band(0, 1).keeps(1, j)] == [1, 2]
    assert [j for j in range(4) if ms.CAUSAL.keeps(2, j)] == [0, 1, 2]


CHECK = """
import json, sys, torch
from inductor_prof.attention.kernels import triton_fa
from inductor_prof.attention.kernels.mask_schedule import Band, window
from inductor_prof.attention.kernels.reference import attention_float64

def keep_of(band, ranges, B, Sq, Sk, causal):
    i = torch.arange(Sq)[:, None]
    j = torch.arange(Sk)[None, :]
    kp = torch.ones(Sq, Sk, dtype=torch.bool) if band is None else (j >= i - band.left) & (j <= i + band.right)
    kp = (kp & (j <= i) if causal else kp)[None].expand(B, Sq, Sk).clone()
    for b, (lo, hi) in enumerate(ranges or []):
        kp[b, :, :lo] = False
        kp[b, :, hi:] = False
    return kp[:, None]

res = []
for shape, band, causal, ranges, split in {cases}:
    B, Hq, Hkv, Sq, Sk, D = shape
    band = None if band is None else Band(*band)
    g = torch.Generator().manual_seed(Sq * 100 + Sk)
    q = torch.randn(B, Hq, Sq, D, generator=g, dtype=torch.float16)
    k, v = (torch.randn(B, Hkv, Sk, D, generator=g, dtype=torch.float16) for _ in "kv")
    cfg = triton_fa.Config(32, 16, 2, 4, 1) if split else None
    ref, ref_lse = attention_float64(q, k, v, 0.3, mask=keep_of(band, ranges, B, Sq, Sk, causal))
    live = torch.isfinite(ref_lse)
    if {poison}:   # keys past the last block any row keeps: NaN, which must never be read
        last = max(min(Sk, i + band.right + 1) for i in range(Sq))
        k[:, :, (last + 15) // 16 * 16:] = float("nan")
        v[:, :, (last + 15) // 16 * 16:] = float("nan")
    out, lse = triton_fa.forward(q, k, v, 0.3, cfg, causal=causal, band=band, key_ranges=ranges)
    rel = float((out.double()[live] - ref[live]).norm() / ref[live].norm())
    lse_err = float((lse.double()[live] - ref_lse[live]).abs().max())
    dead = ~live
    res.append([rel, lse_err, int(dead.sum()), bool((out[dead] == 0).all()), bool(torch.isneginf(lse[dead]).all()),
                bool(torch.isfinite(out).all())])
print(json.dumps(res))
"""

# (B, Hq, Hkv, Sq, Sk, D), (left, right) or None, causal, per-batch key ranges or None, two query halves.
# Lengths not multiples of the interpreter's 32 x 16 tile; GQA 4/2 and 2/1.
CASES = [((1, 4, 2, 70, 75, 64), (19, 0), False, None, False),     # a causal window of 20 keys
         ((1, 4, 2, 70, 75, 64), (10, 15), False, None, True),     # two-sided, two query halves
         ((1, 4, 2, 70, 75, 64), (10, 15), True, None, False),     # two-sided and causal: right bound 0
         ((1, 2, 2, 45, 50, 128), (-20, 30), False, None, False),  # keys i+20..i+30: rows from 30 keep none
         ((2, 2, 1, 45, 50, 64), None, False, [(0, 13), (0, 0)], False),     # padding; batch 1 keeps no key
         ((2, 2, 1, 45, 50, 64), None, True, [(30, 50), (5, 50)], True),     # left padding + causal: rows < 30
         ((2, 2, 1, 45, 50, 64), (7, 0), False, [(0, 33), (2, 47)], False),  # window and padding together
         # head dims that run in wider tiles (head_dims.py): a window at 96, left padding + causal at 192
         ((1, 4, 2, 70, 75, 96), (19, 0), False, None, True),
         ((2, 2, 1, 45, 50, 192), None, True, [(30, 50), (5, 50)], False)]
POISONED = [((1, 2, 1, 40, 90, 64), (9, 0), False, None, False)]   # keys from 48 on never read by rows < 40


def _interpret(cases, poison: bool):
    # in the session's interpreter-mode process (tests/isolated.py), which test_triton_fa.py's checks share: torch
    # and Triton imported once, not once a test (about 2 CPU-seconds each)
    out = isolated.run({"TRITON_INTERPRET": "1"}, CHECK.format(cases=cases, poison=poison), timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_tl_band_masks_match_float64_in_interpreter():
    got = _interpret(CASES, False)
    # rows with no key kept (by hand): keys i+20..i+30 of 50 need i + 20 <= 49: rows 30..44 of 45, 15 x 2 heads;
    # batch 1 of the padding keeps no key: 45 rows x 2 heads; left padding from 30, causal: rows 0..29 of batch 0
    # and 0..4 of batch 1 (35) x 2 heads; window 8 in keys [0, 33): rows 40..44 (5), in [2, 47): rows 0, 1 (2),
    # x 2 heads; the last two cases as the first and the sixth
    assert [r[2] for r in got] == [0, 0, 0, 30, 90, 70, 14, 0, 70]
    for case, (rel, lse_err, dead, zeros, neg_inf, finite) in zip(CASES, got):
        # fp16 operands and a 16-bit P: ~2.5e-4 measured; a wrong bound or block is off by > 0.1
        assert finite and rel < 2e-3 and lse_err < 1e-3, case
        assert zeros and neg_inf, case      # fully masked rows: out 0, lse -inf (mask_schedule's note)


def test_tl_window_never_reads_blocks_past_the_window():
    (rel, lse_err, _, _, _, finite), = _interpret(POISONED, True)
    assert finite and rel < 2e-3 and lse_err < 1e-3


# ---- the benchmark's masks as the own kernels take them (registry)

def test_own_kernels_take_the_captured_window_and_padding_masks():
    import torch

    from inductor_prof.attention.benchmark import registry
    from inductor_prof.attention.semantics import masks

    q, k = torch.zeros(2, 4, 6, 64), torch.zeros(2, 2, 8, 64)
    window = masks.build(masks.MaskSpec("window", window=3), 2, 6, 8)
    assert registry.own_mask_args(window, q, k) == {"band": Band(2, 0)}          # keys i-2 .. i
    assert registry.own_mask_args(window, q, k) is registry.own_mask_args(window, q, k)   # recognised once
    pad = masks.build(masks.MaskSpec("causal_padding", key_lengths=(5, 8)), 2, 6, 8)
    # batch 1 keeps all 8 keys (causally its 6 queries reach keys 0..5 only: no padding is what it is)
    assert registry.own_mask_args(pad, q, k) == {"causal": True, "key_ranges": [(0, 5), (0, 8)]}
    left = masks.build(masks.MaskSpec("padding", key_lengths=(3, 4), left=True), 2, 6, 8)
    assert registry.own_mask_args(left, q, k) == {"causal": False, "key_ranges": [(5, 8), (4, 8)]}
    odd = torch.zeros(6, 8, dtype=torch.bool)
    odd[0, 3] = odd[1, 0] = odd[2, 7] = True          # arbitrary, but each row keeps one run of keys (or none)
    assert registry.own_mask_args(odd, q, k)["key_intervals"].rows[0].tolist() == [
        [3, 4], [0, 1], [7, 8], [0, 0], [0, 0], [0, 0]]
    odd = odd.clone()                                 # a new mask (recognised by identity)
    odd[4, 1] = odd[4, 5] = True                      # row 4 keeps keys 1 and 5, not 2..4: two runs
    with pytest.raises(ValueError, match=r"^the own kernels take no mask whose query row keeps more than one run of "
                                         r"keys \(batch 0, row 4\): they take causal, windows, padding and masks "
                                         r"keeping one run of keys a row \(documents\)$"):
        registry.own_mask_args(odd, q, k)
    with pytest.raises(ValueError, match=r"^the own kernels take no bias mask"):   # a float bias: no kernel takes it
        registry.own_mask_args(torch.full((6, 8), 0.5), q, k)


def test_a_backend_row_says_which_masks_it_takes():
    from inductor_prof.attention.benchmark import registry

    own = registry.Backend("own", "own", None, True, supports=frozenset({"causal", "gqa"}),
                           mask_kinds=("window", "padding"))
    assert registry.cannot_take(own, frozenset({"mask", "gqa"}), "window") == ""
    assert registry.cannot_take(own, frozenset({"mask"}), "arbitrary") == (
        "cannot take mask (takes: causal, gqa, window masks, padding masks)")
    dense = registry.Backend("d", "own", None, True)
    assert registry.cannot_take(dense, frozenset({"causal"}), "causal") == "cannot take causal (takes: dense only)"


def test_key_ranges_reach_the_device_once_per_mask():
    # a launch that copied its key ranges to the GPU would wait for the GPU each call (a sync H2D copy)
    import torch

    from inductor_prof.attention.kernels.mask_args import band_args

    q = torch.zeros(2, 4, 8, 64)
    first = band_args(q, True, None, [(0, 5), (3, 8)])
    again = band_args(q, True, None, [(0, 5), (3, 8)])
    assert first[0] is False and first[1] == ms.Band(first[1].left, 0)   # causal folded into the band
    assert again[2] is first[2] and first[2].tolist() == [[0, 5], [3, 8]] and first[2].dtype == torch.int32
    other = band_args(q, False, None, [(0, 5), (0, 8)])[2]
    assert other is not first[2] and other.tolist() == [[0, 5], [0, 8]]
