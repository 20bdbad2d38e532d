"""TFLOP/s in the attention table: whole numbers from 10 up (an H100's 632.4 -> 632), two significant digits
below (a CPU's 0.0234 -> 0.023, not 0)."""
from inductor_prof.report.format import rate, summary_rows


def test_rate_by_hand():
    assert rate(632.4) == "632"
    assert rate(10.0) == "10"          # the boundary: whole
    assert rate(9.96) == "10"          # two significant digits of 9.96 round up to 10
    assert rate(5.349) == "5.3"
    assert rate(0.0234) == "0.023"
    assert rate(0.0) == "0"
    assert rate(float("nan")) == "-" and rate(None) == "-"


# The run summary's lines (report/format.summary_rows, shared by the terminal and HTML), every row pinned on a
# summary written by hand, so a changed label, number format or condition fails here (a mutation audit found
# these rows unpinned).

PEAKS = {"tflops": {"flops16": 720.52, "flops32": 66.908}, "dram_gbps": 3265.16,
         "source": {"flops16": "measured", "flops32": "spec", "dram_gbps": "measured"}}


def summary(**extra):
    return {"peaks": PEAKS, "target": "flux", "gpu": "NVIDIA H100 80GB HBM3", "step_ms_wall": 136.396,
            "plain_step_ms": 136.142, "steps": 10, "gpu_kernel_ms_per_step": 131.734, "tflops_per_step": 74.46,
            "overall_tflops": 565.6, "kernels": 57, "inductor_kernels": 18, "inductor_annotated": 17,
            "by_category": {"GEMM": {"step_ms": 87.04, "pct": 66.07, "tflops": 684.2, "kernels": 10},
                            "other": {"step_ms": 0.26, "pct": 0.2, "tflops": 0.0, "kernels": 28}},
            **extra}


# a run judged against a reached bf16 roof (peaks.with_reached: above the measured ceiling), fp32 at its spec
RUN_PEAKS = {"tflops": {"flops16": 757.03, "flops32": 66.908}, "dram_gbps": 3265.16, "l2_gbps": 9876.4,
             "source": {"flops16": "reached", "flops32": "spec", "dram_gbps": "measured"},
             "reached": {"flops16": {"tflops": 757.03, "by": "nvjet_a"}}, "measured_tflops": {"flops16": 726.01},
             "spec": {"flops16": 989.43, "flops32": 66.908, "dram_gbps": 3352.3}, "published": {"flops16": 989.4}}
TELEMETRY = {"samples": 40, "sm_mhz": 1710.0, "max_sm_mhz": 1980.0, "power_w": 694.4, "power_w_max": 699.0,
             "power_limit_w": 700.0, "power_capped_pct": 100.0, "thermal_pct": 0.0}


def test_every_row_of_a_one_size_run():
    rows = summary_rows(summary(peaks=RUN_PEAKS, telemetry=TELEMETRY, proton_back_to_back_ms=131.542,
                                plain_back_to_back_ms=132.718, headroom={"by_category": {"GEMM": 10.4329}}))
    # ms with two decimals (136.142 -> 136.14, 136.396 -> 136.40, 131.734 -> 131.73), ratios three (136.396 /
    # 136.142 = 1.00187 -> 1.002x; back to back 131.542 / 132.718 = 0.99114 -> 0.991x), TFLOP one (74.46 -> 74.5),
    # TFLOP/s and roofs none (565.6 -> 566, 757.03 -> 757, 726.01 -> 726, 989.43 -> 989, 66.908 -> 67, 3265.16 ->
    # 3265, 9876.4 -> 9876), shares one (66.07 -> 66.1); clock in GHz two decimals (1710 -> 1.71, 1980 -> 1.98),
    # watts none (694.4 -> 694), capped 100% >= 20%: power-limited; the spec beside a measured or reached roof
    # only, a category at 0 TFLOP/s reads "-"; headroom only where the summary has one (10.4329 -> 10.43)
    assert rows == [
        ("target / GPU", "flux on NVIDIA H100 80GB HBM3"),
        ("step (plain)", "136.14 ms, 10 steps (no profiler: the launch gap is judged from it)"),
        ("Proton's own cost", "step 136.40 ms under Proton (1.002x the plain step); "
                              "back to back 131.54 vs 132.72 ms (0.991x)"),
        ("GPU clock / power", "SM clock 1.71 GHz (max 1.98), 694 of 700 W, power-capped 100% of the time: "
                              "compute-bound kernels are power-limited"),
        ("GPU kernel time per step", "131.73 ms"),
        ("work per step / overall", "74.5 TFLOP, 566 TFLOP/s over kernel time"),
        ("kernels", "57 (18 Inductor, 17 annotated)"),
        ("unpriced", "none: every kernel has flops or bytes"),
        ("compute roofs", "bf16 757 TFLOP/s reached by nvjet_a (above the 726 the ceilings stage measured); "
                          "spec 989 at the maximum clock, published 989; fp32 67 TFLOP/s (spec)"),
        ("memory roofs", "DRAM 3265 GB/s (measured), L2 9876 GB/s (measured)"),
        ("  GEMM", "87.04 ms/step  66.1%  684 TFLOP/s  (10 kernels)  headroom 10.43"),
        ("  other", "0.26 ms/step  0.2%  - TFLOP/s  (28 kernels)"),
    ]
    # a measured roof is said as such, with the spec beside it
    measured = {**RUN_PEAKS, "tflops": {"flops16": 726.01, "flops32": 66.908},
                "source": {**RUN_PEAKS["source"], "flops16": "measured"}, "published": {}}
    assert dict(summary_rows(summary(peaks=measured)))["compute roofs"] == \
        "bf16 726 TFLOP/s (measured); spec 989 at the maximum clock; fp32 67 TFLOP/s (spec)"


def test_step_and_peaks_missing_read_as_dashes():
    peaks = {"tflops": {}, "dram_gbps": None, "source": {"flops16": "-", "flops32": "-", "dram_gbps": "-"}}
    rows = dict(summary_rows({**summary(), "peaks": peaks, "step_ms_wall": None, "plain_step_ms": None}))
    assert rows["step (plain)"] == "- ms, 10 steps (no profiler: the launch gap is judged from it)"
    assert "Proton's own cost" not in rows          # needs both steps
    assert rows["GPU clock / power"] == "not measured (a run recorded before inductor-prof read clocks and power)"
    assert rows["compute roofs"] == "bf16 - TFLOP/s (-); fp32 - TFLOP/s (-)"
    assert rows["memory roofs"] == "DRAM - GB/s (-)"


def test_a_run_of_several_sizes_says_what_a_step_is():
    sizes = [{"size": "1024x1024"}, {"size": "512x512"}]
    rows = dict(summary_rows(summary(sizes=sizes, ncu_at_size="1024x1024")))
    assert rows["input sizes"] == "1024x1024, 512x512 (a step: one call at each size; ncu at 1024x1024)"
    # without ncu there is no "; ncu at" part; one size has no row at all
    rows = dict(summary_rows(summary(sizes=sizes, ncu_at_size=None)))
    assert rows["input sizes"] == "1024x1024, 512x512 (a step: one call at each size)"
    assert "input sizes" not in dict(summary_rows(summary()))


def test_unpriced_line_names_the_longest_and_counts_the_rest():
    unpriced = {"pct_of_gpu_time": 3.456, "ms_per_step": 0.4567,
                "kernels": [{"display": "k1", "pct_of_gpu_time": 2.04, "reason": "aten::foo: unknown dtype 'x'"},
                            {"display": "k2", "pct_of_gpu_time": 1.416, "reason": "r"}]}
    # shares one decimal (3.456 -> 3.5, 2.04 -> 2.0), ms two (0.4567 -> 0.46); the second kernel only counted
    assert dict(summary_rows(summary(unpriced=unpriced)))["unpriced"] == \
        "3.5% of GPU time (0.46 ms/step): k1 (2.0%: aten::foo: unknown dtype 'x') and 1 more (--json)"


def test_an_8_bit_roof_is_said_where_the_run_has_one():
    peaks = {**RUN_PEAKS, "tflops": {**RUN_PEAKS["tflops"], "flops8": 1410.4},
             "source": {**RUN_PEAKS["source"], "flops8": "measured"},
             "spec": {**RUN_PEAKS["spec"], "flops8": 2141.2}}
    assert dict(summary_rows(summary(peaks=peaks)))["compute roofs"].startswith(
        "8-bit 1410 TFLOP/s (measured); spec 2141 at the maximum clock; bf16 757 TFLOP/s reached by nvjet_a")
    # only the spec: not said (a bf16 model has no 8-bit roof to read)
    spec_only = {**peaks, "source": {**peaks["source"], "flops8": "spec"}}
    assert "8-bit" not in dict(summary_rows(summary(peaks=spec_only)))["compute roofs"]
