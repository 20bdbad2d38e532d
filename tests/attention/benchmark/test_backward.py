"""Attention forward+backward (a training run's comparison) on a CPU: the flops it is priced at, the float64
gradients it is checked against, the gradient gate, the rows (TFLOP/s, speed-up, 'no backward') and the probe
that keeps a failing backend out of the stage's process. Backends are SDPA's math one (runs on a CPU) and fakes
with fixed times: no number here is presented as a GPU measurement."""
import math

import pytest
import torch
import torch.nn.functional as F

from inductor_prof.attention.benchmark import backward, registry
from inductor_prof.attention.benchmark.bench import FORWARD, TRAINING, BenchOptions, run
from inductor_prof.attention.kernels.reference_backward import attention_grads_float64
from inductor_prof.attention.semantics.grad_layout import GradLayout
from inductor_prof.attention.semantics.shapes import Shape, parse_shape
from inductor_prof.mask_pairs import CAUSAL


def test_training_flops_are_the_forward_and_the_backward_by_hand():
    # FLUX's attention (1,24,4608,128), dense: forward 4 * D * H * Sq * Sk = 4 * 128 * 24 * 4608^2
    #   = 4 * 128 * 24 * 21,233,664 = 260,919,263,232; backward 10 * ... = 652,298,158,080; both 14 * ... =
    #   913,217,421,312 (3.5x the forward)
    flux = Shape(1, 24, 4608, 4608, 128)
    assert flux.flops == 260_919_263_232
    assert flux.backward_flops == 652_298_158_080
    assert flux.training_flops == 913_217_421_312
    # the decoder's (2,32/8,2048,64) causal: kept pairs 2 * 2048 * 2049 / 2 = 4,196,352 (attention_shapes.json of
    # examples/runs/llama-train-h200 says mask_pairs 4196352, its library_ops.csv the forward's 34,376,515,584
    # flops = 4 * 64 * 32 * 4,196,352); forward+backward 14 * 64 * 32 * 4,196,352 = 120,317,804,544
    dec = Shape(2, 32, 2048, 2048, 64, Hkv=8, mask=CAUSAL)
    assert dec.flops == 34_376_515_584
    assert dec.training_flops == 120_317_804_544


def test_training_tflops_is_training_flops_over_the_time():
    # 913,217,421,312 flops in 2 ms: 456.6 TFLOP/s (a forward-only price would say 130.5)
    assert backward.training_tflops(Shape(1, 24, 4608, 4608, 128), 2.0) == pytest.approx(456.608710656)


@pytest.mark.parametrize("causal,mask", [(False, False), (True, False), (False, True)])
def test_float64_gradients_are_autograd_of_attention(causal, mask):
    """Written-out dq, dk, dv (GQA 4/2, Sq != Sk, chunked: budget of 500 scores) against autograd through SDPA's
    float64 math; a masked row keeping no key gives dq 0."""
    g = torch.Generator().manual_seed(0)
    q = torch.randn(2, 4, 33, 16, dtype=torch.float64, generator=g, requires_grad=True)
    k = torch.randn(2, 2, 40, 16, dtype=torch.float64, generator=g, requires_grad=True)
    v = torch.randn(2, 2, 40, 16, dtype=torch.float64, generator=g, requires_grad=True)
    dout = torch.randn(2, 4, 33, 16, dtype=torch.float64, generator=g)
    keep = torch.rand(2, 1, 33, 40, generator=g) > 0.3 if mask else None
    if keep is not None:
        keep[:, :, 5] = False     # a query row with no key kept
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep, is_causal=causal, enable_gqa=True, scale=0.3)
    if keep is not None:
        out = torch.nan_to_num(out)   # math SDPA gives NaN there; no key kept: out 0, no gradient
    ref = torch.autograd.grad(out, (q, k, v), dout)
    mine = attention_grads_float64(q.detach(), k.detach(), v.detach(), dout, 0.3, causal=causal, mask=keep,
                                   budget=500)
    for a, b in zip(ref, mine):
        assert a.shape == b.shape
        assert torch.allclose(torch.nan_to_num(a), b, atol=1e-12, rtol=1e-10)
    if keep is not None:
        assert bool((mine[0][:, :, 5] == 0).all())


def _scaled_sdpa(c: float) -> registry.Backend:
    """SDPA's math backend with its output times c: every gradient is c times the true one, so the relative
    error is |c - 1| plus the rounding of bf16."""
    math_sdpa = registry.backends(["sdpa_math"])[0]
    return registry.Backend(f"scaled_{c}", "library", lambda q, k, v, s, **kw: (math_sdpa(q, k, v, s, **kw)[0] * c,
                                                                                None), True, supports=registry.ALL)


def _fixed_timer(ms: dict):
    """A timer giving each backend a fixed time (looked up by the backend the timed call names)."""
    def timer(fn, rep_ms):
        return ms[fn.__defaults__[0].name]
    return timer


SHAPE = parse_shape("1,4/2,64,16,causal")


def _rows(names_or_backends, ms, op="aten::_scaled_dot_product_efficient_attention", monkeypatch=None):
    opts = BenchOptions(device="cpu", backward=True, timer=_fixed_timer(ms))
    result = backward.BenchResult()
    backends = [b if isinstance(b, registry.Backend) else registry.backends([b])[0] for b in names_or_backends]
    return backward.bench_shape(SHAPE, 3, op, backends, opts, result)


def test_gradient_gate_passes_rounding_and_fails_a_wrong_gradient():
    # bf16 inputs: SDPA math's gradients round to bf16 (about 4e-3 relative); 5% off is 0.05 > 2e-2
    rows = {r["backend"]: r for r in _rows([_scaled_sdpa(1.0), _scaled_sdpa(1.05)],
                                           {"scaled_1.0": 1.0, "scaled_1.05": 1.0})}
    good, bad = rows["scaled_1.0"], rows["scaled_1.05"]
    assert good["ok"] and good["rel_err"] < 1e-2
    assert not bad["ok"]
    assert bad["rel_err"] == pytest.approx(0.05, abs=0.01)
    assert backward.GRAD_TOLERANCE["bfloat16"] == 2e-2


def test_rows_price_forward_and_backward_and_compare_with_the_models_backend():
    # SHAPE (1,4/2,64,16) causal: kept pairs 64 * 65 / 2 = 2080; forward+backward 14 * 16 * 4 * 2080 = 1,863,680
    # flops; in 2 ms: 1,863,680 / 2e-3 / 1e12 = 9.3184e-4 TFLOP/s. The model ran efficient (sdpa_efficient: not
    # on a CPU), so no row has a model time: speed-ups NaN; with sdpa_math as the model's, 2 ms / 4 ms = 0.5x
    ms = {"sdpa_math": 2.0, "scaled_1.0": 4.0}
    rows = {r["backend"]: r for r in _rows(["sdpa_math", _scaled_sdpa(1.0), "gluon_fa3"], ms)}
    m = rows["sdpa_math"]
    assert m["pass"] == TRAINING and m["flops"] == 1_863_680
    assert m["ms"] == 2.0 and m["tflops"] == pytest.approx(9.3184e-4)
    assert math.isnan(m["speedup_vs_model"])
    assert rows["gluon_fa3"]["reason"] == backward.NO_BACKWARD and not rows["gluon_fa3"]["available"]
    rows = {r["backend"]: r for r in _rows(["sdpa_math", _scaled_sdpa(1.0)], ms, op="aten::_scaled_dot_product_flash_attention_for_cpu")}
    assert rows["scaled_1.0"]["speedup_vs_model"] == pytest.approx(0.5)
    assert rows["sdpa_math"]["speedup_vs_model"] == pytest.approx(1.0)


def test_every_own_kernel_says_no_backward_and_the_stage_runs_both_passes():
    opts = BenchOptions(backends=["triton_fa2", "gluon_fa3", "cuda_mma_fa2", "sdpa_math"], device="cpu",
                        backward=True, timer=lambda fn, rep_ms: 1.0)
    rows = run([(SHAPE, 3, "aten::_scaled_dot_product_efficient_attention")], opts).rows
    assert [(r["pass"], r["backend"]) for r in rows] == [(p, b) for p in (FORWARD, TRAINING) for b in
                                                         ("triton_fa2", "gluon_fa3", "cuda_mma_fa2", "sdpa_math")]
    train = [r for r in rows if r["pass"] == TRAINING]
    assert [r["reason"] for r in train[:3]] == [backward.NO_BACKWARD] * 3
    assert train[3]["ok"] and train[3]["flops"] == SHAPE.training_flops
    # the forward rows keep the forward's price
    assert [r for r in rows if r["pass"] == FORWARD][3]["flops"] == SHAPE.flops


def test_a_backend_the_probe_says_failed_is_a_row_with_its_error_and_never_runs():
    ran = []

    def crashing(q, k, v, s, **kw):
        ran.append(1)
        raise AssertionError("ran in the stage's process")
    bad = registry.Backend("crashes", "library", crashing, True, supports=registry.ALL)
    asked = []

    def probe(shape, names):
        asked.append((shape.label, names))
        return {"crashes": "CUDA error: an illegal memory access was encountered", "sdpa_math": ""}
    opts = BenchOptions(device="cpu", backward=True, timer=lambda fn, rep_ms: 1.0, probe=probe)
    result = backward.BenchResult()
    rows = {r["backend"]: r for r in backward.bench_shape(SHAPE, 3, "", [bad, registry.backends(["sdpa_math"])[0]],
                                                          opts, result)}
    assert result.probed == {SHAPE.label: {"crashes": "CUDA error: an illegal memory access was encountered"}}
    assert asked == [(SHAPE.label, ["crashes", "sdpa_math"])]
    assert rows["crashes"]["reason"] == "CUDA error: an illegal memory access was encountered"
    assert not rows["crashes"]["ok"] and ran == []
    assert rows["sdpa_math"]["ok"]


def test_probe_calls_say_each_backend_and_go_on_after_an_error_on_a_cpu():
    def broken(q, k, v, s, **kw):
        raise RuntimeError("no kernel for this")
    said = []
    backward.probe_calls(SHAPE, [registry.Backend("broken", "library", broken, True, supports=registry.ALL),
                                 registry.backends(["sdpa_math"])[0], registry.backends(["gluon_fa3"])[0]],
                         "cpu", lambda n, e: said.append((n, e)))
    assert said[0] == ("broken", "RuntimeError: no kernel for this") or said[0][1].endswith("no kernel for this")
    assert said[1] == ("sdpa_math", "")
    assert said[2][0] == "gluon_fa3" and said[2][1]    # its forward has no GPU here (or no backward): an error


def test_grad_error_is_the_worst_of_the_three_and_nan_fails():
    ref = [torch.ones(1, 1, 4, 4, dtype=torch.float64) for _ in range(3)]
    # dk alone 10% off everywhere: ||0.1 * ref|| / ||ref|| = 0.1; dq and dv exact
    grads = [ref[0].clone(), ref[1] * 1.1, ref[2].clone()]
    assert backward.grad_error(grads, ref) == pytest.approx(0.1)
    # a NaN in dv: not a number to compare, the row fails
    grads[2] = ref[2].clone()
    grads[2][0, 0, 0, 0] = float("nan")
    assert math.isnan(backward.grad_error(grads, ref))
    # dq compared over the live query rows only: a dead row's value does not count
    live = torch.tensor([[[True, True, True, False]]])
    grads = [ref[0].clone(), ref[1].clone(), ref[2].clone()]
    grads[0][0, 0, 3] = 5.0
    assert backward.grad_error(grads, ref, live) == 0.0


class _SeeGrad(torch.autograd.Function):
    """Identity whose backward notes the upstream gradient's strides (what autograd hands SDPA's backward)."""
    seen: list = []

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        _SeeGrad.seen.append(tuple(g.stride()))
        return g


def _seeing_sdpa() -> registry.Backend:
    math_sdpa = registry.backends(["sdpa_math"])[0]
    def call(q, k, v, s, **kw):
        return _SeeGrad.apply(math_sdpa(q, k, v, s, **kw)[0]), None
    return registry.Backend("seeing", "library", call, True, supports=registry.ALL)


# SHAPE (1,4/2,64,16) as FLUX's single blocks hand it: (B, S, H, D) order, a token's row 4 x 16 = 64 elements
# followed by 16 of another tensor (pitch 80): (B, H, S, D) view strides B 64 x 80 = 5120, H 16, S 80, D 1
SLICE = GradLayout((5120, 16, 80, 1), 3, (((4096, 16, 64, 1), 1),))


def test_check_timing_and_probe_run_on_the_models_dout_layout():
    _SeeGrad.seen = []
    opts = BenchOptions(device="cpu", backward=True, timer=lambda fn, rep_ms: (fn(), 1.0)[1],
                        grad_layouts={SHAPE.label: SLICE})
    rows = backward.bench_shape(SHAPE, 3, "", [_seeing_sdpa()], opts, backward.BenchResult())
    # the check (SHAPE is small: checked at itself) and each of the three timing rounds got the sliced dout
    assert _SeeGrad.seen == [(5120, 16, 80, 1)] * 4
    r = rows[0]
    assert r["ok"] and r["rel_err"] < 1e-2   # same values as a dense dout: the float64 reference still holds
    assert r["dout_strides"] == "5120,16,80,1"
    assert r["dout_layout"] == "(B,S,H,D), row pitch 80 (3 of 4 calls; 1: (B,S,H,D))"
    _SeeGrad.seen = []
    said = []
    backward.probe_calls(SHAPE, [_seeing_sdpa()], "cpu", lambda n, e: said.append((n, e)), SLICE)
    # the probe runs each recorded layout in turn, most calls first, as the model's step did in one process
    assert said == [("seeing", "")] and _SeeGrad.seen == [(5120, 16, 80, 1), (4096, 16, 64, 1)]


def test_a_shape_with_no_recorded_backward_runs_a_contiguous_dout_and_says_so():
    _SeeGrad.seen = []
    opts = BenchOptions(device="cpu", backward=True, timer=lambda fn, rep_ms: (fn(), 1.0)[1])
    rows = backward.bench_shape(SHAPE, 3, "", [_seeing_sdpa()], opts, backward.BenchResult())
    # dense (1,4,64,16): D 1, S 16, H 64 x 16 = 1024, B 4 x 1024 = 4096
    assert _SeeGrad.seen == [(4096, 1024, 16, 1)] * 4
    assert rows[0]["dout_layout"] == "contiguous (no backward call recorded)" and rows[0]["dout_strides"] == ""


def test_laid_out_keeps_the_values_in_the_given_strides():
    dense = torch.arange(2 * 3 * 4 * 2, dtype=torch.float32).reshape(2, 3, 4, 2)
    # (B, S, H, D) with a pitch of 8 per token (3 x 2 = 6 dense): view strides B 4 x 8 = 32, H 2, S 8, D 1
    out = backward.laid_out(dense, (32, 2, 8, 1))
    assert out.stride() == (32, 2, 8, 1) and torch.equal(out, dense)
    assert backward.laid_out(dense, None) is dense
