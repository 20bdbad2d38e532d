"""A fake worker for the protocol's test (tests/test_procs_worker.py): the real entry's `serve` with one kind,
`fake`, whose `behaviour` says what it does: every event type, a result, a UserError, an exception, a crash with
no error event, a hang, steps then a hang, waiting for the parent's go. Run as `python tests/fake_worker.py SPEC`."""
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from inductor_prof import specs, worker  # noqa: E402
from inductor_prof.errors import UserError  # noqa: E402


@dataclass
class FakeSpec(specs.Spec):
    KIND: ClassVar[str] = "fake"
    behaviour: str = "ok"
    pid_file: str = ""


def fake(spec: FakeSpec, events) -> dict:
    if spec.pid_file:
        Path(spec.pid_file + ".tmp").write_text(str(os.getpid()))
        os.replace(spec.pid_file + ".tmp", spec.pid_file)
    events.phase("first")
    events.progress(1, 2, "one")
    events.note("half way")
    print("a line only the log keeps", flush=True)
    events.progress(2, 2, "two")
    behaviour = spec.behaviour
    if behaviour == "user_error":
        raise UserError("bad input: the ncu_timeout setting")
    if behaviour == "raises":
        raise ValueError("a bug in the work")
    if behaviour == "crash":
        print("last words", flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)
    if behaviour == "exit_quietly":
        os._exit(0)
    if behaviour == "hang":
        time.sleep(600)
    if behaviour == "steps":   # a step every 0.2 s, six of them, then a hang
        for i in range(6):
            time.sleep(0.2)
            events.progress(i + 1, 6, "step")
        time.sleep(600)
    if behaviour == "go":
        return {"went": sys.stdin.readline().strip() == "go"}
    return {"answer": 42, "ncu_timeout": spec.settings.ncu_timeout, "sudo": spec.settings.sudo}


if __name__ == "__main__":
    sys.exit(worker.serve(sys.argv, {"fake": FakeSpec}, {"fake": fake})[0])
