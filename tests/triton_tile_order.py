"""Run in the Triton interpreter by tests/attention/kernels/test_triton_fa.py: prints, as JSON, the (batch*head, query
tile) that triton_fa.program_tile gives each program of a causal launch (a kernel must live in a file for triton.jit)."""
import json
import sys

import torch
import triton
import triton.language as tl

from inductor_prof.attention.kernels import triton_fa


@triton.jit
def _order(OUT, N_M, GROUP):
    pid = tl.program_id(0) + tl.program_id(1) * N_M  # launch order, x fastest
    hz, m = triton_fa.program_tile(GROUP)
    tl.store(OUT + 2 * pid, hz)
    tl.store(OUT + 2 * pid + 1, m)


def order(n_m: int, n_hz: int, group: int) -> list[list[int]]:
    out = torch.full((n_m * n_hz * 2,), -1, dtype=torch.int32)
    _order[(n_m, n_hz)](out, n_m, group)
    return out.view(-1, 2).tolist()


if __name__ == "__main__":
    print(json.dumps(order(*(int(a) for a in sys.argv[1:]))))
