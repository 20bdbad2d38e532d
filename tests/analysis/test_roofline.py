"""The roofline judgement (analysis/roofline.py) through add_derived and judge_attention: bound, ceiling, % of
peak, speed of light and headroom, each against a value derived by hand."""
import pandas as pd
import pytest

from inductor_prof.analysis.roofline import add_derived, judge_attention

# measured bf16 800 TFLOP/s and DRAM 4000 GB/s; spec bf16 1000 TFLOP/s
PEAKS = {"tflops": {"flops8": None, "flops16": 800.0, "flops32": 60.0, "flops64": None}, "dram_gbps": 4000.0,
         "l2_gbps": None, "source": {"flops16": "measured", "flops32": "spec", "dram_gbps": "measured"},
         "spec": {"flops16": 1000.0, "flops32": 60.0, "dram_gbps": 4000.0}}


def kernels(*rows) -> pd.DataFrame:
    """(name, flops16, bytes, total_ns): one launch each."""
    return pd.DataFrame([{"name": n, "calls": 1, "total_ns": ns, "bytes": b, "flops8": 0.0, "flops16": f,
                          "flops32": 0.0, "flops64": 0.0, "flops": f} for n, f, b, ns in rows])


def row(df: pd.DataFrame, name: str) -> pd.Series:
    return df.set_index("name").loc[name]


def test_ridge_in_decimal_gb():
    # the ridge of 800 TFLOP/s over 4000 GB/s is 8e14 / 4e12 = 200 flop/B (with GiB/s: 186.3). A kernel at 190
    # flop/B (1.9e12 flop, 1e10 B) is below it: memory-bound; 1e10 B in 5 ms = 2000 GB/s = 50% of DRAM
    d = add_derived(kernels(("k", 1.9e12, 1e10, 5e6)), PEAKS, 1)
    assert row(d, "k")["bound"] == "memory"
    assert row(d, "k")["pct_of_peak"] == pytest.approx(50.0, rel=1e-12)


def test_spec_roof_only_when_above_the_measured_one():
    # 0.9e12 flop in 1 ms = 900 TFLOP/s beats the measured 800: judged against the spec 1000 (90%)
    d = add_derived(kernels(("fast", 0.9e12, 1e6, 1e6)), PEAKS, 1)
    assert row(d, "fast")["ceiling"] == "bf16/fp16 tensor (spec)"
    assert row(d, "fast")["pct_of_peak"] == pytest.approx(90.0, rel=1e-12)
    # a spec below the measured ceiling (700 < 800) is no hard bound: the kernel stays against 800 (112.5%)
    low_spec = {**PEAKS, "spec": {**PEAKS["spec"], "flops16": 700.0}}
    d = add_derived(kernels(("fast", 0.9e12, 1e6, 1e6)), low_spec, 1)
    assert row(d, "fast")["ceiling"] == "bf16/fp16 tensor (measured)"
    assert row(d, "fast")["pct_of_peak"] == pytest.approx(112.5, rel=1e-12)


def test_headroom_clipped_at_zero():
    # at 112.5% of its roof the kernel runs faster than its speed of light (0.9e12 / 800e12 = 1.125 ms vs 1 ms
    # taken): its headroom is 0, not -0.125 ms; a kernel at 50% of DRAM has 5 - 2.5 = 2.5 ms
    low_spec = {**PEAKS, "spec": {**PEAKS["spec"], "flops16": 700.0}}
    d = add_derived(kernels(("fast", 0.9e12, 1e6, 1e6), ("k", 1.9e12, 1e10, 5e6)), low_spec, 1)
    assert row(d, "fast")["sol_ms_per_step"] == pytest.approx(1.125, rel=1e-12)
    assert row(d, "fast")["headroom_ms_per_step"] == 0.0
    assert row(d, "k")["headroom_ms_per_step"] == pytest.approx(2.5, rel=1e-12)


def test_attention_row_judged_as_the_kernel_table_judges_the_same_call():
    # one call: B=1, H=24, S=4608, D=128 bf16, 260,919,263,232 flop; q, k, v, out 4 x 14,155,776 elements x 2 B
    # = 113,246,208 B. In 0.5 ms: 521.8 TFLOP/s, 65.2% of the measured 800 (the spec bf16 1000 gave 52.2%)
    flops, nbytes = 4 * 24 * 4608 * 4608 * 128, 4 * 24 * 4608 * 128 * 2
    att = pd.DataFrame([{"backend": "sdpa_cudnn", "B": 1, "H": 24, "Hkv": 24, "Sq": 4608, "Sk": 4608, "D": 128,
                         "dtype": "bfloat16", "flops": flops, "ms": 0.5, "tflops": 0.0, "pct_of_peak": 52.2}])
    a = judge_attention(att, PEAKS).iloc[0]
    k = row(add_derived(kernels(("cudnn", flops, nbytes, 0.5e6)), PEAKS, 1), "cudnn")
    assert a["tflops"] == pytest.approx(flops / 0.5e-3 / 1e12, rel=1e-12) == k["tflops"]
    assert a["pct_of_peak"] == pytest.approx(100 * flops / 0.5e-3 / 1e12 / 800, rel=1e-12) == k["pct_of_peak"]
    assert a["ceiling"] == k["ceiling"] == "bf16/fp16 tensor (measured)"


def test_attention_row_that_did_not_run_has_no_ceiling():
    att = pd.DataFrame([{"backend": "xformers", "B": 1, "H": 2, "Hkv": 2, "Sq": 4, "Sk": 4, "D": 8,
                         "dtype": "bfloat16", "flops": 1024, "ms": float("nan")}])
    a = judge_attention(att, PEAKS).iloc[0]
    assert pd.isna(a["pct_of_peak"]) and a["ceiling"] == ""
