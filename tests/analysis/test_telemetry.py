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


# ---- mutation audit: the shares' edges, the thermal bits, the line's parts -----------------------------------

def test_thermal_share_and_its_part_of_the_line():
    # 0x20 and 0x40 are thermal slowdown; 1 sample of 8 -> 12.5%; 2 of 8 -> 25%
    samples = [(i, 1500, 300, 0x20 if i == 0 else 0x40 if i == 1 else 0) for i in range(8)]
    t = telemetry.summarize(samples, None, None)
    assert (t["samples"], t["thermal_pct"], t["power_capped_pct"], t["max_sm_mhz"], t["power_limit_w"]) == \
        (8, 25.0, 0.0, None, None)
    # no limit known: "W" alone; no cap: no cap part; no maximum clock: none said
    assert telemetry.line(t) == "SM clock 1.50 GHz, 300 W, thermal slowdown 25% of the time"
    one = telemetry.summarize([(0, 1500, 300, 0x20)] + [(i, 1500, 300, 0) for i in range(1, 100)], None, None)
    assert one["thermal_pct"] == 1.0 and telemetry.line(one).endswith(", thermal slowdown 1% of the time")


def test_a_power_cap_in_one_sample_of_a_hundred_is_said():
    t = telemetry.summarize([(0, 1500, 300, 0x80)] + [(i, 1500, 300, 0) for i in range(1, 100)], 700, 1980)
    assert t["power_capped_pct"] == 1.0
    assert telemetry.line(t) == "SM clock 1.50 GHz (max 1.98), 300 of 700 W, power-capped 1% of the time"


def test_power_limited_at_exactly_a_fifth_of_the_samples():
    at = [(i, 1500, 690, 0x4 if i == 0 else 0) for i in range(5)]        # 1 of 5: 20%
    below = [(i, 1500, 690, 0x4 if i == 0 else 0) for i in range(6)]     # 1 of 6: 16.7%
    assert telemetry.power_limited(telemetry.summarize(at, 700, 1980)) is True
    assert telemetry.power_limited(telemetry.summarize(below, 700, 1980)) is False


def test_nothing_sampled():
    assert telemetry.summarize([], 700, 1980) == {"error": "no samples (the work was shorter than one NVML reading)"}
    assert telemetry.power_limited(None) is False and telemetry.power_limited({"error": "x"}) is False
    assert telemetry.power_limited({}) is False
    assert telemetry.line({"power_w": 1}) == "not measured: unknown"


def test_the_energy_counter_gives_the_windows_power():
    from inductor_prof.drivers.nvml import energy_watts

    # the counter steps at 0.02 s (to 1,013,860 mJ) and at 0.12 s (to 1,083,160): 69,300 mJ in 0.1 s = 693 W,
    # where the trailing power reading said 216 W; the readings before the first step and after the last one
    # are not counted (a step's energy belongs to the time before it)
    readings = [(0.0, 1_000_000), (0.01, 1_000_000), (0.02, 1_013_860), (0.07, 1_013_860), (0.12, 1_083_160),
                (0.13, 1_083_160)]
    assert energy_watts(readings) == pytest.approx(693.0)
    assert energy_watts(readings[:3]) is None          # one step: no span to divide by
    assert energy_watts([]) is None
    t = telemetry.summarize(CAPPED, power_limit_w=700, max_sm_mhz=1980, energy_w=693.0)
    assert (t["power_w"], t["power_source"]) == (693.0, "energy")
    # the energy's 693 W is >= 90% of 700 with the cap set in 75% of samples: power-limited, as the clock says
    assert telemetry.power_limited(t)
    stale = [(s, mhz, 216.0, bits) for s, mhz, _, bits in CAPPED]
    assert not telemetry.power_limited(telemetry.summarize(stale, 700, 1980))           # the readings alone: not
    assert telemetry.summarize(stale, 700, 1980)["power_source"] == "readings"
