"""A model of two repeated block kinds, for scripts/gpu_check_reuse.sh: profiled, then one block's code edited
(GateBlock's gate: sigmoid -> silu, by the script's sed on a copy of this file), then profiled again; the second
run's ncu stage should re-measure GateBlock's kernels only, and reuse MlpBlock's and the GEMMs'.

    inductor-prof profile reuse_two_blocks:model --ncu --no-attention --out RUN   (this file's folder on PYTHONPATH)

bf16, random weights, 8 x 1024 tokens of width 1024, 2 blocks of each kind, regional compile (one graph a kind).
"""
from __future__ import annotations

WIDTH, TOKENS, BATCH, PAIRS = 1024, 1024, 8, 2


def _modules():
    import torch
    import torch.nn as nn

    class MlpBlock(nn.Module):
        def __init__(self, d: int):
            super().__init__()
            self.norm, self.up, self.down = nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            return x + self.down(nn.functional.gelu(self.up(self.norm(x)), approximate="tanh"))

    class GateBlock(nn.Module):
        def __init__(self, d: int):
            super().__init__()
            self.norm, self.proj = nn.RMSNorm(d), nn.Linear(d, 2 * d)

        def forward(self, x):
            a, b = self.proj(self.norm(x)).chunk(2, dim=-1)
            gate = torch.sigmoid(b)   # EDIT-ME: the script makes this nn.functional.silu(b) between runs
            return x + a * gate

    class TwoBlocks(nn.Module):
        _repeated_blocks = ["MlpBlock", "GateBlock"]

        def __init__(self, d: int = WIDTH, pairs: int = PAIRS):
            super().__init__()
            self.blocks = nn.ModuleList(m for _ in range(pairs) for m in (MlpBlock(d), GateBlock(d)))

        def forward(self, x):
            for block in self.blocks:
                x = block(x)
            return x

    return TwoBlocks


def model():
    import torch

    with torch.device("cuda"):
        m = _modules()().to(torch.bfloat16).eval().requires_grad_(False)
        x = torch.randn(BATCH, TOKENS, WIDTH, dtype=torch.bfloat16)
    return m, (x,)
