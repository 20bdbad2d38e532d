"""Unit factors, one table per quantity (as Proton's viewer keeps its own): a value in the base unit divided by
the factor is the value in the named unit. Decimal prefixes throughout: NVIDIA, ncu and Proton quote GB/s and
TFLOP/s in powers of ten (a GiB/s roof would sit 7% low)."""
from __future__ import annotations

TIME_NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}          # nanoseconds per unit
BYTES = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9,            # bytes per unit
         "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}             # (binary: memory sizes, as ncu and CUDA give some)
FLOPS = {"flop": 1, "GFLOP": 1e9, "TFLOP": 1e12}              # flops per unit
HERTZ = {"Hz": 1, "kHz": 1e3, "MHz": 1e6, "GHz": 1e9}          # hertz per unit

NS_PER_US = TIME_NS["us"]
NS_PER_MS = TIME_NS["ms"]
NS_PER_S = TIME_NS["s"]
US_PER_MS = TIME_NS["ms"] / TIME_NS["us"]
MS_PER_S = TIME_NS["s"] / TIME_NS["ms"]
US_PER_S = TIME_NS["s"] / TIME_NS["us"]
MB = BYTES["MB"]
GB = BYTES["GB"]
TFLOP = FLOPS["TFLOP"]
KHZ = HERTZ["kHz"]
