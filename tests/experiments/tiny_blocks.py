"""A module:factory target small enough to compile on the CPU: two repeated blocks (the worker's regional compile)
in float32."""
import torch


class Block(torch.nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.lin = torch.nn.Linear(d, d)

    def forward(self, x):
        return torch.relu(self.lin(x)) + x


class Stack(torch.nn.Module):
    _repeated_blocks = ["Block"]

    def __init__(self, d: int = 16, n: int = 2):
        super().__init__()
        self.blocks = torch.nn.ModuleList(Block(d) for _ in range(n))

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


def tiny():
    torch.manual_seed(0)
    return Stack().eval().requires_grad_(False), (torch.randn(4, 16),)


def tiny_cuda():
    """The same on the GPU in bf16 (tests/gpu/test_try_gpu.py)."""
    model, (x,) = tiny()
    return model.to("cuda", torch.bfloat16), (x.to("cuda", torch.bfloat16),)
