"""The numbers of an experiment, against values worked out by hand."""
import math

import pytest

from inductor_prof.analysis import experiment_stats as st


def test_quantiles_interpolate_between_ranks():
    # 5 values: p10 at position 0.4 between 1 and 2 -> 1.4; median the middle (3); p90 at 3.6 -> 4 + 0.6*6 = 7.6
    ms = [3.0, 1.0, 10.0, 2.0, 4.0]
    s = st.step_stats(ms)
    assert s["median_ms"] == 3.0
    assert s["p10_ms"] == pytest.approx(1.4)
    assert s["p90_ms"] == pytest.approx(7.6)
    assert s["spread_pct"] == pytest.approx(100 * (7.6 - 1.4) / 3.0)


def test_faster_only_beyond_half_the_wider_spread():
    before = [10.0, 10.2, 10.4, 10.6, 10.8]   # median 10.4, p10 10.08, p90 10.72: band 0.64
    after = [9.0, 9.1, 9.2, 9.3, 9.4]         # median 9.2, band 0.32
    r = st.side_by_side(before, after)
    assert r["saved_ms"] == pytest.approx(1.2)
    assert r["noise_ms"] == pytest.approx(0.32)   # half of 0.64
    assert r["ratio"] == pytest.approx(9.2 / 10.4)
    assert r["verdict"] == st.FASTER and st.advice_verdict(r["verdict"], r["noise_ms"], None) == "confirmed"
    # 10.4 -> 10.2 saves 0.2 < 0.32 noise: no verdict either way
    near = st.side_by_side(before, [10.0, 10.1, 10.2, 10.3, 10.4])
    assert near["verdict"] == st.NOISE
    # the advice promised 1 ms, which 0.32 ms of noise would have shown: refuted; promised 0.3 ms: not seen either way
    assert st.advice_verdict(near["verdict"], near["noise_ms"], 1.0) == "refuted"
    assert st.advice_verdict(near["verdict"], near["noise_ms"], 0.3) == "inconclusive"
    # swapped: slower by 1.2 > 0.32, refuted whatever was promised
    slower = st.side_by_side(after, before)
    assert slower["verdict"] == st.SLOWER and st.advice_verdict(slower["verdict"], 0.32, 0.1) == "refuted"


def test_output_error_is_relative_to_the_largest_reference_magnitude():
    # 0.05 off where the output reaches 4.0: 0.0125, within bf16's 4 * 2^-7 = 0.03125, beyond fp16's 4 * 2^-10
    leaves = [{"max_abs_diff": 0.05, "ref_max_abs": 4.0, "nan_mismatch": False},
              {"max_abs_diff": 0.0, "ref_max_abs": 1.0, "nan_mismatch": False}]
    bf16 = st.output_check(leaves, "bfloat16")
    assert bf16["error"] == pytest.approx(0.0125) and bf16["tolerance"] == 0.03125 and bf16["ok"]
    fp16 = st.output_check(leaves, "float16")
    assert fp16["tolerance"] == pytest.approx(0.00390625) and not fp16["ok"] and "float16" in fp16["why"]


def test_a_nan_the_reference_lacks_fails_the_check():
    out = st.output_check([{"max_abs_diff": 0.0, "ref_max_abs": 1.0, "nan_mismatch": True}], "bfloat16")
    assert not out["ok"] and "NaN" in out["why"]
    assert not st.output_check([], "bfloat16")["ok"]


def test_kernels_moved_largest_change_first_and_one_sided_kernels_count_from_zero():
    before = {"a": 100.0, "b": 50.0, "gone": 30.0}
    after = {"a": 60.0, "b": 50.0, "new": 45.0}
    rows = st.kernels_moved(before, after)
    assert [(r["name"], r["delta_us"]) for r in rows] == [("new", 45.0), ("a", -40.0), ("gone", -30.0)]


def test_judge_a_finished_experiment():
    raw = {"before_ms": [2.0, 2.0, 2.0], "after_ms": [1.0, 1.0, 1.0], "dtype": "bfloat16",
           "leaves": [{"max_abs_diff": 0.0, "ref_max_abs": 1.0, "nan_mismatch": False}],
           "kernels_before": {"k": 10.0}, "kernels_after": {"k": 4.0, "copy": 1.0}}
    rec = st.judge(raw, predicted_ms=0.7)
    assert rec["status"] == st.OK and rec["advice_verdict"] == "confirmed" and rec["predicted_ms"] == 0.7
    assert rec["timing"]["ratio"] == 0.5
    assert rec["kernels"] == {"before": 1, "after": 2, "before_us": 10.0, "after_us": 5.0}


def test_judge_records_failures_with_their_reason():
    assert st.judge(None, "exit 1: boom") == {"status": st.FAILED, "reason": "exit 1: boom", "advice_verdict": None}
    oom = st.judge({"stage": "compile_after", "error": "out of memory: CUDA", "oom": True})
    assert oom["status"] == st.OOM and oom["reason"].startswith("compile_after:")
    differ = st.judge({"before_ms": [1.0, 1.0], "after_ms": [0.5, 0.5], "dtype": "bfloat16",
                       "leaves": [{"max_abs_diff": 1.0, "ref_max_abs": 1.0, "nan_mismatch": False}],
                       "kernels_before": {}, "kernels_after": {}})
    assert differ["status"] == st.DIFFER and differ["advice_verdict"] is None and math.isclose(
        differ["outputs"]["error"], 1.0)


def test_an_attention_experiment_whose_calls_never_reached_the_backend_failed():
    raw = {"before_ms": [2.0, 2.0, 2.0], "after_ms": [2.0, 2.0, 2.0], "dtype": "bfloat16",
           "leaves": [{"max_abs_diff": 0.0, "ref_max_abs": 1.0, "nan_mismatch": False}],
           "kernels_before": {"k": 10.0}, "kernels_after": {"k": 10.0},
           "attention_calls": {"routed": 0, "kept": {"a mask": 8}}}
    rec = st.judge(raw)
    # identical steps would read "within noise: refuted"; it measured nothing, so it failed, saying why
    assert rec["status"] == st.FAILED and rec["reason"] == ("no attention call reached the backend (calls left on "
                                                            "SDPA: 8 with a mask)")
    ran = st.judge({**raw, "attention_calls": {"routed": 16, "kept": {}}})
    assert ran["status"] == st.OK and ran["attention_calls"]["routed"] == 16
