"""A failed or interrupted `inductor-prof ncu RUN` on a run without ncu data leaves a folder `report` reads,
with the failure recorded (issue 12: each of these once left a 1-byte ncu/ncu.csv and `report` exited 1 with
`EmptyDataError`). Ctrl-C and SIGTERM run the real command in a process of its own."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fakes import dead, fake_exe
from recorded import REPO, data_path, without_age_warning
from inductor_prof.cli import app
from inductor_prof.drivers.ncu import command
from inductor_prof.settings import Settings

runner = CliRunner()
ROOT = REPO


@pytest.fixture
def run(tmp_path, monkeypatch):
    """flux_small without its ncu/ folder, in a clean settings environment."""
    for f in Settings.__dataclass_fields__:
        monkeypatch.delenv(Settings.env_name(f), raising=False)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), path)
    shutil.rmtree(path / "ncu")
    return path


def _ncu_stage(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())["stages"]["ncu"]


def _report_works(run: Path) -> list[str]:
    """`report RUN` exits 0; its warning lines."""
    r = runner.invoke(app, ["report", str(run), "--top", "3"])
    assert r.exit_code == 0, r.output
    assert "Summary" in r.stdout and not (run / "ncu" / "ncu.csv").exists()
    return without_age_warning(r.stderr.splitlines())


def test_permission_error_then_report(run, tmp_path):
    exe = fake_exe(tmp_path, "print('==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                             "NVIDIA GPU Performance Counters on the target device 0.'); sys.exit(1)")
    r = runner.invoke(app, ["ncu", str(run), "--ncu-path", exe])
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: {command.PERMISSION_HELP}"
    assert _ncu_stage(run)["status"] == "failed"
    assert _ncu_stage(run)["error"] == f"NcuPermissionError: {command.PERMISSION_HELP}"
    assert _report_works(run) == [
        f"warning: {run}/ncu/ncu.csv is missing (stage ncu failed: NcuPermissionError: ncu has no permission for "
        "the GPU performance counters (ERR_NVGPUCTRPERM)); the report has no Nsight Compute columns"]


def test_sudo_password_prompt_then_report(run, tmp_path):
    sudo = fake_exe(tmp_path, "print('sudo: a password is required', file=sys.stderr); sys.exit(1)", name="sudo")
    exe = fake_exe(tmp_path, "sys.exit(0)")
    r = runner.invoke(app, ["ncu", str(run), "--ncu-path", exe, "--sudo", "--sudo-path", sudo])
    assert r.exit_code == 2
    assert r.stderr.strip() == ("error: sudo asked for a password; allow passwordless sudo for ncu (NOPASSWD) or "
                                "run inductor-prof as a user with counter access")
    assert _ncu_stage(run)["status"] == "failed"
    assert len(_report_works(run)) == 1


# `python -m inductor_prof` past its early GPU check (the fake ncu needs no GPU; tests/conftest.py does the same
# inside this process)
PAST_GPU_CHECK = ("import inductor_prof.gpu_probe as probe; probe.no_gpu_reason = lambda *a, **k: None; "
                  "from inductor_prof.entry import main; main()")


def _ncu_process(run: Path, exe: str, *flags: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INDUCTOR_PROF_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    # a child inherits an ignored SIGINT (the tests started in the background by a non-interactive shell), and
    # Python then raises no KeyboardInterrupt in it: started while ours is handled, it finds SIGINT as a
    # terminal's Ctrl-C does (exec resets a handled signal to the default)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen([sys.executable, "-c", PAST_GPU_CHECK, "ncu", str(run), "--ncu-path", exe, *flags],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                cwd=run.parent)
    finally:
        signal.signal(signal.SIGINT, previous)


def _wait_for(path: Path, seconds: float = 60) -> int:
    deadline = time.monotonic() + seconds
    while not path.exists() or not path.read_text().strip():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)
    return int(path.read_text())


def test_ctrl_c_in_the_first_batch_then_report(run, tmp_path):
    """The fake ncu, once running (its pid written), interrupts inductor-prof as a Ctrl-C would (SIGINT to it),
    then hangs until a signal ends it: it never ends by itself, so nothing here races a clock. Whenever the
    SIGINT lands, even while the parent is still starting it, the ncu stage ends it (procs holds an
    interrupt until the child is known; tests/test_procs.py pins that instant). The time limits below are safety
    nets for a broken build, not the test: a passing run takes seconds, however loaded the machine."""
    pid_file = tmp_path / "ncu.pid"
    exe = fake_exe(tmp_path, f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                             "os.kill(os.getppid(), signal.SIGINT)\nwhile True:\n    signal.pause()")
    proc = _ncu_process(run, exe)
    try:
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "interrupted"
    ncu_pid = _wait_for(pid_file)
    try:
        assert dead(ncu_pid, within=60)              # the hanging ncu was ended with its process group
    finally:
        if not dead(ncu_pid, within=0.1):
            os.kill(ncu_pid, signal.SIGKILL)         # a failed run leaves no hanging fake behind
    assert not (run / "ncu" / "status.json").exists()      # no batch finished: nothing claimed
    stage = _ncu_stage(run)
    assert stage == {"status": "interrupted", "started": stage["started"], "seconds": stage["seconds"],
                     "error": "KeyboardInterrupt"}
    assert _report_works(run) == [f"warning: {run}/ncu/ncu.csv is missing (stage ncu interrupted: "
                                  "KeyboardInterrupt); the report has no Nsight Compute columns"]


def test_sigterm_ends_ncu_keeps_state_and_exits_143(run, tmp_path):
    """First ncu process ends normally (a real recorded report); the second hangs; SIGTERM arrives."""
    pid_file = tmp_path / "ncu.pid"
    report = data_path("flux_small", "ncu", "triton_poi_fused_gelu_view_12.ncu-rep")
    exe = fake_exe(tmp_path, f"""
count = sys.argv[0] + '.count'
n = int(open(count).read()) if os.path.exists(count) else 0
open(count, 'w').write(str(n + 1))
if n == 0:
    shutil.copy({str(report)!r}, args[args.index('-o') + 1] + '.ncu-rep')
    sys.exit(0)
open({str(pid_file)!r}, 'w').write(str(os.getpid()))
time.sleep(60)""")
    proc = _ncu_process(run, exe, "--ncu-batch", "1")
    ncu_pid = _wait_for(pid_file)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == "terminated (SIGTERM)"
    assert dead(ncu_pid)
    status = json.loads((run / "ncu" / "status.json").read_text())   # valid, and holds the finished batch
    assert len(status) == 1
    assert _ncu_stage(run)["status"] == "interrupted" and _ncu_stage(run)["error"] == "Terminated: SIGTERM"
    assert not list((run / "ncu").glob(".*.partial*"))     # no half-written report left
    assert _report_works(run) == [f"warning: {run}/ncu/ncu.csv is missing (stage ncu interrupted: Terminated: "
                                  "SIGTERM); the report has no Nsight Compute columns"]


@pytest.mark.parametrize("error, status, recorded", [
    (RuntimeError("CUDA error: an illegal memory access was encountered"), "failed",
     "RuntimeError: CUDA error: an illegal memory access was encountered"),
    (KeyboardInterrupt(), "interrupted", "KeyboardInterrupt")])
def test_failed_or_interrupted_attention_is_recorded_and_report_works(run, monkeypatch, error, status, recorded):
    """`inductor-prof attention RUN` (alone, or as the profile's attention stage) that fails midway: no
    attention.csv, the outcome in the manifest, and `report` says it."""
    from inductor_prof import rundir
    from inductor_prof.attention.benchmark.bench import BenchOptions
    from inductor_prof.pipeline import attention

    def broken(*a, **k):
        raise error
    monkeypatch.setattr(attention, "run_bench", broken)
    with pytest.raises(type(error)):
        attention.benchmark(rundir.RunDir(run), [], BenchOptions())
    stage = json.loads((run / "manifest.json").read_text())["stages"]["attention"]
    assert (stage["status"], stage["error"]) == (status, recorded)
    assert not (run / "attention.csv").exists()
    r = runner.invoke(app, ["report", str(run), "--top", "3"])
    assert r.exit_code == 0, r.output
    # (the fixture took ncu/ away: the manifest says ncu ran). attention.csv's warning first: the report reads it
    # before ncu.csv, its rows' reached TFLOP/s being part of the compute roofs (analysis/load: with_reached)
    assert without_age_warning(r.stderr.splitlines()) == [
        f"warning: {run}/attention.csv is missing (stage attention {status}: {recorded}); the report has no "
        "attention table",
        f"warning: {run}/ncu/ncu.csv is missing; the report has no Nsight Compute columns"]


def test_ncu_not_found_leaves_an_earlier_ncu_stage_standing(tmp_path, monkeypatch):
    """`inductor-prof ncu RUN` where no ncu can be found (a CPU machine, a wrong --ncu-path) is bad input: one
    line, exit 2, and the manifest untouched. It used to record the stage as failed over the earlier, complete
    ncu stage, so `report` then warned "stage ncu failed" beside a full ncu table."""
    for f in Settings.__dataclass_fields__:
        monkeypatch.delenv(Settings.env_name(f), raising=False)
    monkeypatch.chdir(tmp_path)
    run = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), run)      # with its ncu stage: ok, 29 kernels
    before = (run / "manifest.json").read_bytes()
    r = runner.invoke(app, ["ncu", str(run), "--ncu-path", str(tmp_path / "no-ncu")])
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"error: ncu not found at {str(tmp_path / 'no-ncu')!r} (from --ncu-path / "
                                "INDUCTOR_PROF_NCU / settings file)")
    assert (run / "manifest.json").read_bytes() == before
    assert _report_works_with_ncu(run) == []


def _report_works_with_ncu(run: Path) -> list[str]:
    r = runner.invoke(app, ["report", str(run), "--top", "3"])
    assert r.exit_code == 0, r.output
    return without_age_warning(r.stderr.splitlines())
