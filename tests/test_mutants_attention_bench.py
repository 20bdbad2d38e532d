"""attention/benchmark/bench.py on the CPU, pinned where a mutation audit found it unpinned: every column of every kind of row
(timed, tuned, refused, broken, unavailable), the tuning record, the progress calls, the timer, the checks' edges.
Timings are stood in for (a CPU has no device events); correctness runs for real on torch's CPU backends."""
import csv
import math
import time
from pathlib import Path

import pytest
import torch

from inductor_prof.attention.benchmark import bench, registry
from inductor_prof.attention.kernels import triton_fa
from inductor_prof.attention.benchmark.bench import BenchOptions, BenchResult
from inductor_prof.attention.semantics.masks import MaskSpec
from inductor_prof.attention.semantics.shapes import Shape

ROOT = Path(__file__).resolve().parents[1]
NAN = float("nan")


def recording(name, base, seen, origin="own", supports=registry.ALL):
    """A backend computing as `base` does, recording (name, scale, config, causal) per call."""
    def fn(q, k, v, scale, config=None, **sem):
        seen.append((name, scale, config, sem.get("causal", False)))
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
    backends = [recording("triton_fa2", blocked, seen), registry.Backend("broken", "own", broken, True,
                                                                         description="b", supports=registry.ALL),
                registry.Backend("absent", "library", None, False, "not installed", "a"),
                registry.Backend("dense_only", "own", None, True, description="d"),
                recording("sdpa_math", sdpa_math, seen, "library")]   # each refusal followed by one that runs
    progress = []
    result = BenchResult()
    rows = bench.bench_shape(shape, 7, "aten::_scaled_dot_product_flash_attention_for_cpu", backends,
                             BenchOptions(timer=timer, device="cpu", tune=True, peak_tflops=4.608e-6, rep_ms=30.0),
                             result, progress.append)
    assert progress == ["triton_fa2", "broken", "absent", "dense_only", "sdpa_math"]
    by = {r["backend"]: r for r in rows}
    assert list(by) == progress
    # tuning: at the timing inputs' scale 1/sqrt(16), causal; the fastest that ran (C) is the label, the
    # config it returned is timed and kept
    # tuned on the timing inputs (seed + 1), not the check's
    assert all(torch.equal(a, b) for a, b in zip(timing_inputs[0], bench._inputs(shape, 1, "cpu")))
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
    assert t["tflops"] == pytest.approx(9.216e-6, rel=1e-12) and t["pct_of_peak"] == pytest.approx(200.0)
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
    assert list(rows[0]) == header


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
    # checked on the seed's inputs, timed on the next seed's
    assert torch.equal(qs[0], bench._inputs(shape, 5, "cpu")[0])
    assert all(torch.equal(q, bench._inputs(shape, 6, "cpu")[0]) for q in qs[1:]) and len(qs) == 4


def test_a_backend_missing_two_semantics_names_both():
    shape = Shape(1, 2, 8, 8, 16, Hkv=1, mask=MaskSpec("causal_padding", key_lengths=(4,)))
    b = registry.Backend("g", "own", None, True)       # dense only
    (row,) = bench.bench_shape(shape, 1, "", [b], BenchOptions(device="cpu", tune=False), BenchResult())
    # causal + padding counts as a mask (shape.needs), the 2 query heads on 1 kv head as GQA
    assert row["reason"] == "cannot take gqa + mask (takes: dense only)"


@pytest.mark.parametrize("causal", [False, True])
def test_tune_when_every_config_failed(monkeypatch, causal):
    got = []
    monkeypatch.setattr(triton_fa, "tune", lambda q, k, v, scale, **kw: (got.append(kw), ([
        {"config": "A", "ms": NAN, "error": "x"}], None))[1])
    result = BenchResult()
    shape = Shape(1, 1, 4, 4, 16, "float16", mask=MaskSpec("causal") if causal else MaskSpec())
    assert bench._tune("triton_fa2", shape, None, None, None, 0.25, result, causal) == (None, "")
    assert got == [{"causal": True} if causal else {}] and len(result.tuning) == 1


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
    q, k, v = bench._inputs(shape, 3, "cpu")
    assert (q.shape, k.shape, v.shape) == ((2, 4, 6, 16), (2, 2, 5, 16), (2, 2, 5, 16))
    assert q.dtype == k.dtype == v.dtype == torch.float16
    again = bench._inputs(shape, 3, "cpu")
    assert all(torch.equal(a, b) for a, b in zip((q, k, v), again))
    assert not torch.equal(bench._inputs(shape, 4, "cpu")[0], q)


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


def test_wall_ms_is_the_median_of_three_timed_runs_in_ms(monkeypatch):
    clock = iter([10.0, 10.002, 20.0, 20.005, 30.0, 30.003])
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    calls = []
    # runs of 2, 5 and 3 ms after one untimed warm-up: median 3 ms
    assert bench.wall_ms(lambda: calls.append(1)) == pytest.approx(3.0)
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
