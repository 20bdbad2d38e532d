"""The worker protocol, once, with a fake worker (tests/fake_worker.py) through the real entry's `serve` and
procs' one reader: a typed spec in (settings whole), events out (progress, note, phase, result, error), a crash
without an error event, a timeout, a timeout counted between events, Ctrl-C, and the parent's go."""
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from fake_worker import FakeSpec
from fakes import dead
from inductor_prof import procs
from inductor_prof.settings import Settings

FAKE = [sys.executable, str(Path(__file__).parent / "fake_worker.py")]


def _run(tmp_path, behaviour, timeout=60.0, **kw):
    spec = FakeSpec(settings=Settings(ncu_timeout=77, sudo=True), behaviour=behaviour)
    return procs.run_worker(spec, tmp_path / "w.log", timeout, env={}, program=FAKE, **kw)


def test_events_reach_the_parent_in_order_and_the_result_is_the_last(tmp_path):
    seen = []
    done = _run(tmp_path, "ok", on_event=seen.append)
    assert done.ok, done.failure()
    assert done.result == {"answer": 42, "ncu_timeout": 77, "sudo": True}   # the settings arrived whole
    assert [e["event"] for e in seen] == ["phase", "progress", "note", "progress", "result"]
    assert done.notes == ["half way"]
    assert [(e["done"], e["total"], e["what"]) for e in done.seen("progress")] == [(1, 2, "one"), (2, 2, "two")]
    assert "a line only the log keeps" in (tmp_path / "w.log").read_text()
    assert done.error is None


def test_a_user_error_is_the_one_line_failure_and_exit_2(tmp_path):
    done = _run(tmp_path, "user_error")
    assert not done.ok and done.finished.returncode == 2 and done.result is None
    assert done.failure() == f"bad input: the ncu_timeout setting (log: {tmp_path / 'w.log'})"


def test_an_exception_is_its_one_line_and_its_traceback_is_in_the_log(tmp_path):
    done = _run(tmp_path, "raises")
    assert done.finished.returncode == 1
    assert done.failure().startswith("ValueError: a bug in the work")
    assert "Traceback" in (tmp_path / "w.log").read_text()


def test_a_crash_without_an_error_event_says_how_it_ended_and_the_log_end(tmp_path):
    done = _run(tmp_path, "crash")
    assert not done.ok and done.error is None
    assert done.failure().startswith("killed by SIGSEGV: ") and "last words" in done.failure()
    assert [e["event"] for e in done.events] == ["phase", "progress", "note", "progress"]   # what came before


def test_exit_0_without_a_result_is_a_failure(tmp_path):
    done = _run(tmp_path, "exit_quietly")
    assert not done.ok and done.failure().startswith("exit 0 without a result")


def test_a_timeout_ends_it_and_says_so(tmp_path):
    spec = FakeSpec(behaviour="hang", pid_file=str(tmp_path / "pid"))
    done = procs.run_worker(spec, tmp_path / "w.log", 1.5, env={}, program=FAKE)
    assert done.finished.timed_out and not done.ok
    assert done.failure().startswith("no answer after 1.5 s (ended)")
    assert dead(int((tmp_path / "pid").read_text()))


def test_an_idle_timeout_counts_from_the_last_event(tmp_path):
    # six steps 0.2 s apart (1.2 s and more) under an idle timeout of 1 s: only the hang after them times out,
    # so the worker ran longer than the timeout; a timeout counted from the start would end it at 1 s, mid-steps
    done = _run(tmp_path, "steps", timeout=1.0, idle=True)
    assert done.finished.timed_out
    assert len(done.seen("progress")) == 2 + 6
    assert done.finished.seconds > 1.2


def test_ctrl_c_ends_the_worker_and_is_raised(tmp_path, ctrl_c_raises):
    pid_file = tmp_path / "pid"

    def interrupt_when_started():
        deadline = time.monotonic() + 60
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
    thread = threading.Thread(target=interrupt_when_started, daemon=True)
    thread.start()
    worker = procs.Worker(FakeSpec(behaviour="hang", pid_file=str(pid_file)), tmp_path / "w.log", 60, env={},
                          program=FAKE)
    with pytest.raises(KeyboardInterrupt):
        worker.wait()
    thread.join()
    assert dead(int(pid_file.read_text()))
    assert not worker.folder.exists()   # its spec and events gone with it


@pytest.mark.parametrize("say_go", [True, False])
def test_the_parent_says_go_or_its_silence_is_no(tmp_path, say_go):
    worker = procs.Worker(FakeSpec(behaviour="go"), tmp_path / "w.log", 60, env={}, program=FAKE, stdin=True)
    assert worker.wait_for("note", 60)
    if say_go:
        worker.go()
    else:
        worker.proc.stdin.close()   # what the parent's end does to the pipe
    done = worker.wait()
    assert done.ok and done.result == {"went": say_go}


def test_a_bad_spec_is_exit_2_naming_it(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text('{"kind": "nonesuch"}')
    done = procs.run([*FAKE, str(spec)], {}, 60)
    assert done.returncode == 2 and f"worker spec {spec}: kind 'nonesuch'" in done.stderr
