"""The link's rate for collectives, measured in the ceilings stage of each rank of `profile --nproc`: a large
bf16 all_reduce among all ranks, back to back between CUDA events, priced as nccl-tests prices it
(cost.collective_rates: busbw = algbw x 2(n-1)/n). The report judges the model's collectives' busbw against it.
A GPU measurement: it runs only where torch.distributed has more than one rank (not on the CPU test machine)."""
from __future__ import annotations

from ..analysis.collectives import comm_calls
from ..cost import collective_rates
from ..units import MS_PER_S

# 1 GiB: at 256 MiB NCCL reached 298.9-300.2 GB/s busbw on two H200s while the model's own 546 MB all_reduce
# moved at 306.7 ("102% of the link", examples/runs/llama-train-ddp-h200x2): the rate still climbs past 256 MiB
LINK_BYTES = 1 << 30
WARMUP, CALLS = 5, 20


def world_size() -> int:
    import torch.distributed as dist

    return dist.get_world_size() if dist.is_available() and dist.is_initialized() else 1


def message_bytes(largest_own: int | None = None) -> int:
    """The message the link is measured with: LINK_BYTES, or the run's own largest collective message where it is
    larger (the rate at a smaller message is not what the model's call can reach), in whole bf16 elements."""
    return max(LINK_BYTES, -(-int(largest_own or 0) // 2) * 2)


def largest_message(events: list[dict]) -> int | None:
    """The largest collective message (bytes, as collectives.comm_calls prices it) among a torch.profiler trace's
    NCCL kernels; None where none has a known size."""
    sizes = comm_calls(events)["bytes"].dropna()
    return int(sizes.max()) if len(sizes) else None


def measure(largest_own: int | None = None, calls: int = CALLS) -> dict | None:
    """{"link_busbw_gbps", "link": the call and its rates}, or None in a process of one rank. Every rank must
    call it at the same point (it is a collective): first thing of the ceilings stage. largest_own: this rank's
    largest collective message in its torch.profiler step (bytes; None: none seen); the ranks measure at the
    largest message_bytes of any rank (agreed by an all_reduce MAX first: a collective of different sizes would
    hang)."""
    n = world_size()
    if n < 2:
        return None
    import torch
    import torch.distributed as dist

    agreed = torch.tensor([message_bytes(largest_own)], dtype=torch.int64, device="cuda")
    dist.all_reduce(agreed, op=dist.ReduceOp.MAX)
    nbytes = int(agreed.item())
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
    del x
    algbw, busbw = collective_rates("all_reduce", nbytes, n, seconds)
    return {"link_busbw_gbps": busbw, "link": {"collective": "all_reduce", "dtype": "bfloat16", "bytes": nbytes,
                                               "group": n, "us": seconds * 1e6, "algbw_gbps": algbw,
                                               "busbw_gbps": busbw}}
