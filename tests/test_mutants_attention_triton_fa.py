"""The host side of the own Triton kernel (attention/kernels/triton_fa.py): tile configs, their labels, input checks, the
descriptors' shapes, the head grouping of causal launches. The @triton.jit bodies and launch() need a GPU (or
Triton's interpreter: tests/test_attention.py's interpreter tests)."""
import csv
import math

import pytest
import torch

from inductor_prof.attention.kernels import triton_fa
from inductor_prof.attention.kernels.triton_fa import Config
from recorded import REPO

ROOT = REPO


def test_labels():
    assert Config(128, 64, 1, 8, 2).label() == "M128xN64/split1/w8/s2"
    assert Config(256, 128, 2, 8, 3, maxnreg=128).label() == "M256xN128/split2/w8/s3/r128"


def test_candidate_configs_are_those_the_h100_run_tuned_plus_the_one_warpgroup_tile():
    with open(ROOT / "examples" / "runs" / "flux-h100" / "attention_tuning.csv", newline="") as f:
        recorded = [r["config"] for r in csv.DictReader(f) if r["backend"] == "triton_fa2"]
    assert len(recorded) == 14
    # added since that run: one warpgroup (4 warps) per 128-row tile, 3 stages (the module docstring)
    want = recorded + ["M128xN64/split1/w4/s3"]
    assert [c.label() for c in triton_fa.candidate_configs(128)] == want
    assert [c.label() for c in triton_fa.candidate_configs(64)] == want


def test_candidate_configs_at_head_dim_256():
    # only tiles of at most 128 x 64 with 2 stages fit beside a 256-wide head
    assert triton_fa.candidate_configs(256) == [Config(128, 64, 1, 8, 2), Config(128, 64, 1, 8, 2, 128)]


@pytest.mark.parametrize("head_dim, interpret, want", [
    (64, False, Config(128, 128, 1, 8, 2)), (128, False, Config(128, 64, 1, 8, 2)),
    (256, False, Config(128, 64, 1, 8, 2)), (128, True, Config(32, 16, 1, 4, 1))])
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
    with pytest.raises(ValueError, match=r"^head dim 32 not supported \(64, 128, 256\)$"):
        triton_fa.check_inputs(t(1, 2, 8, 32), t(1, 1, 8, 32), t(1, 1, 8, 32))
    for q, k, v in [(t(1, 2, 8, 64, dtype=torch.float32), t(1, 1, 8, 64), t(1, 1, 8, 64)),
                    (t(1, 2, 8, 64), t(1, 1, 8, 64, dtype=torch.float16), t(1, 1, 8, 64)),
                    (t(1, 2, 8, 64), t(1, 1, 8, 64), t(1, 1, 8, 64, dtype=torch.float16))]:
        with pytest.raises(ValueError, match=r"^dtype torch\.\w+ not supported \(bfloat16, float16\)$"):
            triton_fa.check_inputs(q, k, v)
    # what it accepts: GQA 2/1 at each head dim, bf16 and fp16, other sequence lengths for k/v
    for d in (64, 128, 256):
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
    assert (out.shape, out.dtype) == ((1, 2, 64, 64), torch.bfloat16)
    assert (lse.shape, lse.dtype) == ((1, 2, 64), torch.float32)


def test_descriptors():
    # q (2, 4, 10, 64), k/v (2, 2, 6, 64): rows of every head one after another, one tile = block rows x D
    q, k, v = t(2, 4, 10, 64), t(2, 2, 6, 64), t(2, 2, 6, 64)
    dq, dk, dv = triton_fa._descriptors(q, k, v, Config(128, 32, 2, 8, 2))
    assert (dq.base is q, dq.shape, dq.strides, dq.block_shape) == (True, [80, 64], [64, 1], [64, 64])  # 128 / 2
    assert (dk.base is k, dk.shape, dk.strides, dk.block_shape) == (True, [24, 64], [64, 1], [32, 64])
    assert (dv.base is v, dv.shape, dv.strides, dv.block_shape) == (True, [24, 64], [64, 1], [32, 64])


L2, SMS = 52_428_800, 132


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
