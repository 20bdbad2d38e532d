"""Key intervals (documents packed in one sequence, windows inside documents, padding: each query row keeps one
run of keys lo_i <= j < hi_i): the block schedule per tile worked out by hand on small masks, the host's torch
table against the pure one, the kept pairs, the masks the own kernels take or refuse (a dense keep, a
FlexAttention BlockMask), and the `tl` kernel in Triton's interpreter against float64."""
import json
import random

import isolated
import pytest
import torch

from inductor_prof.attention.kernels import key_intervals as ki
from inductor_prof.attention.kernels import mask_schedule as ms


def test_document_intervals():
    # documents of 2, 1 and 3 tokens (rows 0-1, 2, 3-5), causal: row 1 keeps 0..1, row 2 keeps 2, row 5 keeps 3..5
    assert ms.document_intervals([2, 1, 3]) == ([0, 0, 2, 3, 3, 3], [1, 2, 3, 4, 5, 6])
    # not causal: every row keeps its whole document
    assert ms.document_intervals([2, 1, 3], causal=False) == ([0, 0, 2, 3, 3, 3], [2, 2, 3, 6, 6, 6])
    # a window of 2 keys inside documents [4, 2]: row 3 keeps 2..3, row 4 (its document's first) keeps 4 only
    assert ms.document_intervals([4, 2], window=2) == ([0, 0, 1, 2, 4, 4], [1, 2, 3, 4, 5, 6])


def test_interval_blocks_of_causal_documents():
    # documents [5, 3] causal, 8 keys, blocks of 2. Rows 4-7 (one entry): row 4 keeps 0..4 (doc 0), rows 5-7 keep
    # 5..row (doc 1). Keys 0..7 are kept by some row: blocks 0..3; no key by every row (row 4 and row 5 share
    # none): b = c, from the last row's first key (5: block 3) up, so every block visited is partial
    lo, hi = ms.document_intervals([5, 3])
    assert ms.interval_blocks(lo[4:], hi[4:], 2, 8) == (0, 3, 3, 4)
    # rows 0-3 (doc 0, causal): blocks 0 (0,1) and 1 (2,3) visited; row 0 keeps key 0 only: none full
    assert ms.interval_blocks(lo[:4], hi[:4], 2, 8) == (0, 0, 0, 2)
    # as schedules of 4-row tiles: (full, partial) per tile
    assert ms.interval_schedule(lo, hi, 4, 2, 8) == [([], [0, 1]), ([], [0, 1, 2, 3])]


def test_interval_blocks_full_blocks_inside_one_document():
    # one non-causal document of rows and keys 2..9 (of 12), rows 4-7: every row keeps 2..9: block 1 (2,3) .. 4
    # (8,9) full, no partial block; blocks 0 and 5 (keys 0,1 and 10,11) skipped
    lo, hi = ms.document_intervals([2, 8, 2], causal=False)
    assert ms.interval_blocks(lo[4:8], hi[4:8], 2, 12) == (1, 1, 5, 5)
    # 4-key blocks: keys 2..9 reach blocks 0 (0-3), 1 (4-7), 2 (8-11); only block 1 lies inside 2..9
    assert ms.interval_blocks(lo[4:8], hi[4:8], 4, 12) == (0, 1, 2, 3)


def test_length_one_documents_and_rows_keeping_nothing():
    # documents [1, 1, 1, 1] causal: each row keeps its own key only; a 4-row entry visits blocks 0, 1 of 2 keys,
    # none full (from the last row's first key, 3: block 2, up)
    lo, hi = ms.document_intervals([1, 1, 1, 1])
    assert ms.interval_blocks(lo, hi, 2, 4) == (0, 2, 2, 2)      # b = c: none full
    # one row, one key: block 1 (keys 2, 3) visited and, every row (the one) keeping key 2 only, not full
    assert ms.interval_blocks([2], [3], 2, 4) == (1, 1, 1, 2)
    # a row keeping nothing (lo == hi) is left out of the visited blocks and leaves none full: rows keep 4..5 and
    # nothing: blocks 2 visited, partial
    assert ms.interval_blocks([4, 0], [6, 0], 2, 8) == (2, 2, 2, 3)
    # no row keeps a key: empty (nk, nk, nk, 0); the tile then visits one block, the last, masked
    assert ms.interval_blocks([0, 3], [0, 3], 2, 8) == (4, 4, 4, 0)
    assert ms.merge_tile([(4, 4, 4, 0)], 4) == (3, 4)
    # a tile's blocks are the union of its entries' (the Gluon kernel's 64-row consumers), an empty one adding none
    assert ms.merge_tile([(1, 1, 2, 3), (4, 4, 4, 0), (2, 2, 2, 5)], 4) == (1, 5)


def test_the_ragged_last_entry_counts_its_existing_rows_only():
    # 5 rows of one non-causal document of 6 keys, entries of 4 rows: rows 4 is alone in the last entry (rows 5-7
    # do not exist, and do not empty the full blocks): keys 0..5, blocks 0..2 of 2, all full
    lo, hi = ms.document_intervals([6], causal=False)
    table = ki.block_table(torch.tensor([list(zip(lo, hi))[:5]]), 4, 2, 6)
    assert table[0].tolist() == [[0, 0, 3, 3], [0, 0, 3, 3]]


def test_torch_table_is_the_pure_schedule():
    rng = random.Random(0)
    for _ in range(200):
        S, n_kv = rng.randint(1, 40), rng.randint(1, 40)
        lo, hi = [], []
        for _ in range(S):
            x, y = sorted((rng.randint(0, n_kv), rng.randint(0, n_kv)))
            lo.append(x)
            hi.append(x if rng.random() < 0.3 else y)
        rows, bn = rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4, 8])
        got = ki.block_table(torch.tensor([list(zip(lo, hi))]), rows, bn, n_kv)[0].tolist()
        want = [list(ms.interval_blocks(lo[m:m + rows], hi[m:m + rows], bn, n_kv)) for m in range(0, S, rows)]
        assert got == want, (lo, hi, rows, bn)


def test_pairs_of_documents():
    # documents [3, 1, 4] causal: 3*4/2 + 1 + 4*5/2 = 6 + 1 + 10 = 17 pairs; not causal: 9 + 1 + 16 = 26
    for causal, pairs in ((True, 17), (False, 26)):
        lo, hi = ms.document_intervals([3, 1, 4], causal)
        assert ki.KeyIntervals(torch.tensor([list(zip(lo, hi))])).pairs() == pairs


def _doc_mask_mod(lengths):
    doc = torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths))

    def document_causal(b, h, q_idx, kv_idx):
        return (doc[q_idx] == doc[kv_idx]) & (q_idx >= kv_idx)
    return document_causal, doc


def test_own_kernels_take_a_document_block_mask_and_its_dense_keep():
    from torch.nn.attention.flex_attention import create_block_mask

    from inductor_prof.attention.benchmark import registry

    q, k = torch.zeros(2, 4, 8, 64), torch.zeros(2, 2, 8, 64)
    mod, doc = _doc_mask_mod([3, 1, 4])
    want = [[0, 1], [0, 2], [0, 3], [3, 4], [4, 5], [4, 6], [4, 7], [4, 8]]     # document_intervals([3, 1, 4])
    bm = create_block_mask(mod, None, None, 8, 8, device="cpu")
    got = registry.own_mask_args(bm, q, k)["key_intervals"].rows
    assert got.shape == (2, 8, 2) and got[0].tolist() == want and got[1].tolist() == want   # one for every batch
    keep = (doc[:, None] == doc[None, :]).tril()
    assert registry.own_mask_args(keep, q, k)["key_intervals"].rows[1].tolist() == want
    # one document is causal: the plain causal path
    assert registry.own_mask_args(create_block_mask(lambda b, h, q_idx, kv_idx: q_idx >= kv_idx, None, None, 8, 8,
                                                    device="cpu"), q, k) == {"causal": True}


def test_masks_the_own_kernels_refuse():
    from torch.nn.attention.flex_attention import create_block_mask

    from inductor_prof.attention.benchmark import registry

    q, k = torch.zeros(1, 4, 8, 64), torch.zeros(1, 2, 8, 64)

    def every_other(b, h, q_idx, kv_idx):          # row 0 keeps keys 0, 2, 4, 6: four runs
        return (q_idx - kv_idx) % 2 == 0
    with pytest.raises(ValueError, match=r"more than one run of keys \(batch 0, row 0\)"):
        registry.own_mask_args(create_block_mask(every_other, None, None, 8, 8, device="cpu"), q, k)

    def by_head(b, h, q_idx, kv_idx):
        return kv_idx <= q_idx + h
    with pytest.raises(ValueError, match=r"^the own kernels take no mask that differs between heads$"):
        registry.own_mask_args(create_block_mask(by_head, None, 4, 8, 8, device="cpu"), q, k)
    with pytest.raises(ValueError, match=r"^a BlockMask of \(8, 8\) \(queries, keys\) for \(9, 9\)$"):
        registry.own_mask_args(create_block_mask(every_other, None, None, 8, 8, device="cpu"),
                               torch.zeros(1, 4, 9, 64), torch.zeros(1, 2, 9, 64))


def test_key_intervals_are_the_whole_mask():
    from inductor_prof.attention.kernels.mask_args import band_args

    q = torch.zeros(1, 2, 4, 64)
    intervals = ki.KeyIntervals(torch.tensor([[[0, 1], [0, 2], [2, 3], [2, 4]]]))
    assert band_args(q, False, None, None, intervals) == (False, ms.DENSE, None, intervals)
    with pytest.raises(ValueError, match="key intervals are the whole mask"):
        band_args(q, True, None, None, intervals)
    with pytest.raises(ValueError, match=r"key intervals of \(1, 4\) \(batch, rows\) for a batch of 2 and 4"):
        band_args(torch.zeros(2, 2, 4, 64), False, None, None, intervals)


CHECK = """
import json, torch
from inductor_prof.attention.kernels import triton_fa
from inductor_prof.attention.kernels.key_intervals import KeyIntervals
from inductor_prof.attention.kernels.mask_schedule import document_intervals
from inductor_prof.attention.kernels.reference import attention_float64

res = []
for (B, Hq, Hkv, D), batches, split, poison in {cases}:
    rows = []
    for lengths, causal, window, dead in batches:
        lo, hi = document_intervals(lengths, causal, window)
        for i in range(*dead):
            lo[i] = hi[i] = 0
        rows.append(list(zip(lo, hi)))
    rows = torch.tensor(rows, dtype=torch.int32)
    S = rows.shape[1]
    g = torch.Generator().manual_seed(S)
    q = torch.randn(B, Hq, S, D, generator=g, dtype=torch.float16)
    k, v = (torch.randn(B, Hkv, S, D, generator=g, dtype=torch.float16) for _ in "kv")
    j = torch.arange(S)
    ref, ref_lse = attention_float64(q, k, v, 0.3, mask=((j >= rows[..., :1]) & (j < rows[..., 1:]))[:, None])
    live = torch.isfinite(ref_lse)
    check = torch.ones(S, dtype=torch.bool)
    if poison:   # keys 0..keys-1 NaN: the tiles from row `first` on must never read them
        keys, first = poison
        k[:, :, :keys] = float("nan")
        v[:, :, :keys] = float("nan")
        check[:first] = False
    cfg = triton_fa.Config(32, 16, 2, 4, 1) if split else None
    out, lse = triton_fa.forward(q, k, v, 0.3, cfg, key_intervals=KeyIntervals(rows))
    live_c, dead_c = live & check, ~live & check
    rel = float((out.double()[live_c] - ref[live_c]).norm() / ref[live_c].norm())
    lse_err = float((lse.double()[live_c] - ref_lse[live_c]).abs().max())
    res.append([rel, lse_err, int((~live).sum()), bool((out[dead_c] == 0).all()),
                bool(torch.isneginf(lse[dead_c]).all()), bool(torch.isfinite(out[..., check, :]).all())])
print(json.dumps(res))
"""

# (B, Hq, Hkv, D), per batch (document lengths, causal, window, rows made to keep nothing), two query halves,
# keys poisoned. Lengths not multiples of the interpreter's 32 x 16 tile; GQA 4/2 and 2/1.
CASES = [((2, 4, 2, 64), [([1, 20, 7, 1, 41], True, 0, (0, 0)), ([69, 1], True, 0, (5, 9))], False, None),
         ((1, 2, 1, 64), [([30, 1, 39], False, 0, (0, 0))], True, None),        # not causal, two query halves
         ((1, 4, 2, 128), [([50, 1, 20], True, 9, (60, 71))], False, None),     # a window of 9 in documents
         ((1, 2, 1, 64), [([40, 60], True, 0, (0, 0))], False, (32, 64)),   # see the test
         ((1, 4, 2, 80), [([50, 1, 20], True, 0, (0, 0))], True, None)]     # head dim 80: 128-wide tiles


def test_tl_documents_match_float64_in_interpreter():
    # in the session's interpreter-mode process (tests/isolated.py): torch and Triton imported once
    out = isolated.run({"TRITON_INTERPRET": "1"}, CHECK.format(cases=CASES), timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    # rows keeping no key (by hand): batch 1 of the first case rows 5..8 (4) x 4 heads; the window case rows
    # 60..70 (11) x 4 heads
    assert [r[2] for r in got] == [16, 0, 44, 0, 0]
    # the fourth case: documents [40, 60], 32-row tiles, 16-key blocks; tiles from row 64 on hold rows of document 1
    # only (keys 40..): they start at block 2 and never read keys 0..31 (NaN), which would make their rows NaN
    # (0 x NaN in PV); the tile of rows 32..63 does read them, for rows 32..39 of document 0
    for case, (rel, lse_err, _, zeros, neg_inf, finite) in zip(CASES, got):
        # fp16 operands and a 16-bit P: ~2.5e-4 measured; a wrong bound or block is off by > 0.1
        assert finite and rel < 2e-3 and lse_err < 1e-3, case
        assert zeros and neg_inf, case      # fully masked rows: out 0, lse -inf (mask_schedule's note)
