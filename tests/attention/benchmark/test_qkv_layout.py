"""q, k, v in the layout of the model's call, and a failing backend's contiguous variant, on a CPU. The backend that
fails is a fake: SDPA's math one refusing a forward+backward call on q, k, v or dout that are not contiguous, as
cuDNN's backward did on FLUX's (B,S,H,D)-strided calls on the H200 (scripts/probe_cudnn_train.py); its times are
fixed inputs, not measurements."""
import math

import pytest
import torch

from inductor_prof.attention.benchmark import backward, contiguous, registry
from inductor_prof.attention.benchmark.bench import FORWARD, TRAINING, BenchOptions, _inputs, run
from inductor_prof.attention.semantics import qkv_layout
from inductor_prof.attention.semantics.grad_layout import GradLayout
from inductor_prof.attention.semantics.shapes import Shape, parse_shape

SHAPE = parse_shape("1,4/2,64,16,causal")
FLUX = Shape(1, 24, 4608, 4608, 128)
ERROR = "Expected mha_graph.execute(handle, variant_pack, workspace_ptr.get()).is_good() to be true"


def test_bshd_strides_by_hand_with_the_same_values_as_contiguous():
    # FLUX (1,24,4608,128) as (B,S,H,D) memory: D 1, H 128 (a head's D), S 24 x 128 = 3072 (a token's heads),
    # B 4608 x 3072 = 14,155,776: the strides the lead recorded on the H200 (calls.json)
    assert qkv_layout.q_strides("bshd", FLUX) == (14_155_776, 128, 3072, 1)
    assert qkv_layout.q_strides("bhsd", FLUX) is None and qkv_layout.q_strides(None, FLUX) is None
    # SHAPE (1,4/2,64,16): q B 64 x 4 x 16 = 4096, H 16, S 4 x 16 = 64; k and v 2 heads: B 64 x 2 x 16 = 2048, S 32
    q, k, v = _inputs(SHAPE, 0, "cpu", "bshd")
    assert q.stride() == (4096, 16, 64, 1) and k.stride() == v.stride() == (2048, 16, 32, 1)
    dense = _inputs(SHAPE, 0, "cpu")
    assert all(t.is_contiguous() for t in dense)
    assert all(torch.equal(a, b) for a, b in zip((q, k, v), dense))


def test_recorded_layout_is_the_one_of_most_calls_and_words_say_it():
    call = {"B": 1, "H": 4, "Hkv": 2, "Sq": 64, "Sk": 64, "D": 16, "dtype": "bfloat16", "causal": True}
    calls = [{**call, "layout": "bshd"}, {**call, "layout": "bhsd"}, {**call, "layout": "bshd"},
             {**call, "D": 32, "layout": "bhsd"}, {**call, "D": 8}]
    assert qkv_layout.recorded(calls) == {SHAPE.label: "bshd", "(1,4/2,64,32),causal": "bhsd"}
    assert qkv_layout.recorded([{**call, "layout": "bhsd"}, {**call, "layout": "bshd"}]) == {SHAPE.label: "bshd"}
    assert qkv_layout.describe("bshd", FLUX) == "(B,S,H,D)"
    assert qkv_layout.describe("bhsd", FLUX) == "contiguous"
    assert qkv_layout.describe(None, FLUX) == "contiguous (no layout recorded)"


def test_a_variant_is_named_by_what_it_copies_and_built_back_from_its_name():
    assert qkv_layout.copied(False, True) == "q,k,v" and qkv_layout.copied(True, False) == "dout"
    assert qkv_layout.copied(False, False) == "q,k,v,dout" and qkv_layout.copied(True, True) == ""
    name = qkv_layout.variant_name("sdpa_cudnn", "q,k,v")
    assert name == "sdpa_cudnn (q,k,v contiguous)"
    assert (qkv_layout.base_of(name), qkv_layout.what_copied(name), qkv_layout.is_variant(name)) == \
        ("sdpa_cudnn", "q,k,v", True)
    assert (qkv_layout.base_of("sdpa_cudnn"), qkv_layout.is_variant("sdpa_cudnn")) == ("sdpa_cudnn", False)
    built = contiguous.backends(["sdpa_math (q,k,v,dout contiguous)", "sdpa_math"])
    assert [b.name for b in built] == ["sdpa_math (q,k,v,dout contiguous)", "sdpa_math"]


SEEN: list = []   # (backend, "q" or "dout", strides) of every call a fake got
DOUT_ERROR = "cannot take a strided dout"


def _fussy(name: str = "fussy", picky_dout: bool = False) -> registry.Backend:
    """SDPA math that refuses q, k, v that are not contiguous when they need grads (its backward would run on
    them, as cuDNN's failed), and with `picky_dout` a dout that is not contiguous in its backward; it notes the
    strides its call and its backward got."""
    math_sdpa = registry.backends(["sdpa_math"])[0]

    class Seen(torch.autograd.Function):   # identity whose backward sees what SDPA's backward would
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            SEEN.append((name, "dout", tuple(g.stride())))
            if picky_dout and not g.is_contiguous():
                raise RuntimeError(DOUT_ERROR)
            return g

    def call(q, k, v, s, **kw):
        SEEN.append((name, "q", tuple(q.stride())))
        if q.requires_grad and not all(t.is_contiguous() for t in (q, k, v)):
            raise RuntimeError(ERROR)
        return Seen.apply(math_sdpa(q, k, v, s, **kw)[0]), None
    return registry.Backend(name, "library", call, True, supports=registry.ALL)


# SHAPE as FLUX's single blocks hand their dout: (B,S,H,D), a token's row pitch 80 (tests/.../test_backward.py)
SLICE = GradLayout((5120, 16, 80, 1), 3)
MS = {"fussy": 1.0, "fussy (q,k,v contiguous)": 1.5, "picky (q,k,v,dout contiguous)": 1.7, "sdpa_math": 4.0}


def _timer(fn, rep_ms):
    fn()   # the timed call runs: what it saw is checked
    return MS[fn.__defaults__[0].name]


def test_a_backend_failing_at_the_models_layout_is_followed_by_its_contiguous_rows():
    SEEN.clear()
    opts = BenchOptions(device="cpu", backward=True, timer=_timer,
                        qkv_layouts={SHAPE.label: "bshd"}, grad_layouts={SHAPE.label: SLICE})
    math_sdpa = registry.backends(["sdpa_math"])[0]
    gluon = registry.backends(["gluon_fa3"])[0]
    rows = backward.bench_shape(SHAPE, 3, "aten::_scaled_dot_product_flash_attention_for_cpu",
                                [_fussy(), _fussy("picky", picky_dout=True), gluon, math_sdpa], opts,
                                backward.BenchResult())
    by = {r["backend"]: r for r in rows}
    # each variant right after its backend, q, k, v copied first; picky fails that on the strided dout, so q, k, v
    # and dout next; none for sdpa_math (it ran) nor gluon_fa3 (refused before a call: no backward)
    assert [r["backend"] for r in rows] == ["fussy", "fussy (q,k,v contiguous)", "picky", "picky (q,k,v contiguous)",
                                            "picky (q,k,v,dout contiguous)", "gluon_fa3", "sdpa_math"]
    for failed, error in (("fussy", ERROR), ("picky", ERROR), ("picky (q,k,v contiguous)", DOUT_ERROR)):
        r = by[failed]
        assert r["reason"] == f"RuntimeError: {error}" and not r["ok"] and math.isnan(r["ms"]), failed
    for ran, ms in (("fussy (q,k,v contiguous)", 1.5), ("picky (q,k,v,dout contiguous)", 1.7)):
        r = by[ran]
        assert r["ok"] and r["rel_err"] < 2e-2 and r["ms"] == ms and r["pass"] == TRAINING, ran
        # sdpa_math is the model's (its CPU op): 4.0 / ms
        assert r["speedup_vs_model"] == pytest.approx(4.0 / ms)
    assert all(r["qkv_layout"] == "(B,S,H,D)" and r["qkv_strides"] == "4096,16,64,1" for r in rows)
    # what the calls saw: the model's q (B 64 x 4 x 16 = 4096, H 16, S 64) once, then in the variants' check and
    # three timing rounds contiguous q (B 4 x 64 x 16 = 4096, H 64 x 16 = 1024, S 16); the q,k,v variant's backward
    # the model's dout (row pitch 80), the q,k,v,dout one's contiguous dout: the copies ran inside the call
    model, dense, pitch80 = (4096, 16, 64, 1), (4096, 1024, 16, 1), (5120, 16, 80, 1)
    fussy = [(what, st) for n, what, st in SEEN if n == "fussy"]
    assert fussy == [("q", model)] + [("q", dense), ("dout", pitch80)] * 4
    picky = [(what, st) for n, what, st in SEEN if n == "picky"]
    assert picky == [("q", model), ("q", dense), ("dout", pitch80)] + [("q", dense), ("dout", dense)] * 4


def test_the_stage_adds_the_variants_forward_row_and_probes_it_by_name(monkeypatch):
    from inductor_prof.attention.benchmark import bench

    asked = []

    def probe(shape, names):
        asked.append(names)
        return {n: (ERROR if n == "fussy" else "") for n in names}
    real = registry.backends

    def listed(names=None):   # the registry with the fake in it
        return [_fussy() if n == "fussy" else real([n])[0] for n in names or ["fussy", "sdpa_math"]]
    monkeypatch.setattr(bench, "all_backends", listed)
    monkeypatch.setattr(contiguous, "registry_backends", listed)
    name = "fussy (q,k,v contiguous)"
    monkeypatch.setitem(MS, name, 2.0)
    opts = BenchOptions(backends=["fussy", "sdpa_math"], device="cpu", backward=True, timer=_timer, probe=probe,
                        qkv_layouts={SHAPE.label: "bshd"})
    rows = run([(SHAPE, 3, "aten::_scaled_dot_product_flash_attention_for_cpu")], opts).rows
    # the probe (a process apart in the stage) asked for the base first, then for the variant by its row name
    assert asked == [["fussy", "sdpa_math"], [name]]
    assert [(r["pass"], r["backend"]) for r in rows] == [
        (FORWARD, "fussy"), (FORWARD, "sdpa_math"), (TRAINING, "fussy"), (TRAINING, name), (TRAINING, "sdpa_math"),
        (FORWARD, name)]
    assert rows[2]["reason"] == ERROR and rows[3]["ok"]
    # the variant's forward: over the model backend's forward row (sdpa_math, 4.0 ms): 4.0 / 2.0 = 2x
    assert rows[-1]["ok"] and rows[-1]["ms"] == 2.0 and rows[-1]["speedup_vs_model"] == pytest.approx(2.0)
    # the base's forward ran at the model's layout (no grads: the fake refuses only what needs a backward)
    assert rows[0]["ok"] and rows[0]["qkv_layout"] == "(B,S,H,D)"


def test_no_variant_where_the_models_layout_is_contiguous():
    opts = BenchOptions(device="cpu", backward=True, timer=lambda fn, rep_ms: 1.0,
                        qkv_layouts={SHAPE.label: "bhsd"})
    broken = registry.Backend("broken", "library", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no")),
                              True, supports=registry.ALL)
    rows = backward.bench_shape(SHAPE, 3, "", [broken], opts, backward.BenchResult())
    assert [r["backend"] for r in rows] == ["broken"] and rows[0]["qkv_layout"] == "contiguous"
