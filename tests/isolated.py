"""Python code run in a process of its own, for the modes Triton and numba take when they are imported
(TRITON_INTERPRET=1, NUMBA_ENABLE_CUDASIM=1). One process per mode serves the whole session, each piece of code
in a namespace of its own, as `python -c CODE ARGS...` would run it: torch and Triton are imported once, not once
per test (about 2 s each)."""
from __future__ import annotations

import atexit
import json
import os
import selectors
import subprocess
import sys
from dataclasses import dataclass

from recorded import REPO

# a job a line on stdin ({"code" or "path", "argv"}); the answer a line on stdout: exit code, stdout, stderr
SERVER = r"""
import contextlib, io, json, os, runpy, sys, traceback
reply = os.fdopen(os.dup(1), "w")      # the answers' own descriptor: what C code prints to fd 1 goes to stderr
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

_servers: dict[tuple, subprocess.Popen] = {}


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def _server(env: dict[str, str]) -> subprocess.Popen:
    key = tuple(sorted(env.items()))
    proc = _servers.get(key)
    if proc is None or proc.poll() is not None:
        full = {**os.environ, **env, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get(
            "PYTHONPATH", "")) if p)}
        proc = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env=full, cwd=REPO)
        _servers[key] = proc
    return proc


def run(env: dict[str, str], code: str | None = None, path: str | None = None, args=(),
        timeout: float = 600) -> Done:
    """(exit code, stdout, stderr) of `python -c CODE ARGS` (or `python PATH ARGS`) with `env` added to ours and the
    repository first on the path, run in the session's process for that `env`."""
    proc = _server(env)
    argv = ["-c" if path is None else str(path), *map(str, args)]
    proc.stdin.write(json.dumps({"code": code, "path": path and str(path), "argv": argv}) + "\n")
    proc.stdin.flush()
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            proc.kill()
            raise TimeoutError(f"no answer from the {env} process in {timeout:g} s")
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError(f"the {env} process ended (exit {proc.wait()})")
    return Done(**json.loads(line))


@atexit.register
def _close() -> None:
    for proc in _servers.values():
        if proc.poll() is None:
            proc.stdin.close()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
