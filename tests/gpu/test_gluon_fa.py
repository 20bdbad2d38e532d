"""Every Gluon kernel config against float64, at ragged shapes and at one with more tiles than SMs, so the
persistent loop carries the K/V ring phases and the Q hand-over across tiles."""
import math

import pytest
import torch

from inductor_prof.attention.kernels import gluon_fa, gluon_tiles
from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.benchmark.bench import TOLERANCE
from inductor_prof.attention.kernels.reference import attention_float64
from inductor_prof.attention.timing import kernel_spills

if not torch.cuda.is_available() or not registry.backends(["gluon_fa3"])[0].available:
    pytest.skip(registry.backends(["gluon_fa3"])[0].reason or "no CUDA", allow_module_level=True)

# the last two: head dims that run in wider tiles (head_dims.py), 96 in 128 columns, 192 in 256
SHAPES = [(1, 2, 128, 128, 128), (2, 3, 200, 77, 128), (1, 2, 1000, 1031, 64), (1, 2, 97, 300, 256),
          (1, 2, 513, 1, 128), (4, 16, 1030, 513, 128), (2, 3, 200, 77, 96), (1, 2, 97, 300, 192)]


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


@pytest.mark.parametrize("causal", [False, True], ids=["dense", "causal"])
@pytest.mark.parametrize("head_dim", [64, 96, 128, 192, 256])
def test_every_candidate_config_compiles_without_spills_here(head_dim, causal):
    # 24 heads x 1,024 queries: 192 (M128) or 144 (M192) tiles on 132 SMs, so dense split configs do split and
    # their split variant is the one compiled
    q, k, v = (torch.randn(1, 24, 1024, head_dim, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    for cfg in gluon_fa.candidate_configs(head_dim, causal):
        _, _, kernel = gluon_fa.launch(q, k, v, None, cfg, causal)
        assert kernel_spills(kernel) == 0, cfg.label()


# (B, Hq, Hkv, Sq, Sk, D, dtype): shapes whose tiles leave a partial last wave on the H100's 132 SMs, so the split
# configs cut it: 192 tiles x 8 key blocks over 132 CTAs (1,24,1024), fewer tiles than CTAs, so a tile has up to
# 4 pieces (1,8,1000: 64 tiles), Sq != Sk with a ragged last key block, GQA, head dim 64, fp16, FLUX's shape.
SPLIT_SHAPES = [(1, 24, 24, 1024, 1024, 128, torch.bfloat16), (1, 8, 8, 1000, 1031, 128, torch.bfloat16),
                (2, 32, 8, 1100, 3000, 64, torch.float16), (1, 12, 4, 2000, 700, 128, torch.bfloat16),
                (1, 24, 24, 4608, 4608, 128, torch.float16)]


@pytest.mark.parametrize("shape", SPLIT_SHAPES, ids=lambda s: "x".join(map(str, s[:6])) + f"-{str(s[6])[6:]}")
def test_split_tail_matches_float64_and_the_unsplit_kernel(shape):
    B, Hq, Hkv, SQ, SK, D, dtype = shape
    n_tiles, sms = -(-SQ // 128) * B * Hq, torch.cuda.get_device_properties(0).multi_processor_count
    g = torch.Generator(device="cuda").manual_seed(SQ * 7 + SK)
    q = torch.randn(B, Hq, SQ, D, device="cuda", dtype=dtype, generator=g)
    k = torch.randn(B, Hkv, SK, D, device="cuda", dtype=dtype, generator=g)
    v = torch.randn(B, Hkv, SK, D, device="cuda", dtype=dtype, generator=g)
    k_rep, v_rep = (x.repeat_interleave(Hq // Hkv, dim=1) for x in (k, v))
    ref, ref_lse = attention_float64(q, k_rep, v_rep, 1 / math.sqrt(D))
    split = [c for c in gluon_fa.candidate_configs(D) if c.split]
    assert split
    for cfg in split:
        n_ctas, n_dp = gluon_tiles.work_split(n_tiles, -(-SK // cfg.block_n), sms, True)
        assert n_dp < n_tiles, (cfg, n_tiles)  # the shape really is split
        for _ in range(3):
            # a split launch uses the counter set the split launch before it zeroed; the unsplit launch between
            # them (same CTAs, so the same workspace) must neither use a set nor move the epoch on
            out, lse = gluon_fa.forward(q, k, v, None, cfg)
            torch.cuda.synchronize()
            assert _rel(out, ref) < TOLERANCE[str(dtype)[6:]], cfg
            assert _rel(lse, ref_lse) < 1e-5, cfg
            whole, whole_lse = gluon_fa.forward(q, k, v, None, gluon_fa.Config(cfg.block_n, cfg.stages, cfg.overlap))
        # the same sums in another order: within a few units of the last place of the output dtype
        assert (out.float() - whole.float()).abs().max().item() < 4 * torch.finfo(dtype).eps * v.abs().max().item()
        assert (lse - whole_lse).abs().max().item() < 1e-4


def test_a_split_config_captured_in_a_cuda_graph_replays_correctly():
    # captured launches are not split (one epoch would be replayed); replays must give the float64 answer
    q, k, v = (torch.randn(1, 24, 1024, 128, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    ref, _ = attention_float64(q, k, v, 1 / math.sqrt(128))
    cfg = gluon_fa.Config(128, 2, True, split=True)
    gluon_fa.forward(q, k, v, None, cfg)  # compiled outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out, _ = gluon_fa.forward(q, k, v, None, cfg)
    for _ in range(3):
        out.zero_()
        graph.replay()
        torch.cuda.synchronize()
        assert _rel(out, ref) < TOLERANCE["bfloat16"]
