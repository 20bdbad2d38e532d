"""A stack of mixture-of-experts layers, as a `module:factory` target:

    inductor-prof profile examples.models.moe:moe --ncu --out runs/moe

Mixtral-shaped routing on a smaller model: hidden 2048, 8 experts of intermediate 5632, top-2, 4 layers,
4 x 2048 tokens, bf16, random weights. Each layer: RMSNorm, a router (linear, softmax, top-k), the tokens
sorted by expert, both expert GEMMs as one grouped GEMM each (`torch._grouped_mm` with the experts' token
offsets, as torchtitan and vLLM run MoE on Hopper), SwiGLU between them, and the outputs weighted and added
back to their tokens. Every shape is static (counts by one-hot sums, not bincount), so the step compiles
without graph breaks. No attention: the profile's attention stage has nothing to time.
"""
from __future__ import annotations

HIDDEN, INTERMEDIATE, EXPERTS, TOP_K, LAYERS = 2048, 5632, 8, 2, 4
BATCH, SEQ = 4, 2048


def _modules():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class MoELayer(nn.Module):
        def __init__(self, hidden: int, inter: int, experts: int, top_k: int):
            super().__init__()
            self.top_k, self.experts = top_k, experts
            self.norm = nn.RMSNorm(hidden, eps=1e-5)
            self.router = nn.Linear(hidden, experts, bias=False)
            # (experts, out, in), passed transposed: the grouped GEMM's second operand column-major
            self.w13 = nn.Parameter(torch.randn(experts, 2 * inter, hidden) * hidden ** -0.5)
            self.w2 = nn.Parameter(torch.randn(experts, hidden, inter) * inter ** -0.5)

        def forward(self, x):
            b, s, d = x.shape
            h = self.norm(x).reshape(b * s, d)
            probs = F.softmax(self.router(h).float(), dim=-1)
            weight, expert = probs.topk(self.top_k, dim=-1)                       # (tokens, k)
            weight = (weight / weight.sum(-1, keepdim=True)).to(x.dtype)
            flat = expert.reshape(-1)
            order = flat.argsort(stable=True)                                     # token slots by expert
            counts = F.one_hot(flat, self.experts).sum(0)
            offs = counts.cumsum(0).to(torch.int32)
            token = order // self.top_k
            xs = h[token]                                                         # (tokens * k, d)
            gate_up = torch._grouped_mm(xs, self.w13.transpose(-2, -1), offs=offs)
            gate, up = gate_up.chunk(2, dim=-1)
            ys = torch._grouped_mm(F.silu(gate) * up, self.w2.transpose(-2, -1), offs=offs)
            ys = ys * weight.reshape(-1)[order].unsqueeze(-1)
            out = torch.zeros_like(h).index_add_(0, token, ys)
            return x + out.reshape(b, s, d)

    class MoEStack(nn.Module):
        def __init__(self, hidden, inter, experts, top_k, layers):
            super().__init__()
            self.layers = nn.ModuleList(MoELayer(hidden, inter, experts, top_k) for _ in range(layers))

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    return MoEStack


def build(batch: int = BATCH, seq: int = SEQ, hidden: int = HIDDEN, inter: int = INTERMEDIATE,
          experts: int = EXPERTS, top_k: int = TOP_K, layers: int = LAYERS, device: str = "cuda"):
    """(MoEStack, (x,)): bf16 hidden states (batch, seq, hidden); the tests build a small one on the CPU."""
    import torch

    torch.manual_seed(0)
    with torch.device(device):
        model = _modules()(hidden, inter, experts, top_k, layers).to(torch.bfloat16).eval().requires_grad_(False)
    model._repeated_blocks = ["MoELayer"]   # regional compile and a Proton scope per layer
    gen = torch.Generator(device="cpu").manual_seed(1)
    x = torch.randn(batch, seq, hidden, generator=gen).to(device=device, dtype=torch.bfloat16)
    return model, (x,)


def moe():
    """4 MoE layers, 8 experts top-2, hidden 2048, 4 x 2048 tokens."""
    return build()
