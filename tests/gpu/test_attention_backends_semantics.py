"""Every available attention backend with the model's semantics on the GPU, against float64 with the same semantics:
causal (Sq == Sk and Sq != Sk), GQA, causal + GQA, and the mask kinds (window, padding, causal + padding,
arbitrary) for the backends that take a mask. The own kernels must take causal and GQA (contract A): they fail
here until their `supports` says so."""
import math

import pytest
import torch

from inductor_prof.attention.semantics import masks
from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.benchmark.bench import TOLERANCE, check, semantics
from inductor_prof.attention.semantics.masks import CAUSAL, MaskSpec
from inductor_prof.attention.kernels.reference import attention_float64
from inductor_prof.attention.semantics.shapes import Shape

SHAPES = [Shape(2, 4, 256, 256, 64, mask=CAUSAL), Shape(1, 4, 200, 333, 128, mask=CAUSAL),
          Shape(2, 8, 256, 256, 64, Hkv=2), Shape(2, 32, 512, 512, 64, Hkv=8, mask=CAUSAL),
          Shape(1, 2, 300, 300, 128, "float16", mask=CAUSAL)]
MASKED = [Shape(2, 4, 256, 256, 64, mask=MaskSpec("window", window=64)),
          Shape(2, 4, 256, 256, 64, Hkv=2, mask=MaskSpec("padding", key_lengths=(200, 256))),
          Shape(2, 4, 256, 256, 64, mask=MaskSpec("causal_padding", key_lengths=(100, 256)))]
BACKENDS = [b for b in registry.backends() if b.available]


def _run(backend, shape):
    g = torch.Generator(device="cuda").manual_seed(7)
    dtype = getattr(torch, shape.dtype)
    q = torch.randn(shape.B, shape.H, shape.Sq, shape.D, device="cuda", dtype=dtype, generator=g)
    k, v = (torch.randn(shape.B, shape.kv_heads, shape.Sk, shape.D, device="cuda", dtype=dtype, generator=g)
            for _ in range(2))
    sem = semantics(shape, "cuda")
    scale = 1 / math.sqrt(shape.D)
    ref, ref_lse = attention_float64(q, k, v, scale, **sem)
    return check(backend, shape, q, k, v, ref, ref_lse, scale, **sem)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.label}-{s.dtype}")
@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.name)
def test_backend_with_causal_and_gqa(backend, shape):
    if backend.origin == "own" and backend.name != "numba_fa":
        assert {"causal", "gqa"} <= backend.supports, f"{backend.name}: contract A wants causal and GQA"
    elif not shape.needs <= backend.supports:
        pytest.skip(f"{backend.name} does not take {sorted(shape.needs - backend.supports)}")
    try:
        result = _run(backend, shape)
    except (RuntimeError, ValueError) as e:
        if backend.origin == "own":
            raise
        pytest.skip(f"{backend.name} does not run {shape.label}: {str(e).splitlines()[0][:160]}")
    assert result["ok"], (result, TOLERANCE[shape.dtype])


@pytest.mark.parametrize("shape", MASKED, ids=lambda s: s.label)
@pytest.mark.parametrize("backend", [b for b in BACKENDS if "mask" in b.supports], ids=lambda b: b.name)
def test_backend_with_a_mask(backend, shape):
    try:
        result = _run(backend, shape)
    except RuntimeError as e:
        pytest.skip(f"{backend.name} does not run {shape.label}: {str(e).splitlines()[0][:160]}")
    assert result["ok"], result


def test_flex_block_mask_skips_the_empty_blocks():
    from inductor_prof.attention.benchmark.flex_mask import block_mask

    q = torch.empty(1, 1, 1024, 64, device="cuda", dtype=torch.bfloat16)
    # causal over 8x8 blocks of 128: 36 of 64 computed (8*9/2) -> sparsity 100 * 28/64 = 43.75%
    assert block_mask(q, q, True, None).sparsity() == pytest.approx(43.75)
    keep = masks.build(MaskSpec("padding", key_lengths=(512,)), 1, 1024, 1024, "cuda")
    # padding to 512 keys: key blocks 4..7 empty in every query row: half the blocks
    assert block_mask(q, q, False, keep).sparsity() == pytest.approx(50.0)
