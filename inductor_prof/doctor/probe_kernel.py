"""The tiny Triton kernel `doctor` runs under Proton and under ncu, in the form of a harvested kernel file
(`get_args()`, `call(args)`), so ncu's replay program runs it as it runs Inductor's kernels."""
import triton
import triton.language as tl

KERNEL = "inductor_prof_doctor_add_one"   # the name ncu's -k filter and Proton's rows match
N = 4096
BLOCK = 1024


@triton.jit
def inductor_prof_doctor_add_one(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0, mask=mask)


def get_args(device: str = "cuda"):
    import torch

    x = torch.arange(N, dtype=torch.float32, device=device)
    return x, torch.empty_like(x)


def call(args) -> None:
    x, out = args
    inductor_prof_doctor_add_one[(triton.cdiv(N, BLOCK),)](x, out, N, BLOCK=BLOCK)
