"""Every available attention backend at small shapes on the GPU, against float64 (ragged lengths, each head dim)."""
import math

import pytest
import torch

from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.benchmark.bench import TOLERANCE, check
from inductor_prof.attention.kernels.reference import attention_float64
from inductor_prof.attention.semantics.shapes import Shape

SHAPES = [Shape(2, 3, 200, 200, 64), Shape(1, 4, 257, 131, 128), Shape(1, 2, 97, 300, 256),
          Shape(1, 2, 128, 128, 128, "float16")]
BACKENDS = [b for b in registry.backends() if b.available]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.label}-{s.dtype}")
@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.name)
def test_backend_matches_float64(backend, shape):
    g = torch.Generator(device="cuda").manual_seed(hash(shape.label) % 1000)
    dtype = getattr(torch, shape.dtype)
    q = torch.randn(shape.B, shape.H, shape.Sq, shape.D, device="cuda", dtype=dtype, generator=g)
    k = torch.randn(shape.B, shape.H, shape.Sk, shape.D, device="cuda", dtype=dtype, generator=g)
    v = torch.randn(shape.B, shape.H, shape.Sk, shape.D, device="cuda", dtype=dtype, generator=g)
    scale = 1 / math.sqrt(shape.D)
    ref, ref_lse = attention_float64(q, k, v, scale)
    try:
        result = check(backend, shape, q, k, v, ref, ref_lse, scale)
    except RuntimeError as e:
        if backend.origin == "own":
            raise
        pytest.skip(f"{backend.name} does not run {shape.label}: {str(e).splitlines()[0][:120]}")
    assert result["ok"], (result, TOLERANCE[shape.dtype])
