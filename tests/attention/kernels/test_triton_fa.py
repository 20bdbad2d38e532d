"""The own Triton kernel with causal masks and GQA in the interpreter (CPU), against float64 with the mask built
in tests/naive_attention.py; and the tuning loop's handling of configs that fail to compile or spill."""
import json
import os
import sys

import pytest

from inductor_prof.attention.kernels import triton_fa
from inductor_prof.attention.timing import captured_stderr, time_configs
import isolated
from recorded import REPO
import csv
import math
import torch
from inductor_prof.attention.kernels.triton_fa import Config


# (B, Hq, Hkv, Sq, Sk, D): lengths not multiples of the 32x16 interpreter tile, Sq < Sk and Sq > Sk, D 64 and
# 128, groups of 2 (4/2) and 4 (4/1, MQA) and none
INTERPRET = {"TRITON_INTERPRET": "1"}
CASES = [(1, 4, 2, 50, 37, 64), (1, 4, 1, 37, 70, 128), (2, 2, 2, 45, 45, 64), (1, 4, 2, 70, 19, 128)]

CHECK = """
import json, sys, torch
sys.path.insert(0, {tests!r})
from naive_attention import naive_attention
from inductor_prof.attention.kernels import triton_fa
res = []
for B, Hq, Hkv, Sq, Sk, D in {cases}:
    for causal in (False, True):
        for cfg in (None, triton_fa.Config(32, 16, 2, 4, 1)):   # one 32-row tile, or two 16-row halves
            g = torch.Generator().manual_seed(Sq * 100 + Sk)
            q = torch.randn(B, Hq, Sq, D, generator=g, dtype=torch.float16)
            k, v = (torch.randn(B, Hkv, Sk, D, generator=g, dtype=torch.float16) for _ in "kv")
            out, lse = triton_fa.forward(q, k, v, 0.3, cfg, causal=causal)
            ref, ref_lse = naive_attention(q, k, v, 0.3, causal)
            res.append([[B, Hq, Hkv, Sq, Sk, D, causal, cfg is None], float((out.double() - ref).norm() / ref.norm()),
                        float((lse.double() - ref_lse).abs().max()), bool(torch.isfinite(out).all())])
# causal tiles in groups of heads, the last group smaller (6 heads as 4 + 2, 5 as 3 + 2): every tile once
grouped = []
for B, Hq, Hkv, Sq, Sk, D, group in [(2, 3, 3, 45, 45, 64, 4), (1, 5, 1, 70, 64, 128, 3)]:
    g = torch.Generator().manual_seed(Sq)
    q = torch.randn(B, Hq, Sq, D, generator=g, dtype=torch.float16)
    k, v = (torch.randn(B, Hkv, Sk, D, generator=g, dtype=torch.float16) for _ in "kv")
    out, lse, _ = triton_fa.launch(q, k, v, 0.3, None, True, group=group)
    ref, ref_lse = naive_attention(q, k, v, 0.3, True)
    grouped.append([float((out.double() - ref).norm() / ref.norm()), float((lse.double() - ref_lse).abs().max())])
# loop bound: 20 queries in one 32-row tile read keys < 32 only, so NaN keys/values from 32 on must not matter
g = torch.Generator().manual_seed(5)
q = torch.randn(1, 2, 20, 64, generator=g, dtype=torch.float16)
k, v = (torch.randn(1, 1, 70, 64, generator=g, dtype=torch.float16) for _ in "kv")
ref, _ = naive_attention(q, k[:, :, :20], v[:, :, :20], 0.3, True)   # query i < 20 sees keys j <= i < 20
k[:, :, 32:], v[:, :, 32:] = float("nan"), float("nan")
out, _ = triton_fa.forward(q, k, v, 0.3, causal=True)
skip = float((out.double() - ref).norm() / ref.norm())
print(json.dumps({{"cases": res, "skip": skip, "grouped": grouped}}))
"""


# Every head dim the kernels take (head_dims.SUPPORTED), dense and causal, GQA 4/2, ragged lengths, the scale left
# to the kernel: against SDPA in float64 (its own default scale, 1/sqrt(D)) and the float64 log-sum-exp at that
# scale. fp16 only: Triton 3.9's interpreter multiplies bf16 operands of tl.dot as their bit patterns (a 16 x 16
# bf16 dot comes out 3e10 off), so bf16 is checked on the GPU (scripts/gpu_check_headdim.sh).
HEAD_DIM_CHECK = """
import json, sys, torch
import torch.nn.functional as F
sys.path.insert(0, {tests!r})
from naive_attention import naive_attention
from inductor_prof.attention.kernels import head_dims, triton_fa
res = []
for D in head_dims.SUPPORTED:
    for causal in (False, True):
        g = torch.Generator().manual_seed(D)
        q = torch.randn(1, 4, 37, D, generator=g, dtype=torch.float16)
        k, v = (torch.randn(1, 2, 45, D, generator=g, dtype=torch.float16) for _ in "kv")
        out, lse = triton_fa.forward(q, k, v, None, causal=causal)
        ref = F.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=causal, enable_gqa=True)
        _, ref_lse = naive_attention(q, k, v, D ** -0.5, causal)
        res.append([D, causal, list(out.shape), float((out.double() - ref).norm() / ref.norm()),
                    float((lse.double() - ref_lse).abs().max())])
print(json.dumps(res))
"""

# run while the tests before this module run (isolated.prefetch); the fixture and the test below take the answers
CHECK_CODE = CHECK.format(tests=str(REPO / "tests"), cases=CASES)
HEAD_DIM_CODE = HEAD_DIM_CHECK.format(tests=str(REPO / "tests"))
TILE_ORDER = REPO / "tests" / "triton_tile_order.py"
isolated.prefetch(INTERPRET, CHECK_CODE)
isolated.prefetch(INTERPRET, HEAD_DIM_CODE)
isolated.prefetch(INTERPRET, path=TILE_ORDER, args=[3, 5, 2])


@pytest.fixture(scope="module")
def interpreted():
    """All cases in a process of their own: TRITON_INTERPRET is read when Triton is imported."""
    out = isolated.run(INTERPRET, CHECK_CODE)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_causal_and_gqa_match_float64_in_interpreter(interpreted):
    cases = interpreted["cases"]
    assert len(cases) == len(CASES) * 4
    for case, rel, lse_err, finite in cases:
        # fp16 operands and a 16-bit P: ~2.5e-4 measured; a wrong mask or kv head is off by > 0.1
        assert finite and rel < 2e-3 and lse_err < 1e-3, case


def test_every_head_dim_matches_sdpa_in_interpreter():
    out = isolated.run(INTERPRET, HEAD_DIM_CODE)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert [(d, causal) for d, causal, *_ in got] == [(d, c) for d in (64, 80, 96, 128, 192, 256)
                                                      for c in (False, True)]
    for d, causal, shape, rel, lse_err in got:
        # the output as wide as the head dim (the padded tile columns not stored); fp16: ~2.5e-4 measured. A
        # scale of 1/sqrt(the padded width) is off by > 0.05 at 80, 96 and 192, a padded column read as data more
        assert shape == [1, 4, 37, d] and rel < 2e-3 and lse_err < 1e-3, (d, causal, rel, lse_err)


def test_causal_skips_key_blocks_past_the_tile(interpreted):
    # NaN in keys 32.. would reach the output if the tile of queries 0..31 read them
    assert interpreted["skip"] < 2e-3


def test_causal_tiles_in_groups_of_heads_match_float64(interpreted):
    for rel, lse_err in interpreted["grouped"]:
        # a tile run twice or never leaves garbage (out is torch.empty_like) far above fp16's ~2.5e-4
        assert rel < 2e-3 and lse_err < 1e-3


def test_causal_tile_order_is_longest_first_within_groups_of_heads():
    """3 query tiles a head, 5 heads, groups of 2: heads 0-1, then 2-3, then 4 alone; within a group the heads take
    turns at tile 2 (the last, longest), then 1, then 0. Written out by hand."""
    out = isolated.run(INTERPRET, path=TILE_ORDER, args=[3, 5, 2])
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout) == [[0, 2], [1, 2], [0, 1], [1, 1], [0, 0], [1, 0],
                                      [2, 2], [3, 2], [2, 1], [3, 1], [2, 0], [3, 0],
                                      [4, 2], [4, 1], [4, 0]]


# H100: 50 MiB of L2 (half of it, 26,214,400 B, for the group's K and V) and 132 SMs
L2, SMS = 52_428_800, 132


@pytest.mark.parametrize("args,expected", [
    # FLUX causal, M128: 36 tiles a head, K+V 2 x 4608 x 128 x 2 B = 2,359,296 B a head: 11 heads fit (11.1);
    # two waves need ceil(264 / 36) = 8; 11 -> 3 groups -> evened out to 24 / 3 = 8
    ((24, 36, 2_359_296, L2, SMS, True), 8),
    # GQA 32/8 at 2,048, D 64: K+V 2 x 2048 x 64 x 2 B = 524,288 B shared by 4 query heads = 131,072 a head:
    # 200 fit, so all 64 heads in one group
    ((64, 32, 131_072, L2, SMS, True), 64),
    # (1,24,16384,128): K+V 8,388,608 B a head, 3 fit (3.1); two waves of 128-tile heads need 3: 8 groups of 3
    ((24, 128, 8_388_608, L2, SMS, True), 3),
    # K/V too big for any to fit: two waves still (ceil(264 / 32) = 9), capped at the 8 heads there are
    ((8, 32, 30_000_000, L2, SMS, True), 8),
    # 22 fit (26,214,400 / 1,160,000 = 22.6; two waves of 64-tile heads need 5): 24 heads would be 22 + 2 (2 heads
    # of long tiles alone at the end), so 2 groups of 12
    ((24, 64, 1_160_000, L2, SMS, True), 12),
    # dense tiles are all alike: the plain order
    ((24, 36, 2_359_296, L2, SMS, False), 1),
])
def test_heads_per_group(args, expected):
    assert triton_fa.heads_per_group(*args) == expected


def test_a_config_that_spills_is_recorded_and_not_chosen():
    # run(config) -> (its time, bytes its kernel spills per thread); "big" is fastest but spills 12
    kernels = {"a": (3.0, 0), "big": (1.0, 12), "c": (2.0, 0)}
    rows, best = time_configs(lambda c: kernels[c], list(kernels), bench=lambda fn: fn()[0], spills=lambda r: r[1])
    assert best == "c"
    big = rows[1]
    assert big["ms"] != big["ms"] and big["error"] == "spills registers (12 bytes of local memory per thread): not timed"
    assert [r["ms"] for r in rows[::2]] == [3.0, 2.0] and rows[0]["error"] == rows[2]["error"] == ""


def test_compiler_spew_of_a_failing_config_is_recorded_not_printed(capfd):
    def run(cfg):
        if cfg == "bad":
            os.write(2, b"ptxas info : compiling\nptxas error : Entry function uses too much shared data\n")
            print("python-side warning", file=sys.stderr)
            raise RuntimeError("PTXAS error: Internal Triton PTX codegen error")
        return 1.0
    rows, best = time_configs(run, ["bad", "good"], bench=lambda fn: fn())
    assert best == "good"
    assert rows[0]["error"] == ("RuntimeError: PTXAS error: Internal Triton PTX codegen error "
                                "[stderr: ptxas error : Entry function uses too much shared data]")
    assert capfd.readouterr().err == ""


def test_captured_stderr_restores_the_terminal(capfd):
    with captured_stderr() as spew:
        os.write(2, b"inside\n")
    os.write(2, b"after\n")
    assert spew == ["inside\n"] and capfd.readouterr().err == "after\n"


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

ROOT = REPO


def test_labels():
    assert Config(128, 64, 1, 8, 2).label() == "M128xN64/split1/w8/s2"
    assert Config(256, 128, 2, 8, 3, maxnreg=128).label() == "M256xN128/split2/w8/s3/r128"


def test_candidate_configs_are_those_the_h100_run_tuned_including_the_one_warpgroup_tile():
    with open(ROOT / "examples" / "runs" / "flux-h100" / "attention_tuning.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["backend"] == "triton_fa2"]
    # the re-recorded run (2026-11-24) tuned every candidate at its one shape, none read from a tuning cache
    # (its file has no "source" column; where a run has one, every row of it must say "tuned" for this to hold)
    assert all(r.get("source", "tuned") == "tuned" for r in rows)
    assert {r["shape"] for r in rows} == {"(1,24,4608,128)"}
    recorded = [r["config"] for r in rows]
    # 15: the 14 of the earlier recording plus the one warpgroup (4 warps) per 128-row tile, 3 stages (the
    # module docstring), tuned last; 11 timed, 4 refused (2 out of shared memory, 2 spilling registers)
    assert len(recorded) == 15 and recorded[-1] == "M128xN64/split1/w4/s3"
    assert sum(1 for r in rows if r["error"]) == 4
    assert [c.label() for c in triton_fa.candidate_configs(128)] == recorded
    assert [c.label() for c in triton_fa.candidate_configs(64)] == recorded


def test_candidate_configs_at_head_dim_256():
    # only tiles of at most 128 x 64 with 2 stages fit beside a 256-wide head
    assert triton_fa.candidate_configs(256) == [Config(128, 64, 1, 8, 2), Config(128, 64, 1, 8, 2, 128)]


def test_head_dims_between_powers_of_two_take_the_configs_of_their_tile_width():
    # 80 and 96 run in 128-wide tiles, 192 in 256-wide ones (the padded columns take the same shared memory)
    assert triton_fa.candidate_configs(80) == triton_fa.candidate_configs(96) == triton_fa.candidate_configs(128)
    assert triton_fa.candidate_configs(192) == [Config(128, 64, 1, 8, 2), Config(128, 64, 1, 8, 2, 128)]


@pytest.mark.parametrize("head_dim, interpret, want", [
    (64, False, Config(128, 128, 1, 8, 2)), (128, False, Config(128, 64, 1, 8, 2)),
    (256, False, Config(128, 64, 1, 8, 2)), (128, True, Config(32, 16, 1, 4, 1)),
    # 80 and 96 run 128 wide, 192 256 wide: 64-key blocks
    (80, False, Config(128, 64, 1, 8, 2)), (96, False, Config(128, 64, 1, 8, 2)),
    (192, False, Config(128, 64, 1, 8, 2))])
def test_default_config(head_dim, interpret, want):
    # 64-key blocks from head dim 128 up; the interpreter a small tile (it is slow)
    assert triton_fa.default_config(head_dim, interpret) == want


def t(*shape, dtype=torch.bfloat16):
    return torch.zeros(*shape, dtype=dtype)


@pytest.mark.parametrize("q, k, v", [
    (t(2, 4, 8, 64)[0], t(2, 2, 8, 64), t(2, 2, 8, 64)),    # q not 4-D
    (t(2, 4, 8, 64)[:, 0], t(2, 2, 8, 64), t(2, 2, 8, 64)),  # q not 4-D, its batch right
    (t(2, 4, 8, 64), t(2, 2, 8, 64)[0], t(2, 2, 8, 64)),    # k not 4-D
    (t(2, 4, 8, 64), t(2, 2, 8, 64), t(2, 2, 9, 64)),       # v unlike k
    (t(2, 4, 8, 64), t(1, 2, 8, 64), t(1, 2, 8, 64)),       # batch differs
    (t(2, 4, 8, 64), t(2, 2, 8, 128), t(2, 2, 8, 128)),     # head dim differs
    (t(2, 4, 9, 64), t(2, 3, 8, 64), t(2, 3, 8, 64)),       # 4 query heads on 3 kv heads (9 queries: a multiple)
])
def test_check_inputs_shapes(q, k, v):
    with pytest.raises(ValueError, match=r"^expected q \(B,Hq,Sq,D\), k and v \(B,Hkv,Sk,D\) with Hq a multiple of "
                                         r"Hkv; got \(.*\), \(.*\), \(.*\)$"):
        triton_fa.check_inputs(q, k, v)


def test_check_inputs_head_dim_and_dtype():
    for d in (32, 112, 160, 320):
        with pytest.raises(ValueError, match=rf"^head dim {d} not supported \(64, 80, 96, 128, 192, 256\)$"):
            triton_fa.check_inputs(t(1, 2, 8, d), t(1, 1, 8, d), t(1, 1, 8, d))
    for q, k, v in [(t(1, 2, 8, 64, dtype=torch.float32), t(1, 1, 8, 64), t(1, 1, 8, 64)),
                    (t(1, 2, 8, 64), t(1, 1, 8, 64, dtype=torch.float16), t(1, 1, 8, 64)),
                    (t(1, 2, 8, 64), t(1, 1, 8, 64), t(1, 1, 8, 64, dtype=torch.float16))]:
        with pytest.raises(ValueError, match=r"^dtype torch\.\w+ not supported \(bfloat16, float16\)$"):
            triton_fa.check_inputs(q, k, v)
    # what it accepts: GQA 2/1 at each head dim, bf16 and fp16, other sequence lengths for k/v
    for d in (64, 80, 96, 128, 192, 256):
        for dtype in (torch.bfloat16, torch.float16):
            triton_fa.check_inputs(t(1, 2, 8, d, dtype=dtype), t(1, 1, 5, d, dtype=dtype), t(1, 1, 5, d, dtype=dtype))


def test_prepare():
    q, v = t(1, 2, 64, 64), t(1, 2, 32, 64)
    k = torch.arange(2 * 64 * 64, dtype=torch.bfloat16).reshape(1, 2, 64, 64)[:, :, ::2]   # every other row
    q2, k2, v2, scale, out, lse = triton_fa.prepare(q, k, v, None)
    assert not k.is_contiguous() and k2.is_contiguous() and torch.equal(k2, k)
    assert torch.equal(q2, q) and torch.equal(v2, v)
    assert scale == 1 / 8                                           # 1 / sqrt(64)
    assert triton_fa.prepare(q, k, v, 0.25)[3] == 0.25
    # head dim 96 runs in 128-wide tiles, scaled by 1/sqrt(96) all the same
    assert triton_fa.prepare(t(1, 2, 8, 96), t(1, 2, 8, 96), t(1, 2, 8, 96), None)[3] == 1 / math.sqrt(96)
    assert (out.shape, out.dtype) == ((1, 2, 64, 64), torch.bfloat16)
    assert (lse.shape, lse.dtype) == ((1, 2, 64), torch.float32)


def test_descriptors():
    # q (2, 4, 10, 64), k/v (2, 2, 6, 64): rows of every head one after another, one tile = block rows x D
    q, k, v = t(2, 4, 10, 64), t(2, 2, 6, 64), t(2, 2, 6, 64)
    dq, dk, dv = triton_fa.descriptors(q, k, v, Config(128, 32, 2, 8, 2))
    assert (dq.base is q, dq.shape, dq.strides, dq.block_shape) == (True, [80, 64], [64, 1], [64, 64])  # 128 / 2
    assert (dk.base is k, dk.shape, dk.strides, dk.block_shape) == (True, [24, 64], [64, 1], [32, 64])
    assert (dv.base is v, dv.shape, dv.strides, dv.block_shape) == (True, [24, 64], [64, 1], [32, 64])
    # head dim 96: the tables stay 96 wide (TMA reads columns 96..127 of a box as zeros), the boxes 128 wide
    q, k, v = t(2, 4, 10, 96), t(2, 2, 6, 96), t(2, 2, 6, 96)
    dq, dk, dv = triton_fa.descriptors(q, k, v, Config(128, 32, 2, 8, 2))
    assert (dq.shape, dq.strides, dq.block_shape) == ([80, 96], [96, 1], [64, 128])
    assert (dk.shape, dk.strides, dk.block_shape) == (dv.shape, dv.strides, dv.block_shape) == ([24, 96], [96, 1],
                                                                                                [32, 128])


@pytest.mark.parametrize("args, expected", [
    # half of L2 26,214,400 / 1,000,000 B: 26 heads fit (26.2); two waves of 36-tile heads need 8: 40 heads ->
    # 2 groups of 20 (had a third of L2 counted: 17 fit, 3 groups, 14)
    ((40, 36, 1_000_000, L2, SMS, True), 20),
    # nothing fits (no L2 known, as off a GPU): two waves of 36 tiles = ceil(264 / 36) = 8 heads -> 24 heads in 3
    # groups of 8 (a wave count not rounded up, 7.33, would give 4 groups of 6)
    ((24, 36, 1_000_000, 0, SMS, True), 8),
    # 25 heads in groups of 8 at most: 4 groups, evened to ceil(25 / 4) = 7 heads each
    ((25, 36, 1_000_000, 0, SMS, True), 7),
])
def test_heads_per_group_rounding(args, expected):
    got = triton_fa.heads_per_group(*args)
    assert got == expected and isinstance(got, int)
    assert math.ceil(args[0] / got) == -(-args[0] // got)     # whole groups
