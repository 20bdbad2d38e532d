"""Ending a process that used torch.compile without waiting for Inductor's compile workers.

At exit torch shuts its compile-worker pool down and waits for the pool's process and each worker to finish
Python's finalisation: 2.7-5.6 s on the H100 machine for a process ending right after one small torch.compile,
against 0.14-0.19 s with os._exit (2026-11-25; a pool idle for long has been quiesced already and ends fast). The
attention stage's process ends so, seconds after its FlexAttention compiles. Once a command's work is written and
its output flushed, nothing is left to wait for: the process ends at once, and the pool's workers end themselves
on seeing their parent gone (torch's compile workers watch for it). Without a pool running this is sys.exit.
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


def exit_now(code: int | str | None = 0) -> NoReturn:
    """Ends the process with `code` as sys.exit would (None: 0; a string: said on stderr, exit 1); at once, past
    the exit handlers, when a compile-worker pool is running."""
    if not compile_workers_running():
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
