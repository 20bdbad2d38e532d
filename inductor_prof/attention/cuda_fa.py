"""Own CUDA C++ FlashAttention-2 forward (csrc/flash_fwd.cu, mma.sync), built at first use by cpp_extension."""
from __future__ import annotations

import math
import os
from functools import lru_cache
from pathlib import Path

CSRC = Path(__file__).parent / "csrc"
NVCC_FLAGS = ["-O3", "-std=c++17", "-gencode=arch=compute_90,code=sm_90", "-gencode=arch=compute_80,code=sm_80",
              "--use_fast_math", "-Xptxas=-warn-spills"]


@lru_cache(maxsize=1)
def extension():
    """Compiles once per machine (ninja; cached under TORCH_EXTENSIONS_DIR), then loads."""
    from torch.utils.cpp_extension import load

    return load(name="inductor_prof_flash_fwd", sources=[str(CSRC / "binding.cpp"), str(CSRC / "flash_fwd.cu")],
                extra_cuda_cflags=NVCC_FLAGS, extra_include_paths=[str(CSRC)],
                verbose=os.environ.get("INDUCTOR_PROF_DEBUG") == "1")


_tuned: dict[tuple, int] = {}


def forward(q, k, v, scale: float | None = None, config: int | None = None):
    """(out, lse); config None: the one `tune` chose for this shape, else the head dim's default (0)."""
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    if config is None:
        config = _tuned.get((q.shape[2], k.shape[2], q.shape[3], q.dtype), 0)
    o, lse = extension().forward(q, k, v, float(scale), int(config))
    return o, lse


def tune(q, k, v, scale: float | None = None, bench=None) -> list[dict]:
    """Times each compiled tile config at this shape; `forward` then uses the fastest."""
    from .timing import time_ms

    bench = bench or time_ms
    results = []
    for c in range(configs(q.shape[3])):
        results.append({"config": CONFIG_LABELS.get((q.shape[3], c), str(c)),
                        "ms": bench(lambda: forward(q, k, v, scale, c)), "error": "", "index": c})
    _tuned[(q.shape[2], k.shape[2], q.shape[3], q.dtype)] = min(results, key=lambda r: r["ms"])["index"]
    return results


# (head dim, config) -> tiles, as dispatched in csrc/flash_fwd.cu
# rows per warp: 32 = two m16 tiles sharing every K/V fragment
CONFIG_LABELS = {(64, 0): "M128xN64/w4/32rows", (128, 0): "M128xN64/w4/32rows", (128, 1): "M128xN32/w4/32rows",
                 (128, 2): "M128xN64/w8/16rows", (128, 3): "M64xN64/w2/32rows", (256, 0): "M64xN32/w4/16rows"}


def configs(head_dim: int) -> int:
    return int(extension().configs(head_dim))
