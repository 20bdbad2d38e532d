"""Which head dims the own Triton and Gluon kernels take, and the width their tiles are computed at.

Tiles are powers of two (tl.arange, gl.arange, TMA boxes), so a head dim between two of them runs at the next one
up: 80 and 96 at 128, 192 at 256. Q, K and V are read through TMA descriptors over the true (rows, D) tensors with
boxes BLOCK_D wide: the columns from D to BLOCK_D lie past the tensor's last column and TMA fills them with zeros,
so QK^T is unchanged (the padded products are 0) and PV's padded columns are 0 and never stored. The softmax scale
stays 1/sqrt(true D). Plain Python: the tile policies (gluon_tiles) import it without Triton.
"""
from __future__ import annotations

# the head dims of issue 51 (e.g. Phi-2 80, Phi-3-mini 96, Gemma 256), each checked against float64 on the CPU
# (tests/attention/kernels); any of them makes a row a multiple of TMA's 16 B
SUPPORTED = (64, 80, 96, 128, 192, 256)


def block_d(head_dim: int) -> int:
    """The tile width a head dim runs at: the smallest power of two at or above it (64 -> 64, 80 -> 128,
    192 -> 256)."""
    return 1 << max(head_dim - 1, 0).bit_length()


def check(head_dim: int) -> None:
    """ValueError naming the head dim and those taken, for one the kernels do not take."""
    if head_dim not in SUPPORTED:
        raise ValueError(f"head dim {head_dim} not supported ({', '.join(map(str, SUPPORTED))})")
