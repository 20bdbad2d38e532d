"""SIGTERM (a scheduler, `timeout`, `kill`) handled like Ctrl-C: it raises `Terminated`, a KeyboardInterrupt, at
whatever the command is doing, so the paths that end children and keep the run folder consistent on Ctrl-C
run for it too; the CLI then says so and exits errors.EXIT_TERMINATED."""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived."""

    def __init__(self):
        super().__init__("SIGTERM")


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Inside the block SIGTERM raises Terminated, once: a second SIGTERM while the first is being cleaned up
    is ignored, so the clean-up finishes. The previous handler comes back after the block."""
    if threading.current_thread() is not threading.main_thread():   # only the main thread may set handlers
        yield
        return
    raised: list[int] = []

    def handler(signum, frame):
        if not raised:
            raised.append(signum)
            raise Terminated()

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
