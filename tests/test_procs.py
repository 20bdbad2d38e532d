"""Child processes end with their whole group: on a timeout, on a progress timeout, and on an interrupt, a
grandchild that ignores SIGTERM included. The timeouts of run_logged are judged by a clock the test gives it
and the interrupts sent when the child is ready, so no test races a wall clock; procs.run's timeout (a wall
clock, communicate's) is tested with a child that is ready in milliseconds."""
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from fakes import dead
from inductor_prof import procs

# the child starts a grandchild that ignores SIGTERM and waits for it to be ready, writes its pid (whole: a
# reader never sees the file empty), then hangs
CHILD = """
import os, signal, subprocess, sys, time
ready = sys.argv[1] + '.ready'
g = subprocess.Popen([sys.executable, '-c', 'import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); '
                      'open(sys.argv[1], "w").write("ready"); time.sleep(60)', ready])
while not os.path.exists(ready):
    time.sleep(0.01)
open(sys.argv[1] + '.tmp', 'w').write(str(g.pid))
os.replace(sys.argv[1] + '.tmp', sys.argv[1])
time.sleep(60)
"""


def _grandchild(pid_file: Path) -> int:
    assert pid_file.exists(), "the child never got its grandchild started: the machine is too slow for the timeout"
    return int(pid_file.read_text())


class ReadyClock:
    """A clock for run_logged that stands still until the child has its grandchild (its pid file written), then
    reads `jump` seconds: the timeout fires right then, never before, however loaded the machine."""

    def __init__(self, pid_file: Path, jump: float):
        self.pid_file, self.jump, self.fired = pid_file, jump, None

    def __call__(self) -> float:
        if self.fired is None and self.pid_file.exists():
            self.fired = time.monotonic()       # (real time: how long ending the group takes is measured from here)
        return self.jump if self.fired is not None else 0.0


def test_timeout_ends_the_whole_group(tmp_path):
    pid_file = tmp_path / "g.pid"
    clock = ReadyClock(pid_file, jump=4.5)
    done = procs.run_logged([sys.executable, "-c", CHILD, str(pid_file)], {}, tmp_path / "log", 4.0,
                            clock=clock)
    assert done.timed_out and done.returncode is None
    assert done.seconds == 4.5
    assert time.monotonic() - clock.fired < 2 * procs.GRACE_S     # ended within the grace periods
    assert dead(_grandchild(pid_file))


def _interrupt_when_ready(pid_file: Path) -> threading.Thread:
    """Ctrl-C (SIGINT to this process) once the child has its grandchild: the moment, not a guess of it."""
    def wait_then_interrupt():
        deadline = time.monotonic() + 60
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        # to the main thread itself: its wait (a poll in procs.run) is interrupted and KeyboardInterrupt raised there
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
    thread = threading.Thread(target=wait_then_interrupt, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("start", [
    lambda cmd, tmp_path: procs.run_logged(cmd, {}, tmp_path / "log", 60),
    lambda cmd, tmp_path: procs.run(cmd, {}, 60)], ids=["run_logged", "run"])
def test_interrupt_ends_the_whole_group_and_is_raised(tmp_path, start, ctrl_c_raises):
    pid_file = tmp_path / "g.pid"
    thread = _interrupt_when_ready(pid_file)
    with pytest.raises(KeyboardInterrupt):
        start([sys.executable, "-c", CHILD, str(pid_file)], tmp_path)
    thread.join()
    assert dead(_grandchild(pid_file))


def test_ctrl_c_while_the_child_starts_still_ends_it(tmp_path, monkeypatch, ctrl_c_raises):
    """Ctrl-C landing the instant Popen has started the child, before run_logged holds it (a loaded machine
    can deschedule the parent right there): the interrupt is held until the child is known, then raised, and
    the child is ended. Raised inside Popen it left the child running, nothing to end it (the flaky
    tests/cli/test_ncu_run_integrity.py::test_ctrl_c_in_the_first_batch_then_report under load)."""
    started = []
    real_popen = procs.subprocess.Popen

    def popen_then_ctrl_c(*args, **kwargs):
        started.append(real_popen(*args, **kwargs))
        signal.raise_signal(signal.SIGINT)      # what the user's Ctrl-C does, at this exact point
        return started[-1]
    monkeypatch.setattr(procs.subprocess, "Popen", popen_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        procs.run_logged([sys.executable, "-c", "import time; time.sleep(600)"], {}, tmp_path / "log", 600)
    assert dead(started[0].pid)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler     # the handler is given back


# ---- procs.run: short children, their output returned ---------------------------------------------------------

def test_run_returns_the_output_and_passes_only_the_given_environment(monkeypatch):
    code = ("import os, sys; print('out', os.environ.get('ONLY'), 'LEAK' in os.environ, flush=True); "
            "print('err', file=sys.stderr)")
    monkeypatch.setenv("LEAK", "1")   # ours, not given: the child must not see it
    done = procs.run([sys.executable, "-c", code], {"ONLY": "given"}, 30)
    assert done.ok and (done.stdout, done.stderr) == ("out given False\n", "err\n")
    merged = procs.run([sys.executable, "-c", code], {"ONLY": "x"}, 30, merge=True)
    assert (merged.stdout, merged.stderr) == ("out x False\nerr\n", "")


def test_a_failed_child_says_how_it_ended_with_its_stderr():
    code = "import sys; print('noise'); print('line 1\\n\\nline 2', file=sys.stderr); sys.exit(3)"
    done = procs.run([sys.executable, "-c", code], {}, 30)
    assert not done.ok and done.why() == "exit 3: line 1 | line 2"
    silent = procs.run([sys.executable, "-c", "import sys; print('out only'); sys.exit(1)"], {}, 30)
    assert silent.why() == "exit 1: out only"   # no stderr: the end of stdout
    quiet = procs.run([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"], {}, 30)
    assert quiet.why() == "killed by SIGSEGV: (no output)"


# CHILD in bash, which starts in milliseconds: procs.run's timeout is a wall clock (communicate's), so the child
# must be ready well within it; a grandchild that ignores SIGTERM, its pid written whole, one MARK line, a hang
BASH_CHILD = '(trap "" TERM; exec sleep 60) & echo $! > "$1.tmp"; mv "$1.tmp" "$1"; echo MARK 0; wait'


def test_run_timeout_ends_the_whole_group(tmp_path):
    pid_file = tmp_path / "g.pid"
    t0 = time.monotonic()
    done = procs.run(["bash", "-c", BASH_CHILD, "child", str(pid_file)], {"PATH": os.environ["PATH"]}, 1.0)
    assert done.timed_out and done.why(1.0) == "no answer after 1 s (ended)"
    assert done.stdout == "MARK 0\n"      # what it printed before it was ended is kept
    assert time.monotonic() - t0 < 1.0 + 3 * procs.GRACE_S
    assert dead(_grandchild(pid_file))


def test_a_program_that_cannot_start_raises_oserror(tmp_path):
    with pytest.raises(OSError):
        procs.run([str(tmp_path / "no-such-program")], {}, 10)


def test_no_module_but_procs_starts_a_child():
    """Every child goes through procs.py (its timeouts, its group ending): no other module of the package
    imports subprocess, multiprocessing or pty, or calls os.system / os.popen / os.exec* / os.spawn*."""
    import ast

    import inductor_prof

    root = Path(inductor_prof.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if path == root / "procs.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n.split(".")[0] in ("subprocess", "multiprocessing", "pty") for n in names):
                found.append(f"{path.relative_to(root)}: import {', '.join(names)}")
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os" and \
                    (node.attr in ("system", "popen", "fork", "posix_spawn") or node.attr.startswith(("exec", "spawn"))):
                found.append(f"{path.relative_to(root)}: os.{node.attr}")
    assert found == []


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

def test_tail_last_four_nonblank_lines_capped():
    # 6 lines (one blank): the last 4 non-blank, joined by " | "
    assert procs.tail("a\nb\n\n \nc\nd\ne\nf\n") == "c | d | e | f"
    assert procs.tail("a\nb\nc", lines=2) == "b | c"
    # capped at 600 characters
    assert procs.tail("x" * 1000) == "x" * 600


# ---- Worker: a child started now, waited for later (tests/test_procs_worker.py: its events, with a fake worker)

def _worker(tmp_path, code, log="log", timeout=60.0, **kw):
    """A worker whose program is `code` (python -c; its spec path comes last in its arguments)."""
    from fake_worker import FakeSpec

    return procs.Worker(FakeSpec(), tmp_path / log, timeout, env={}, program=[sys.executable, "-c", code], **kw)


def test_worker_wait_gives_the_exit_and_keeps_the_output(tmp_path):
    job = _worker(tmp_path, "import sys; print('built'); sys.exit(3)", log="sub/build.log")   # its folder made
    done = job.wait()
    assert done.finished.returncode == 3 and not done.finished.timed_out
    assert (tmp_path / "sub" / "build.log").read_text() == done.finished.stdout == "built\n"
    assert done.why() == "exit 3: built"
    job.end()    # once ended: nothing to do, no error


def test_worker_wait_ends_the_whole_group_at_its_timeout(tmp_path):
    pid_file = tmp_path / "g.pid"
    clock = ReadyClock(pid_file, jump=10.5)   # reads 10.5 s once the grandchild runs: past the 10 s timeout
    job = procs.Worker(__import__("fake_worker").FakeSpec(), tmp_path / "log", 10, env={},
                       program=[sys.executable, "-c", CHILD, str(pid_file)], clock=clock)
    while not pid_file.exists():
        time.sleep(0.01)
    done = job.wait()
    assert done.finished.timed_out and done.finished.seconds == 10.5
    assert dead(_grandchild(pid_file)) and dead(job.proc.pid)


def test_worker_wait_counts_a_timeout_given_to_it_from_now(tmp_path):
    # started with 0.2 s (long spent once it is waited for), waited for with 30 s from now: it ends on its own
    job = _worker(tmp_path, "import time; time.sleep(0.6); print('done')", timeout=0.2)
    time.sleep(0.3)
    done = job.wait(30)
    assert done.finished.returncode == 0 and not done.finished.timed_out and done.finished.stdout == "done\n"
    late = _worker(tmp_path, "import time; time.sleep(30)", log="log2", timeout=600)
    assert late.wait(0.3).finished.timed_out   # and 0.3 s from now, though 600 from its start, ends it


def test_worker_wait_for_an_event_its_end_or_the_time_given(tmp_path):
    said = ("import json, sys, time; from inductor_prof.events import Events; time.sleep(0.3); "
            "Events(json.load(open(sys.argv[-1]))['events']).phase('ready', 'x'); time.sleep(30)")
    job = procs.Worker(__import__("fake_worker").FakeSpec(), tmp_path / "log", 600,
                       program=[sys.executable, "-c", said])
    assert job.wait_for("phase", 60, name="ready")   # said 0.3 s in: waited for
    job.end()
    ended = _worker(tmp_path, "print('nothing')", log="log2", timeout=600)
    assert not ended.wait_for("phase", 60)    # ended without it: not waited for 60 s
    clock = iter([0.0] + [601.0] * 10)        # its time is spent at the first look
    slow = _worker(tmp_path, "import time; time.sleep(30)", log="log3", timeout=600, clock=lambda: next(clock))
    assert not slow.wait_for("phase", 600) and slow.proc.poll() is None
    slow.end()


def test_worker_end_ends_a_child_never_waited_for(tmp_path):
    # the profile's finally: a run that stops (Ctrl-C, a failed required stage) before the child was waited for
    pid_file = tmp_path / "g.pid"
    job = procs.Worker(__import__("fake_worker").FakeSpec(), tmp_path / "log", 600, env={},
                       program=[sys.executable, "-c", CHILD, str(pid_file)])
    while not pid_file.exists():
        time.sleep(0.01)
    job.end()
    assert dead(_grandchild(pid_file)) and dead(job.proc.pid) and not job.folder.exists()
