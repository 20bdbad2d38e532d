"""Published peak rates by GPU: the fallback when no ceiling was measured during the run.

Dense (no sparsity) tensor-core rates in TFLOP/s, non-tensor FP32 in TFLOP/s, DRAM in GB/s.
"""
from __future__ import annotations

PEAKS = {
    # name fragment (lower case) -> peaks
    "h100 80gb hbm3": {"flops8": 1979.0, "flops16": 989.4, "flops32": 66.9, "flops64": 33.5, "tf32": 494.7, "dram_gbps": 3352.0},
    "h100 sxm": {"flops8": 1979.0, "flops16": 989.4, "flops32": 66.9, "flops64": 33.5, "tf32": 494.7, "dram_gbps": 3352.0},
    "h100 pcie": {"flops8": 1513.0, "flops16": 756.0, "flops32": 51.2, "flops64": 25.6, "tf32": 378.0, "dram_gbps": 2039.0},
    "h200": {"flops8": 1979.0, "flops16": 989.4, "flops32": 66.9, "flops64": 33.5, "tf32": 494.7, "dram_gbps": 4800.0},
    "a100-sxm4-80gb": {"flops16": 312.0, "flops32": 19.5, "flops64": 9.7, "tf32": 156.0, "dram_gbps": 2039.0},
    "a100": {"flops16": 312.0, "flops32": 19.5, "flops64": 9.7, "tf32": 156.0, "dram_gbps": 1555.0},
    "l4": {"flops8": 242.0, "flops16": 121.0, "flops32": 30.3, "flops64": 0.5, "tf32": 60.0, "dram_gbps": 300.0},
}


def spec_peaks(gpu_name: str) -> dict[str, float] | None:
    name = gpu_name.lower()
    for fragment, peaks in PEAKS.items():
        if fragment in name:
            return dict(peaks)
    return None
