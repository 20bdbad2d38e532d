"""Peaks computed from the device's own facts, never from its name; the published table only cross-checks."""
import pytest

from recorded import data_path
from inductor_prof.drivers import proton
from inductor_prof.peaks import DeviceFacts, published, run_peaks, spec_peaks

# H100 SXM as Proton recorded it in the example run: sm_90, 132 SMs, 1,980,000 kHz SM clock,
# 2,619,000 kHz memory clock, 5120-bit bus
H100 = DeviceFacts(90, 132, 1_980_000, 2_619_000, 5120)


def test_facts_read_from_a_recorded_hatchet():
    info = proton.device_info(data_path("flux_small", "proton", "steps.hatchet"))
    assert DeviceFacts.from_proton(info) == H100
    assert DeviceFacts.from_proton({}) is None
    assert DeviceFacts.from_proton({"CUDA": {"0": {"arch": "90"}}}) is None     # incomplete facts


def test_h100_peaks_by_hand():
    p = spec_peaks(H100)
    # tensor bf16: 132 SMs x 1.98e9 clk/s x 4096 flop/clk/SM = 1,070,530,560,000,000 -> 1070.53 TFLOP/s
    assert p["flops16"] == pytest.approx(1070.53056, rel=1e-9)
    assert p["flops8"] == pytest.approx(2 * 1070.53056, rel=1e-9)
    # CUDA-core fp32: 132 x 1.98e9 x 256 (128 FMA lanes x 2) = 66.908 TFLOP/s; fp64 half of it
    assert p["flops32"] == pytest.approx(66.90816, rel=1e-9)
    assert p["flops64"] == pytest.approx(33.45408, rel=1e-9)
    # HBM3: 2 transfers/clk x 2.619e9 clk/s x 5120 bit / 8 = 3,352,320,000,000 B/s
    assert p["dram_gbps"] == pytest.approx(3352.32, rel=1e-9)


def test_published_figures_cross_check_the_computed_ones():
    pub, p = published(H100), spec_peaks(H100)
    assert pub["name"] == "H100 SXM"
    assert p["flops32"] == pytest.approx(pub["flops32"], rel=0.01)
    assert p["dram_gbps"] == pytest.approx(pub["dram_gbps"], rel=0.01)
    # NVIDIA quotes the tensor rate at 1.83 GHz: 1070.5 x 1.83 / 1.98 = 989.4
    assert p["flops16"] * 1.83 / 1.98 == pytest.approx(pub["flops16"], rel=0.001)


def test_l40s_is_not_an_l4():
    # the name lookup this replaced gave an "NVIDIA L40S" the L4's 121 TFLOP/s and 300 GB/s
    l40s = DeviceFacts(89, 142, 2_520_000, 9_001_000, 384)
    p = spec_peaks(l40s)
    assert p["flops16"] == pytest.approx(142 * 2.52e9 * 1024 / 1e12, rel=1e-9)      # 366.4
    assert p["dram_gbps"] == pytest.approx(2 * 9.001e9 * 384 / 8 / 1e9, rel=1e-9)    # 864.1
    assert p["flops16"] == pytest.approx(published(l40s)["flops16"], rel=0.02)
    l4 = DeviceFacts(89, 58, 2_040_000, 6_251_000, 192)
    assert spec_peaks(l4)["dram_gbps"] == pytest.approx(300.0, rel=0.01)              # 2 x 6.251e9 x 24 B
    assert spec_peaks(l4)["flops16"] == pytest.approx(published(l4)["flops16"], rel=0.02)


def test_a100_pcie_and_h100_nvl_get_their_own_bandwidth():
    # A100 80GB PCIe: 1,512 MHz HBM2e on 5120 bits = 1935.4 GB/s (the name table gave 1,555)
    assert spec_peaks(DeviceFacts(80, 108, 1_410_000, 1_512_000, 5120))["dram_gbps"] == pytest.approx(1935.36)
    # H100 NVL: 6144-bit HBM3 at 2,619 MHz = 4,022.8 GB/s (the name table gave nothing)
    nvl = spec_peaks(DeviceFacts(90, 132, 1_785_000, 2_619_000, 6144))
    assert nvl["dram_gbps"] == pytest.approx(4022.784) and nvl["flops16"] == pytest.approx(132 * 1.785e9 * 4096 / 1e12)


def test_unknown_architecture_has_no_flops_peak_but_a_bandwidth():
    p = spec_peaks(DeviceFacts(75, 40, 1_590_000, 5_001_000, 256))
    assert p["flops16"] is None and p["flops32"] is None
    assert p["dram_gbps"] == pytest.approx(2 * 5.001e9 * 32 / 1e9)


def test_run_peaks_prefer_measured_ceilings_and_say_so():
    r = run_peaks(H100, {"flops16_tflops": 700.0, "dram_gbps": 3000.0}, "NVIDIA H100 80GB HBM3")
    assert r["tflops"]["flops16"] == 700.0 and r["dram_gbps"] == 3000.0
    assert r["source"]["flops16"] == "measured" and r["source"]["dram_gbps"] == "measured"
    assert r["tflops"]["flops32"] == pytest.approx(66.90816) and r["source"]["flops32"] == "spec"
    none = run_peaks(None, None)
    assert none["tflops"]["flops16"] is None and none["source"]["flops16"] == "none"


# ---- mutation audit (issue 30): every field of the run's peaks, the reached rates' edges -------------------------

def test_run_peaks_in_full():
    r = run_peaks(H100, {"flops16_tflops": 700.0, "dram_gbps": 3000.0, "l2_gbps": 9000.0}, "H100")
    assert (r["l2_gbps"], r["gpu"], r["spec"], r["published"]["name"]) == (9000.0, "H100", spec_peaks(H100),
                                                                           "H100 SXM")
    bare = run_peaks(None, {})
    assert (bare["gpu"], bare["published"], bare["l2_gbps"]) == ("", None, None)


def test_with_reached_skips_nothing_reached_and_keeps_a_tie_measured():
    from inductor_prof.peaks import with_reached

    peaks = run_peaks(H100, {"flops16_tflops": 700.0, "dram_gbps": 3000.0})
    # a width reached at 0 or NaN TFLOP/s raises nothing (and the widths after it are still looked at)
    for nothing in (0.0, float("nan")):
        out = with_reached(peaks, {"flops8": (nothing, "x"), "flops32": (40.0, "sgemm")})
        assert out["tflops"]["flops8"] == peaks["tflops"]["flops8"] and out["source"]["flops8"] == "spec"
        assert (out["tflops"]["flops32"], out["source"]["flops32"]) == (40.0, "reached")
    # reached exactly at the measured ceiling: the measured one stays; one below it leaves the next width judged
    out = with_reached(peaks, {"flops16": (700.0, "gemm"), "flops32": (40.0, "sgemm")})
    assert (out["tflops"]["flops16"], out["source"]["flops16"]) == (700.0, "measured")
    assert out["source"]["flops32"] == "reached"
