"""Ending a process that used CUDA or torch.compile without waiting for their teardown.

At exit torch shuts its compile-worker pool down and waits for the pool's process and each worker to finish
Python's finalisation: 2.7-5.6 s on the H100 machine for a process ending right after one small torch.compile,
against 0.14-0.19 s with os._exit (2026-11-25; a pool idle for long has been quiesced already and ends fast). A
process that held the GPU pays for the teardown too, pool or not: after a cold compile and one step of FLUX,
sys.exit took 3.2-3.8 s and os._exit 0.21-0.26 s; `profile flux --ncu`, whose pool had ended, spent 2.4 s after
its last exit handler (2026-11-25, the H100 machine). Once a command's work is written and its output flushed,
nothing is left to wait for: the process ends at once, the driver frees the GPU's memory as the process ends, and
the pool's workers end themselves on seeing their parent gone (torch's compile workers watch for it). A process
that did neither (`report`, the tests) ends with sys.exit.
"""
from __future__ import annotations

import logging
import os
import sys
from typing import NoReturn


def compile_workers_running() -> bool:
    """Whether this process started Inductor's compile-worker pool (what makes its exit slow)."""
    module = sys.modules.get("torch._inductor.async_compile")
    return bool(getattr(module, "_pool_set", None))


def cuda_initialised() -> bool:
    """Whether this process's torch made a CUDA context (what makes its teardown slow without a pool)."""
    cuda = sys.modules.get("torch.cuda")
    try:
        return bool(cuda is not None and cuda.is_initialized())
    except Exception:  # noqa: BLE001  (a torch half torn down: the ordinary exit)
        return False


def exit_now(code: int | str | None = 0) -> NoReturn:
    """Ends the process with `code` as sys.exit would (None: 0; a string: said on stderr, exit 1); at once, past
    the exit handlers, when a compile-worker pool is running or CUDA was initialised."""
    if not (compile_workers_running() or cuda_initialised()):
        raise SystemExit(code)
    if isinstance(code, str):
        sys.stderr.write(code + "\n")
        code = 1
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # closed, or a pipe whose reader left
            pass
    os._exit(code or 0)
