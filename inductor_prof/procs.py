"""Every child process of the package starts here. Each gets an argument list (never a shell string), the
environment given whole (childenv.child_env builds it), a timeout, and a process group of its own; the whole
group is ended on the timeout, on Ctrl-C and on SIGTERM (signals.py turns SIGTERM into an interrupt), so
no grandchild (ncu's target, a compile worker) is left behind. `run_logged` keeps the output in a log file
(long children), `run` returns it (short ones); `Finished.why` says how a failed one ended, its output's end
included. The package's own workers (`python -m inductor_prof.worker SPEC.json`: every child of the package but
torchrun and the tools it runs itself) start through `Worker` (started now, waited for later) or `run_worker`,
whose one reader turns their events file (events.py) into a `WorkerOutcome`: result, notes, phases, or the
one-line failure (the worker's error event, else how it ended)."""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import specs
from .childenv import child_env

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
                  grace: float = GRACE_S, stdin: bool = False) -> subprocess.Popen:
    """`cmd` started in a process group of its own, stdout and stderr into `log_path` (the child holds its own
    copy of the file: a log, not a result, it grows while the child runs and is kept). Ctrl-C or SIGTERM held
    while it starts is raised once it runs, and ends it. `stdin`: a pipe the caller writes to (else none)."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    proc = None
    try:
        with open(log_path, "wb") as log, _interrupts_held():
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                    stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
    except BaseException:
        if proc is not None:
            end_group(proc, grace)
        raise
    return proc


def run_logged(cmd: list[str], env: dict[str, str], log_path: Path, timeout: float,
               clock: Callable[[], float] = time.monotonic, grace: float = GRACE_S) -> Finished:
    """Runs `cmd` (an argument list, the environment given whole; a program not of the package: the package's
    own run as workers, below) with stdout and stderr in `log_path`, for `timeout` seconds as `clock` counts
    them. `grace`: seconds it has to end on SIGTERM (torchrun ends its ranks itself, which takes longer than a
    plain child)."""
    t0 = clock()
    proc = _start_logged(cmd, env, log_path, grace)
    try:
        while True:
            try:
                rc = proc.wait(timeout=POLL_S)
                return Finished(rc, clock() - t0)
            except subprocess.TimeoutExpired:
                pass
            if clock() - t0 > timeout:
                end_group(proc, grace)
                return Finished(None, clock() - t0)
    except BaseException:
        end_group(proc, grace)    # Ctrl-C, SIGTERM, anything: the child goes with us
        raise


# ---- the package's workers: one entry point, a typed spec, one events channel ---------------------------------

WORKER = ("-m", "inductor_prof.worker")   # worker.py; its spec file is its one argument


def read_events(path: Path, offset: int = 0) -> tuple[list[dict], int]:
    """(the events written to `path` after `offset`, the new offset): whole lines only (one being written is read
    next time); a line that is not a JSON object is skipped."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            chunk = f.read()
    except OSError:
        return [], offset
    end = chunk.rfind(b"\n") + 1
    out = []
    for line in chunk[:end].decode(errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and "event" in event:
            out.append(event)
    return out, offset + end


@dataclass
class WorkerOutcome:
    finished: Finished
    log_path: Path | None     # None: a short worker whose output was not kept (its end is finished.stdout)
    events: list[dict] = field(default_factory=list)
    timeout: float | None = None

    def _last(self, kind: str) -> dict | None:
        return next((e for e in reversed(self.events) if e["event"] == kind), None)

    @property
    def ok(self) -> bool:
        """Exit 0 with a result event, and no error event."""
        return self.finished.ok and self._last("result") is not None and self._last("error") is None

    @property
    def result(self) -> Any:
        found = self._last("result")
        return None if found is None else found.get("value")

    @property
    def error(self) -> str | None:
        """The worker's own word on why it failed (its error event), if it said one."""
        found = self._last("error")
        return None if found is None else str(found.get("message", ""))

    @property
    def notes(self) -> list[str]:
        return [str(e.get("text", "")) for e in self.events if e["event"] == "note"]

    def seen(self, kind: str) -> list[dict]:
        return [e for e in self.events if e["event"] == kind]

    def why(self) -> str:
        """Why it failed, one line: its error event, else how it ended (a crash: the log's last lines; a
        timeout)."""
        if self.finished.timed_out:
            return self.finished.why(self.timeout)
        if self.error is not None:
            return self.error
        return "exit 0 without a result" if self.finished.ok else self.finished.why()

    def failure(self) -> str:
        """`why`, and the log."""
        return f"{self.why()} (log: {self.log_path})" if self.log_path is not None else self.why()


class Worker:
    """A worker process (`python -m inductor_prof.worker SPEC`) started now, its output in `log_path`, its events
    read as they come (`poll`, each given to `on_event`); `log_path` None: its output is not kept (a short
    worker; a failure quotes its end). `timeout`: seconds from its start, or with `idle` seconds without an event
    (each step of a long worker gets it). `stdin`: the parent may say `go` to it later.
    The caller ends it (`end`, in its finally) if it never waited; its spec and events live in a folder of
    their own, removed once it is waited for or ended."""

    def __init__(self, spec: specs.Spec, log_path: Path | None, timeout: float, env: dict[str, str] | None = None,
                 on_event: Callable[[dict], None] | None = None, idle: bool = False, stdin: bool = False,
                 program: list[str] | None = None, clock: Callable[[], float] = time.monotonic,
                 grace: float = GRACE_S):
        self.log_path, self.timeout, self.idle, self.on_event, self.clock, self.grace = \
            log_path, timeout, idle, on_event, clock, grace
        self.folder = Path(tempfile.mkdtemp(prefix="inductor-prof-worker-"))
        self._log = log_path if log_path is not None else self.folder / "output.log"
        self.events_path = self.folder / "events.jsonl"
        spec_path = self.folder / "spec.json"
        self.spec = dataclasses.replace(spec, events=str(self.events_path))
        spec_path.write_text(specs.dumps(self.spec))
        self.events: list[dict] = []
        self._offset = 0
        self.t0 = self.last = clock()
        try:
            self.proc = _start_logged([*(program or [sys.executable, *WORKER]), str(spec_path)],
                                      child_env() if env is None else env, self._log, grace, stdin)
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise

    def poll(self) -> list[dict]:
        """The events written since the last look (each given to on_event)."""
        new, self._offset = read_events(self.events_path, self._offset)
        if new:
            self.last = self.clock()
        for event in new:
            self.events.append(event)
            if self.on_event is not None:
                self.on_event(event)
        return new

    def wait_for(self, kind: str, within: float, **fields: Any) -> bool:
        """Whether it wrote an event of `kind` (with these `fields`), waiting for one while it runs, up to
        `within` seconds after its start (its clock's)."""
        def wanted(e: dict) -> bool:
            return e["event"] == kind and all(e.get(k) == v for k, v in fields.items())
        while True:
            ended = self.proc.poll() is not None
            self.poll()   # after the look at its end: what it wrote before it ended is read
            if any(map(wanted, self.events)):
                return True
            if ended or self.clock() - self.t0 >= within:
                return False
            time.sleep(POLL_S)

    def go(self) -> None:
        """Tells a worker started with `stdin` to go on (a line on its stdin; it reads the end of the pipe, the
        parent gone, as no)."""
        try:
            stdin = self.proc.stdin
            if stdin is not None:   # None: started without `stdin`, nothing to tell it
                stdin.write(b"go\n")
                stdin.close()
        except (OSError, ValueError, AttributeError):   # it ended already: its outcome says how
            pass

    def wait(self, timeout: float | None = None) -> WorkerOutcome:
        """Its outcome: `timeout` seconds from now (else the one given at its start, as it counts), then ended
        with its group. Ctrl-C and SIGTERM end it too, and are raised."""
        limit = timeout if timeout is not None else self.timeout
        since = self.clock() if timeout is not None else self.t0
        try:
            while True:
                try:
                    rc = self.proc.wait(timeout=POLL_S)
                    self.poll()
                    return self._outcome(Finished(rc, self.clock() - self.t0), limit)
                except subprocess.TimeoutExpired:
                    pass
                self.poll()
                if self.clock() - (self.last if self.idle else since) > limit:
                    end_group(self.proc, self.grace)
                    self.poll()
                    return self._outcome(Finished(None, self.clock() - self.t0), limit)
        except BaseException:
            self.end()
            raise

    def _outcome(self, done: Finished, limit: float) -> WorkerOutcome:
        done.stdout = _log_end(self._log)
        self._close()
        return WorkerOutcome(done, self.log_path, list(self.events), limit)

    def end(self) -> None:
        """Ends it with its group if it still runs (a no-op once it has ended); its folder removed."""
        if self.proc.poll() is None:
            end_group(self.proc, self.grace)
        self._close()

    def _close(self) -> None:
        """Its folder removed, and the parent's end of its stdin closed (if it had one)."""
        shutil.rmtree(self.folder, ignore_errors=True)
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:   # a worker that ended leaves a pipe whose flush fails: nothing to keep
                pass


def run_worker(spec: specs.Spec, log_path: Path | None, timeout: float, env: dict[str, str] | None = None,
               on_event: Callable[[dict], None] | None = None, idle: bool = False,
               program: list[str] | None = None, clock: Callable[[], float] = time.monotonic) -> WorkerOutcome:
    """A worker run to its end (see Worker); Ctrl-C and SIGTERM end it with its group, and are raised."""
    return Worker(spec, log_path, timeout, env, on_event, idle, program=program, clock=clock).wait()


def _log_end(log_path: Path, size: int = 16384) -> str:
    try:
        with open(log_path, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - size))
            return f.read().decode(errors="replace")
    except OSError:
        return ""
