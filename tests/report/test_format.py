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


def test_every_row_of_a_one_size_run():
    rows = summary_rows(summary(headroom={"by_category": {"GEMM": 10.4329}}))
    # ms with two decimals (136.396 -> 136.40, 136.142 -> 136.14, 131.734 -> 131.73), TFLOP one (74.46 -> 74.5),
    # TFLOP/s and peaks none (565.6 -> 566, 720.52 -> 721, 66.908 -> 67, 3265.16 -> 3265), shares one
    # (66.07 -> 66.1); a category at 0 TFLOP/s reads "-"; headroom only where the summary has one (10.4329 -> 10.43)
    assert rows == [
        ("target / GPU", "flux on NVIDIA H100 80GB HBM3"),
        ("step (wall, under Proton)", "136.40 ms (plain 136.14 ms), 10 steps"),
        ("GPU kernel time per step", "131.73 ms"),
        ("work per step / overall", "74.5 TFLOP, 566 TFLOP/s over kernel time"),
        ("kernels", "57 (18 Inductor, 17 annotated)"),
        ("peaks", "bf16 721 TFLOP/s (measured), fp32 67 (spec), DRAM 3265 GB/s (measured)"),
        ("  GEMM", "87.04 ms/step  66.1%  684 TFLOP/s  (10 kernels)  headroom 10.43"),
        ("  other", "0.26 ms/step  0.2%  - TFLOP/s  (28 kernels)"),
    ]


def test_step_and_peaks_missing_read_as_dashes():
    peaks = {"tflops": {}, "dram_gbps": None, "source": {"flops16": "-", "flops32": "-", "dram_gbps": "-"}}
    rows = dict(summary_rows({**summary(), "peaks": peaks, "step_ms_wall": None, "plain_step_ms": None}))
    assert rows["step (wall, under Proton)"] == "- ms (plain - ms), 10 steps"
    assert rows["peaks"] == "bf16 - TFLOP/s (-), fp32 - (-), DRAM - GB/s (-)"


def test_a_run_of_several_sizes_says_what_a_step_is():
    sizes = [{"size": "1024x1024"}, {"size": "512x512"}]
    rows = dict(summary_rows(summary(sizes=sizes, ncu_at_size="1024x1024")))
    assert rows["input sizes"] == "1024x1024, 512x512 (a step: one call at each size; ncu at 1024x1024)"
    # without ncu there is no "; ncu at" part; one size has no row at all
    rows = dict(summary_rows(summary(sizes=sizes, ncu_at_size=None)))
    assert rows["input sizes"] == "1024x1024, 512x512 (a step: one call at each size)"
    assert "input sizes" not in dict(summary_rows(summary()))
