"""A training target's phases in the run: each phase of every step inside a Proton scope (below step_<i>, so
the hatchets' scope paths say the phase of every kernel launch) and a torch.profiler range (so library_ops
tags each library call); and the stage `phase_memory`: one step with the CUDA allocator's peak reset at each
phase's start, its peak read at the phase's end."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from ..drivers import proton
from ..drivers.torch_profiler import phase_range
from ..targets.training import PHASES, phases_around


@contextmanager
def marked(name: str) -> Iterator[None]:
    """Where a phase runs, for Proton and for torch.profiler."""
    with proton.phase_scope(name), phase_range(name):
        yield


def install(target) -> dict:
    """A training target's phases marked and its optimizer step compiled (the compile stage, after the model's
    own compile); {} for an inference target."""
    training = target.training
    if training is None:
        return {}
    training.phase = marked
    return {"training": True, "optimizer_compiled": training.compile_optimizer()}


def memory_by_phase(target) -> dict[str, dict[str, int]]:
    """One step: per phase, the allocator's peak while it ran and what was allocated at its start and end
    (bytes; torch.cuda.max_memory_allocated, reset at the phase's start)."""
    import torch

    out: dict[str, dict[str, int]] = {}

    @contextmanager
    def measured(name: str) -> Iterator[None]:
        with marked(name):
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            start = torch.cuda.memory_allocated()
            yield
            torch.cuda.synchronize()
            out[name] = {"peak_bytes": torch.cuda.max_memory_allocated(), "start_bytes": start,
                         "end_bytes": torch.cuda.memory_allocated()}

    with phases_around(target.training, measured):
        target()
    return {name: out[name] for name in PHASES if name in out}


def phase_memory(ctx) -> dict:
    """Stage `phase_memory` (--train): the peaks in the manifest's profile.phase_memory."""
    ctx.log("measuring peak GPU memory per phase (one step)")
    memory = memory_by_phase(ctx.target)
    ctx.profile["phase_memory"] = memory
    ctx.manifest.set("profile", ctx.profile)
    return {name: m["peak_bytes"] for name, m in memory.items()}
