"""torch.profiler over one step, written as a Chrome trace (which ATen op, with which shapes, launched each
library kernel; Perfetto opens it too)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable


def record(step: Callable[[], Any], trace_path: Path) -> None:
    import torch
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as prof:
        step()
        torch.cuda.synchronize()
    prof.export_chrome_trace(str(trace_path))


PHASE_RANGE = "inductor_prof.phase."   # + forward, backward, optimizer: the ranges trace.phase_ranges reads


def phase_range(name: str):
    """A torch.profiler range (a user annotation in the trace) around one training phase; costs a few
    microseconds when no profiler records."""
    import torch

    return torch.profiler.record_function(PHASE_RANGE + name)
