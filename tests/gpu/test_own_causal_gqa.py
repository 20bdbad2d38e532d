"""The own Triton, Gluon and CUDA kernels with causal masks and GQA against float64 with the mask built in
tests/naive_attention.py, at ragged shapes (Sq != Sk both ways, lengths not multiples of any tile), every tile
config; and one shape with more tiles than SMs, so Gluon's persistent loop walks causal tiles of unequal length."""
import sys
from pathlib import Path

import pytest
import torch

from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.benchmark.bench import TOLERANCE

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from naive_attention import naive_attention  # noqa: E402

# (B, Hq, Hkv, Sq, Sk, D)
# the last two have more tiles than the H100's 132 SMs, so Gluon's persistent causal loop runs odd waves backwards:
# 4 x 32 heads x 9 tiles of 128 rows (6 of 192) = 1,152 (768); 2 x 32 x 4 = 256, whose odd last wave is partial
SHAPES = [(1, 4, 2, 200, 77, 128), (2, 4, 1, 77, 300, 64), (1, 8, 2, 1000, 1031, 128), (1, 4, 4, 513, 513, 64),
          (1, 4, 2, 97, 300, 256), (4, 32, 8, 1030, 1030, 64), (2, 32, 8, 500, 520, 128),
          # head dims run in wider tiles by the Triton and Gluon kernels (head_dims.py)
          (1, 4, 2, 200, 77, 96), (1, 4, 2, 97, 300, 192)]
CUDA_HEAD_DIMS = (64, 128, 256)   # csrc/flash_fwd.cu's dispatch
KERNELS = {"triton_fa2": "triton_fa", "gluon_fa3": "gluon_fa", "cuda_mma_fa2": "cuda_fa"}


def _configs(module, d, causal=False):
    if module.__name__.endswith("cuda_fa"):
        return list(range(module.configs(d)))
    if module.__name__.endswith("triton_fa"):  # 15 configs x 3 head dims x causal x GQA is too many compiles:
        # the default, two query halves (SPLIT 2), a 64-row tile, a 128-row tile of one warpgroup; those that fit
        cfgs = [module.Config(256, 64, 2, 8, 3), module.Config(64, 64, 1, 4, 3), module.Config(128, 64, 1, 4, 3)]
        return [module.default_config(d, False)] + [c for c in cfgs if c in module.candidate_configs(d)]
    return module.candidate_configs(d, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["dense", "causal"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("name", list(KERNELS))
def test_every_config_matches_float64(name, shape, causal):
    backend = registry.backends([name])[0]
    if not backend.available:
        pytest.skip(backend.reason)
    import importlib

    module = importlib.import_module(f"inductor_prof.attention.kernels.{KERNELS[name]}")
    B, Hq, Hkv, Sq, Sk, D = shape
    if name == "cuda_mma_fa2" and D not in CUDA_HEAD_DIMS:
        pytest.skip(f"the CUDA kernel takes head dims {CUDA_HEAD_DIMS}")
    g = torch.Generator(device="cuda").manual_seed(Sq * 7 + Sk)
    q = torch.randn(B, Hq, Sq, D, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(B, Hkv, Sk, D, device="cuda", dtype=torch.bfloat16, generator=g)
    v = torch.randn(B, Hkv, Sk, D, device="cuda", dtype=torch.bfloat16, generator=g)
    ref, ref_lse = naive_attention(q, k, v, 0.125, causal)
    for cfg in _configs(module, D, causal):
        try:
            out, lse = module.forward(q, k, v, 0.125, cfg, causal=causal)
        except RuntimeError as e:   # a tile that does not fit this GPU is tune's business, not a wrong answer
            if "resources" in str(e) or "shared memory" in str(e):
                continue
            raise
        torch.cuda.synchronize()
        rel = ((out.double() - ref).norm() / ref.norm()).item()
        assert torch.isfinite(out).all() and rel < TOLERANCE["bfloat16"], (cfg, rel)
        assert (lse.double() - ref_lse).abs().max().item() < 1e-3, cfg


@pytest.mark.parametrize("name", list(KERNELS))
def test_tune_causal_gqa_picks_a_config_that_runs(name):
    backend = registry.backends([name])[0]
    if not backend.available:
        pytest.skip(backend.reason)
    import importlib

    module = importlib.import_module(f"inductor_prof.attention.kernels.{KERNELS[name]}")
    q = torch.randn(1, 8, 1024, 128, device="cuda", dtype=torch.bfloat16)
    k, v = (torch.randn(1, 2, 1024, 128, device="cuda", dtype=torch.bfloat16) for _ in "kv")
    rows, best = module.tune(q, k, v, 0.125, causal=True)
    # tune tries every candidate (the subset of _configs is for the correctness sweep's compile time)
    every = module.candidate_configs(128) if name == "triton_fa2" else _configs(module, 128, causal=True)
    assert best is not None and len(rows) == len(every)
    for r in rows:   # every config either timed or said why not
        assert (r["ms"] == r["ms"]) != bool(r["error"]), r


@pytest.mark.parametrize("group", [1, 5, 64])
def test_triton_causal_tiles_in_any_grouping_of_heads_match_float64(group):
    """The Triton kernel's causal tiles over 64 heads taken one head at a time, in 12 groups of 5 and a last of 4,
    and all at once (the default picks one per shape; a tile run twice or never would show here)."""
    from inductor_prof.attention.kernels import triton_fa

    g = torch.Generator(device="cuda").manual_seed(3)
    q = torch.randn(2, 32, 1030, 64, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(2, 8, 1030, 64, device="cuda", dtype=torch.bfloat16, generator=g) for _ in "kv")
    ref, ref_lse = naive_attention(q, k, v, 0.125, True)
    out, lse, _ = triton_fa.launch(q, k, v, 0.125, triton_fa.default_config(64, False), True, group=group)
    assert ((out.double() - ref).norm() / ref.norm()).item() < TOLERANCE["bfloat16"]
    assert (lse.double() - ref_lse).abs().max().item() < 1e-3
