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


def forward(q, k, v, scale: float | None = None, config: int | None = None, causal: bool = False):
    """(out, lse); k, v (B,Hkv,Sk,D): query head h reads kv head h // (Hq // Hkv); causal: top-left, query i sees
    keys j <= i. config: an index into the head dim's compiled tile configs (None: its default, 0)."""
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    o, lse = extension().forward(q, k, v, float(scale), int(config or 0), bool(causal))
    return o, lse


def spills(q, k, v, config: int, causal: bool = False) -> int:
    """Bytes of local memory per thread of the kernel `forward` would launch: > 0 when ptxas spilled registers."""
    return int(extension().attributes(q, k, v, int(config), bool(causal))[0])


def tune(q, k, v, scale: float | None = None, causal: bool = False, bench=None,
         known: dict | None = None) -> tuple[list[dict], int | None]:
    """(a row per compiled tile config timed at this shape, failures and spilling configs recorded not raised; the
    fastest or None). known: the tuning cache's entry at this shape (timing.tune_forward)."""
    from ..timing import tune_forward

    def label(c: int) -> str:
        return CONFIG_LABELS.get((q.shape[3], c), str(c))

    def run(c: int):
        return forward(q, k, v, scale, c, causal), c
    return tune_forward(run, range(configs(q.shape[3])), label, bench,
                        spills=lambda res: spills(q, k, v, res[1], causal), known=known)


# (head dim, config) -> tiles, as dispatched in csrc/flash_fwd.cu
# rows per warp: 32 = two m16 tiles sharing every K/V fragment
CONFIG_LABELS = {(64, 0): "M128xN64/w4/32rows", (128, 0): "M128xN64/w4/32rows", (128, 1): "M128xN32/w4/32rows",
                 (128, 2): "M128xN64/w8/16rows", (128, 3): "M64xN64/w2/32rows", (256, 0): "M64xN32/w4/16rows"}


def configs(head_dim: int) -> int:
    return int(extension().configs(head_dim))


def build(spec, events) -> dict:
    """The build alone, in a worker (worker.py, kind `cuda_build`: the profile starts it early, in the
    background)."""
    import time

    t0 = time.perf_counter()
    extension()
    seconds = time.perf_counter() - t0
    print(f"inductor_prof_flash_fwd ready in {seconds:.1f} s")
    return {"seconds": round(seconds, 1)}
