"""Library output kept apart from the command's own: compilers, C++ libraries, child processes and Python code
write to the process's file descriptors 1 and 2 directly, so they are redirected at the OS level (os.dup2),
and Python's sys.stdout/sys.stderr with them, while library code runs."""
from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import IO, Iterator, Optional

from ..rundir import atomic_path


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            stream.flush()  # type: ignore[union-attr]  # None under pythonw: suppressed
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).fflush(None)    # C stdio buffers (printf in a library) before the switch


@contextlib.contextmanager
def _fd_to(fd: int, target: int) -> Iterator[None]:
    """What is written to `fd` inside the block goes to `target` instead."""
    _flush()
    saved = os.dup(fd)
    try:
        os.dup2(target, fd)
        yield
    finally:
        _flush()
        os.dup2(saved, fd)
        os.close(saved)


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Everything written to stdout inside the block goes to stderr, so that what the command prints on stdout
    after it (one JSON document) is all there is."""
    with _fd_to(1, 2), contextlib.redirect_stdout(sys.stderr):
        yield


class LibraryLog:
    """Where library output goes: `path`, a temporary file (None under --verbose), moved at the end to `dest`
    when the command set one; `terminal`: the command's own stdout, for its progress display meanwhile."""

    def __init__(self, path: Optional[Path], terminal: IO[str]):
        self.path, self.terminal = path, terminal
        self.dest: Path | None = None

    def keep_in(self, dest: Path) -> None:
        """At the end of the block the log becomes `dest` (a file of the run folder)."""
        self.dest = dest


@contextlib.contextmanager
def library_output(verbose: bool) -> Iterator[LibraryLog]:
    """Unless `verbose`: stdout and stderr of this process (warnings, logging, compilers, child processes) go
    to a temporary log inside the block; the command's progress writes to `LibraryLog.terminal`. At the end
    the log is moved where `keep_in` said, or, if the command did not say (it failed), its path is printed."""
    if verbose:
        yield LibraryLog(None, sys.stdout)
        return
    fd, name = tempfile.mkstemp(prefix="inductor-prof-", suffix=".log")
    path = Path(name)
    log = LibraryLog(path, os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace"))
    text = os.fdopen(fd, "w", buffering=1, encoding="utf-8", errors="replace")
    try:    # Python's warnings and logging, and torch's log handlers, write to sys.stderr, hence to fd 2
        with _fd_to(1, fd), _fd_to(2, fd), contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
            yield log
    finally:
        text.close()
        log.terminal.close()
        if log.dest is not None:
            with atomic_path(log.dest) as tmp:
                shutil.copyfile(path, tmp)
            path.unlink()
        elif path.stat().st_size == 0:
            path.unlink()
        else:
            print(f"library output (warnings, compiler messages) is in {log.path}", file=sys.stderr)
