"""The attention table's numbers on a CPU: flops, the correctness gate per dtype, TFLOP/s and the speed-up over
the model's backend (fake backends, fixed times), and two defects of the stage."""
import math
import os
import subprocess
import sys

import pytest
import torch

from inductor_prof.attention.benchmark import bench
from inductor_prof.attention.kernels import cuda_fa
from inductor_prof.attention import timing
from inductor_prof.attention.benchmark.bench import LSE_TOLERANCE, TOLERANCE, BenchOptions, BenchResult, bench_shape, check
from inductor_prof.attention.benchmark.registry import Backend
from inductor_prof.attention.semantics.shapes import Shape, parse_shape
from recorded import REPO



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
    opts = BenchOptions(timer=timer, device="cpu", tune=False, peak_tflops=0.5)
    # the model ran aten::_cudnn_attention_forward: its backend is SDPA forced onto cuDNN
    rows = bench_shape(shape, 38, "aten::_cudnn_attention_forward", [model, fast, missing], opts, BenchResult())
    by = {r["backend"]: r for r in rows}
    assert [r["model_backend"] for r in rows] == ["sdpa_cudnn"] * 3
    assert by["sdpa_cudnn"]["ms"] == 2.0 and by["fast"]["ms"] == 1.0
    # TFLOP/s = flops / (ms * 1e-3 s) / 1e12 = flops / ms / 1e9
    assert by["fast"]["tflops"] == pytest.approx(1_572_864 / 1.0 / 1e9, rel=1e-12)
    assert by["sdpa_cudnn"]["tflops"] == pytest.approx(1_572_864 / 2.0 / 1e9, rel=1e-12)
    assert by["fast"]["pct_of_peak"] == pytest.approx(100 * 0.001572864 / 0.5, rel=1e-12)
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
