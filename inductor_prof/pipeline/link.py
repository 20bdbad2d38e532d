"""The link's rate for collectives, measured in the ceilings stage of each rank of `profile --nproc`: a large
bf16 all_reduce among all ranks, back to back between CUDA events, priced as nccl-tests prices it
(cost.collective_rates: busbw = algbw x 2(n-1)/n). The report judges the model's collectives' busbw against it.
A GPU measurement: it runs only where torch.distributed has more than one rank (not on the CPU test machine)."""
from __future__ import annotations

from ..cost import collective_rates
from ..targets.data_parallel import world_size
from ..units import MS_PER_S

# 1 GiB: at 256 MiB NCCL reached about 300 GB/s busbw on two H200s while the model's own 546 MB all_reduce moved
# at 306.7 ("102% of the link", examples/runs/llama-train-ddp-h200x2): the rate still climbs past 256 MiB. A call
# that still beats it is judged against the best rate the run reached (analysis/link_reference.py).
LINK_BYTES = 1 << 30
WARMUP, CALLS = 5, 20


def measure(nbytes: int = LINK_BYTES, calls: int = CALLS) -> dict | None:
    """{"link_busbw_gbps", "link": the call and its rates}, or None in a process of one rank. Every rank must
    call it at the same point (it is a collective): first thing of the ceilings stage."""
    n = world_size()
    if n < 2:
        return None
    import torch
    import torch.distributed as dist

    x = torch.zeros(nbytes // 2, dtype=torch.bfloat16, device="cuda")
    for _ in range(WARMUP):   # NCCL sets up its channels on the first calls
        dist.all_reduce(x)
    torch.cuda.synchronize()
    dist.barrier()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        dist.all_reduce(x)
    end.record()
    end.synchronize()
    seconds = start.elapsed_time(end) / calls / MS_PER_S
    del x   # 1 GiB the model's later stages may want
    algbw, busbw = collective_rates("all_reduce", nbytes, n, seconds)
    return {"link_busbw_gbps": busbw, "link": {"collective": "all_reduce", "dtype": "bfloat16", "bytes": nbytes,
                                               "group": n, "us": seconds * 1e6, "algbw_gbps": algbw,
                                               "busbw_gbps": busbw}}
