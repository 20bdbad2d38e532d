"""Whether stdout's reader has left (`report --json | head -c 10`).

A write to a pipe larger than the pipe's buffer, cut short by the reader closing it, comes back from Linux as the
part written, not as an error, and Python's buffered writer ends it without one: the command went on to exit 0
with its output lost. The pipe itself says the reader is gone (POLLERR on its write end), so each command asks it
once its output is written."""
from __future__ import annotations

import io
import select
import sys
from typing import IO, Optional


def reader_gone(stream: Optional[IO[str]] = None) -> bool:
    """stdout (or `stream`) is a pipe whose reader closed it; False for a file, a terminal, a test's capture."""
    stream = sys.stdout if stream is None else stream
    try:
        stream.flush()
        fd = stream.fileno()
    except BrokenPipeError:
        return True
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):   # closed, or no descriptor
        return False
    if not hasattr(select, "poll"):   # Windows: no poll of a pipe; a failed write still says it
        return False
    poll = select.poll()
    poll.register(fd, select.POLLOUT)
    try:
        return any(events & select.POLLERR for _, events in poll.poll(0))
    except OSError:
        return False
