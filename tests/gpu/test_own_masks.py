"""The own Triton and Gluon kernels under band masks (sliding windows with left and right bounds, with and without
causal; per-batch key ranges: padding) against float64, at ragged sizes (not multiples of any tile), GQA, head dims
64 and 128, every candidate config; fully masked rows give out 0 and lse -inf (mask_schedule's note); and every
band config compiles without spills with this machine's Triton."""
import pytest
import torch

from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.benchmark.bench import TOLERANCE
from inductor_prof.attention.kernels import gluon_fa, mask_schedule, triton_fa
from inductor_prof.attention.kernels.mask_schedule import Band
from inductor_prof.attention.kernels.reference import attention_float64
from inductor_prof.attention.timing import kernel_spills

# (B, Hq, Hkv, Sq, Sk, D), band (left, right) or None, causal, key ranges per batch or None
CASES = [((1, 8, 2, 1000, 1031, 128), (255, 0), False, None),          # a causal window of 256 keys
         ((2, 8, 2, 777, 777, 64), (100, 300), False, None),           # two-sided
         ((2, 8, 2, 777, 900, 128), (100, 300), True, None),           # two-sided and causal
         ((1, 4, 4, 600, 700, 64), (-300, 500), False, None),          # keys i+300..i+500: rows from 400 keep none
         ((3, 8, 4, 513, 1100, 128), None, False, [(0, 1000), (0, 0), (0, 77)]),      # padding, a batch of none
         ((2, 8, 2, 1030, 1030, 64), None, True, [(300, 1030), (0, 517)]),            # left padding + causal
         ((2, 32, 8, 1030, 1030, 128), (511, 0), False, [(0, 1000), (3, 1030)])]      # window and padding
IDS = ["window", "two-sided", "two-sided+causal", "empty-rows", "padding", "left-padding+causal", "window+padding"]


def _keep(band, ranges, B, Sq, Sk, causal):
    i = torch.arange(Sq, device="cuda")[:, None]
    j = torch.arange(Sk, device="cuda")[None, :]
    kp = torch.ones(Sq, Sk, dtype=torch.bool, device="cuda") if band is None else \
        (j >= i - band.left) & (j <= i + band.right)
    kp = (kp & (j <= i) if causal else kp)[None].expand(B, Sq, Sk).clone()
    for b, (lo, hi) in enumerate(ranges or []):
        kp[b, :, :lo] = False
        kp[b, :, hi:] = False
    return kp[:, None]


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("name", ["triton_fa2", "gluon_fa3"])
def test_band_masks_match_float64(name, case):
    backend = registry.backends([name])[0]
    if not backend.available:
        pytest.skip(backend.reason)
    (B, Hq, Hkv, Sq, Sk, D), band, causal, ranges = case
    band = None if band is None else Band(*band)
    g = torch.Generator(device="cuda").manual_seed(Sq * 7 + Sk)
    q = torch.randn(B, Hq, Sq, D, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(B, Hkv, Sk, D, device="cuda", dtype=torch.bfloat16, generator=g) for _ in "kv")
    ref, ref_lse = attention_float64(q, k, v, 0.125, mask=_keep(band, ranges, B, Sq, Sk, causal))
    live = torch.isfinite(ref_lse)
    module = triton_fa if name == "triton_fa2" else gluon_fa
    cfgs = ([triton_fa.default_config(D, False), triton_fa.Config(256, 64, 2, 8, 3), triton_fa.Config(64, 64, 1, 4, 3)]
            if module is triton_fa else gluon_fa.candidate_configs(D, True))
    for cfg in cfgs:
        out, lse = module.forward(q, k, v, 0.125, cfg, causal=causal, band=band, key_ranges=ranges)
        torch.cuda.synchronize()
        rel = ((out.double()[live] - ref[live]).norm() / ref[live].norm()).item()
        assert torch.isfinite(out).all() and rel < TOLERANCE["bfloat16"], (cfg, rel)
        assert (lse.double()[live] - ref_lse[live]).abs().max().item() < 1e-3, cfg
        assert (out[~live] == 0).all() and torch.isneginf(lse[~live]).all(), cfg   # fully masked rows


@pytest.mark.parametrize("head_dim", [64, 128])
def test_every_band_config_compiles_without_spills_here(head_dim):
    if not registry.backends(["gluon_fa3"])[0].available:
        pytest.skip(registry.backends(["gluon_fa3"])[0].reason)
    q, k, v = (torch.randn(2, 24, 1024, head_dim, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    for ranges in (None, [(0, 1000), (0, 1024)]):
        for cfg in gluon_fa.candidate_configs(head_dim, True):
            _, _, kernel = gluon_fa.launch(q, k, v, None, cfg, band=mask_schedule.window(256), key_ranges=ranges)
            assert kernel_spills(kernel) == 0, (cfg.label(), ranges)


def test_the_benchmark_runs_the_own_kernels_on_a_captured_window():
    """A captured sliding window (masks.MaskSpec) reaches the own kernels through the bench as a band: their rows
    are timed and checked, not refused."""
    from inductor_prof.attention.benchmark import bench
    from inductor_prof.attention.semantics.masks import MaskSpec
    from inductor_prof.attention.semantics.shapes import Shape

    shape = Shape(1, 8, 1030, 1030, 128, "bfloat16", 2, MaskSpec("window", window=256))
    # default tiles (tune=False): tuning compiles every band config first, minutes on a cold Triton cache, and the
    # point here is that the captured mask reaches the kernels, which tuning does not change
    result = bench.run([(shape, 1, "sdpa")], bench.BenchOptions(backends=["triton_fa2", "gluon_fa3", "sdpa"],
                                                                 rep_ms=20, tune=False))
    rows = {r["backend"]: r for r in result.rows}
    for name in ("triton_fa2", "gluon_fa3"):
        if rows[name]["available"] or "cannot take" in rows[name]["reason"]:
            assert rows[name]["ok"], rows[name]
