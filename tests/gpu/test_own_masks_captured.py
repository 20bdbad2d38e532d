"""The own Triton and Gluon kernels on masks as a model gives them (a bool keep, recognised by masks.classify and
turned into a band and key ranges by registry.own_mask_args: the bench's path), against float64: two-sided
windows, left padding with a full sequence in the batch, top-left causal over left padding with Sq < Sk, the
bottom-right causal of queries after a cache, a sequence with no key; ragged sizes, GQA, head dims 64 and 128."""
import pytest
import torch

from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.benchmark.bench import TOLERANCE
from inductor_prof.attention.kernels.reference import attention_float64
from inductor_prof.attention.semantics import masks


def model_mask(B, Sq, Sk, back, ahead, lengths, left, offset=0):
    """(B, 1, Sq, Sk) bool as a model writes it: i + offset - back <= j <= i + offset + ahead (None: no bound;
    offset: queries placed after Sk - Sq cached keys), and per sequence the first (or, left, the last) n keys."""
    i = torch.arange(Sq, device="cuda")[:, None] + offset
    j = torch.arange(Sk, device="cuda")[None, :]
    band = torch.ones(Sq, Sk, dtype=torch.bool, device="cuda")
    band = band & (j >= i - back) if back is not None else band
    band = band & (j <= i + ahead) if ahead is not None else band
    n = torch.tensor(lengths, device="cuda")[:, None]
    keys = (j >= Sk - n) if left else (j < n)                 # (B, Sk)
    return (band[None] & keys[:, None, :])[:, None]


# (B, Hq, Hkv, Sq, Sk, D), (back, ahead, lengths, left, offset), the kind classify must give
CASES = {
    "symmetric": ((2, 8, 2, 1000, 1000, 128), (256, 256, (1000, 1000), False, 0), "window"),
    "asymmetric+left-padding": ((2, 8, 2, 1000, 1000, 64), (300, 64, (700, 1000), True, 0), "window_padding"),
    "symmetric+right-padding+empty": ((3, 4, 4, 777, 777, 128), (100, 100, (0, 500, 777), False, 0),
                                      "window_padding"),
    "causal+left-padding, a full sequence": ((2, 8, 2, 1030, 1030, 128), (None, 0, (730, 1030), True, 0),
                                             "causal_padding"),
    "top-left causal+left-padding, Sq<Sk": ((2, 8, 8, 300, 1000, 64), (None, 0, (800, 1000), True, 0),
                                            "causal_padding"),
    "bottom-right causal+left-padding": ((2, 8, 2, 200, 1100, 128), (None, 0, (900, 1100), True, 900), "window_padding"),
}


@pytest.mark.parametrize("name", ["triton_fa2", "gluon_fa3"])
@pytest.mark.parametrize("case", list(CASES))
def test_captured_masks_match_float64(name, case):
    backend = registry.backends([name])[0]
    if not backend.available:
        pytest.skip(backend.reason)
    (B, Hq, Hkv, Sq, Sk, D), (back, ahead, lengths, left, offset), kind = CASES[case]
    keep = model_mask(B, Sq, Sk, back, ahead, lengths, left, offset)
    assert masks.classify(keep, Sq, Sk, B)[0].kind == kind
    g = torch.Generator(device="cuda").manual_seed(Sq * 7 + Sk)
    q = torch.randn(B, Hq, Sq, D, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(B, Hkv, Sk, D, device="cuda", dtype=torch.bfloat16, generator=g) for _ in "kv")
    ref, ref_lse = attention_float64(q, k, v, 0.125, mask=keep)
    live = torch.isfinite(ref_lse)
    out, lse = backend(q, k, v, 0.125, mask=keep)           # contract A: the bench's call, own_mask_args inside
    torch.cuda.synchronize()
    rel = ((out.double()[live] - ref[live]).norm() / ref[live].norm()).item()
    assert torch.isfinite(out).all() and rel < TOLERANCE["bfloat16"], rel
    assert (lse.double()[live] - ref_lse[live]).abs().max().item() < 1e-3
    assert (out[~live] == 0).all() and torch.isneginf(lse[~live]).all()      # fully masked rows
    print(f"{name} {case}: {kind}, rel {rel:.2e}, masked rows {int((~live).sum())}")


def test_the_benchmark_runs_a_captured_two_sided_window_with_left_padding():
    """A captured window_padding shape (as attention_shapes.json gives it) through bench.run: the own kernels'
    rows are checked against the reference and timed, not refused."""
    from inductor_prof.attention.benchmark import bench
    from inductor_prof.attention.semantics.shapes import Shape

    spec = masks.MaskSpec("window_padding", window=257, right=256, key_lengths=(700, 1030), left=True)
    shape = Shape(2, 8, 1030, 1030, 128, "bfloat16", 2, spec)
    result = bench.run([(shape, 1, "sdpa")], bench.BenchOptions(backends=["triton_fa2", "gluon_fa3", "sdpa"],
                                                                 rep_ms=20, tune=False))
    rows = {r["backend"]: r for r in result.rows}
    print({n: (r["available"], r.get("ok"), r.get("reason"), r.get("ms")) for n, r in rows.items()})
    for name in ("triton_fa2", "gluon_fa3"):
        if registry.backends([name])[0].available:
            assert rows[name]["available"] and rows[name]["ok"], rows[name]
