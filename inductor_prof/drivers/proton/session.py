"""Proton (triton.profiler) sessions: timed steps with a scope per step and per repeated block."""
from __future__ import annotations

import os
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Callable, Iterator

from ...units import MS_PER_S


class BlockScopes:
    """Proton scopes around each repeated block, entered only while a session is recording."""

    enabled = False

    @staticmethod
    def wrap(model, blocks: list[tuple[str, Any]]) -> None:
        """Replaces each block, in its parent, by a thin uncompiled wrapper that opens a scope."""
        import torch

        class ScopedBlock(torch.nn.Module):
            def __init__(self, scope: str, block):
                super().__init__()
                self.scope = scope
                self.block = block

            def forward(self, *args, **kwargs):
                if not BlockScopes.enabled:
                    return self.block(*args, **kwargs)
                import triton.profiler as proton

                proton.enter_scope(self.scope)
                try:
                    return self.block(*args, **kwargs)
                finally:
                    proton.exit_scope()

        by_id = {id(b): s for s, b in blocks}
        for parent_name, parent in list(model.named_modules()):
            for child_name, child in list(parent.named_children()):
                if id(child) in by_id:
                    setattr(parent, child_name, ScopedBlock(by_id[id(child)], child))


def timed_steps(step: Callable[[], Any], n: int, scope_prefix: str | None = None,
                on_step: Callable[[int], None] | None = None) -> list[float]:
    """Runs `step` n times; wall time per step in ms, synchronised; a Proton scope per step if asked."""
    import torch

    times = []
    for i in range(n):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        with _step_scope(scope_prefix, i):
            step()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * MS_PER_S)
        if on_step:
            on_step(i)
    return times


def back_to_back_steps(step: Callable[[], Any], n: int, scope_prefix: str | None = None,
                       warm: int = 1) -> list[float]:
    """Runs `step` n times as a training or serving loop does: no host sync between steps, so the CPU
    queues step i+1 while the GPU runs step i. GPU ms per step between CUDA events recorded around each step
    (one sync at the end). Host time per launch (Proton's CUPTI callbacks) then costs nothing while the CPU
    keeps ahead of the GPU, and shows only where the step is launch-bound; `timed_steps`' synchronised wall
    time pays it in every step, with the launch latency of the first kernel. `warm` untimed steps go first:
    the first step of a fresh Proton session pays its one-time setup (measured: 60 ms on the decoder), which
    would leave the timed steps behind an idle GPU."""
    import torch

    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(n)]
    torch.cuda.synchronize()
    for _ in range(warm):
        step()
    for i, (start, end) in enumerate(events):
        start.record()
        with _step_scope(scope_prefix, i):
            step()
        end.record()
    torch.cuda.synchronize()
    return [start.elapsed_time(end) for start, end in events]


def _scope(name: str | None):
    """The Proton scope `name`; none for None."""
    if name is None:
        return nullcontext()
    import triton.profiler as proton

    return proton.scope(name)


def phase_scope(name: str):
    """The Proton scope of a training phase (forward, backward, optimizer), below step_<i>, while a session
    records; none otherwise."""
    return _scope(name if BlockScopes.enabled else None)


def size_scope(size: str | None):
    """The Proton scope of one input size, above its step_<i> scopes; none in a run of one size."""
    return _scope(size)


def _step_scope(prefix: str | None, i: int):
    """The Proton scope `<prefix><i>` of step i; none without a prefix."""
    return _scope(None if prefix is None else f"{prefix}{i}")


@contextmanager
def session(path: Path, hook: str | None) -> Iterator[None]:
    """One Proton session writing `path` (.hatchet); block scopes are live inside it. Proton writes
    `<name>.hatchet` at finalize: it writes a hidden name beside `path`, renamed onto it only when the block
    completed, so an interrupted session leaves no half or partial profile behind."""
    import triton.profiler as proton

    path.parent.mkdir(parents=True, exist_ok=True)
    name = path.with_name(f".{path.name}.partial")
    written = Path(f"{name}.hatchet")
    proton.start(str(name), hook=hook)
    BlockScopes.enabled = True
    completed = False
    try:
        yield
        completed = True
    finally:
        BlockScopes.enabled = False
        proton.finalize()
        if completed and written.exists():
            os.replace(written, path)
        elif written.exists():
            written.unlink()


@contextmanager
def discarded_session(hook: str | None = None) -> Iterator[None]:
    """A Proton session (block scopes live) whose profile is thrown away: steps timed under Proton without
    adding their kernels to a kept hatchet, whose per-step totals assume the manifest's step count."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="inductor-prof-proton-") as tmp, \
            session(Path(tmp) / "discarded.hatchet", hook):
        yield
