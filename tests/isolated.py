"""Python code run in a process of its own, for the modes Triton and numba take when they are imported
(TRITON_INTERPRET=1, NUMBA_ENABLE_CUDASIM=1). One process per mode serves the whole session, each piece of code
in a namespace of its own, as `python -c CODE ARGS...` would run it: torch and Triton are imported once, not once
per test (about 2 s each).

A test module can `prefetch` a job when it is collected: the process works on it while the tests before run (on
the machine's other core), and `run` with the same arguments then takes its answer instead of running it again
(under pytest-xdist, where both cores run tests, `run` sends it when a test asks).
`Server` is the mechanism (test_light_install.py runs its own script on it)."""
from __future__ import annotations

import atexit
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass

from recorded import REPO

# a job a line on stdin ({"code" or "path", "argv"}); the answer a line, in order, on the process's stdout as it
# was at start (fd 1 then points at stderr, for what C code prints): exit code, stdout, stderr
SERVER = r"""
import contextlib, io, json, os, runpy, sys, traceback
reply = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
for line in sys.stdin:
    job = json.loads(line)
    out, err, code = io.StringIO(), io.StringIO(), 0
    sys.argv = job["argv"]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if job["path"]:
                runpy.run_path(job["path"], run_name="__main__")
            else:
                exec(compile(job["code"], "<string>", "exec"), {"__name__": "__main__"})
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
    reply.write(json.dumps({"returncode": code, "stdout": out.getvalue(), "stderr": err.getvalue()}) + "\n")
    reply.flush()
"""


class Server:
    """A Python process running `script` with `env` added to ours and the repository first on the path, from the
    repository root: it reads a job a JSON line on stdin and answers each with a JSON line, in order. A thread
    reads the answers into a queue, so jobs can be sent ahead (submit) and their answers taken later."""

    def __init__(self, script: str, env: dict[str, str]):
        full = {**os.environ, **env, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get(
            "PYTHONPATH", "")) if p)}
        self.env = env
        self.log = tempfile.TemporaryFile()   # its stderr: the end is quoted if it dies
        self.proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, env=full, cwd=REPO)
        self.answers: queue.Queue = queue.Queue()
        self.waiting: list[Job] = []       # sent, answer not yet taken from the queue
        threading.Thread(target=self._read, daemon=True).start()
        _all.append(self)

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.answers.put(json.loads(line))
        self.answers.put(None)             # the process ended

    def alive(self) -> bool:
        return self.proc.poll() is None

    def submit(self, request: dict) -> Job:
        job = Job(self)
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:            # it died: answer() says how, from its stderr
            pass
        self.waiting.append(job)
        return job

    def answer(self, job: Job, timeout: float) -> dict:
        while job.done is None:
            try:
                got = self.answers.get(timeout=timeout)
            except queue.Empty:
                self.proc.kill()
                raise TimeoutError(f"no answer from the {self.env} process in {timeout:g} s") from None
            if got is None:
                self.log.seek(0)
                raise RuntimeError(f"the {self.env} process ended (exit {self.proc.wait()}): "
                                   f"{self.log.read()[-3000:].decode(errors='replace')}")
            self.waiting.pop(0).done = got
        return job.done


@dataclass
class Job:
    server: Server
    done: dict | None = None

    def result(self, timeout: float = 600) -> dict:
        return self.server.answer(self, timeout)


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


_all: list[Server] = []
_servers: dict[tuple, Server] = {}         # SERVER's process per env
_prefetched: dict[tuple, list[Job]] = {}


def _key(env, code, path, args) -> tuple:
    return tuple(sorted(env.items())), code, path and str(path), tuple(map(str, args))


def submit(env: dict[str, str], code: str | None = None, path=None, args=()) -> Job:
    """Sends `python -c CODE ARGS` (or `python PATH ARGS`) to the session's process for `env`."""
    key = tuple(sorted(env.items()))
    server = _servers.get(key)
    if server is None or not server.alive():
        server = _servers[key] = Server(SERVER, env)
    return server.submit({"code": code, "path": path and str(path),
                          "argv": ["-c" if path is None else str(path), *map(str, args)]})


def prefetch(env: dict[str, str], code: str | None = None, path=None, args=()) -> None:
    """submit now; the `run` with the same arguments takes the answer. Not in a pytest-xdist worker: every worker
    collects every module, so each would run every job (mostly for tests another worker runs), and no core is
    idle to run them on."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    _prefetched.setdefault(_key(env, code, path, args), []).append(submit(env, code, path, args))


def run(env: dict[str, str], code: str | None = None, path=None, args=(), timeout: float = 600) -> Done:
    """(exit code, stdout, stderr) of `python -c CODE ARGS` (or `python PATH ARGS`), with `env` added to ours and
    the repository first on the path, in the session's process for `env` (a prefetched answer if there is one)."""
    ready = _prefetched.get(_key(env, code, path, args))
    job = ready.pop(0) if ready else submit(env, code, path, args)
    return Done(**job.result(timeout))


@atexit.register
def _close() -> None:
    for server in _all:
        if not server.alive():
            continue
        if server.waiting:                 # prefetched for tests that did not run (-k, -x): not worth waiting for
            server.proc.kill()
            continue
        server.proc.stdin.close()
        try:
            server.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.proc.kill()
