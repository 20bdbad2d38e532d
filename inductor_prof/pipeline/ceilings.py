"""Stage `ceilings`: rates measured on the run's GPU, a large bf16 matmul (tensor cores) and a device copy
(DRAM bandwidth); the report judges kernels against them where they are present (see peaks.py)."""
from __future__ import annotations


def measure(n: int = 8192, copy_bytes: int = 1 << 30) -> dict[str, float]:
    import torch
    from triton.testing import do_bench

    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    ms = do_bench(lambda: a @ b, warmup=100, rep=400, return_mode="median")
    src = torch.empty(copy_bytes // 2, device="cuda", dtype=torch.bfloat16).normal_()
    dst = torch.empty_like(src)
    copy_ms = do_bench(lambda: dst.copy_(src), warmup=50, rep=300, return_mode="median")
    # 2*n^3 flops; a copy reads and writes copy_bytes each
    return {"flops16_tflops": 2 * n**3 / ms / 1e9, "dram_gbps": 2 * copy_bytes / copy_ms / 1e6,
            "matmul_n": n, "copy_bytes": copy_bytes}


def run(ctx) -> dict:
    ctx.log("measuring ceilings (bf16 matmul, device copy)")
    measured = measure()
    ctx.manifest.set("ceilings", measured)
    return measured
