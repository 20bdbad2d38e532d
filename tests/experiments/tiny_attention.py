"""A module:factory target whose block calls F.scaled_dot_product_attention (causal, GQA), small enough for the
CPU: the attention_backend experiment's override on a backend the CPU runs (torch_blocked)."""
import torch
import torch.nn.functional as F


class Attn(torch.nn.Module):
    def __init__(self, d: int = 32, heads: int = 4, kv_heads: int = 2):
        super().__init__()
        self.h, self.kv, self.hd = heads, kv_heads, d // heads
        self.q = torch.nn.Linear(d, d)
        self.kvp = torch.nn.Linear(d, 2 * kv_heads * self.hd)

    def forward(self, x):
        b, s, _ = x.shape
        q = self.q(x).view(b, s, self.h, self.hd).transpose(1, 2)
        k, v = self.kvp(x).view(b, s, 2, self.kv, self.hd).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        return o.transpose(1, 2).reshape(b, s, -1) + x


class Stack(torch.nn.Module):
    _repeated_blocks = ["Attn"]

    def __init__(self, d: int = 32):
        super().__init__()
        self.blocks = torch.nn.ModuleList(Attn(d) for _ in range(2))

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


def tiny():
    torch.manual_seed(0)
    return Stack().eval().requires_grad_(False), (torch.randn(2, 16, 32),)


def tiny_cuda():
    """On the GPU in bf16, head dim 64 (what the own kernels take): tests/gpu/test_try_gpu.py."""
    torch.manual_seed(0)
    model = Stack(256).eval().requires_grad_(False).to("cuda", torch.bfloat16)
    return model, (torch.randn(2, 128, 256, device="cuda", dtype=torch.bfloat16),)
