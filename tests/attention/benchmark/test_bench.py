"""The attention table's numbers on a CPU: flops, the correctness gate per dtype, TFLOP/s and the speed-up over
the model's backend (fake backends, fixed times), and two defects of the stage."""
import dataclasses
import math
import os
import subprocess
import sys

import pytest
import torch

from inductor_prof.attention.benchmark import bench, registry
from inductor_prof.attention.kernels import cuda_fa, triton_fa
from inductor_prof.attention.benchmark.bench import LSE_TOLERANCE, TOLERANCE, BenchOptions, BenchResult, bench_shape, check
from inductor_prof.attention.benchmark.registry import Backend
from inductor_prof.attention.semantics.shapes import from_call, parse_shape, Shape
from recorded import REPO
from inductor_prof.attention.semantics.masks import CAUSAL, MaskSpec
from inductor_prof.attention.kernels.reference import attention_float64, blocked_attention
import csv
import pandas as pd
from inductor_prof.analysis.roofline import judge_attention
from inductor_prof.cost import FLOP_KEYS


def judged_pct(rows: list[dict], peak_tflops: float) -> dict[str, float]:
    """% of peak of each backend's row by the one rule (roofline.judge_attention), against `peak_tflops` at every
    width and a DRAM roof high enough that every row is compute-bound: the bench itself leaves % of peak unjudged."""
    assert all(math.isnan(r["pct_of_peak"]) for r in rows)
    judged = judge_attention(pd.DataFrame(rows), {"tflops": {k: peak_tflops for k in FLOP_KEYS}, "dram_gbps": 1e30})
    return dict(zip(judged["backend"], judged["pct_of_peak"]))



def test_flops_are_4_b_h_sq_sk_d():
    s = Shape(2, 3, 40, 56, 16)
    # two matmuls (QK^T and PV) of 2*Sq*Sk*D each per (batch, head): 4 * 2 * 3 * 40 * 56 * 16 = 860,160
    assert s.flops == 860_160
    assert s.label == "(2,3,40x56,16)"
    assert parse_shape("2,3,40,56,16").flops == 860_160
    assert Shape(1, 24, 4608, 4608, 128).label == "(1,24,4608,128)"


# ---- the correctness gate --------------------------------------------------------------------------------
# The reference is all ones in (1, 1, 256, 256): ||ref|| = sqrt(65536) = 256, exactly representable in 16 bits.
# The output is the reference with its first m elements raised by d (1 + d exact in the dtype), so
# ||out - ref|| = d * sqrt(m) and rel_err = d * sqrt(m) / 256 exactly, no rounding from the cast.
#   bf16 (ulp 2^-7 at 1): d = 4/128 = 1/32 -> rel = sqrt(m) / 8192; tolerance 1e-2 <-> sqrt(m) = 81.92:
#     m = 6710 -> 0.0099993 (just below), m = 6712 -> 0.0100009 (just above)
#   fp16 (ulp 2^-10 at 1): d = 4/1024 -> rel = sqrt(m) / 65536; tolerance 2e-3 <-> sqrt(m) = 131.072:
#     m = 17179 -> 0.0019999, m = 17181 -> 0.0020001
N = 256 * 256
CASES = {"bfloat16": (4 / 128, 6710, 6712), "float16": (4 / 1024, 17179, 17181)}


def _fake(out, lse=None) -> Backend:
    return Backend("fake", "own", lambda q, k, v, s: (out, lse), True)


def _gate(dtype: str, m: int, lse=None, ref_lse=None):
    d = CASES[dtype][0]
    ref = torch.ones(1, 1, 256, 256, dtype=torch.float64)
    out = ref.clone()
    out.view(-1)[:m] += d
    out = out.to(getattr(torch, dtype))
    diff = (out.double() - ref).view(-1)
    assert bool((diff[:m] == d).all()) and bool((diff[m:] == 0).all())    # 1 + d is exact in the dtype
    shape = Shape(1, 1, 256, 300, 256, dtype)
    ref_lse = torch.zeros(1, 1, 256, dtype=torch.float64) if ref_lse is None else ref_lse
    return check(_fake(out, lse), shape, None, None, None, ref, ref_lse, 1.0)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_gate_passes_just_below_the_dtype_tolerance(dtype):
    d, below, _ = CASES[dtype]
    res = _gate(dtype, below)
    assert res["rel_err"] == pytest.approx(d * math.sqrt(below) / 256, rel=1e-12)
    assert res["rel_err"] < TOLERANCE[dtype] and res["rel_err"] > 0.999 * TOLERANCE[dtype]
    assert res["ok"] is True
    assert res["lse_err"] != res["lse_err"]       # no lse given: NaN, and not part of the gate


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_gate_fails_just_above_the_dtype_tolerance(dtype):
    d, _, above = CASES[dtype]
    res = _gate(dtype, above)
    assert res["rel_err"] == pytest.approx(d * math.sqrt(above) / 256, rel=1e-12)
    assert TOLERANCE[dtype] < res["rel_err"] < 1.001 * TOLERANCE[dtype]
    assert res["ok"] is False


def test_gate_bound_is_inclusive():
    # ref all ones in (1, 1, 100, 100): ||ref|| = 100; one element 2 instead of 1: ||out - ref|| = 1, so
    # rel_err = 1 / 100 = 0.01 exactly the bf16 tolerance (as doubles): "allowed" includes the bound
    ref = torch.ones(1, 1, 100, 100, dtype=torch.float64)
    out = ref.to(torch.bfloat16)
    out[0, 0, 5, 5] = 2.0
    res = check(_fake(out), Shape(1, 1, 100, 100, 100), None, None, None, ref, None, 1.0)
    assert res["rel_err"] == TOLERANCE["bfloat16"] and res["ok"] is True


def test_tolerances_are_the_documented_ones():
    # ||o - ref|| / ||ref||: bf16 has 8 mantissa bits (rounding 2^-9 ~ 2e-3 per value), fp16 11 bits
    assert TOLERANCE == {"bfloat16": 1e-2, "float16": 2e-3}
    assert LSE_TOLERANCE == 1e-2


def test_gate_fails_on_nan_output():
    ref = torch.ones(1, 1, 4, 8, dtype=torch.float64)
    out = ref.to(torch.bfloat16)
    out[0, 0, 1, 2] = float("nan")
    res = check(_fake(out), Shape(1, 1, 4, 4, 8), None, None, None, ref, None, 1.0)
    assert res["ok"] is False and res["rel_err"] != res["rel_err"]


def test_gate_fails_on_wrong_shape():
    ref = torch.ones(1, 1, 4, 8, dtype=torch.float64)
    res = check(_fake(torch.ones(1, 1, 8, 4, dtype=torch.bfloat16)), Shape(1, 1, 4, 4, 8), None, None, None, ref,
                None, 1.0)
    assert res["ok"] is False


@pytest.mark.parametrize("err, ok", [(0.009, True), (0.011, False)])
def test_gate_checks_lse_against_lse_tolerance(err, ok):
    # exact output (m = 0); lse off by err at one row, max |lse - ref_lse| = err vs LSE_TOLERANCE 1e-2
    lse = torch.zeros(1, 1, 256, dtype=torch.float32)
    lse[0, 0, 7] = err
    res = _gate("bfloat16", 0, lse=lse)
    assert res["rel_err"] == 0.0
    assert res["lse_err"] == pytest.approx(err, rel=1e-6)
    assert res["ok"] is ok


def test_gate_fails_on_nan_lse():
    lse = torch.zeros(1, 1, 256, dtype=torch.float32)
    lse[0, 0, 3] = float("nan")
    assert _gate("bfloat16", 0, lse=lse)["ok"] is False


# ---- bench_shape: TFLOP/s and speed-up over the model's backend ---------------------------------------------

def test_bench_shape_tflops_and_speedup_direction(monkeypatch):
    from inductor_prof.attention.kernels.reference import attention_float64

    shape = Shape(1, 2, 64, 96, 32)       # flops 4 * 1 * 2 * 64 * 96 * 32 = 1,572,864
    last = []

    def exact(name):
        def fn(q, k, v, scale):
            last.append(name)
            out, lse = attention_float64(q, k, v, scale)
            return out.to(q.dtype), lse.float()
        return fn

    model = Backend("sdpa_cudnn", "library", exact("sdpa_cudnn"), True)
    fast = Backend("fast", "own", exact("fast"), True)
    missing = Backend("missing", "own", None, False, "no GPU")
    times = {"sdpa_cudnn": 2.0, "fast": 1.0}

    def fake_time_ms(fn, rep_ms=100.0, **kw):
        fn()                       # the backend being timed tells us its name
        return times[last[-1]]
    timer = fake_time_ms     # the CPU bench's timer
    opts = BenchOptions(timer=timer, device="cpu", tune=False)
    # the model ran aten::_cudnn_attention_forward: its backend is SDPA forced onto cuDNN
    rows = bench_shape(shape, 38, "aten::_cudnn_attention_forward", [model, fast, missing], opts, BenchResult())
    by = {r["backend"]: r for r in rows}
    assert [r["model_backend"] for r in rows] == ["sdpa_cudnn"] * 3
    assert by["sdpa_cudnn"]["ms"] == 2.0 and by["fast"]["ms"] == 1.0
    # TFLOP/s = flops / (ms * 1e-3 s) / 1e12 = flops / ms / 1e9
    assert by["fast"]["tflops"] == pytest.approx(1_572_864 / 1.0 / 1e9, rel=1e-12)
    assert by["sdpa_cudnn"]["tflops"] == pytest.approx(1_572_864 / 2.0 / 1e9, rel=1e-12)
    assert judged_pct(rows, 0.5)["fast"] == pytest.approx(100 * 0.001572864 / 0.5, rel=1e-12)
    # speed-up = model ms / backend ms: the faster backend 2.0x, the model itself 1.0x
    assert by["fast"]["speedup_vs_model"] == pytest.approx(2.0, rel=1e-12)
    assert by["sdpa_cudnn"]["speedup_vs_model"] == pytest.approx(1.0, rel=1e-12)
    assert by["missing"]["speedup_vs_model"] != by["missing"]["speedup_vs_model"]
    assert by["fast"]["ok"] and by["sdpa_cudnn"]["ok"] and not by["missing"]["ok"]
    assert by["fast"]["calls_per_step"] == 38 and by["fast"]["shape"] == "(1,2,64x96,32)"


def test_backends_are_timed_in_rotated_rounds_and_keep_their_median_round(monkeypatch):
    """Three backends, three rounds: round r starts at backend r, so the order is abc, bca, cab; each keeps the
    median of its three rounds (not the mean, not the last round)."""
    calls = []
    per_round = {"a": [3.0, 1.0, 2.0], "b": [10.0, 40.0, 20.0], "c": [7.0, 5.0, 6.0]}

    def fake_time_ms(fn, rep_ms=100.0, **kw):
        name = fn()
        calls.append((name, rep_ms))
        return per_round[name][sum(1 for n, _ in calls if n == name) - 1]
    timer = fake_time_ms
    monkeypatch.setattr(bench, "check", lambda *a, **kw: {"ok": True})
    backends = [Backend(n, "own", lambda q, k, v, s, n=n: n, True) for n in "abc"]
    opts = BenchOptions(timer=timer, device="cpu", tune=False, rep_ms=30.0)
    rows = bench_shape(Shape(1, 1, 8, 8, 16), 1, "", backends, opts, BenchResult())
    assert [n for n, _ in calls] == list("abc" "bca" "cab")
    assert {r for _, r in calls} == {10.0}           # 30 ms of repeats split over 3 rounds
    # medians: a of (3, 1, 2) = 2; b of (10, 40, 20) = 20 (the mean would be 23.3); c of (7, 5, 6) = 6
    assert [(r["backend"], r["ms"]) for r in rows] == [("a", 2.0), ("b", 20.0), ("c", 6.0)]


def test_bench_shape_unknown_op_compares_with_plain_sdpa(monkeypatch):
    timer = lambda fn, rep_ms=100.0, **kw: 4.0
    b = Backend("x", "own", lambda q, k, v, s: (q, None), True)
    opts = BenchOptions(timer=timer, device="cpu", tune=False)
    rows = bench_shape(Shape(1, 1, 8, 8, 16), 1, "", [b], opts, BenchResult())
    assert rows[0]["model_backend"] == "sdpa"
    assert rows[0]["speedup_vs_model"] != rows[0]["speedup_vs_model"]     # sdpa not run: no model time


# ---- defects fixed in issue 9 ---------------------------------------------------------------------------------------

def test_cuda_tune_records_a_failing_config_and_tunes_the_others(monkeypatch):
    monkeypatch.setattr(cuda_fa, "configs", lambda head_dim: 4)

    def forward(q, k, v, scale=None, config=None, causal=False):
        assert causal
        if config == 1:
            raise RuntimeError("too many resources requested for launch")
        return config
    monkeypatch.setattr(cuda_fa, "forward", forward)
    # config 3 would be the fastest, but its kernel has 64 bytes of local memory per thread: spilled registers
    monkeypatch.setattr(cuda_fa, "spills", lambda q, k, v, config, causal: 64 if config == 3 else 0)
    ms = {0: 3.0, 2: 2.0, 3: 1.0}
    q = torch.empty(1, 1, 64, 128, dtype=torch.bfloat16)
    rows, best = cuda_fa.tune(q, q, q, 1.0, causal=True, bench=lambda fn: ms[fn()[0]])
    assert best == 2                    # the faster of the two that ran; the caller passes it on
    assert len(rows) == 4
    assert [rows[0]["ms"], rows[2]["ms"]] == [3.0, 2.0] and rows[1]["ms"] != rows[1]["ms"]
    assert "too many resources" in rows[1]["error"] and rows[0]["error"] == rows[2]["error"] == ""
    assert rows[3]["ms"] != rows[3]["ms"] and rows[3]["error"] == "spills registers (64 bytes of local memory per thread): not timed"


def test_listing_backends_changes_no_global_state():
    code = ("import numpy as np\n"
            "if hasattr(np, 'row_stack'):\n    del np.row_stack\n"
            "from inductor_prof.attention.benchmark import registry\n"
            "names = [b.name for b in registry.backends()]\n"
            "assert 'numba_fa' in names\n"
            "print(hasattr(np, 'row_stack'))\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "False"


# The bench with the model's semantics on a CPU: shapes with kv heads and masks (labels, flops, parsed from
# captured calls), the references against a naive masked softmax and a case worked by hand, and the bench through
# torch_blocked and sdpa_math with causal + GQA + padding (a backend that cannot take the mask listed with why).

def test_labels_and_flops():
    s = Shape(2, 32, 2048, 2048, 64, Hkv=8, mask=CAUSAL)
    assert s.label == "(2,32/8,2048,64),causal"
    assert s.needs == {"causal", "gqa"}
    assert s.flops == 34_376_515_584          # 4*64*2*32 * 2048*2049/2 (test_attention_masks: by hand)
    padded = Shape(2, 4, 40, 40, 16, mask=MaskSpec("padding", key_lengths=(30, 40)), kv_repeated=True)
    assert padded.label == "(2,4,40,16),padding,kv repeated" and padded.needs == {"mask"}
    assert padded.flops == 4 * 16 * 4 * (40 * 30 + 40 * 40)      # rows keep 30 keys in batch 0, 40 in batch 1


def test_parse_shape_with_gqa_and_causal():
    assert parse_shape("2,32/8,2048,64,causal") == Shape(2, 32, 2048, 2048, 64, Hkv=8, mask=CAUSAL)
    assert parse_shape("1,8/8,100,300,64").Hkv == 0            # 8/8 is not GQA
    for bad in ("2,32/5,128,64", "2,32/0,128,64", "2,32/8/2,128,64", "2,32,128,64,causal,y", "2,causal,128,64"):
        with pytest.raises(ValueError):
            parse_shape(bad)


@pytest.mark.parametrize("text, fault", [
    ("2,32/7,128,64", "32 query heads are not a multiple of 7 key-value heads; expected"),
    ("1,2,64,64,bogus", "'bogus' is not a number; expected"),
    ("1,2,3", "expected"),                                   # too few sizes: no one word at fault
])
def test_bad_shape_says_what_is_wrong(text, fault):
    with pytest.raises(ValueError) as e:
        parse_shape(text)
    assert str(e.value).startswith(f"bad shape {text!r}: {fault} B,H,S,D or B,H,Sq,Sk,D")


def test_shape_from_an_eager_captured_call():
    # Llama with a padding mask: k repeated to 32 heads (kv_repeated, 8 distinct), causal + padding of 100 keys
    c = {"B": 2, "H": 32, "Hkv": 8, "Sq": 2048, "Sk": 2048, "D": 64, "dtype": "bfloat16", "causal": False,
         "mask": True, "mask_kind": "causal_padding", "key_lengths": [2048, 1948], "kv_repeated": True,
         "scale": 0.125}
    s = from_call(c)
    assert s == Shape(2, 32, 2048, 2048, 64, "bfloat16", 8, MaskSpec("causal_padding", key_lengths=(2048, 1948)),
                      True, 0.125)
    assert s.label == "(2,32/8,2048,64),causal+padding,kv repeated"
    # a mask seen only in the trace (no eager capture): arbitrary with nothing saved -> the bench says so
    t = from_call({"B": 1, "H": 2, "Sq": 8, "Sk": 8, "D": 4, "mask": True})
    assert t.mask == MaskSpec("arbitrary")
    with pytest.raises(ValueError, match="not captured"):
        bench.semantics(t, "cpu")


def _naive(q, k, v, scale, keep):
    """Per (batch, head) softmax(q k^T * scale, masked) v in float64, kv head h // (Hq // Hkv)."""
    B, Hq, Sq, _ = q.shape
    g = Hq // k.shape[1]
    out = torch.zeros(B, Hq, Sq, v.shape[-1], dtype=torch.float64)
    for b in range(B):
        for h in range(Hq):
            s = q[b, h].double() @ k[b, h // g].double().T * scale
            kb = keep[b, 0]
            for i in range(Sq):
                if kb[i].any():
                    p = torch.softmax(s[i].masked_fill(~kb[i], float("-inf")), dim=0)
                    out[b, h, i] = p @ v[b, h // g].double()
    return out


def test_references_match_naive_masked_gqa_softmax():
    g = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(2, n, S, 8, generator=g) for n, S in ((4, 7), (2, 9), (2, 9)))
    keep = torch.rand(2, 1, 7, 9, generator=g) > 0.4
    keep[1, 0, 2] = False                                   # a row with no key: out 0, lse -inf
    ref, lse = attention_float64(q, k, v, 0.3, mask=keep)
    assert torch.allclose(ref, _naive(q, k, v, 0.3, keep), atol=1e-12)
    assert torch.isneginf(lse[1, :, 2]).all() and torch.isfinite(lse[0]).all()
    out, blse = blocked_attention(q, k, v, 0.3, block_m=3, block_n=4, mask=keep)
    assert torch.allclose(out.double(), ref, atol=1e-5)
    assert torch.equal(torch.isneginf(blse), torch.isneginf(lse))
    # causal, blocks smaller than the shape: key blocks past a query block skipped, same result
    tri = torch.ones(7, 9, dtype=torch.bool).tril()[None, None].expand(2, 1, 7, 9)
    causal_ref = attention_float64(q, k, v, 0.3, causal=True)[0]
    assert torch.allclose(causal_ref, _naive(q, k, v, 0.3, tri), atol=1e-12)
    assert torch.allclose(blocked_attention(q, k, v, 0.3, 2, 2, causal=True)[0].double(), causal_ref, atol=1e-5)


def test_causal_by_hand():
    # Sq = Sk = 2, D = 1, q = 0: every kept score is 0. Row 0 keeps key 0 only -> out = v0 = 3, lse = log 1 = 0;
    # row 1 keeps both -> out = (3 + 5) / 2 = 4, lse = log 2.
    q = torch.zeros(1, 1, 2, 1)
    k = torch.ones(1, 1, 2, 1)
    v = torch.tensor([3.0, 5.0]).reshape(1, 1, 2, 1)
    out, lse = attention_float64(q, k, v, 1.0, causal=True)
    assert out.flatten().tolist() == [3.0, 4.0]
    assert lse.flatten().tolist() == [0.0, pytest.approx(math.log(2))]


def test_bench_on_cpu_causal_gqa_padding(monkeypatch):
    timer = lambda fn, rep_ms=100.0: (fn(), 2.0)[1]
    # B=2, 4 query heads reading 2 kv heads, 40 tokens, causal with the last 10 keys of batch 0 padded
    shape = Shape(2, 4, 40, 40, 16, "bfloat16", Hkv=2, mask=MaskSpec("causal_padding", key_lengths=(30, 40)))
    called = []
    no_mask = registry.Backend("own_causal_gqa", "own", lambda *a, **kw: called.append(a), True,
                               supports=frozenset({"causal", "gqa"}))
    chosen = registry.backends(["torch_blocked", "sdpa_math"]) + [no_mask]
    op = "aten::_scaled_dot_product_flash_attention_for_cpu"      # the model's backend: sdpa_math
    opts = BenchOptions(timer=timer, device="cpu", tune=False)
    rows = {r["backend"]: r for r in bench_shape(shape, 8, op, chosen, opts, BenchResult())}
    assert rows["torch_blocked"]["ok"] and rows["sdpa_math"]["ok"]
    assert rows["torch_blocked"]["rel_err"] < 1e-2 and rows["sdpa_math"]["rel_err"] < 1e-2
    # the backend that takes causal and GQA but no mask: listed with the reason, never called
    assert not rows["own_causal_gqa"]["available"] and called == []
    assert rows["own_causal_gqa"]["reason"] == "cannot take mask (takes: causal, gqa)"
    # pairs: batch 0 rows keep min(i+1, 30): 465 + 10*30 = 765; batch 1 causal 40*41/2 = 820 -> 1585;
    # flops 4 * D 16 * Hq 4 * 1585 = 405,760; at 2 ms: 405,760 / 2 / 1e9 TFLOP/s
    r = rows["sdpa_math"]
    assert (r["flops"], r["shape"], r["Hkv"], r["mask"]) == (405_760, "(2,4/2,40,16),causal+padding", 2,
                                                            "causal_padding")
    assert r["tflops"] == pytest.approx(405_760 / 2.0 / 1e9, rel=1e-12)
    assert r["speedup_vs_model"] == 1.0 and rows["torch_blocked"]["speedup_vs_model"] == 1.0   # 2 ms / 2 ms


def test_bench_lists_a_bias_with_the_reason():
    rows = bench_shape(Shape(1, 1, 8, 8, 4, mask=MaskSpec("bias")), 1, "", registry.backends(["torch_blocked"]),
                       BenchOptions(device="cpu", tune=False), BenchResult())
    assert not rows[0]["available"] and "bias" in rows[0]["reason"]


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

ROOT = REPO


NAN = float("nan")


def recording(name, base, seen, origin="own", supports=registry.ALL, inputs=None):
    """A backend computing as `base` does, recording (name, scale, config, causal) per call (and its (q, k, v) in
    `inputs` when given)."""
    def fn(q, k, v, scale, config=None, **sem):
        seen.append((name, scale, config, sem.get("causal", False)))
        if inputs is not None:
            inputs.append((q, k, v))
        return base.fn(q, k, v, scale, **sem)
    return registry.Backend(name, origin, fn, True, description=f"{name} desc", supports=supports)


def test_bench_shape_rows_tuning_and_speedups(monkeypatch):
    sdpa_math, blocked = registry.backends(["sdpa_math", "torch_blocked"])
    seen = []
    # B=1, H=2, S=8, D=16, causal: kept pairs 8*9/2 = 36 per head; flops 4 * 16 * 2 * 36 = 4,608
    shape = Shape(1, 2, 8, 8, 16, "float16", mask=MaskSpec("causal"))
    ms = {"sdpa_math": 2.0, "triton_fa2": 0.5}

    def timer(fn, rep_ms):
        fn()
        return ms[seen[-1][0]]
    tuned, timing_inputs = [], []

    def tune(q, k, v, scale, causal=False):
        tuned.append((scale, causal))
        timing_inputs.append((q, k, v))
        return [{"config": "A", "ms": 2.0, "error": ""}, {"config": "B", "ms": NAN, "error": "boom"},
                {"config": "C", "ms": 1.0, "error": ""}], "cfgC"
    monkeypatch.setattr(triton_fa, "tune", tune)

    def broken(*a, **kw):
        raise RuntimeError("kernel fell over\nsecond line")
    own_inputs = []
    backends = [recording("triton_fa2", blocked, seen, inputs=own_inputs), registry.Backend("broken", "own", broken, True,
                                                                         description="b", supports=registry.ALL),
                registry.Backend("absent", "library", None, False, "not installed", "a"),
                registry.Backend("dense_only", "own", None, True, description="d"),
                recording("sdpa_math", sdpa_math, seen, "library")]   # each refusal followed by one that runs
    progress = []
    result = BenchResult()
    rows = bench.bench_shape(shape, 7, "aten::_scaled_dot_product_flash_attention_for_cpu", backends,
                             BenchOptions(timer=timer, device="cpu", tune=True, rep_ms=30.0),
                             result, progress.append)
    assert progress == ["triton_fa2", "broken", "absent", "dense_only", "sdpa_math"]
    by = {r["backend"]: r for r in rows}
    assert list(by) == progress
    # tuning: at the timing inputs' scale 1/sqrt(16), causal; the fastest that ran (C) is the label, the
    # config it returned is timed and kept
    # tuned on the timing inputs, not the check's: the tensors the timed calls get, other values than the check's
    checked, timed = own_inputs[0], own_inputs[1]
    assert len(timing_inputs) == 1 and all(a is b for a, b in zip(timing_inputs[0], timed))
    assert all(t is timed[0] for t, _, _ in own_inputs[1:]) and not torch.equal(checked[0], timed[0])
    assert tuned == [(0.25, True)] and result.chosen == {("triton_fa2", "(1,2,8,16),causal"): "cfgC"}
    a, b, c = result.tuning
    head = {"backend": "triton_fa2", "shape": "(1,2,8,16),causal", "dtype": "float16"}
    # no tuning cache: every row tuned here
    assert a == {**head, "config": "A", "ms": 2.0, "tflops": 4608 / 2.0 / 1e9, "error": "", "source": "tuned"}
    assert c == {**head, "config": "C", "ms": 1.0, "tflops": 4608 / 1.0 / 1e9, "error": "", "source": "tuned"}
    assert {k: b[k] for k in ("backend", "shape", "dtype", "config", "error")} == {**head, "config": "B",
                                                                                   "error": "boom"}
    assert math.isnan(b["ms"]) and math.isnan(b["tflops"])
    # calls: the check (config None) at 0.25, then the timed ones (wall_ms stand-in: one call per round, 3 rounds)
    # with the tuned config for the own kernel
    assert seen[:2] == [("triton_fa2", 0.25, None, True), ("sdpa_math", 0.25, None, True)]   # "broken" raised
    assert sorted(set(seen[2:])) == [("sdpa_math", 0.25, None, True), ("triton_fa2", 0.25, "cfgC", True)]
    assert len(seen) == 2 + 2 * bench.TIMING_ROUNDS
    t = by["triton_fa2"]
    # 4,608 flops in 0.5 ms = 9.216e-6 TFLOP/s, 200% of the 4.608e-6 peak; the model's backend (sdpa_math) 2 ms
    assert (t["ms"], t["config"], t["calls_per_step"], t["model_backend"], t["available"], t["reason"]) == \
        (0.5, "C", 7, "sdpa_math", True, "")
    assert t["tflops"] == pytest.approx(9.216e-6, rel=1e-12) and judged_pct(rows, 4.608e-6)["triton_fa2"] == \
        pytest.approx(200.0)
    assert t["speedup_vs_model"] == 4.0 and by["sdpa_math"]["speedup_vs_model"] == 1.0
    assert by["sdpa_math"]["config"] == ""           # not tuned: no config
    assert t["ok"] and t["rel_err"] < 2e-3 and t["lse_err"] < 1e-2 and by["sdpa_math"]["ok"]
    assert math.isnan(by["sdpa_math"]["lse_err"])                       # SDPA gives no lse
    assert (t["origin"], t["description"], t["scale"], t["flops"]) == ("own", "triton_fa2 desc", 0.25, 4608)
    refused = {n: (by[n]["available"], by[n]["reason"], by[n]["calls_per_step"], by[n]["model_backend"],
                   by[n]["config"], by[n]["ok"]) for n in ("dense_only", "absent", "broken")}
    assert refused == {"dense_only": (False, "cannot take causal (takes: dense only)", 7, "sdpa_math", "", False),
                       "absent": (False, "not installed", 7, "sdpa_math", "", False),
                       "broken": (False, "RuntimeError: kernel fell over", 7, "sdpa_math", "", False)}
    for n in refused:
        assert all(math.isnan(by[n][c]) for c in ("ms", "tflops", "pct_of_peak", "rel_err", "lse_err",
                                                   "speedup_vs_model")), n


def test_row_columns_are_the_recorded_csvs():
    with open(ROOT / "examples" / "runs" / "flux-h100" / "attention.csv", newline="") as f:
        header = next(csv.reader(f))
    shape = Shape(1, 2, 8, 8, 16)
    b = registry.Backend("absent", "library", None, False, "why", "what")
    rows = bench.bench_shape(shape, 3, "", [b], BenchOptions(device="cpu", tune=False), BenchResult())
    # the attention stage saves the bench's rows judged as the report judges a kernel (pipeline/attention._into_run:
    # roofline.judge_attention rewrites tflops and pct_of_peak and appends the "ceiling" it was judged against):
    # the re-recorded attention.csv is the bench's columns plus that one, last; "pass" (forward, or a training
    # run's forward+backward) came after that recording: a file without it reads as forward
    # (analysis/attention_training.passes); so did q, k, v's layout ("qkv_layout", "qkv_strides"): a file
    # without them ran contiguous q, k, v (attention/semantics/qkv_layout.is_contiguous)
    later = ("pass", "qkv_layout", "qkv_strides")
    assert rows[0]["pass"] == "forward" and rows[0]["qkv_layout"] == "contiguous (no layout recorded)"
    assert [c for c in rows[0] if c not in later] + ["ceiling"] == header
    judged = judge_attention(pd.DataFrame(rows), {"tflops": {}, "dram_gbps": 1.0})
    assert [c for c in judged.columns if c not in later] == header


def test_a_shape_that_cannot_be_replayed_is_a_row_per_backend():
    shape = Shape(1, 2, 8, 8, 16, mask=MaskSpec("arbitrary"))    # no saved file
    rows = bench.bench_shape(shape, 5, "aten::_cudnn_attention_forward", registry.backends(["sdpa_math",
                                                                                             "torch_blocked"]),
                             BenchOptions(device="cpu", tune=False), BenchResult())
    want = "ValueError: the model's mask values were not captured (no eager capture): nothing to replay"
    assert [(r["backend"], r["available"], r["reason"], r["calls_per_step"], r["model_backend"]) for r in rows] == \
        [("sdpa_math", False, want, 5, "sdpa_cudnn"), ("torch_blocked", False, want, 5, "sdpa_cudnn")]


def test_the_shapes_scale_is_used_when_the_model_gave_one(monkeypatch):
    timer = lambda fn, rep_ms: (fn(), 1.0)[1]
    seen, qs = [], []
    (blocked,) = registry.backends(["torch_blocked"])
    x = recording("x", blocked, seen)
    fn = x.fn
    x.fn = lambda q, *a, **kw: (qs.append(q), fn(q, *a, **kw))[1]
    shape = Shape(1, 1, 4, 4, 16, "float16", scale=0.5)
    opts = BenchOptions(timer=timer, device="cpu", tune=False, seed=5)
    (row,) = bench.bench_shape(shape, 1, "", [x], opts, BenchResult())
    assert {s for _, s, _, _ in seen} == {0.5}
    assert row["ok"] and row["rel_err"] < 2e-3        # the float64 reference at the same scale
    # checked on the seed's inputs, timed on the next seed's: the check at seed 6 draws what seed 5 timed with
    assert len(qs) == 4 and all(torch.equal(q, qs[1]) for q in qs[2:]) and not torch.equal(qs[0], qs[1])
    timed_at_5 = qs[1]
    qs.clear()
    bench.bench_shape(shape, 1, "", [x], dataclasses.replace(opts, seed=6), BenchResult())
    assert torch.equal(qs[0], timed_at_5) and not torch.equal(qs[1], timed_at_5)


def test_a_backend_missing_two_semantics_names_both():
    shape = Shape(1, 2, 8, 8, 16, Hkv=1, mask=MaskSpec("causal_padding", key_lengths=(4,)))
    b = registry.Backend("g", "own", None, True)       # dense only
    (row,) = bench.bench_shape(shape, 1, "", [b], BenchOptions(device="cpu", tune=False), BenchResult())
    # causal + padding counts as a mask (shape.needs), the 2 query heads on 1 kv head as GQA
    assert row["reason"] == "cannot take gqa + mask (takes: dense only)"


@pytest.mark.parametrize("causal", [False, True])
def test_tune_when_every_config_failed(monkeypatch, causal):
    got, seen = [], []
    monkeypatch.setattr(triton_fa, "tune", lambda q, k, v, scale, **kw: (got.append(kw), ([
        {"config": "A", "ms": NAN, "error": "x"}], None))[1])
    (blocked,) = registry.backends(["torch_blocked"])
    result = BenchResult()
    shape = Shape(1, 1, 4, 4, 16, "float16", mask=MaskSpec("causal") if causal else MaskSpec())
    opts = BenchOptions(timer=lambda fn, rep_ms: (fn(), 1.0)[1], device="cpu", tune=True)
    (row,) = bench.bench_shape(shape, 1, "", [recording("triton_fa2", blocked, seen)], opts, result)
    # no config ran: no label, the kernel timed at its default config (None), the one failure recorded
    assert row["config"] == "" and result.chosen == {("triton_fa2", shape.label): None}
    assert {config for _, _, config, _ in seen} == {None}
    assert got == [{"causal": True} if causal else {}] and len(result.tuning) == 1
    assert result.tuning[0]["error"] == "x" and math.isnan(result.tuning[0]["tflops"])


def test_semantics():
    assert bench.semantics(Shape(1, 1, 4, 4, 16, mask=MaskSpec("causal")), "cpu") == {"causal": True, "mask": None}
    with pytest.raises(ValueError, match="^the model passed an additive float bias, not a mask: not benchmarked$"):
        bench.semantics(Shape(1, 1, 4, 4, 16, mask=MaskSpec("bias")), "cpu")
    # key padding, batch 0 keeps 2 of 3 keys, batch 1 all: keep (B, 1, 1, Sk) or broadcastable to (B, H, Sq, Sk)
    sem = bench.semantics(Shape(2, 1, 2, 3, 16, mask=MaskSpec("padding", key_lengths=(2, 3))), "cpu")
    assert sem["causal"] is False
    keep = sem["mask"].expand(2, 1, 2, 3)
    assert keep.tolist() == [[[[True, True, False]] * 2], [[[True, True, True]] * 2]]


def test_semantics_replays_a_saved_mask(tmp_path):
    from inductor_prof.attention.semantics import maskfile

    keep = torch.tensor([[[[True, False, True], [False, True, True]]]])
    maskfile.save(keep, tmp_path / "m.npz")
    sem = bench.semantics(Shape(1, 1, 2, 3, 16, mask=MaskSpec("arbitrary", file=str(tmp_path / "m.npz"))), "cpu")
    assert sem["causal"] is False and sem["mask"].tolist() == keep.tolist()


def test_inputs_are_seeded_shaped_and_typed():
    shape = Shape(2, 4, 6, 5, 16, "float16", Hkv=2)

    def inputs_of(seed):
        got = []

        def fn(q, k, v, scale, config=None, **sem):
            got.append((q, k, v))
            return q, None
        b = registry.Backend("echo", "own", fn, True, supports=registry.ALL)
        opts = BenchOptions(timer=lambda f, rep_ms: (f(), 1.0)[1], device="cpu", tune=False, seed=seed)
        bench.bench_shape(shape, 1, "", [b], opts, BenchResult())
        return got[0]        # the check's
    q, k, v = inputs_of(3)
    # q (B, Hq, Sq, D), k and v (B, Hkv, Sk, D), in the shape's dtype, three different draws
    assert (q.shape, k.shape, v.shape) == ((2, 4, 6, 16), (2, 2, 5, 16), (2, 2, 5, 16))
    assert q.dtype == k.dtype == v.dtype == torch.float16 and not torch.equal(k, v)
    again = inputs_of(3)
    assert all(torch.equal(a, b) for a, b in zip((q, k, v), again))
    assert not torch.equal(inputs_of(4)[0], q)


def test_relative_error_over_live_rows():
    ref = torch.tensor([[3.0, 4.0], [1.0, 1.0]], dtype=torch.float64)
    out = torch.tensor([[3.0, 4.0], [9.0, 9.0]])
    # over both rows: ||(0, 0, 8, 8)|| / ||(3, 4, 1, 1)|| = sqrt(128) / sqrt(27); over row 0 alone: 0
    assert bench.relative_error(out, ref) == pytest.approx(math.sqrt(128 / 27))
    assert bench.relative_error(out, ref, torch.tensor([True, False])) == 0.0
    assert math.isnan(bench.relative_error(out[:1], ref))


def fixed(out, lse, seen=None):
    def fn(q, k, v, scale, **sem):
        if seen is not None:
            seen.append(scale)
        return out, lse
    return registry.Backend("fixed", "own", fn, True)


def test_check_leaves_rows_with_no_key_out():
    shape = Shape(1, 1, 2, 2, 16, "float16")
    ref = torch.tensor([[[[1.0], [2.0]]]], dtype=torch.float64)
    ref_lse = torch.tensor([[[0.5, -math.inf]]], dtype=torch.float64)       # row 1 keeps no key
    # row 1 NaN (out and lse): left out; row 0 exact, its lse off by 2**-7 = 0.0078 (under 1e-2: ok) or by 2**-6
    # = 0.0156 (over: not ok); powers of two, so the differences are exact
    out = torch.tensor([[[[1.0], [NAN]]]])
    seen = []
    got = bench.check(fixed(out, torch.tensor([[[0.5 + 2 ** -7, NAN]]]), seen), shape, None, None, None, ref,
                      ref_lse, 0.125)
    assert got == {"rel_err": 0.0, "lse_err": 2 ** -7, "ok": True} and seen == [0.125]
    got = bench.check(fixed(out, torch.tensor([[[0.5 + 2 ** -6, NAN]]])), shape, None, None, None, ref, ref_lse, 1)
    assert got == {"rel_err": 0.0, "lse_err": 2 ** -6, "ok": False}
    # a wrong shape with rows left out: not ok, no error
    got = bench.check(fixed(out[:, :, :1], None), shape, None, None, None, ref, ref_lse, 1)
    assert got["ok"] is False and math.isnan(got["rel_err"])
    # every row live: a NaN anywhere fails
    got = bench.check(fixed(out, None), shape, None, None, None, ref, torch.zeros(1, 1, 2, dtype=torch.float64), 1)
    assert got["ok"] is False and math.isnan(got["rel_err"])


def test_check_lse_tolerance_is_inclusive(monkeypatch):
    monkeypatch.setattr(bench, "LSE_TOLERANCE", 2 ** -7)
    shape = Shape(1, 1, 1, 1, 16, "float16")
    ref, ref_lse = torch.ones(1, 1, 1, 1, dtype=torch.float64), torch.zeros(1, 1, 1, dtype=torch.float64)
    got = bench.check(fixed(torch.ones(1, 1, 1, 1), torch.full((1, 1, 1), 2 ** -7)), shape, None, None, None,
                      ref, ref_lse, 1)
    assert got["ok"] is True


def test_wall_ms_is_the_median_of_three_timed_runs_in_ms():
    clock = iter([10.0, 10.002, 20.0, 20.005, 30.0, 30.003])
    calls = []
    # runs of 2, 5 and 3 ms after one untimed warm-up: median 3 ms
    assert bench.wall_ms(lambda: calls.append(1), clock=lambda: next(clock)) == pytest.approx(3.0)
    assert len(calls) == 4


def test_run_on_cpu_reports_progress_and_turns_tuning_off(monkeypatch):
    timer = lambda fn, rep_ms: (fn(), 1.0)[1]
    op = "aten::_scaled_dot_product_flash_attention_for_cpu"       # the model's backend: sdpa_math
    shapes = [(Shape(1, 1, 4, 4, 16), 2, op), (Shape(1, 1, 8, 8, 16), 3, op)]
    opts = BenchOptions(timer=timer, backends=["torch_blocked", "sdpa_math"], device="cpu", tune=True)
    progress = []
    result = bench.run(shapes, opts, lambda *a: progress.append(a))
    assert opts.tune is False
    assert progress == [(0, 4, "torch_blocked (1,1,4,16)"), (1, 4, "sdpa_math (1,1,4,16)"),
                        (2, 4, "torch_blocked (1,1,8,16)"), (3, 4, "sdpa_math (1,1,8,16)"), (4, 4, "done")]
    assert [(r["backend"], r["shape"], r["calls_per_step"], r["model_backend"]) for r in result.rows] == [
        ("torch_blocked", "(1,1,4,16)", 2, "sdpa_math"), ("sdpa_math", "(1,1,4,16)", 2, "sdpa_math"),
        ("torch_blocked", "(1,1,8,16)", 3, "sdpa_math"), ("sdpa_math", "(1,1,8,16)", 3, "sdpa_math")]


def test_speedup_vs_model_is_the_models_time_over_the_rows():
    from inductor_prof.attention.benchmark.bench import with_speedup

    # model 2.0 ms: a row at 0.5 ms is 2.0 / 0.5 = 4x, one at 4.0 ms 0.5x; no time: NaN; no model time: NaN
    rows = with_speedup([{"ms": 0.5}, {"ms": 4.0}, {"ms": float("nan")}], 2.0)
    assert [r["speedup_vs_model"] for r in rows[:2]] == [4.0, 0.5] and rows[2]["speedup_vs_model"] != 2.0
    assert math.isnan(rows[2]["speedup_vs_model"])
    assert math.isnan(with_speedup([{"ms": 1.0}], float("nan"))[0]["speedup_vs_model"])
