"""The roofline judgement (analysis/roofline.py) through add_derived and judge_attention: bound, ceiling, % of
peak, speed of light and headroom, each against a value derived by hand."""
import pandas as pd
import pytest

from inductor_prof.analysis.roofline import add_derived, judge_attention, reached_rates
from inductor_prof.peaks import with_reached

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


def test_a_roof_below_what_a_kernel_reached_is_raised_to_it_never_to_the_spec():
    # 0.9e12 flop in 1 ms = 900 TFLOP/s at 0.9e12 / 1e6 B = 900000 flop/B: compute-bound, and above the measured
    # 800. with_reached raises the bf16 roof to 900 ("reached", by "fast"); the spec 1000 is not used: "fast" is
    # at 100% of the run's roof, "half" (0.45e12 flop in 1 ms = 450 TFLOP/s) at 450 / 900 = 50%
    d = kernels(("fast", 0.9e12, 1e6, 1e6), ("half", 0.45e12, 1e6, 1e6)).assign(display=lambda t: t["name"])
    peaks = with_reached(PEAKS, reached_rates(d, None, PEAKS))
    assert (peaks["tflops"]["flops16"], peaks["source"]["flops16"]) == (pytest.approx(900.0), "reached")
    j = add_derived(d, peaks, 1)
    assert row(j, "fast")["ceiling"] == row(j, "half")["ceiling"] == "bf16/fp16 tensor (reached)"
    assert row(j, "fast")["pct_of_peak"] == pytest.approx(100.0, rel=1e-12)
    assert row(j, "half")["pct_of_peak"] == pytest.approx(50.0, rel=1e-12)
    assert row(j, "fast")["ceiling_why"] == ""
    # judged before the roof was raised (peaks without with_reached), the kernel stays against its measured
    # roof: 900 / 800 = 112.5%, said as above it. The old switch judged it against the spec 1000 (90%)
    k = row(add_derived(d, PEAKS, 1), "fast")
    assert k["ceiling"] == "bf16/fp16 tensor (measured)" and k["pct_of_peak"] == pytest.approx(112.5, rel=1e-12)
    assert k["ceiling_why"] == "faster than the run's roof (judged before it)"
    # the spec is the roof only of a width neither measured nor reached: fp32 60 (spec), 30e9 flop in 1 ms =
    # 30 TFLOP/s at 30e9 / 1e6 = 30000 flop/B = 50%
    f32 = pd.DataFrame([{"name": "sgemm", "calls": 1, "total_ns": 1e6, "bytes": 1e6, "flops8": 0.0,
                         "flops16": 0.0, "flops32": 30e9, "flops64": 0.0, "flops": 30e9}])
    s = row(add_derived(f32, peaks, 1), "sgemm")
    assert s["ceiling"] == "fp32 (spec)" and s["pct_of_peak"] == pytest.approx(50.0, rel=1e-12)


# the attention call of test_attention_row_judged_as_the_kernel_table_judges_the_same_call: 2304 flop/B
ATT_FLOPS = 4 * 24 * 4608 * 4608 * 128            # 260,919,263,232
ATT_BYTES = 4 * 24 * 4608 * 128 * 2               # 113,246,208


def _reach_inputs():
    """Hand-made rows; spec bf16 1000 TFLOP/s over spec DRAM 4000 GB/s: compute-bound from 250 flop/B (the
    measured roofs' ridge, 800 / 4000, would be 200)."""
    d = pd.DataFrame([
        # a GEMM: 0.9e12 flop, 1e9 B (900 flop/B) in 1 ms: 900 TFLOP/s, above the measured 800
        {"name": "gemm", "display": "gemm", "total_ns": 1e6, "bytes": 1e9, "flops16": 0.9e12, "flops32": 0.0},
        # memory-bound: 0.95e12 flop over 4e9 B = 237.5 flop/B (< 250, though > the measured ridge 200) in 1 ms:
        # 950 TFLOP/s that must NOT count
        {"name": "norm", "display": "norm", "total_ns": 1e6, "bytes": 4e9, "flops16": 0.95e12, "flops32": 0.0},
        # a compute-bound fp32 kernel: 40e9 flop, 1e6 B in 1 ms: 40 TFLOP/s (spec ridge 60 / 4000 = 15 flop/B)
        {"name": "sgemm", "display": "sgemm", "total_ns": 1e6, "bytes": 1e6, "flops16": 0.0, "flops32": 40e9},
        # no flops: no width
        {"name": "copy", "display": "copy", "total_ns": 1e6, "bytes": 1e9, "flops16": 0.0, "flops32": 0.0},
    ]).assign(flops8=0.0, flops64=0.0, calls=1)
    d["flops"] = d["flops16"] + d["flops32"]
    shape = {"B": 1, "H": 24, "Hkv": 24, "Sq": 4608, "Sk": 4608, "D": 128, "dtype": "bfloat16", "flops": ATT_FLOPS,
             "shape": "(1,24,4608,128)"}
    att = pd.DataFrame([
        # 0.28 ms: 260,919,263,232 / 0.28e-3 = 931.85 TFLOP/s, passed its check
        {**shape, "backend": "sdpa_cudnn", "ms": 0.28, "ok": True},
        # faster (0.2 ms: 1304.6 TFLOP/s) but failed its check, and one that did not run: neither counts
        {**shape, "backend": "broken", "ms": 0.2, "ok": False},
        {**shape, "backend": "xformers", "ms": float("nan"), "ok": True},
    ])
    return d, att


def test_reached_rates_count_compute_bound_ops_only():
    d, att = _reach_inputs()
    # kernels alone: bf16 900 by the GEMM (not the memory-bound 950), fp32 40 by sgemm
    assert reached_rates(d, None, PEAKS) == {"flops16": (pytest.approx(900.0), "gemm"),
                                             "flops32": (pytest.approx(40.0), "sgemm")}
    # with the attention benchmark: its 931.85 beats the GEMM's 900
    got = reached_rates(d, att, PEAKS)
    assert got["flops16"] == (pytest.approx(ATT_FLOPS / 0.28e-3 / 1e12, rel=1e-12),
                              "attention sdpa_cudnn (1,24,4608,128)")
    assert ATT_FLOPS / ATT_BYTES == 2304      # compute-bound (>= 250)
    # the memory-bound kernel alone reaches nothing
    assert reached_rates(d[d["name"] == "norm"], None, PEAKS) == {}


def test_with_reached_takes_the_higher_of_measured_and_reached():
    d, att = _reach_inputs()
    peaks = with_reached(PEAKS, reached_rates(d, att, PEAKS))
    bf16 = ATT_FLOPS / 0.28e-3 / 1e12
    # bf16: measured 800 < reached 931.85 -> 931.85 (reached); fp32: spec 60 only, reached 40 -> 40 (reached:
    # the spec, at the maximum clock, is reached by no kernel); DRAM and the spec figures unchanged
    assert peaks["tflops"]["flops16"] == pytest.approx(bf16, rel=1e-12) and peaks["source"]["flops16"] == "reached"
    assert peaks["tflops"]["flops32"] == pytest.approx(40.0) and peaks["source"]["flops32"] == "reached"
    assert (peaks["dram_gbps"], peaks["source"]["dram_gbps"], peaks["spec"]) == (4000.0, "measured", PEAKS["spec"])
    assert peaks["reached"]["flops16"] == {"tflops": pytest.approx(bf16, rel=1e-12),
                                           "by": "attention sdpa_cudnn (1,24,4608,128)"}
    assert peaks["measured_tflops"] == {"flops16": 800.0}
    assert PEAKS["tflops"]["flops16"] == 800.0 and PEAKS["source"]["flops16"] == "measured"    # not mutated
    # a reached rate below the measured ceiling leaves it (kept in "reached" for the summary); a width neither
    # measured nor reached (fp8 here: no spec, nothing ran) keeps what it had
    low = with_reached(PEAKS, {"flops16": (700.0, "slow")})
    assert (low["tflops"]["flops16"], low["source"]["flops16"]) == (800.0, "measured")
    assert low["reached"] == {"flops16": {"tflops": 700.0, "by": "slow"}}
    assert low["tflops"]["flops8"] is None and low["tflops"]["flops32"] == 60.0


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


# ---- mutation audit (issue 30): the ridge and DRAM edges, peaks without sources, reached rates' edges --------

def test_an_op_at_the_ridge_is_compute_bound():
    # 800 TFLOP/s over 4000 GB/s: ridge 200 flop/B exactly; 2e11 flop over 1e9 B is 200 flop/B: compute
    d = add_derived(kernels(("k", 2e11, 1e9, 1e6)), PEAKS, 1)
    assert row(d, "k")["bound"] == "compute"


def test_dram_edges_and_l2():
    # 4e9 B in 1 ms = 4000 GB/s: exactly the DRAM roof, 100% of it, not "in L2" and nothing said
    at = row(add_derived(kernels(("k", 0.0, 4e9, 1e6)), {**PEAKS, "l2_gbps": 9000.0}, 1), "k")
    assert (at["ceiling"], at["ceiling_why"], at["pct_of_peak"]) == ("DRAM (measured)", "", 100.0)
    # an L2 ceiling no faster than DRAM cannot explain a kernel above DRAM: judged against DRAM, said so
    over = row(add_derived(kernels(("k", 0.0, 5e9, 1e6)), {**PEAKS, "l2_gbps": 4000.0}, 1), "k")
    assert over["ceiling"] == "DRAM (measured)" and over["ceiling_why"].startswith("faster than the DRAM ceiling")


def test_a_kernel_of_no_bytes_has_no_bound_and_no_intensity():
    d = row(add_derived(kernels(("k", 1e12, 0.0, 1e6)), PEAKS, 1), "k")
    assert d["bound"] == "" and pd.isna(d["intensity"]) and pd.isna(d["pct_of_peak"])


def test_peaks_without_sources_say_spec():
    bare = {"tflops": PEAKS["tflops"], "dram_gbps": 4000.0}
    d = add_derived(kernels(("mem", 0.0, 1e9, 1e6), ("cmp", 0.4e12, 1e6, 1e6)), bare, 1)
    assert row(d, "mem")["ceiling"] == "DRAM (spec)" and row(d, "cmp")["ceiling"] == "bf16/fp16 tensor (spec)"


def test_reached_rates_edges():
    d = kernels(("a", 0.5e12, 1e9, 1e6), ("b", 0.5e12, 1e9, 1e6)).assign(display=["first", "second"])
    # two ops at the same 500 TFLOP/s (500 flop/B >= the spec ridge 250): the first keeps it
    assert reached_rates(d, None, PEAKS) == {"flops16": (pytest.approx(500.0), "first")}
    # at exactly the spec ridge (250 flop/B) an op counts; a slow one (0.25 TFLOP/s) still reaches something
    at = kernels(("r", 0.25e12, 1e9, 1e6), ("s", 2.5e9, 1e7, 1e7)).assign(display=["ridge", "slow"])
    assert reached_rates(at, None, PEAKS)["flops16"] == (pytest.approx(250.0), "ridge")
    assert reached_rates(at.iloc[1:], None, PEAKS) == {"flops16": (pytest.approx(0.25), "slow")}
    # flops but no bytes: no intensity, so never compute-bound here
    nob = kernels(("n", 1e12, 0.0, 1e6)).assign(display="n")
    assert reached_rates(nob, None, PEAKS) == {}
    # no kernel table; a spec without DRAM, or without the width: nothing reached
    assert reached_rates(None, None, PEAKS) == {}
    assert reached_rates(d, None, {**PEAKS, "spec": {"flops16": 1000.0}}) == {}
    assert reached_rates(d, None, {**PEAKS, "spec": {"dram_gbps": 4000.0}}) == {}


def test_attention_judged_on_a_filtered_table_and_tables_it_cannot_judge():
    # rows 5 and 7 of a larger table (a filtered attention.csv): judged in place, by their own index
    flops = 4 * 24 * 4608 * 4608 * 128
    att = pd.DataFrame([{"backend": b, "B": 1, "H": 24, "Hkv": 24, "Sq": 4608, "Sk": 4608, "D": 128,
                         "dtype": "bfloat16", "flops": flops, "ms": ms} for b, ms in (("x", 0.5), ("y", 1.0))],
                       index=[5, 7])
    j = judge_attention(att, PEAKS)
    assert list(j.index) == [5, 7] and j.loc[7, "tflops"] == pytest.approx(flops / 1e-3 / 1e12, rel=1e-12)
    assert judge_attention(None, PEAKS) is None
    no_shapes = pd.DataFrame({"backend": ["x"], "ms": [1.0]})
    assert judge_attention(no_shapes, PEAKS) is no_shapes


def test_a_shape_faster_than_its_kernel_raises_the_roof():
    from inductor_prof.analysis.roofline import reached_l2
    d, _ = _reach_inputs()
    # one shape of a library GEMM: 2e12 flop, 1e9 B a call in 2,000 us: 1,000 TFLOP/s at 2000 flop/B (compute-bound
    # at the spec ridge of 1000/4000 x 1000 = 250 flop/B), above the kernels' 900: the bf16 roof is 1,000
    shapes = pd.DataFrame({"kernel": ["cutlass_gemm"], "op": ["aten::mm"], "dims": ["[[8192,8192],[8192,8192]]"],
                           "flops": [2e12],
                           "bytes": [1e9], "us_per_call": [2000.0], "flops_key": ["flops16"]})
    assert reached_rates(d, None, PEAKS, shapes)["flops16"] == (pytest.approx(1000.0),
                                                              "cutlass_gemm at [8192,8192]x[8192,8192]")
    # L2: a memory op moving 5e7 minimal bytes in 10 us = 5,000 GB/s, above DRAM's 4,000 with no L2 ceiling
    # measured: the L2 roof it sets; one at 3,000 GB/s sets none; with an L2 ceiling of 6,000 measured, none either
    fast = pd.DataFrame({"kernel": ["mean"], "op": ["aten::mean"], "dims": ["[[2,2048,2048]]"], "flops": [0.0],
                         "bytes": [5e7],
                         "us_per_call": [10.0], "flops_key": [""]})
    assert reached_l2(None, fast, PEAKS) == (pytest.approx(5000.0), "mean at mean [2,2048,2048]")
    assert reached_l2(None, fast.assign(us_per_call=5e7 / 3000 / 1e3), PEAKS) is None
    assert reached_l2(None, fast, {**PEAKS, "l2_gbps": 6000.0}) is None
    peaks = with_reached(PEAKS, {}, reached_l2(None, fast, PEAKS))
    assert (peaks["l2_gbps"], peaks["source"]["l2_gbps"]) == (pytest.approx(5000.0), "reached")
    # and the op is judged at 100% of it, under that label
    judged = add_derived(kernels(("mean", 0.0, 5e7, 1e4)), peaks, 1)
    assert row(judged, "mean")["ceiling"] == "L2 (reached)"
    assert row(judged, "mean")["pct_of_peak"] == pytest.approx(100.0)
