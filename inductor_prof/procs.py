"""Every child process of the package starts here. Each gets an argument list (never a shell string), the
environment given whole (childenv.child_env builds it), a timeout, and a process group of its own; the whole
group is ended on the timeout, on Ctrl-C and on SIGTERM (signals.py turns SIGTERM into an interrupt), so
no grandchild (ncu's target, a compile worker) is left behind. `run_logged` keeps the output in a log file
(long children), `run` returns it (short ones), `Background` starts one now and waits for it later (work that
overlaps the caller's); `Finished.why` says how a failed one ended, its output's end included."""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

POLL_S = 0.1
GRACE_S = 3.0   # seconds a child has to end on SIGTERM before SIGKILL


@dataclass
class Finished:
    returncode: int | None    # None: ended by us after the timeout
    seconds: float
    stdout: str = ""          # `run` only: what the child printed
    stderr: str = ""

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def why(self, timeout: float | None = None) -> str:
        """How a failed child ended, with the last lines it wrote to stderr (else stdout): 'exit 3: ...'."""
        if self.timed_out:
            return f"no answer after {timeout:g} s (ended)" if timeout is not None else "timed out (ended)"
        return f"{describe_exit(self.returncode)}: {tail(self.stderr or self.stdout) or '(no output)'}"


def tail(text: str, lines: int = 4) -> str:
    """The last `lines` non-empty lines of a child's output on one line, cut to 600 characters."""
    keep = [ln for ln in text.strip().splitlines() if ln.strip()][-lines:]
    return " | ".join(keep)[:600]


def describe_exit(rc: int | None) -> str:
    """`exit 3`, or `killed by SIGSEGV` for a child a signal ended (Popen's negative return codes)."""
    if rc is None:   # Finished.returncode of a child ended after its timeout
        return "timed out (ended)"
    if rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit {rc}"


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def end_group(proc: subprocess.Popen, grace: float = GRACE_S) -> None:
    """SIGTERM to the child's whole process group, SIGKILL to what is left `grace` seconds later. SIGTERM first
    because `sudo` relays it to the root-owned command it runs, which this user cannot signal itself."""
    _signal_group(proc, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    _signal_group(proc, signal.SIGKILL)   # also any grandchild left once the child itself has ended
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:     # not ours to kill (root under sudo): do not hang on it
        pass


def run(cmd: list[str], env: dict[str, str], timeout: float, merge: bool = False) -> Finished:
    """Runs `cmd` (an argument list, the environment given whole) to its end or `timeout` seconds, and returns
    its output (`merge`: stderr into stdout, in the order written). A program that cannot start raises
    OSError."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env, text=True, errors="replace", start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        end_group(proc)
        try:   # what it wrote before it was ended; a pipe still held open (a root grandchild) is not waited on
            out, err = proc.communicate(timeout=GRACE_S)
        except subprocess.TimeoutExpired:
            out, err = "", ""
        return Finished(None, time.monotonic() - t0, out or "", err or "")
    except BaseException:
        end_group(proc)    # Ctrl-C, SIGTERM, anything: the child goes with us
        raise
    return Finished(proc.returncode, time.monotonic() - t0, out or "", err or "")


def _marks(path: Path, offset: int, mark: str) -> tuple[int, int]:
    """(lines holding `mark` written to `path` after `offset`, the new offset)."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            chunk = f.read()
    except OSError:
        return 0, offset
    end = chunk.rfind(b"\n") + 1           # a line still being written is read next time, whole
    return chunk[:end].count(mark.encode()), offset + end


@contextmanager
def _interrupts_held():
    """Ctrl-C and SIGTERM arriving while a child starts are held, then raised once its Popen is known: raised
    inside Popen they would leave the child running with nothing to end it (main thread only: the only one
    that may set handlers, and the one they interrupt)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = {s: signal.signal(s, lambda signum, frame: held.append(signum))
                for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)
        if held:
            signal.raise_signal(held[0])   # now, under the handler it was meant for


def _start_logged(cmd: list[str], env: dict[str, str], log_path: Path,
                  grace: float = GRACE_S) -> subprocess.Popen:
    """`cmd` started in a process group of its own, stdout and stderr into `log_path` (the child holds its own
    copy of the file: a log, not a result, it grows while the child runs and is kept). Ctrl-C or SIGTERM held
    while it starts is raised once it runs, and ends it."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    proc = None
    try:
        with open(log_path, "wb") as log, _interrupts_held():
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                    start_new_session=True)
    except BaseException:
        if proc is not None:
            end_group(proc, grace)
        raise
    return proc


def run_logged(cmd: list[str], env: dict[str, str], log_path: Path, timeout: float,
               progress_mark: str | None = None, clock: Callable[[], float] = time.monotonic,
               grace: float = GRACE_S) -> Finished:
    """Runs `cmd` (an argument list, the environment given whole) with stdout and stderr in `log_path`.

    `timeout`: seconds for the whole run, or, with `progress_mark`, seconds without a new line holding that
    mark (each step of the child gets `timeout`, however many steps it has), as `clock` counts them. `grace`:
    seconds it has to end on SIGTERM (torchrun ends its ranks itself, which takes longer than a plain child)."""
    t0 = clock()
    proc = _start_logged(cmd, env, log_path, grace)
    try:
        last, offset = clock(), 0
        while True:
            try:
                rc = proc.wait(timeout=POLL_S)
                return Finished(rc, clock() - t0)
            except subprocess.TimeoutExpired:
                pass
            if progress_mark is not None:
                seen, offset = _marks(log_path, offset, progress_mark)
                if seen:
                    last = clock()
            if clock() - (last if progress_mark is not None else t0) > timeout:
                end_group(proc, grace)
                return Finished(None, clock() - t0)
    except BaseException:
        end_group(proc, grace)    # Ctrl-C, SIGTERM, anything: the child goes with us
        raise


class Background:
    """A child started now, its output in `log_path`, waited for later: work that overlaps the caller's. The
    caller ends it (`end`, in its finally: Ctrl-C and SIGTERM included) if it never waited; `wait` ends it at
    `timeout` seconds after its start."""

    def __init__(self, cmd: list[str], env: dict[str, str], log_path: Path, timeout: float,
                 clock: Callable[[], float] = time.monotonic):
        self.timeout, self.clock, self.t0, self.log_path = timeout, clock, clock(), log_path
        self.proc = _start_logged(cmd, env, log_path)

    def marked(self, mark: str, within: float) -> bool:
        """Whether its log has a line holding `mark`, waiting for one while it runs, up to `within` seconds after
        its start (its clock's); the log is read on from where the last look stopped (run_logged's `_marks`)."""
        offset = 0
        while True:
            seen, offset = _marks(self.log_path, offset, mark)
            if seen:
                return True
            if self.proc.poll() is not None or self.clock() - self.t0 >= within:
                return _marks(self.log_path, offset, mark)[0] > 0   # what it wrote before it ended
            time.sleep(POLL_S)

    def wait(self, timeout: float | None = None) -> Finished:
        """Its end, or None as returncode when it ran past its timeout (then ended): `timeout` seconds from now,
        else the one given at its start, counted from then. Its log's end as stdout (what `why` quotes)."""
        left = timeout if timeout is not None else self.timeout - (self.clock() - self.t0)
        try:
            rc = self.proc.wait(timeout=max(0.0, left))
        except subprocess.TimeoutExpired:
            end_group(self.proc)
            return Finished(None, self.clock() - self.t0, self._log_end())
        except BaseException:
            end_group(self.proc)
            raise
        return Finished(rc, self.clock() - self.t0, self._log_end())

    def _log_end(self, size: int = 16384) -> str:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(max(0, f.seek(0, os.SEEK_END) - size))
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def end(self) -> None:
        """Ends it with its group if it still runs (a no-op once it has ended)."""
        if self.proc.poll() is None:
            end_group(self.proc)
