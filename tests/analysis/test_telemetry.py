"""Clock and power summary (analysis/telemetry.py) on samples written by hand."""
import pytest

from inductor_prof.analysis import telemetry

# (seconds, SM MHz, W, NVML clock-event bits): 0x4 is the software power cap
CAPPED = [(0.00, 1440, 690, 0x4), (0.01, 1380, 698, 0x4), (0.02, 1500, 680, 0x4), (0.03, 1980, 400, 0x0)]


def test_summary_of_samples():
    t = telemetry.summarize(CAPPED, power_limit_w=700, max_sm_mhz=1980)
    assert t["sm_mhz"] == 1470            # median of 1380, 1440, 1500, 1980: (1440 + 1500) / 2
    assert t["power_w"] == 685            # median of 400, 680, 690, 698: (680 + 690) / 2
    assert t["power_w_max"] == 698 and t["power_capped_pct"] == 75 and t["thermal_pct"] == 0


def test_the_line_says_power_limited():
    t = telemetry.summarize(CAPPED, power_limit_w=700, max_sm_mhz=1980)
    assert telemetry.line(t) == ("SM clock 1.47 GHz (max 1.98), 685 of 700 W, power-capped 75% of the time: "
                                 "compute-bound kernels are power-limited")


def test_a_gpu_below_its_limit_is_not_power_limited():
    # 10% of samples capped (< 20%) and a median draw of 300 W (< 95% of 700)
    samples = [(i * 0.01, 1980, 300, 0x4 if i == 0 else 0) for i in range(10)]
    t = telemetry.summarize(samples, 700, 1980)
    assert not telemetry.power_limited(t)
    assert telemetry.line(t) == "SM clock 1.98 GHz (max 1.98), 300 of 700 W, power-capped 10% of the time"


@pytest.mark.parametrize("watts, bits, limited", [(630, 0x4, True), (629, 0x4, False), (690, 0x0, False)])
def test_power_limited_needs_the_cap_reason_and_90_percent_of_the_limit(watts, bits, limited):
    # 90% of 700 W is 630 W; the H100 sets the cap reason at 300 W too (the ViT run: 298 of 700 W, capped 100%)
    t = telemetry.summarize([(0, 1500, watts, bits)], 700, 1980)
    assert telemetry.power_limited(t) is limited


def test_not_measured_says_why():
    assert telemetry.line(telemetry.summarize([], None, None, "nvidia-ml-py is not installed")) == \
        "not measured: nvidia-ml-py is not installed"
    assert telemetry.line(None).startswith("not measured (a run recorded before")


def test_the_line_of_the_recorded_flux_run():
    """examples/runs/flux-h100 (H100, 2026-11-24): 284 NVML samples through the plain back-to-back steps, recorded
    in manifest.json's profile.gpu_telemetry: median 1605 MHz of 1980, 693.0 of 700 W, the cap reason in all."""
    import json

    from recorded import REPO

    t = json.loads((REPO / "examples" / "runs" / "flux-h100" / "manifest.json").read_text())["profile"]["gpu_telemetry"]
    assert t["samples"] == 284 and t["power_capped_pct"] == 100.0
    # 693.036 W >= 0.9 x 700 = 630 W and capped in every sample: power-limited
    assert telemetry.line(t) == ("SM clock 1.60 GHz (max 1.98), 693 of 700 W, power-capped 100% of the time: "
                                 "compute-bound kernels are power-limited")
