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
