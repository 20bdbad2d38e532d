"""Peak rates of the run's GPU, computed from the device's own facts (compute capability, SM count, SM clock,
memory clock and bus width: what Proton stores in every hatchet), the ceilings measured in the run, and the
published figures as a cross-check only. Matching GPU names is avoided: an "L40S" is not an "L4".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from .cost import FLOP_KEYS
from .units import GB, KHZ, TFLOP

# Dense flops per clock per SM (an FMA is two), from NVIDIA's architecture whitepapers. 8/16-bit: tensor
# cores; flops32/flops64: CUDA cores (Inductor's pointwise math runs there). Keys absent: no such unit.
PER_SM_PER_CLOCK = {
    80: {"flops16": 2048, "flops32": 128, "flops64": 64},                       # A100
    86: {"flops16": 1024, "flops32": 256, "flops64": 4},                        # A10, A40, RTX 30
    89: {"flops8": 2048, "flops16": 1024, "flops32": 256, "flops64": 4},       # L4, L40S, RTX 40
    90: {"flops8": 8192, "flops16": 4096, "flops32": 256, "flops64": 128},     # H100, H200
    100: {"flops8": 16384, "flops16": 8192, "flops32": 256, "flops64": 128},   # B200
}
DDR = 2   # HBM and GDDR move data on both clock edges

# Published dense figures (TFLOP/s, GB/s) by (capability, SMs, bus width): a cross-check of the computed
# peaks, never their source. NVIDIA quotes the H100 SXM's tensor rate at 1.83 GHz, below its 1.98 GHz max.
PUBLISHED = {
    (90, 132, 5120): {"name": "H100 SXM", "flops16": 989.4, "flops32": 66.9, "dram_gbps": 3352.0},
    (90, 114, 5120): {"name": "H100 PCIe", "flops16": 756.0, "flops32": 51.2, "dram_gbps": 2039.0},
    (90, 132, 6144): {"name": "H200", "flops16": 989.4, "flops32": 66.9, "dram_gbps": 4800.0},
    (80, 108, 5120): {"name": "A100", "flops16": 312.0, "flops32": 19.5},
    (89, 58, 192): {"name": "L4", "flops16": 121.0, "flops32": 30.3, "dram_gbps": 300.0},
    (89, 142, 384): {"name": "L40S", "flops16": 362.0, "flops32": 91.6, "dram_gbps": 864.0},
}


class Reached(TypedDict):
    tflops: float
    by: str          # what reached it: a kernel, a kernel's shape, an attention backend


class ReachedL2(TypedDict):
    gbps: float
    by: str


class Peaks(TypedDict, total=False):
    """The peaks a run is judged against, as `--json`'s summary.peaks holds them: run_peaks' keys, then
    with_reached's (reached, measured_tflops, and reached_l2 where an op beat the L2 ceiling)."""
    tflops: dict[str, float | None]          # per flops key: the roof (measured, reached or spec)
    dram_gbps: float | None
    l2_gbps: float | None
    kernel_floor_us: float | None
    source: dict[str, str]                   # per key: measured | reached | spec | none
    spec: dict[str, float | None]
    published: dict[str, Any] | None
    gpu: str | None
    reached: dict[str, Reached]
    measured_tflops: dict[str, float | None]
    reached_l2: ReachedL2
    measured_in: str                         # the run whose ceilings stage measured them, when this run reused them


@dataclass(frozen=True)
class DeviceFacts:
    capability: int          # e.g. 90 for sm_90
    num_sms: int
    clock_khz: float         # SM clock (the maximum the device reports)
    mem_clock_khz: float
    bus_width_bits: int

    @classmethod
    def from_proton(cls, device_info: dict) -> DeviceFacts | None:
        """From a hatchet's device info: {"CUDA": {"0": {"arch": "90", "num_sms": ..., ...}}}."""
        dev = next(iter((device_info.get("CUDA") or {}).values()), None)
        if not dev:
            return None
        try:
            return cls(int(dev["arch"]), int(dev["num_sms"]), float(dev["clock_rate"]),
                       float(dev["memory_clock_rate"]), int(dev["bus_width"]))
        except (KeyError, TypeError, ValueError):
            return None


def spec_peaks(facts: DeviceFacts) -> dict[str, float | None]:
    """TFLOP/s per flops key and DRAM GB/s at the device's own clocks (None where the architecture is unknown)."""
    rates = PER_SM_PER_CLOCK.get(facts.capability, {})
    clock_hz = facts.clock_khz * KHZ
    out: dict[str, float | None] = {k: (facts.num_sms * clock_hz * rates[k] / TFLOP if k in rates else None)
                                    for k in FLOP_KEYS}
    out["dram_gbps"] = DDR * facts.mem_clock_khz * KHZ * facts.bus_width_bits / 8 / GB
    return out


def published(facts: DeviceFacts) -> dict | None:
    return PUBLISHED.get((facts.capability, facts.num_sms, facts.bus_width_bits))


def run_peaks(facts: DeviceFacts | None, measured: dict | None, gpu: str | None = "") -> Peaks:
    """The peaks a run is judged against: measured ceilings where the run measured them, else the computed spec.

    {"tflops": {key: TFLOP/s}, "dram_gbps", "l2_gbps" and "kernel_floor_us" (measured or None), "source": {key:
     measured|spec|none},
     "spec": {...}, "published": {...} or None, "gpu": name}.
    """
    spec: dict[str, float | None] = spec_peaks(facts) if facts else {k: None for k in (*FLOP_KEYS, "dram_gbps")}
    peaks = dict(spec)
    source = {k: "spec" if v else "none" for k, v in spec.items()}
    measured = measured or {}
    for key, name in (("flops8", "flops8_tflops"), ("flops16", "flops16_tflops"), ("dram_gbps", "dram_gbps")):
        if measured.get(name):
            peaks[key], source[key] = float(measured[name]), "measured"
    out: Peaks = {"tflops": {k: peaks[k] for k in FLOP_KEYS}, "dram_gbps": peaks["dram_gbps"],
                  "l2_gbps": measured.get("l2_gbps"), "kernel_floor_us": measured.get("kernel_floor_us"),
                  "source": source, "spec": spec, "published": published(facts) if facts else None, "gpu": gpu}
    if isinstance(measured.get("reused_from"), str):   # pipeline/ceilings.py: taken from an earlier run
        out["measured_in"] = measured["reused_from"]
    return out


def with_reached(peaks: Peaks, reached: dict[str, tuple[float, str]], l2: tuple[float, str] | None = None) -> Peaks:
    """The compute roofs the run is judged against, never below a rate a kernel of the same width reached in it:
    `reached` {key: (TFLOP/s, what reached it)} (roofline.reached_rates: compute-bound ops only). A key with a
    measured ceiling takes the higher of the two; a key with none takes the reached rate (the spec, at the
    maximum clock, is reached by no kernel on a power-limited GPU); a key neither measured nor reached keeps the
    spec, said as such. peaks["reached"] and peaks["measured_tflops"] keep both figures for the summary."""
    roofs, source = dict(peaks["tflops"]), dict(peaks["source"])
    out: Peaks = {**peaks, "tflops": roofs, "source": source,
                  "reached": {k: {"tflops": v, "by": by} for k, (v, by) in reached.items()},
                  "measured_tflops": {k: roofs[k] for k in FLOP_KEYS if source.get(k) == "measured"}}
    for key, (tflops, _) in reached.items():
        if not tflops or tflops != tflops:
            continue
        if source.get(key) == "measured" and tflops <= (roofs[key] or 0.0):
            continue
        roofs[key], source[key] = tflops, "reached"
    if l2 is not None:   # roofline.reached_l2: an op moved its minimal bytes faster than the L2 ceiling measured
        out["reached_l2"] = {"gbps": l2[0], "by": l2[1]}
        out["l2_gbps"], source["l2_gbps"] = l2[0], "reached"
    return out
