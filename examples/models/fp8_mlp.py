"""A stack of SwiGLU MLPs whose GEMMs run in fp8 (or int8) through `torch._scaled_mm` (`torch._int_mm`), as a
`module:factory` target:

    inductor-prof profile examples.models.fp8_mlp:mlp --ncu --out runs/fp8            # regional (per block)
    inductor-prof profile examples.models.fp8_mlp:mlp_int8 --out runs/int8

Llama-3-8B's MLP shapes (hidden 4096, intermediate 14336), 4 blocks, 8192 tokens, random weights. Weights are
quantised once, at build time (e4m3, one scale per tensor); activations inside the step, as inference engines
do: each linear takes its input's absolute maximum, scales it into e4m3's range and casts (Inductor fuses that
into a reduction and a pointwise kernel). The gate and up projections use tensor-wise scales; the down
projection row-wise ones (a scale per token and per output channel), so both of cuBLAS's scaling modes run.
`mlp_int8`: the same with int8 operands and `torch._int_mm` (int32 out), the dequantisation in Inductor. No
attention: the profile's attention stage has nothing to time.
"""
from __future__ import annotations

HIDDEN, INTERMEDIATE, BLOCKS, TOKENS = 4096, 14336, 4, 8192
E4M3_MAX = 448.0
INT8_MAX = 127.0


def _modules():
    import torch
    import torch.nn as nn

    class QuantLinear(nn.Module):
        """y = x @ W^T with W (out, in) quantised once; x quantised per call."""

        def __init__(self, weight: torch.Tensor, mode: str):
            super().__init__()
            self.mode = mode
            if mode == "int8":
                scale = weight.float().abs().amax(dim=1, keepdim=True) / INT8_MAX   # per output channel
                q = (weight.float() / scale).round().clamp(-INT8_MAX, INT8_MAX).to(torch.int8)
                self.register_buffer("w_scale", scale.t().contiguous())              # (1, out)
            elif mode == "rowwise":
                scale = weight.float().abs().amax(dim=1, keepdim=True) / E4M3_MAX
                q = (weight.float() / scale).to(torch.float8_e4m3fn)
                self.register_buffer("w_scale", scale.t().contiguous())              # (1, out)
            else:
                scale = weight.float().abs().amax() / E4M3_MAX
                q = (weight.float() / scale).to(torch.float8_e4m3fn)
                self.register_buffer("w_scale", scale.reshape(()))
            # (in, out) column-major: what cuBLAS's fp8 path asks of the second operand
            self.register_buffer("w_q", q.t())

        def forward(self, x):
            if self.mode == "int8":
                s = x.float().abs().amax(dim=-1, keepdim=True) / INT8_MAX
                xq = (x.float() / s).round().clamp(-INT8_MAX, INT8_MAX).to(torch.int8)
                return (torch._int_mm(xq, self.w_q.contiguous()).float() * s * self.w_scale).to(x.dtype)
            if self.mode == "rowwise":
                s = x.float().abs().amax(dim=-1, keepdim=True) / E4M3_MAX            # (tokens, 1)
            else:
                s = x.float().abs().amax() / E4M3_MAX
            xq = (x.float() / s).clamp(-E4M3_MAX, E4M3_MAX).to(torch.float8_e4m3fn)
            return torch._scaled_mm(xq, self.w_q, scale_a=s, scale_b=self.w_scale, out_dtype=x.dtype)

    class Block(nn.Module):
        def __init__(self, hidden: int, inter: int, int8: bool, gen):
            super().__init__()
            std = hidden ** -0.5
            w = lambda o, i: torch.randn(o, i, generator=gen, device="cpu").mul_(std)   # noqa: E731
            dev = torch.get_default_device()
            self.norm = nn.RMSNorm(hidden, eps=1e-5, dtype=torch.bfloat16)
            self.gate = QuantLinear(w(inter, hidden).to(dev), "int8" if int8 else "tensorwise")
            self.up = QuantLinear(w(inter, hidden).to(dev), "int8" if int8 else "tensorwise")
            self.down = QuantLinear(w(hidden, inter).to(dev), "int8" if int8 else "rowwise")

        def forward(self, x):
            h = self.norm(x)
            return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))

    class MLPStack(nn.Module):
        def __init__(self, hidden: int, inter: int, blocks: int, int8: bool):
            super().__init__()
            gen = torch.Generator(device="cpu").manual_seed(0)
            self.blocks = nn.ModuleList(Block(hidden, inter, int8, gen) for _ in range(blocks))

        def forward(self, x):
            for b in self.blocks:
                x = b(x)
            return x

    return MLPStack, Block


def build(int8: bool = False, tokens: int = TOKENS, hidden: int = HIDDEN, inter: int = INTERMEDIATE,
          blocks: int = BLOCKS, device: str = "cuda"):
    """(MLPStack, (x,)): bf16 activations of (tokens, hidden); the tests build a small one on the CPU."""
    import torch

    stack, _ = _modules()
    with torch.device(device):
        # no .to(bf16): it would cast the fp8 weights and fp32 scales too
        model = stack(hidden, inter, blocks, int8).eval().requires_grad_(False)
    model._repeated_blocks = ["Block"]   # regional compile and a Proton scope per block
    gen = torch.Generator(device="cpu").manual_seed(1)
    x = torch.randn(tokens, hidden, generator=gen).to(device=device, dtype=torch.bfloat16)
    return model, (x,)


def mlp():
    """4 fp8 SwiGLU blocks of Llama-3-8B's MLP shapes over 8192 tokens."""
    return build()


def mlp_int8():
    """The same stack in int8 (torch._int_mm)."""
    return build(int8=True)
