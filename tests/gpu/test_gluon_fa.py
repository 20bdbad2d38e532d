"""Every Gluon kernel config against float64, at ragged shapes and at one with more tiles than SMs, so the
persistent loop carries the K/V ring phases and the Q hand-over across tiles."""
import math

import pytest
import torch

from inductor_prof.attention import gluon_fa, registry
from inductor_prof.attention.bench import TOLERANCE
from inductor_prof.attention.reference import attention_float64

if not torch.cuda.is_available() or not registry.backends(["gluon_fa3"])[0].available:
    pytest.skip(registry.backends(["gluon_fa3"])[0].reason or "no CUDA", allow_module_level=True)

SHAPES = [(1, 2, 128, 128, 128), (2, 3, 200, 77, 128), (1, 2, 1000, 1031, 64), (1, 2, 97, 300, 256),
          (1, 2, 513, 1, 128), (4, 16, 1030, 513, 128)]


def _rel(a, b):
    return ((a.double() - b).norm() / b.norm()).item()


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_configs_match_float64(shape):
    B, H, SQ, SK, D = shape
    g = torch.Generator(device="cuda").manual_seed(SQ * 7 + SK)
    q = torch.randn(B, H, SQ, D, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(B, H, SK, D, device="cuda", dtype=torch.bfloat16, generator=g)
    v = torch.randn(B, H, SK, D, device="cuda", dtype=torch.bfloat16, generator=g)
    ref, ref_lse = attention_float64(q, k, v, 1 / math.sqrt(D))
    for cfg in gluon_fa.candidate_configs(D):
        out, lse = gluon_fa.forward(q, k, v, None, cfg)
        assert _rel(out, ref) < TOLERANCE["bfloat16"], cfg
        assert _rel(lse, ref_lse) < 1e-5, cfg
