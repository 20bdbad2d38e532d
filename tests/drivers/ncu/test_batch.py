"""What a failing ncu costs and how it is told: a hang costs about one per-kernel timeout per hanging kernel, a
crash one process per crashing kernel, the same failure three times in a row stops the stage, and the counts
are those of this call. Fake ncu executables (tests/fakes.py) with a 1 s timeout keep each test short."""
import json
import signal
import textwrap

import pytest

from fakes import HANG, HangClock, calls, fake_exe, names_report, replaying_ncu
from inductor_prof import procs, rundir
from inductor_prof.drivers.ncu import batch as ncu_batch
from inductor_prof.drivers.ncu import command, replay
from inductor_prof.pipeline import ncu as ncu_stage
from inductor_prof.errors import UserError
from inductor_prof.drivers.ncu.locate import find_ncu
from inductor_prof.settings import Settings


class FakeRun(rundir.RunDir):
    def use(self, n: int) -> None:
        """Targets k0..k(n-1), Inductor kernels."""
        targets = [ncu_stage.NcuTarget(f"k{i}", f"k{i}", "inductor", {"type": "inductor", "name": f"k{i}"})
                   for i in range(n)]
        self.monkeypatch.setattr(ncu_stage, "targets", lambda run, *a: targets)


@pytest.fixture
def fake_run(tmp_path, monkeypatch):
    """A run folder whose targets `use(n)` sets; the fake's reports read by `names_report`."""
    run = FakeRun(tmp_path / "run")
    run.root.mkdir()
    object.__setattr__(run, "monkeypatch", monkeypatch)
    monkeypatch.setattr(ncu_batch, "parse_reports", names_report)
    monkeypatch.setattr(ncu_stage, "parse_reports", names_report)
    return run


def _status(run):
    return json.loads(run.ncu_status_json.read_text())


def test_a_hanging_kernel_costs_one_timeout_and_the_others_are_kept(fake_run, tmp_path):
    fake_run.use(6)
    exe = replaying_ncu(tmp_path, "if n == 'k2':\n" + textwrap.indent(HANG, "    "))
    clock = HangClock(exe, step=0.4)     # the timeout counted while k2 hangs, and only then
    summary = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, ncu_batch=6, ncu_timeout=1), log=lambda m: None,
                                clock=clock)
    # before: the batch got 6 x 1 s, then each kernel was retried alone (k2 another 1 s): over 7 s and 7
    # processes. Now: k2 hangs 1 s, the batch is ended, the other five go again in one process.
    assert calls(exe) == [["k0", "k1", "k2", "k3", "k4", "k5"], ["k0", "k1", "k3", "k4", "k5"]]
    assert 1 < clock.now < 5       # one timeout (the clock moves 0.4 s a reading while k2 hangs)
    status = _status(fake_run)
    assert status["k2"]["status"] == "timeout"
    assert status["k2"]["reason"] == "no progress for 1 s (the ncu_timeout setting, per kernel): ncu ended"
    assert [status[f"k{i}"]["status"] for i in (0, 1, 3, 4, 5)] == ["ok"] * 5
    assert summary == {"kernels": 6, "skipped": 0, "tried": 6, "ok": 5, "failed": 1, "not_tried": 0,
                       "stopped": ""}


def test_an_ncu_that_always_hangs_stops_after_three_timeouts(fake_run, tmp_path):
    fake_run.use(29)
    exe = replaying_ncu(tmp_path, HANG)
    lines = []
    clock = HangClock(exe, step=0.4)
    summary = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, ncu_batch=12, ncu_timeout=1), log=lines.append,
                                clock=clock)
    # before: 294 s for 29 kernels at --ncu-timeout 5 (each batch 12 x 5 s, then kernel by kernel); now three
    # processes of ~1 s each: k0 blamed, then k1, then k2, and the stage stops
    assert clock.now < 10
    assert [c[0] for c in calls(exe)] == ["k0", "k1", "k2"]
    stop = "ncu failed the same way 3 times in a row (timeout)"
    assert summary == {"kernels": 29, "skipped": 0, "tried": 3, "ok": 0, "failed": 3, "not_tried": 26,
                       "stopped": stop}
    status = _status(fake_run)
    assert [status[f"k{i}"]["status"] for i in range(3)] == ["timeout"] * 3
    assert all(status[f"k{i}"] == {"name": f"k{i}", "status": "not_tried", "reason": f"not tried: {stop}",
                                   "origin": "inductor"} for i in range(3, 29))
    assert f"ncu stopped: {stop}; 26 kernels not tried (`inductor-prof ncu RUN` tries them)" in lines


def test_a_crashing_ncu_is_named_by_its_signal_and_stops_after_three(fake_run, tmp_path):
    fake_run.use(29)
    exe = replaying_ncu(tmp_path, "os.kill(os.getpid(), signal.SIGSEGV)")
    summary = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, ncu_batch=12, ncu_timeout=30), log=lambda m: None)
    assert len(calls(exe)) == 3          # before: 32 processes (3 batches, then all 29 one by one)
    assert summary["stopped"] == "ncu failed the same way 3 times in a row (killed by SIGSEGV)"
    assert (summary["ok"], summary["failed"], summary["not_tried"]) == (0, 3, 26)
    assert _status(fake_run)["k0"]["reason"].startswith("killed by SIGSEGV: ")


def test_one_crashing_kernel_costs_one_process(fake_run, tmp_path):
    fake_run.use(5)
    exe = replaying_ncu(tmp_path, "if n == 'k3':\n    sys.exit(11)")
    summary = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, ncu_batch=5, ncu_timeout=30), log=lambda m: None)
    assert calls(exe) == [["k0", "k1", "k2", "k3", "k4"], ["k0", "k1", "k2", "k4"]]
    status = _status(fake_run)
    assert status["k3"]["status"] == "failed" and status["k3"]["reason"].startswith("exit 11")
    assert (summary["ok"], summary["failed"], summary["stopped"]) == (4, 1, "")


def test_different_failures_do_not_stop_the_stage():
    streak = ncu_batch.FailureStreak()
    assert [streak.add(f) for f in ("timeout", "timeout", "exit 1", "timeout", "", "timeout", "timeout")] == [""] * 7
    assert streak.add("timeout") == "ncu failed the same way 3 times in a row (timeout)"


def test_counts_are_of_this_call(fake_run, tmp_path):
    fake_run.use(4)
    exe = replaying_ncu(tmp_path, "if n == 'k3':\n    sys.exit(1)")
    first = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, ncu_batch=4, ncu_timeout=30), log=lambda m: None)
    assert (first["ok"], first["failed"], first["skipped"]) == (3, 1, 0)
    again = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, ncu_batch=4, ncu_timeout=30), log=lambda m: None)
    # the second call tries only k3 and fails it: nothing profiled in it, three done by the first call
    assert calls(exe)[-1] == ["k3"]
    assert again == {"kernels": 4, "skipped": 3, "tried": 1, "ok": 0, "failed": 1, "not_tried": 0, "stopped": ""}
    from inductor_prof.cli.messages import ncu_summary

    assert ncu_summary(again, fake_run.ncu_csv) == (f"ncu, this call: 0 kernels profiled, 1 failed; 3 profiled by "
                                                    f"an earlier call; table in {fake_run.ncu_csv}")


def _step(what, i=None, t=0.0, **detail):
    return {"event": "progress", "t": t, "what": what, "index": i, **detail}


def test_in_flight_reads_the_replay_steps():
    events = [_step("load", 0, ok=True), _step("load", 1, ok=False, reason="ImportError: x"),
              _step("load", 2, ok=True), {"event": "note", "text": "not a step"}, _step("profile", 0)]
    assert replay.in_flight(events, 3) == 2          # k1 was skipped, so k2 is the one being profiled
    assert replay.in_flight(events, 4) == 3          # k3 never finished loading
    assert replay.in_flight([], 2) == 0              # nothing started: the first
    assert replay.in_flight(events + [_step("profile", 2)], 3) is None
    assert replay.skipped(events) == {1: "ImportError: x"}


def test_exit_codes_are_named():
    assert procs.describe_exit(3) == "exit 3"
    assert procs.describe_exit(-signal.SIGSEGV) == "killed by SIGSEGV"
    assert procs.describe_exit(-signal.SIGKILL) == "killed by SIGKILL"


def test_run_one_names_the_signal(tmp_path):
    exe = fake_exe(tmp_path, "print('==PROF== Connected'); os.kill(os.getpid(), signal.SIGSEGV)")
    r = command.run_one([exe], [], {}, 30, tmp_path / "log.txt")
    assert (r.status, r.kind) == ("failed", "killed by SIGSEGV")
    assert r.reason == "killed by SIGSEGV: ==PROF== Connected"


def test_ncu_path_not_executable_or_a_folder_is_said(tmp_path):
    exe = tmp_path / "ncu"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o644)
    with pytest.raises(UserError) as e:
        find_ncu(str(exe))
    assert str(e.value) == (f"ncu at {str(exe)!r} is not executable (chmod +x it, or give another) "
                            "(from --ncu-path / INDUCTOR_PROF_NCU / settings file)")
    with pytest.raises(UserError) as e:
        find_ncu(str(tmp_path))
    assert str(e.value) == (f"ncu path {str(tmp_path)!r} is a folder, not the ncu executable "
                            "(from --ncu-path / INDUCTOR_PROF_NCU / settings file)")


def test_sudo_ncu_writes_its_home_inside_the_run(fake_run, tmp_path, monkeypatch):
    """Under --sudo ncu's HOME and caches are the run's ncu/home (given back with ncu/), never your HOME."""
    fake_run.use(2)
    user_home = tmp_path / "home"
    user_home.mkdir()
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(user_home / ".cache"))
    # sudo -n env VAR=... ncu ...: the fake sudo runs what follows -n (env, then ncu) as this user
    sudo = fake_exe(tmp_path, "assert args[0] == '-n'\nos.execvp(args[1], args[1:])", name="sudo")
    exe = replaying_ncu(tmp_path, "pass")
    exe_body = open(exe).read().replace(
        "out = args", "os.makedirs(os.path.join(os.environ['XDG_CACHE_HOME'], 'nv'), exist_ok=True)\n"
        "open(os.path.join(os.environ['HOME'], 'ncu-was-here'), 'w').write(json.dumps(dict(os.environ)))\nout = args", 1)
    open(exe, "w").write(exe_body)
    summary = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, sudo=True, sudo_path=sudo, ncu_batch=2),
                                log=lambda m: None)
    assert summary["ok"] == 2
    assert list(user_home.iterdir()) == []                                      # nothing written in your HOME
    home = fake_run.ncu_home.resolve()
    seen = json.loads((home / "ncu-was-here").read_text())
    assert seen["HOME"] == str(home) and seen["XDG_CACHE_HOME"] == str(home / ".cache")
    assert (home / ".cache" / "nv").is_dir()
    assert seen["CUDA_CACHE_PATH"] == str(home / ".nv" / "ComputeCache")
    assert seen["PYTHONDONTWRITEBYTECODE"] == "1"       # no root-owned .pyc beside your sources


def test_a_batch_whose_kernels_all_failed_to_load_keeps_each_reason(fake_run, tmp_path):
    """The replay program skips what it cannot load (exit 3, no report): each kernel keeps its own reason."""
    fake_run.use(2)
    exe = fake_exe(tmp_path, """
specs = json.load(open(args[-1]))['specs']
for i, p in enumerate(specs):
    name = json.load(open(p))['name']
    step('load', i, ok=False, reason=f'ImportError: no module named {name}_dep')
sys.exit(3)""")
    summary = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, ncu_batch=2, ncu_timeout=30), log=lambda m: None)
    status = _status(fake_run)
    assert [status[k]["reason"] for k in ("k0", "k1")] == ["ImportError: no module named k0_dep",
                                                          "ImportError: no module named k1_dep"]
    assert (summary["failed"], summary["stopped"]) == (2, "")


def test_inductor_and_library_kernels_share_one_process_by_default(fake_run, tmp_path, monkeypatch):
    # FLUX.1-dev's metric pass was 5 processes (29 Inductor kernels in batches of 12, library replays apart)
    targets = [ncu_stage.NcuTarget(f"k{i}", f"k{i}", "inductor", {"type": "inductor", "name": f"k{i}"})
               for i in range(29)]
    targets += [ncu_stage.NcuTarget(f"lib{i}", f"lib{i}", "library", {"type": "aten", "name": f"lib{i}"})
                for i in range(16)]
    monkeypatch.setattr(ncu_stage, "targets", lambda run, *a: targets)
    exe = replaying_ncu(tmp_path)
    summary = ncu_stage.run_ncu(fake_run, Settings(ncu=exe, ncu_timeout=30), log=lambda m: None)
    assert calls(exe) == [[t.name for t in targets]]
    assert (summary["ok"], summary["failed"]) == (45, 0)
    status = _status(fake_run)
    assert {status[t.stem]["report"] for t in targets} == {ncu_batch.batch_report(targets) + ".ncu-rep"}
    assert [status[t.stem]["index"] for t in targets] == list(range(45))


def test_phases_split_one_process_by_its_step_times():
    # launched at 100.0 and ended at 131.0; ready at 108.5, last kernel loaded (or skipped) at 111.0, last profiled
    # at 129.0: start-up 8.5, loading 2.5, profiling 18.0, report 2.0 (they add up to the 31.0 s the process took)
    events = [_step("ready", t=108.5), _step("load", 0, t=110.0, ok=True),
              _step("load", 1, t=111.0, ok=False, reason="ImportError: x"), _step("profile", 0, t=129.0)]
    split = replay.phases(events, 100.0, 131.0)
    assert split == {"start-up": 8.5, "loading": 2.5, "profiling": 18.0, "report": 2.0}
    assert replay.in_flight(events, 2) is None
    assert replay.phases(events[1:], 0.0, 1.0) == {}    # no ready: a process that failed early
    assert replay.phases(events[:3], 0.0, 9.0) == {}     # nothing profiled


def test_phases_are_added_up_over_the_processes():
    todo = [ncu_stage.NcuTarget(f"k{i}", f"k{i}", "inductor", {}) for i in range(3)]
    split = {"start-up": 8.25, "profiling": 1.5}

    def one(batch):
        return ncu_batch.BatchOutcome(settled={t.stem: {} for t in batch}, phases=split)
    spent: dict = {}
    ncu_batch.run_queue(todo, 2, one, lambda *a: None, spent=spent)   # two processes: k0 k1, then k2
    assert spent == {"start-up": 16.5, "profiling": 3.0}


def test_a_failed_process_still_says_where_its_seconds_went(fake_run, tmp_path):
    # a fake ncu whose program says its steps (each timed) and then crashes: no report, its phases kept
    fake_run.use(2)
    exe = replaying_ncu(tmp_path, "if n == 'k1':\n    os._exit(9)")
    first_load = "for i, n in enumerate(names):\n    step('load'"
    body = open(exe).read()
    open(exe, "w").write(body.replace(first_load, "step('ready')\n" + first_load, 1))
    outcome = ncu_batch.run_pass(fake_run, Settings(ncu=exe, ncu_timeout=30), {}, [
        ncu_stage.NcuTarget(f"k{i}", f"k{i}", "inductor", {"type": "inductor", "name": f"k{i}"}) for i in range(2)],
        ncu_batch.metric_pass(fake_run, Settings(ncu=exe), exe, {}, {}))
    assert outcome.failure and set(outcome.phases) == {"start-up", "loading", "profiling", "report"}
