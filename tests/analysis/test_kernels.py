"""Every number of the analysis layer, on small constructed tables with hand-derived expectations.

Round figures are chosen so that each expected value is exact and a factor 10^3, a swapped roof or a
flipped comparison gives a different number.
"""
import math

import pandas as pd
import pytest

from inductor_prof.analysis import ANNOTATION_TOLERANCE, CATEGORIES, add_derived, classify, merge_ncu, summarize
from inductor_prof.analysis.kernels import by_name, kernel_table, library_costs
from inductor_prof.runfiles import n_steps
from inductor_prof.peaks import FLOP_KEYS

# Made-up peaks with round ridges: fp16 ridge = 1000e12 / 2000e9 = 500 flop/B, fp32 ridge = 50e12 / 2000e9 = 25.
PEAKS = {"tflops": {"flops8": 2000.0, "flops16": 1000.0, "flops32": 50.0, "flops64": 25.0}, "dram_gbps": 2000.0}


def _kernel(name, total_ns, calls, nbytes, flops8=0.0, flops16=0.0, flops32=0.0, flops64=0.0):
    flops = flops8 + flops16 + flops32 + flops64
    return {"name": name, "total_ns": float(total_ns), "calls": calls, "bytes": float(nbytes), "flops8": flops8,
            "flops16": flops16, "flops32": flops32, "flops64": flops64, "flops": flops}


@pytest.fixture(scope="module")
def derived():
    rows = [
        # 1 ms, 1 GB, 5e11 fp16 flop: intensity 500 flop/B, exactly the fp16 ridge
        _kernel("at_ridge", 1_000_000, 1, 1e9, flops16=5e11),
        # 4 ms over 4 calls, 4 GB, 4e10 fp16 flop: intensity 10 << 500, memory-bound
        _kernel("mem", 4_000_000, 4, 4e9, flops16=4e10),
        # 2 ms over 2 calls, 1.6 GB, 1.6e12 fp16 flop: intensity 1000 > 500, compute-bound
        _kernel("gemm16", 2_000_000, 2, 1.6e9, flops16=1.6e12),
        # 3 ms, nothing annotated
        _kernel("no_bytes", 3_000_000, 3, 0.0),
        # 10 ms over 5 calls, 4 GB, 3e11 fp32 + 1e11 fp16 flop: fp32 is the larger width, intensity 4e11/4e9 = 100:
        # compute-bound against the fp32 ridge (25), memory-bound if the fp16 ridge (500) were used
        _kernel("fp32", 10_000_000, 5, 4e9, flops16=1e11, flops32=3e11),
    ]
    out = add_derived(pd.DataFrame(rows), PEAKS, n_steps=2)
    return out.set_index("name", drop=False)


def test_sorted_by_total_time_descending(derived):
    # 10 ms, 4 ms, 3 ms, 2 ms, 1 ms
    assert list(derived["name"]) == ["fp32", "mem", "no_bytes", "gemm16", "at_ridge"]


def test_avg_us_and_step_ms(derived):
    # avg_us = total_ns / calls / 1e3; step_ms = total_ns / n_steps(2) / 1e6
    assert derived.at["mem", "avg_us"] == pytest.approx(1000.0, rel=1e-12)     # 4e6 / 4 / 1e3
    assert derived.at["fp32", "avg_us"] == pytest.approx(2000.0, rel=1e-12)    # 10e6 / 5 / 1e3
    assert derived.at["at_ridge", "avg_us"] == pytest.approx(1000.0, rel=1e-12)
    assert derived.at["mem", "step_ms"] == pytest.approx(2.0, rel=1e-12)       # 4e6 / 2 / 1e6
    assert derived.at["fp32", "step_ms"] == pytest.approx(5.0, rel=1e-12)


def test_pct_of_gpu_time(derived):
    # all kernels: 1 + 4 + 2 + 3 + 10 = 20 ms
    expect = {"fp32": 50.0, "mem": 20.0, "no_bytes": 15.0, "gemm16": 10.0, "at_ridge": 5.0}
    for name, pct in expect.items():
        assert derived.at[name, "pct_of_gpu_time"] == pytest.approx(pct, rel=1e-12), name


def test_tflops_and_gbps(derived):
    # tflops = flops / s / 1e12, gbps = bytes / s / 1e9
    assert derived.at["mem", "tflops"] == pytest.approx(10.0, rel=1e-12)       # 4e10 / 4e-3 / 1e12
    assert derived.at["mem", "gbps"] == pytest.approx(1000.0, rel=1e-12)       # 4e9 / 4e-3 / 1e9
    assert derived.at["gemm16", "tflops"] == pytest.approx(800.0, rel=1e-12)   # 1.6e12 / 2e-3 / 1e12
    assert derived.at["gemm16", "gbps"] == pytest.approx(800.0, rel=1e-12)     # 1.6e9 / 2e-3 / 1e9
    assert derived.at["fp32", "tflops"] == pytest.approx(40.0, rel=1e-12)      # (3e11 + 1e11) / 1e-2 / 1e12
    assert derived.at["fp32", "gbps"] == pytest.approx(400.0, rel=1e-12)       # 4e9 / 1e-2 / 1e9
    assert derived.at["at_ridge", "tflops"] == pytest.approx(500.0, rel=1e-12)  # 5e11 / 1e-3 / 1e12
    assert derived.at["at_ridge", "gbps"] == pytest.approx(1000.0, rel=1e-12)   # 1e9 / 1e-3 / 1e9
    assert derived.at["no_bytes", "tflops"] == 0.0 and derived.at["no_bytes", "gbps"] == 0.0


def test_intensity_and_flops_key(derived):
    assert derived.at["mem", "intensity"] == pytest.approx(10.0, rel=1e-12)      # 4e10 / 4e9
    assert derived.at["gemm16", "intensity"] == pytest.approx(1000.0, rel=1e-12)  # 1.6e12 / 1.6e9
    assert derived.at["fp32", "intensity"] == pytest.approx(100.0, rel=1e-12)     # 4e11 / 4e9
    assert derived.at["at_ridge", "intensity"] == 500.0
    assert math.isnan(derived.at["no_bytes", "intensity"])
    # the largest width wins: fp32 has 3e11 fp32 against 1e11 fp16
    assert dict(derived["flops_key"]) == {"fp32": "flops32", "mem": "flops16", "no_bytes": "", "gemm16": "flops16",
                                          "at_ridge": "flops16"}


def test_flops_key_for_each_width():
    rows = [_kernel("f8", 1e6, 1, 1e6, flops8=3.0, flops16=2.0), _kernel("f64", 2e6, 1, 1e6, flops32=1.0, flops64=5.0)]
    out = add_derived(pd.DataFrame(rows), PEAKS, 1).set_index("name")
    assert out.at["f8", "flops_key"] == "flops8" and out.at["f64", "flops_key"] == "flops64"


def test_roofline_bound(derived):
    assert derived.at["mem", "bound"] == "memory"
    assert derived.at["gemm16", "bound"] == "compute"
    # intensity 100 >= fp32 ridge 25 (against the fp16 ridge 500 it would be memory-bound)
    assert derived.at["fp32", "bound"] == "compute"
    # intensity 500 == ridge 500: the code compares `intensity >= ridge`, so the ridge itself counts as compute
    assert derived.at["at_ridge", "bound"] == "compute"
    assert derived.at["no_bytes", "bound"] == ""


def test_pct_of_peak_against_the_bounding_roof(derived):
    # memory-bound: against DRAM, 100 * 1000 / 2000
    assert derived.at["mem", "pct_of_peak"] == pytest.approx(50.0, rel=1e-12)
    # compute-bound fp16: against the fp16 peak, 100 * 800 / 1000 (the DRAM roof would give 40)
    assert derived.at["gemm16", "pct_of_peak"] == pytest.approx(80.0, rel=1e-12)
    # compute-bound fp32: against the fp32 peak, 100 * 40 / 50 (fp16 peak: 4; DRAM roof: 20)
    assert derived.at["fp32", "pct_of_peak"] == pytest.approx(80.0, rel=1e-12)
    # at the ridge both roofs agree: 100 * 500 / 1000 == 100 * 1000 / 2000
    assert derived.at["at_ridge", "pct_of_peak"] == pytest.approx(50.0, rel=1e-12)
    assert math.isnan(derived.at["no_bytes", "pct_of_peak"])


def test_zero_calls_do_not_divide_by_zero():
    # calls are clipped to 1: avg = 3e6 ns / 1 / 1e3
    out = add_derived(pd.DataFrame([_kernel("k", 3e6, 0, 0.0)]), PEAKS, 1)
    assert out.at[0, "avg_us"] == pytest.approx(3000.0, rel=1e-12)


# ---- summarize -------------------------------------------------------------------------------------------

def _cat_row(name, category, origin, total_ns, flops, annotated=False):
    return {"name": name, "category": category, "origin": origin, "total_ns": float(total_ns),
            "flops": float(flops), "annotated": annotated}


MANIFEST = {"target": {"preset": "toy"}, "env": {"gpu": {"name": "NVIDIA H100 80GB HBM3"}},
            "profile": {"steps": 4, "proton_step_ms": 6.5, "plain_step_ms": 6.0}}


@pytest.fixture(scope="module")
def summary():
    df = pd.DataFrame([
        _cat_row("g1", "GEMM", "library", 6e6, 4.8e12),
        _cat_row("g2", "GEMM", "library", 2e6, 0.8e12),
        _cat_row("a", "attention", "library", 4e6, 2e12),
        _cat_row("p1", "Inductor pointwise", "inductor", 3e6, 1e10, annotated=True),
        _cat_row("p2", "Inductor pointwise", "inductor", 1e6, 0.0, annotated=False),
        _cat_row("o", "other", "library", 4e6, 0.0),
    ])
    return summarize(df, MANIFEST, {"gpu": "toy-gpu"}, n_steps(MANIFEST))


def test_summary_per_category(summary):
    # 20 ms of kernels in all, 4 steps
    cats = summary["by_category"]
    # GEMM: 8 ms -> 2 ms/step, 40 %, 5.6e12 flop / 8e-3 s = 700 TFLOP/s
    assert cats["GEMM"]["step_ms"] == pytest.approx(2.0, rel=1e-12)
    assert cats["GEMM"]["pct"] == pytest.approx(40.0, rel=1e-12)
    assert cats["GEMM"]["tflops"] == pytest.approx(700.0, rel=1e-12)
    assert cats["GEMM"]["kernels"] == 2
    # attention: 4 ms -> 1 ms/step, 20 %, 2e12 / 4e-3 = 500
    assert cats["attention"] == pytest.approx({"step_ms": 1.0, "pct": 20.0, "tflops": 500.0, "kernels": 1},
                                              rel=1e-12)
    # pointwise: 4 ms, 1e10 / 4e-3 s = 2.5 TFLOP/s
    assert cats["Inductor pointwise"] == pytest.approx({"step_ms": 1.0, "pct": 20.0, "tflops": 2.5, "kernels": 2},
                                                       rel=1e-12)
    assert cats["other"] == pytest.approx({"step_ms": 1.0, "pct": 20.0, "tflops": 0.0, "kernels": 1}, rel=1e-12)


def test_summary_first_four_categories_always_present(summary):
    # no reduction kernels: still listed, with zeros; an empty template category is left out
    assert summary["by_category"]["Inductor reduction"] == {"step_ms": 0.0, "pct": 0.0, "tflops": 0.0,
                                                            "kernels": 0}
    assert "Inductor template" not in summary["by_category"]
    assert list(summary["by_category"]) == ["GEMM", "attention", "Inductor pointwise", "Inductor reduction",
                                            "other"]


def test_summary_totals(summary):
    assert summary["steps"] == 4 and summary["target"] == "toy" and summary["gpu"] == "toy-gpu"
    assert summary["step_ms_wall"] == 6.5 and summary["plain_step_ms"] == 6.0
    assert summary["gpu_kernel_ms_per_step"] == pytest.approx(5.0, rel=1e-12)    # 20e6 ns / 4 / 1e6
    # flop: 4.8e12 + 0.8e12 + 2e12 + 1e10 = 7.61e12
    assert summary["tflops_per_step"] == pytest.approx(1.9025, rel=1e-12)         # 7.61e12 / 4 / 1e12
    assert summary["overall_tflops"] == pytest.approx(380.5, rel=1e-12)           # 7.61e12 / 20e-3 s / 1e12
    assert summary["kernels"] == 6 and summary["inductor_kernels"] == 2 and summary["inductor_annotated"] == 1


def test_summary_of_an_empty_table():
    s = summarize(pd.DataFrame(), {"profile": {"steps": 2}}, {"gpu": None}, 2)
    assert list(s["by_category"]) == list(CATEGORIES[:4])
    assert all(c == {"step_ms": 0.0, "pct": 0.0, "tflops": 0.0, "kernels": 0} for c in s["by_category"].values())
    assert s["gpu_kernel_ms_per_step"] == 0.0 and s["overall_tflops"] == 0.0 and s["kernels"] == 0


# ---- merge_ncu -----------------------------------------------------------------------------------------

def _ann(name, origin, category, read, write, flops_per_call, calls=4):
    """Annotated totals over `calls` launches; read/write are per launch."""
    return {"name": name, "origin": origin, "category": category, "calls": calls,
            "bytes": float((read + write) * calls), "flops": float(flops_per_call * calls),
            "read_bytes_per_call": float(read), "write_bytes_per_call": float(write)}


def _meas(name, read, write, flops, duration_ns=1000.0):
    return {"name": name, "duration_ns": duration_ns, "dram_read_bytes": float(read),
            "dram_write_bytes": float(write), "dram_bytes": float(read + write), "flops": float(flops)}


@pytest.fixture(scope="module")
def merged():
    # every annotated kernel: 4 launches, 6e7 B read + 4e7 B written and 1e9 flop per launch
    nan = float("nan")
    df = pd.DataFrame([
        _ann("in_band", "inductor", "Inductor pointwise", 6e7, 4e7, 1e9),
        _ann("bytes_hi", "inductor", "Inductor pointwise", 6e7, 4e7, 1e9),
        _ann("flops_lo", "inductor", "Inductor reduction", 6e7, 4e7, 1e9),
        _ann("both", "inductor", "Inductor pointwise", 6e7, 4e7, 1e9),
        _ann("lib_other", "library", "other", 6e7, 4e7, 1e9),
        {**_ann("lib_gemm", "library", "GEMM", 0, 0, 1e9), "bytes": 4e8, "read_bytes_per_call": nan,
         "write_bytes_per_call": nan},
        _ann("attn", "inductor", "attention", 6e7, 4e7, 1e9),
        _ann("no_ncu", "inductor", "Inductor pointwise", 6e7, 4e7, 1e9),
    ])
    ncu = pd.DataFrame([
        _meas("in_band", 7.44e7, 3.2e7, 7.6e8),     # read 1.24x, flops 0.76x: both inside 25 %
        _meas("bytes_hi", 7.56e7, 4e7, 1e9),        # read 1.26x
        _meas("flops_lo", 6e7, 4e7, 7.4e8),         # flops 0.74x
        _meas("both", 4.44e7, 4e7, 1.26e9),         # read 0.74x, flops 1.26x
        _meas("lib_other", 1.8e8, 4e7, 3e9),        # 3x off both ways, but a library kernel
        _meas("lib_gemm", 2e8, 0, 5e9),
        _meas("attn", 6e7, 4e7, 5e9),               # flops 5x, but attention flops are not compared
        _meas("lib_gemm", 1.0, 0, 1.0),             # duplicate name: the first row is kept
    ])
    return merge_ncu(df, ncu).set_index("name")


def test_dram_ratio_is_per_launch(merged):
    # annotated per launch: 4e8 B / 4 calls = 1e8 B; measured 7.44e7 + 3.2e7 = 1.064e8 B
    assert merged.at["in_band", "dram_ratio"] == pytest.approx(1.064, rel=1e-12)
    # library GEMM: 4e8 / 4 = 1e8 per launch, ncu 2e8
    assert merged.at["lib_gemm", "dram_ratio"] == pytest.approx(2.0, rel=1e-12)
    assert merged.at["both", "dram_ratio"] == pytest.approx(0.844, rel=1e-12)   # (4.44e7 + 4e7) / 1e8


def test_read_and_write_ratios(merged):
    assert merged.at["in_band", "dram_read_ratio"] == pytest.approx(1.24, rel=1e-12)   # 7.44e7 / 6e7
    assert merged.at["in_band", "dram_write_ratio"] == pytest.approx(0.8, rel=1e-12)   # 3.2e7 / 4e7
    assert merged.at["bytes_hi", "dram_read_ratio"] == pytest.approx(1.26, rel=1e-12)
    assert merged.at["both", "dram_read_ratio"] == pytest.approx(0.74, rel=1e-12)
    # no read/write split for the library GEMM
    assert math.isnan(merged.at["lib_gemm", "dram_read_ratio"])
    assert math.isnan(merged.at["lib_gemm", "dram_write_ratio"])


def test_flops_ratio_is_per_launch_and_skips_gemm_and_attention(merged):
    # 1e9 flop per launch annotated (4e9 over 4 calls)
    assert merged.at["in_band", "flops_ratio"] == pytest.approx(0.76, rel=1e-12)
    assert merged.at["flops_lo", "flops_ratio"] == pytest.approx(0.74, rel=1e-12)
    assert merged.at["both", "flops_ratio"] == pytest.approx(1.26, rel=1e-12)
    assert merged.at["lib_other", "flops_ratio"] == pytest.approx(3.0, rel=1e-12)
    assert math.isnan(merged.at["lib_gemm", "flops_ratio"])
    assert math.isnan(merged.at["attn", "flops_ratio"])


def test_ncu_columns_renamed_and_missing_rows_left_empty(merged):
    assert merged.at["in_band", "ncu_duration_ns"] == 1000.0
    assert merged.at["in_band", "ncu_dram_read_bytes"] == 7.44e7
    assert math.isnan(merged.at["no_ncu", "ncu_duration_ns"]) and math.isnan(merged.at["no_ncu", "dram_ratio"])


def test_annotation_tolerance_is_25_percent():
    assert ANNOTATION_TOLERANCE == 0.25


def test_annotation_flags_both_sides_of_the_boundary(merged):
    # |1.24 - 1| and |0.76 - 1| = 0.24 <= 0.25: not flagged; 1.26, 0.74: 0.26 > 0.25, flagged
    flags = {n: (bool(merged.at[n, "annotation_off"]), merged.at[n, "annotation_off_in"]) for n in merged.index}
    assert flags == {
        "in_band": (False, ""),
        "bytes_hi": (True, "bytes"),
        "flops_lo": (True, "flops"),
        "both": (True, "bytes+flops"),
        "lib_other": (False, ""),     # library kernels are never flagged
        "lib_gemm": (False, ""),
        "attn": (False, ""),          # attention flops not compared; bytes 1.0x
        "no_ncu": (False, ""),
    }


def test_flag_uses_total_bytes_without_a_read_split():
    # no read/write columns at all: the total DRAM ratio decides (1.3 > 1.25)
    df = pd.DataFrame([{"name": "k", "origin": "inductor", "category": "Inductor pointwise", "calls": 2,
                        "bytes": 2e8, "flops": 0.0}])
    ncu = pd.DataFrame([{"name": "k", "dram_bytes": 1.3e8}])
    out = merge_ncu(df, ncu)
    assert out.at[0, "dram_ratio"] == pytest.approx(1.3, rel=1e-12)     # 1.3e8 / (2e8 / 2)
    assert bool(out.at[0, "annotation_off"]) and out.at[0, "annotation_off_in"] == "bytes"


def test_merge_without_ncu_keeps_the_table():
    df = pd.DataFrame([_ann("k", "inductor", "other", 1, 1, 1)])
    assert list(merge_ncu(df, None).columns) == list(df.columns)


# peaks (spec from device facts, measured ceilings overriding): tests/test_peaks.py


# ---- classify ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind,expect", [
    ("pointwise", "Inductor pointwise"), ("foreach", "Inductor pointwise"),
    ("reduction", "Inductor reduction"), ("persistent_reduction", "Inductor reduction"),
    ("flex_attention", "attention"), ("template_mm", "Inductor template"), ("scan", "other"),
])
def test_classify_inductor_by_kind(kind, expect):
    # an Inductor kernel is classified by its kind alone, whatever its name says
    assert classify("triton_red_fused__scaled_dot_product_cudnn_attention_mm_6", "inductor", kind,
                    "aten::mm") == expect


@pytest.mark.parametrize("name,expect", [
    ("triton_poi_fused_add_0", "Inductor pointwise"), ("triton_for_fused_1", "Inductor pointwise"),
    ("triton_red_fused_sum_2", "Inductor reduction"), ("triton_per_fused_softmax_3", "Inductor reduction"),
    ("triton_tem_fused_mm_4", "Inductor template"), ("my_triton_kernel", "other"),
])
def test_classify_inductor_without_its_record_by_name_prefix(name, expect):
    # kernels.json missing or damaged: no kind; Inductor's name prefix says it (was: every kernel 'other', the
    # summary's pointwise and reduction rows 0 kernels)
    assert classify(name, "inductor", None, "") == expect


@pytest.mark.parametrize("op", ["aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::linear",
                                "aten::matmul", "aten::_scaled_mm"])
def test_classify_gemm_ops(op):
    # the op decides before the name does
    assert classify("flash_fwd_kernel", "library", None, op) == "GEMM"


@pytest.mark.parametrize("op", ["aten::_scaled_dot_product_flash_attention", "aten::_cudnn_attention_forward"])
def test_classify_attention_ops(op):
    assert classify("nvjet_sm90_tst_64x8", "library", None, op) == "attention"


@pytest.mark.parametrize("name,expect", [
    ("flash_fwd_kernel", "attention"), ("fmha_cutlassF_bf16_aligned", "attention"),   # attention before cutlass
    ("cudnn_sdpa_fprop", "attention"), ("kernel_attn_fwd", "attention"),
    ("nvjet_sm90_tst_192x192", "GEMM"), ("sm90_xmma_gemm_bf16", "GEMM"), ("cutlass_80_tensorop_s1688", "GEMM"),
    ("ampere_bf16_s16816", "GEMM"), ("_ZN8cublasLt19splitKreduce_kernel", "GEMM"),
    ("elementwise_kernel", "other"),
    # NCCL's collectives, though their names hold "Reduce" and "LL": before every other rule, whatever op
    ("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "communication"),
    ("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", "communication"),
])
def test_classify_library_by_name(name, expect):
    assert classify(name, "library", None, "") == expect


def test_classify_nccl_under_any_op():
    assert classify("ncclDevKernel_SendRecv", "library", None, "c10d::allreduce_") == "communication"
    assert classify("ncclDevKernel_AllReduce_Sum_f32_RING_LL", "library", None, "aten::mm") == "communication"


def test_classify_library_op_not_gemm_falls_to_name():
    assert classify("elementwise_kernel", "library", None, "aten::add") == "other"
    assert classify("nvjet_sm90", "library", None, "aten::add") == "GEMM"


# ---- library_costs ------------------------------------------------------------------------------------

def test_library_costs_sum_per_kernel_and_width(tmp_path):
    csv = tmp_path / "library_ops.csv"
    csv.write_text("kernel,op,flops_key,flops,bytes\n"
                   "gemm_a,aten::addmm,flops16,100,10\n"
                   "gemm_a,aten::addmm,flops16,300,30\n"
                   "gemm_a,aten::mm,flops32,7,1\n"
                   "ew,aten::add,,0,0\n")
    lib = library_costs(pd.read_csv(csv, keep_default_na=False))
    # gemm_a: 3 launches, 10 + 30 + 1 B, 100 + 300 fp16 flop and 7 fp32 flop, most frequent op addmm
    assert lib.at["gemm_a", "lib_calls"] == 3 and lib.at["gemm_a", "lib_bytes"] == 41
    assert lib.at["gemm_a", "lib_flops16"] == 400 and lib.at["gemm_a", "lib_flops32"] == 7
    assert lib.at["gemm_a", "lib_flops8"] == 0 and lib.at["gemm_a", "lib_flops64"] == 0
    assert lib.at["gemm_a", "op"] == "aten::addmm"
    assert lib.at["ew", "lib_calls"] == 1 and lib.at["ew", "lib_flops16"] == 0 and lib.at["ew", "op"] == "aten::add"
    assert library_costs(None).empty


def test_library_costs_op_is_the_most_frequent_then_first_by_name(tmp_path):
    csv = tmp_path / "library_ops.csv"
    csv.write_text("kernel,op,flops_key,flops,bytes\n"
                   "k,aten::mul,,0,0\nk,aten::add,,0,0\nk,aten::mul,,0,0\n"     # mul twice, add once
                   "t,aten::zeta,,0,0\nt,aten::alpha,,0,0\n"                     # a tie: alpha sorts first
                   "u,aten::sub,,0,0\n")
    lib = library_costs(pd.read_csv(csv, keep_default_na=False))
    assert lib["op"].to_dict() == {"k": "aten::mul", "t": "aten::alpha", "u": "aten::sub"}
    assert lib["lib_calls"].to_dict() == {"k": 3, "t": 2, "u": 1}


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

# ==== analysis/kernels.py ===============================================================================

def _hatchet_rows(rows: list[dict]) -> pd.DataFrame:
    """Hatchet kernel rows: name, calls, time_ns, bytes and every flops key (0 unless given)."""
    full = [{"name": r["name"], "calls": r.get("calls", 1), "time_ns": r.get("time_ns", 0.0),
             "bytes": r.get("bytes", 0.0), **{k: r.get(k, 0.0) for k in FLOP_KEYS}} for r in rows]
    return pd.DataFrame(full)


def test_by_name_of_no_rows_is_an_empty_frame_with_the_columns():
    df = by_name(pd.DataFrame(columns=["name", "calls", "time_ns", "bytes", *FLOP_KEYS]))
    assert len(df) == 0
    assert list(df.columns) == ["calls", "time_ns", "bytes", *FLOP_KEYS]


def test_by_name_sums_per_name():
    df = by_name(_hatchet_rows([{"name": "a", "calls": 2, "time_ns": 10.0}, {"name": "b", "calls": 1},
                                {"name": "a", "calls": 3, "time_ns": 5.0, "flops16": 7.0}]))
    assert df.loc["a", "calls"] == 5 and df.loc["a", "time_ns"] == 15.0 and df.loc["a", "flops16"] == 7.0
    assert list(df.index) == ["a", "b"]


def test_library_costs_of_nothing():
    assert library_costs(None).empty
    assert library_costs(pd.DataFrame(columns=["kernel", "op", "flops", "flops_key", "bytes"])).empty


def test_library_costs_per_width_and_most_common_op():
    ops = pd.DataFrame([
        {"kernel": "g", "op": "aten::mm", "flops": 100.0, "flops_key": "flops16", "bytes": 10.0},
        {"kernel": "g", "op": "aten::addmm", "flops": 50.0, "flops_key": "flops32", "bytes": 5.0},
        {"kernel": "g", "op": "aten::mm", "flops": 30.0, "flops_key": "flops16", "bytes": 1.0},
        {"kernel": "h", "op": "aten::b", "flops": 0.0, "flops_key": "", "bytes": 2.0},
        {"kernel": "h", "op": "aten::a", "flops": 0.0, "flops_key": "", "bytes": 2.0},
    ])
    c = library_costs(ops)
    # g: 3 launches, 16 B; flops16 100 + 30, flops32 50, others 0; op: mm twice beats addmm once
    assert c.loc["g", "lib_calls"] == 3 and c.loc["g", "lib_bytes"] == 16.0
    assert [c.loc["g", f"lib_{k}"] for k in FLOP_KEYS] == [0.0, 130.0, 50.0, 0.0]
    assert c.loc["g", "op"] == "aten::mm"
    # h: a tie, the first op by name
    assert c.loc["h", "op"] == "aten::a" and c.loc["h", "lib_calls"] == 2


def test_library_costs_a_row_without_width_or_op_counts_in_no_width():
    ops = pd.DataFrame([
        {"kernel": "g", "op": "aten::mm", "flops": 100.0, "flops_key": "flops16", "bytes": 10.0},
        {"kernel": "g", "op": None, "flops": 5.0, "flops_key": None, "bytes": 1.0},
        {"kernel": "g", "op": None, "flops": 7.0, "flops_key": None, "bytes": 1.0},
    ])
    c = library_costs(ops)
    # 3 launches, 12 B; the 100 flop of the one flops16 row, and the 5 + 7 without a width in none (flops8, a
    # width no row has, stays 0); the op: mm, the one named (two rows without an op are no op)
    assert c.loc["g", "lib_calls"] == 3 and c.loc["g", "lib_bytes"] == 12.0
    assert [c.loc["g", f"lib_{k}"] for k in FLOP_KEYS] == [0.0, 100.0, 0.0, 0.0]
    assert c.loc["g", "op"] == "aten::mm"


def test_classify_every_branch():
    for kind, cat in (("pointwise", "Inductor pointwise"), ("foreach", "Inductor pointwise"),
                      ("reduction", "Inductor reduction"), ("persistent_reduction", "Inductor reduction"),
                      ("flex_attention", "attention"), ("template_mm", "Inductor template"), (None, "other"),
                      ("other", "other")):
        assert classify("triton_x", "inductor", kind, "aten::mm") == cat
    # library: the op decides first, then the name
    assert classify("k", "library", None, "aten::_scaled_dot_product_flash") == "attention"
    assert classify("k", "library", None, "aten::my_attention") == "attention"
    assert classify("flash_fwd", "library", None, "aten::mm") == "GEMM"
    assert classify("k", "library", None, "aten::bmm") == "GEMM"
    assert classify("fmha_cutlass_fwd", "library", None, "") == "attention"
    assert classify("sm90_xmma_gemm", "library", None, "aten::copy_") == "GEMM"
    assert classify("elementwise_kernel", "library", None, "aten::copy_") == "other"


def test_kernel_table_origins_annotation_and_library_costs():
    steps = _hatchet_rows([
        {"name": "triton_poi_a", "calls": 4, "time_ns": 400.0},    # harvested, annotated
        {"name": "triton_red_b", "calls": 2, "time_ns": 300.0},    # not in kernels.json: still Inductor
        {"name": "triton_poi_attn_e", "calls": 1, "time_ns": 250.0},  # ditto, with a library-looking name
        {"name": "triton_poi_c", "calls": 2, "time_ns": 200.0},    # annotated with zero calls: not annotated
        {"name": "triton_poi_d", "calls": 2, "time_ns": 150.0},    # annotated with no bytes, some flops
        {"name": "void at::native::copy_kernel<float>(float*)", "calls": 6, "time_ns": 100.0},  # library, no costs
        {"name": "sm90_xmma_gemm", "calls": 2, "time_ns": 50.0},   # library with costs
        {"name": "nvjet_zero", "calls": 2, "time_ns": 10.0},       # library with costs but 0 bytes
    ])
    annotated = _hatchet_rows([
        {"name": "triton_poi_a", "calls": 2, "bytes": 1000.0, "flops32": 300.0},
        {"name": "triton_poi_c", "calls": 0, "bytes": 50.0},
        {"name": "triton_poi_d", "calls": 1, "bytes": 0.0, "flops32": 10.0},
        {"name": "sm90_xmma_gemm", "calls": 1, "bytes": 99.0},   # a library kernel's hatchet bytes are ignored
    ])
    harvested = {"triton_poi_a": {"name": "triton_poi_a", "kind": "pointwise", "aten_ops": ["aten::add", "aten::mul"]},
                 "triton_poi_c": {"name": "triton_poi_c", "kind": "pointwise"},
                 "triton_poi_d": {"name": "triton_poi_d", "kind": "pointwise", "aten_ops": []}}
    lib_ops = pd.DataFrame([
        {"kernel": "sm90_xmma_gemm", "op": "aten::mm", "flops": 64.0, "flops_key": "flops16", "bytes": 8.0},
        {"kernel": "nvjet_zero", "op": "aten::bmm", "flops": 5.0, "flops_key": "flops16", "bytes": 0.0},
    ])
    io = {"triton_poi_a": {"read": 600, "write": 400}, "triton_poi_c": None}
    df = kernel_table(steps, annotated, harvested, lib_ops, io, n_steps=2).set_index("name")

    a = df.loc["triton_poi_a"]
    # annotated step: 2 calls with 1000 B, 300 flops; timed: 4 calls -> x 2 = 2000 B, 600 flops32
    assert (a["origin"], a["kind"], a["category"], a["display"]) == \
        ("inductor", "pointwise", "Inductor pointwise", "triton_poi_a")
    assert (a["bytes"], a["flops32"], a["flops16"], a["flops"], a["annotated"]) == (2000.0, 600.0, 0.0, 600.0, True)
    assert a["aten_ops"] == "aten::add, aten::mul"
    assert (a["calls"], a["calls_per_step"], a["total_ns"]) == (4, 2.0, 400.0)     # 4 calls over 2 steps
    assert (a["read_bytes_per_call"], a["write_bytes_per_call"]) == (600, 400)

    b = df.loc["triton_red_b"]
    # no record: Inductor by its prefix, its kind by it too (triton_red_: reduction); nothing annotated
    assert (b["origin"], b["kind"], b["category"], b["aten_ops"]) == ("inductor", "reduction", "Inductor reduction",
                                                                      "")
    assert (b["bytes"], b["flops"], b["annotated"]) == (0.0, 0.0, False)
    assert all(b[k] == 0.0 for k in FLOP_KEYS)
    assert math.isnan(b["read_bytes_per_call"]) and math.isnan(b["write_bytes_per_call"])
    # an Inductor kernel is classified as Inductor even when its name matches the attention pattern
    assert tuple(df.loc["triton_poi_attn_e", ["origin", "kind", "category"]]) == ("inductor", "pointwise",
                                                                                  "Inductor pointwise")

    c = df.loc["triton_poi_c"]
    # annotated row with 0 calls is not used; a record without aten_ops joins to ""
    assert (c["bytes"], c["flops"], c["annotated"], c["aten_ops"]) == (0.0, 0.0, False, "")
    assert math.isnan(c["read_bytes_per_call"])

    d = df.loc["triton_poi_d"]
    # 0 bytes but 10 flops per annotated call, x 2 timed calls = 20: annotated all the same
    assert (d["bytes"], d["flops32"], d["annotated"]) == (0.0, 20.0, True)

    lib = df.loc["void at::native::copy_kernel<float>(float*)"]
    # not in the op map: no costs, no op; display: short name (at::native:: dropped, template words kept)
    assert (lib["origin"], lib["kind"], lib["category"], lib["aten_ops"]) == ("library", "other", "other", "")
    assert (lib["bytes"], lib["flops"], lib["annotated"], lib["display"]) == (0.0, 0.0, False, "copy_kernel<float>")
    assert lib["calls_per_step"] == 3.0

    g = df.loc["sm90_xmma_gemm"]
    # one step's op map x 2 steps: 8 B -> 16, 64 flops16 -> 128; kind from classify = "gemm"
    assert (g["origin"], g["kind"], g["category"], g["aten_ops"]) == ("library", "gemm", "GEMM", "aten::mm")
    assert (g["bytes"], g["flops16"], g["flops"], g["annotated"]) == (16.0, 128.0, 128.0, True)

    z = df.loc["nvjet_zero"]
    # flops but 0 bytes: a library kernel is annotated only with bytes
    assert (z["flops16"], z["bytes"], z["annotated"]) == (10.0, 0.0, False)


def test_kernel_table_without_annotated_step_and_shared_short_names():
    steps = _hatchet_rows([
        {"name": "void at::native::copy_kernel<float>(int*)", "time_ns": 5.0},
        {"name": "void at::native::copy_kernel<float>(float*)", "time_ns": 9.0},
        {"name": "triton_poi_a", "time_ns": 1.0},
    ])
    for annotated in (None, _hatchet_rows([])):
        df = kernel_table(steps, annotated, {}, None, {}, 1).set_index("name")
        # both short to copy_kernel<float>: the longer (9 ns) keeps it, the other is numbered
        assert df.loc["void at::native::copy_kernel<float>(float*)", "display"] == "copy_kernel<float>"
        assert df.loc["void at::native::copy_kernel<float>(int*)", "display"] == "copy_kernel<float> #2"
        assert df.loc["triton_poi_a", "annotated"] == False       # noqa: E712 (numpy bool)
        assert df.loc["triton_poi_a", "bytes"] == 0.0


def test_kernel_table_of_no_kernels_is_empty():
    assert len(kernel_table(_hatchet_rows([]), None, {}, None, {}, 1)) == 0


# ---- mutation audit (issue 30): provenance and the module column, annotation edges -----------------------------

def test_kernel_table_provenance_and_module_column():
    steps = _hatchet_rows([{"name": n, "calls": 2, "time_ns": t} for n, t in (
        ("triton_poi_attn", 90.0), ("triton_poi_top", 80.0), ("triton_poi_none", 70.0), ("triton_poi_other", 60.0),
        ("nvjet_gemm", 50.0), ("nvjet_nomod", 40.0))])
    harvested = {
        # traced, inside the regional block: the block's prefix shown as *
        "triton_poi_attn": {"kind": "pointwise", "provenance": {"source": "traced", "block": "blocks.*",
                                                                 "module": "blocks.*.attn.norm_q"}},
        # traced, no block of its own: found among the run's blocks when its module lies in one
        "triton_poi_top": {"kind": "pointwise", "provenance": {"source": "traced", "module": "blocks.*.ff"}},
        # traced, no module known: "-"
        "triton_poi_none": {"kind": "pointwise", "provenance": {"source": "traced", "module": None}},
        # not traced: what it is said in brackets
        "triton_poi_other": {"kind": "pointwise", "provenance": {"source": "no stack trace"}},
    }
    lib_ops = pd.DataFrame([
        {"kernel": "nvjet_gemm", "op": "aten::mm", "flops": 1.0, "flops_key": "flops16", "bytes": 1.0,
         "modules": '["blocks.0.ff.proj", "blocks.1.ff.proj"]'},
        {"kernel": "nvjet_nomod", "op": "aten::mm", "flops": 1.0, "flops_key": "flops16", "bytes": 1.0,
         "modules": ""},
    ])
    df = kernel_table(steps, None, harvested, lib_ops, {}, 1).set_index("name")
    assert df.loc["triton_poi_attn", "module"] == "*.attn.norm_q"
    assert df.loc["triton_poi_attn", "provenance"] == harvested["triton_poi_attn"]["provenance"]
    assert df.loc["triton_poi_top", "module"] == "*.ff"
    assert df.loc["triton_poi_none", "module"] == "-"
    assert df.loc["triton_poi_other", "module"] == "(no stack trace)"
    # a library kernel: the modules of the extern ops that launched it, their common pattern (0 and 1 -> *)
    assert df.loc["nvjet_gemm", "provenance"] == {"source": "ATen op and input shapes",
                                                  "modules": ["blocks.0.ff.proj", "blocks.1.ff.proj"],
                                                  "module": "blocks.*.ff.proj"}
    assert df.loc["nvjet_gemm", "module"] == "*.ff.proj"
    # no modules recorded for its calls: a provenance of none ("" common pattern -> "" shown)
    assert df.loc["nvjet_nomod", "provenance"]["modules"] == []
    # a kernel with no record and no op map row: no provenance, an empty module column
    plain = kernel_table(_hatchet_rows([{"name": "elementwise_kernel", "time_ns": 1.0}]), None, {}, None, {}, 1)
    assert plain.loc[0, "module"] == "" and plain.loc[0, "provenance"] is None


def test_annotated_at_the_smallest_counts():
    steps = _hatchet_rows([{"name": n, "calls": 1, "time_ns": 1.0} for n in ("triton_b1", "triton_f1", "triton_0")]
                          + [{"name": "nvjet_1b", "calls": 1, "time_ns": 1.0}])
    annotated = _hatchet_rows([{"name": "triton_b1", "bytes": 1.0}, {"name": "triton_f1", "flops16": 1.0},
                               {"name": "triton_0"}])
    # one library launch of 0.5 B a step, 2 steps: 1 B
    lib_ops = pd.DataFrame([{"kernel": "nvjet_1b", "op": "aten::mm", "flops": 0.0, "flops_key": "", "bytes": 0.5}])
    df = kernel_table(steps, annotated, {}, lib_ops, {}, 2).set_index("name")
    # one byte, or one flop, is annotated; nothing at all is not
    assert bool(df.loc["triton_b1", "annotated"]) and bool(df.loc["triton_f1", "annotated"])
    assert not bool(df.loc["triton_0", "annotated"])
    assert df.loc["nvjet_1b", "bytes"] == 1.0 and bool(df.loc["nvjet_1b", "annotated"])


def test_block_patterns_longest_first():
    from inductor_prof.analysis.kernels import block_patterns

    harvested = {"x": {"provenance": {"block": "z.*"}}, "y": {"provenance": {"block": "a.*.b.*"}},
                 "w": {"provenance": {"block": "z.*"}}, "v": {"provenance": {}}, "u": {}}
    # each once, the longest first (a nested block is matched before the one it lies in), none for no block
    assert block_patterns(harvested) == ["a.*.b.*", "z.*"]


# ---- mutation audit (issue 30): merge_ncu's edges (one launch, none, no bytes, the replayed call's bytes) ------

def test_ncu_ratios_at_their_edges():
    df = pd.DataFrame([
        # one launch: per launch is the whole (not halved); 0 launches: counted as one
        {**_ann("one", "inductor", "Inductor pointwise", 6e7, 4e7, 1e9, calls=1)},
        {**_ann("zero", "inductor", "Inductor pointwise", 6e7, 4e7, 1e9, calls=1), "calls": 0},
        # no bytes and no flops annotated: no ratio, not inf
        {**_ann("nothing", "inductor", "Inductor pointwise", 0, 0, 0)},
        # a library call ncu replayed (its bytes 2e8) beside a kernel it did not (model bytes NaN or 0)
        {**_ann("lib", "library", "GEMM", 6e7, 4e7, 1e9)},
        {**_ann("own", "inductor", "Inductor pointwise", 6e7, 4e7, 1e9)},
        {**_ann("zero_model", "library", "GEMM", 6e7, 4e7, 1e9)},
    ])
    ncu = pd.DataFrame([{**_meas(n, 7.5e7, 5e7, 1.25e9), "model_bytes": mb, "model_us": mus}
                        for n, mb, mus in (("one", float("nan"), float("nan")), ("zero", float("nan"), float("nan")),
                                           ("nothing", float("nan"), float("nan")), ("lib", 2e8, 1.0),
                                           ("own", float("nan"), float("nan")), ("zero_model", 0.0, float("nan")))])
    out = merge_ncu(df, ncu).set_index("name")
    # 1.25e8 measured over 1e8 per launch: 1.25 exactly, at the tolerance and not past it: not flagged
    for name in ("one", "zero", "own", "zero_model"):
        assert out.at[name, "dram_ratio"] == pytest.approx(1.25, rel=1e-12), name
    assert out.at["one", "flops_ratio"] == pytest.approx(1.25, rel=1e-12)
    assert out.at["one", "dram_read_ratio"] == pytest.approx(1.25, rel=1e-12)
    assert not out["annotation_off"].any()
    # the replayed call: against its own 2e8 bytes
    assert out.at["lib", "dram_ratio"] == pytest.approx(0.625, rel=1e-12)
    for col in ("dram_ratio", "dram_read_ratio", "dram_write_ratio", "flops_ratio"):
        assert math.isnan(out.at["nothing", col]), col
    # the replay's time against the profiled call: no duration measured is no flag
    assert not out["ncu_time_off"].any()


def test_ncu_without_bytes_or_flops_flags_nothing():
    df = pd.DataFrame([_ann("k", "inductor", "Inductor pointwise", 6e7, 4e7, 1e9)])
    out = merge_ncu(df, pd.DataFrame([{"name": "k", "duration_ns": 1000.0}]))
    assert not bool(out.at[0, "annotation_off"]) and out.at[0, "annotation_off_in"] == ""
    # a read/write split annotated but none measured: the total ratio decides, no read ratio column
    out = merge_ncu(df, pd.DataFrame([{"name": "k", "dram_bytes": 2e8}]))
    assert "dram_read_ratio" not in out and out.at[0, "annotation_off_in"] == "bytes"
