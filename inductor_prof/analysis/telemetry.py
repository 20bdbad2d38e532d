"""Clock and power while the steps ran (pure): NVML samples summarised, and the summary's one line.

A GPU at its power limit lowers its SM clock, and with it the tensor rate every compute-bound kernel can reach:
the line says so, so that a GEMM at 720 TFLOP/s is read against the clock it ran at, not the 1,980 MHz maximum.
"""
from __future__ import annotations

import statistics
from typing import Any

from ..units import HERTZ

MHZ_PER_GHZ = HERTZ["GHz"] / HERTZ["MHz"]

# NVML clock event (throttle) reason bits
POWER_BITS = 0x4 | 0x80     # software power cap, hardware power brake
THERMAL_BITS = 0x20 | 0x40  # software and hardware thermal slowdown
POWER_LIMITED_SHARE = 0.2   # capped in a fifth of the samples or more ...
NEAR_LIMIT = 0.9            # ... while drawing 90% of the limit at the median: the run was power-limited (the H100
                            # sets the power-cap reason at 300 of 700 W too, so the bit alone says nothing)


def summarize(samples: list[Any], power_limit_w: float | None, max_sm_mhz: float | None, error: str = "",
              energy_w: float | None = None) -> dict[str, Any]:
    """{"samples", "sm_mhz" (median), "max_sm_mhz", "power_w", "power_source", "power_w_max", "power_limit_w",
    "power_capped_pct", "thermal_pct"}; {"error": why} when nothing was sampled. power_w: the window's average
    from the energy counter (`energy_w`) where there is one ("energy"), else the median reading ("readings": NVML's
    power reading trails by about a second, so over a short window it may be the idle GPU's)."""
    if not samples:
        return {"error": error or "no samples (the work was shorter than one NVML reading)"}
    clocks = [s[1] for s in samples]
    watts = [s[2] for s in samples]
    bits = [int(s[3]) for s in samples]
    return {"samples": len(samples), "sm_mhz": statistics.median(clocks), "max_sm_mhz": max_sm_mhz,
            "power_w": energy_w if energy_w is not None else statistics.median(watts),
            "power_source": "energy" if energy_w is not None else "readings",
            "power_w_max": max(watts), "power_limit_w": power_limit_w,
            "power_capped_pct": 100 * sum(1 for b in bits if b & POWER_BITS) / len(bits),
            "thermal_pct": 100 * sum(1 for b in bits if b & THERMAL_BITS) / len(bits)}


def power_limited(t: dict[str, Any] | None) -> bool:
    """Whether the GPU ran against its power limit (so compute-bound kernels ran below the maximum clock)."""
    if not t or "samples" not in t:
        return False
    near = bool(t.get("power_limit_w")) and t["power_w"] >= NEAR_LIMIT * t["power_limit_w"]
    return t["power_capped_pct"] >= 100 * POWER_LIMITED_SHARE and near


def line(t: dict[str, Any] | None) -> str:
    """'SM clock 1.44 GHz (max 1.98), 690 of 700 W, power-capped 80% of the time: compute-bound kernels are
    power-limited', or why it was not measured."""
    if not t:
        return "not measured (a run recorded before inductor-prof read clocks and power)"
    if "samples" not in t:
        return f"not measured: {t.get('error', 'unknown')}"
    clock = f"SM clock {t['sm_mhz'] / MHZ_PER_GHZ:.2f} GHz"
    if t.get("max_sm_mhz"):
        clock += f" (max {t['max_sm_mhz'] / MHZ_PER_GHZ:.2f})"
    power = f"{t['power_w']:.0f}" + (f" of {t['power_limit_w']:.0f} W" if t.get("power_limit_w") else " W")
    parts = [clock, power]
    if t["power_capped_pct"] > 0:
        parts.append(f"power-capped {t['power_capped_pct']:.0f}% of the time")
    if t["thermal_pct"] > 0:
        parts.append(f"thermal slowdown {t['thermal_pct']:.0f}% of the time")
    text = ", ".join(parts)
    if power_limited(t):
        return text + ": compute-bound kernels are power-limited"
    return text
