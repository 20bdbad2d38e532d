"""Stand-ins for ncu and sudo in failure tests: small executables whose behaviour each test writes. They test
how inductor-prof handles a tool's failures; no output of theirs is presented as a measurement."""
import stat
import sys
import time
from pathlib import Path


# what a fake ncu may call as the replay worker it stands in for would: `step(what, i, ok=..., reason=...)` writes
# a step event to the events file of the worker spec that ends its arguments (replay.py), and the log's line
STEP_EVENT = """
def step(what, i=None, **detail):
    spec = json.load(open(args[-1]))
    with open(spec['events'], 'a') as f:
        f.write(json.dumps({'event': 'progress', 't': time.time(), 'done': 0 if i is None else i + 1, 'total': 0,
                            'what': what, 'index': i, **detail}) + '\\n')
    print('ncu_runner: step', what, *([i] if i is not None else []), file=sys.stderr, flush=True)
"""


def fake_exe(folder: Path, body: str, name: str = "fake ncu") -> str:
    """An executable Python script: `args` holds its arguments, `step` can say a replay step, then `body` runs."""
    path = folder / name
    path.write_text(f"#!{sys.executable}\nimport json, os, shutil, signal, sys, time\nargs = sys.argv[1:]\n"
                    f"{STEP_EVENT}\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


# A fake ncu speaking the replay worker's protocol (step events): it reads the kernel names from the spec files
# its worker spec names, says each loaded, then runs BEHAVIOUR(i, name) before saying each profiled, and
# writes the names as its "report" (tests read it back with `names_report`). Each call appends its kernel
# names to `<script>.calls`, one line per ncu process.
REPLAYING = """
out = args[args.index('-o') + 1]
specs = json.load(open(args[-1]))['specs']
names = [json.load(open(p))['name'] for p in specs]
open(sys.argv[0] + '.calls', 'a').write(' '.join(names) + '\\n')
for i, n in enumerate(names):
    step('load', i, ok=True)
for i, n in enumerate(names):
{behaviour}
    step('profile', i)
json.dump(names, open(out + '.ncu-rep', 'w'))
"""


def replaying_ncu(folder: Path, behaviour: str = "pass") -> str:
    """`behaviour`: Python run before kernel i (`i`, `n` its name) is marked profiled, indented 4 spaces."""
    return fake_exe(folder, REPLAYING.format(behaviour="\n".join("    " + ln for ln in behaviour.splitlines())))


def calls(exe: str) -> list[list[str]]:
    """The kernel names of each ncu process the fake was run as, in order."""
    path = Path(exe + ".calls")
    return [ln.split() for ln in path.read_text().splitlines()] if path.exists() else []


def names_report(paths) -> dict[str, dict]:
    """parse_reports for the fake's reports: each kernel a result, in order (no metrics: none were measured)."""
    import json

    return {str(p): {"results": [{"kernel": n} for n in json.loads(Path(p).read_text())]} for p in paths}


def dead(pid: int, within: float = 5.0) -> bool:
    """Gone, or a zombie (ended; this container's init may be slow to reap it), within a few seconds (a
    SIGKILLed process still has to be scheduled to die)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


# ---- clocks for the timeouts (procs.run_logged's and procs.Worker's `clock`, through the ncu stage): a timeout
# fires at an event a fake writes, not after a guess of wall time, however loaded the machine

# a fake's body for "hangs": it names itself in a file beside its executable, then sleeps (HangClock sees it)
HANG = "open(f'{sys.argv[0]}.hang.{os.getpid()}', 'w').close()\ntime.sleep(60)"


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class HangClock:
    """Stands still while no process of the fake `exe` hangs (HANG), and moves `step` seconds a reading while one
    does: a timeout fires for the hanging process after a few readings, and never for one that works."""

    def __init__(self, exe: str, step: float):
        self.exe, self.step, self.now = Path(exe), step, 0.0

    def __call__(self) -> float:
        if any(_running(int(p.name.rsplit(".", 1)[1])) for p in self.exe.parent.glob(f"{self.exe.name}.hang.*")):
            self.now += self.step
        return self.now


class MarksClock:
    """Moves `step` seconds a reading and lets the child print `{mark} i` at `due` * i seconds (the child waits
    for the file `{go}.{i}`), then stands still until that line is in `log`: the marks come `due` apart on this
    clock whatever the machine does, so between the last mark a reader saw and its reading at most `due` +
    `step` seconds pass."""

    def __init__(self, go: Path, log: Path, marks: int, mark: str = "MARK", step: float = 0.3, due: float = 0.6):
        self.go, self.log, self.marks, self.mark = go, log, marks, mark
        self.step, self.due, self.now, self.released = step, due, 0.0, 0

    def _printed(self, i: int) -> bool:
        return f"{self.mark} {i}\n" in (self.log.read_text() if self.log.exists() else "")

    def __call__(self) -> float:
        if self.released and not self._printed(self.released - 1):
            return self.now
        self.now += self.step
        if self.released < self.marks and self.released * self.due <= self.now:
            Path(f"{self.go}.{self.released}").touch()
            self.released += 1
        return self.now
