"""The source pass beside the metric pass (pipeline/ncu_source_beside.py): its real process started before the
metric pass, its outcome recorded by the stage; a process that failed leaves the pass to the stage; a failed
metric pass ends it. ncu is a fake writing a recorded report (tests/fakes.py: none of its output is taken as a
measurement)."""
import json
import shutil
import sys
from types import SimpleNamespace

import pytest

from fakes import fake_exe
from recorded import REPO, RMS_KERNEL
from .test_ncu_source import calls, source_ncu
from inductor_prof import procs, rundir
from inductor_prof.errors import EXIT_USER
from inductor_prof.pipeline import ncu_source_beside
from inductor_prof.settings import Settings
from inductor_prof.specs import NcuSourceBesideSpec


@pytest.fixture
def run(tmp_path):
    path = tmp_path / "run"
    shutil.copytree(REPO / "examples" / "runs" / "flux-h100", path)
    shutil.rmtree(path / "ncu" / "source")
    return rundir.RunDir(path)


def _ctx(run, settings, ncu_status="ok"):
    logs = []
    ctx = SimpleNamespace(run=run, opts=SimpleNamespace(settings=settings), log=logs.append, ncu_progress=None,
                          manifest=SimpleNamespace(data={"stages": {"ncu": {"status": ncu_status}}}), started={})
    return ctx, logs


def _start(ctx):
    """What the profile does with the stage's Start (pipeline.profile): its child kept for the stage."""
    info, child = ncu_source_beside.start(ctx)
    if child is not None:
        ctx.started["ncu_source_start"] = child
    return info


def test_the_pass_runs_in_its_own_process_started_before_the_metric_pass_and_the_stage_records_it(run, tmp_path):
    exe = source_ncu(tmp_path)
    ctx, logs = _ctx(run, Settings(ncu=exe, ncu_source_kernels=1))
    assert _start(ctx) == {"log": "ncu/source/beside.log"}
    info = ncu_source_beside.run(ctx)
    # the kernel with the most headroom, chosen from the timed steps alone: the RMS-norm+RoPE kernel
    assert info == {"kernels": 1, "skipped": 0, "ok": 1, "failed": 0, "stems": [RMS_KERNEL],
                    "beside": "ran beside the metric pass", "log": "ncu/source/beside.log"}
    assert len(calls(exe)) == 1                          # one ncu process: the stage did not run it again
    assert json.loads(run.ncu_source_status_json.read_text())[RMS_KERNEL]["status"] == "ok"
    assert logs == ["Nsight Compute source counters of 1 kernels (the most headroom), beside the metric pass"]
    # the settings reached the process whole: its ncu and its number of kernels
    args = calls(exe)[0]
    assert args[-1] == str(run.ncu_source_spec(RMS_KERNEL))


def test_a_process_that_failed_leaves_the_pass_to_the_stage(run, tmp_path):
    exe = source_ncu(tmp_path)
    ctx, logs = _ctx(run, Settings(ncu=exe, ncu_source_kernels=1))
    ctx.started["ncu_source_start"] = procs.Worker(NcuSourceBesideSpec(run=str(run.root)), run.ncu_source_beside_log, 60,
                                         program=[sys.executable, "-c", "print('boom'); raise SystemExit(1)"])
    info = ncu_source_beside.run(ctx)
    assert info["ok"] == 1 and len(calls(exe)) == 1      # run by the stage, after the metric pass
    assert info["beside"] == "failed (exit 1: boom; ncu/source/beside.log): ran after the metric pass"
    assert logs[0] == "the source pass beside the metric pass failed (exit 1: boom; ncu/source/beside.log): " \
                      "running it now"


def test_a_failed_metric_pass_ends_the_process_and_skips_the_pass(run):
    ctx, logs = _ctx(run, Settings(), ncu_status="failed")
    ctx.started["ncu_source_start"] = child = procs.Worker(NcuSourceBesideSpec(run=str(run.root)), run.ncu_source_beside_log, 120,
                                         program=[sys.executable, "-c", "import time; time.sleep(60)"])
    assert ncu_source_beside.run(ctx) == {"kernels": 0, "skipped_because": "stage ncu did not succeed"}
    assert child.proc.poll() is not None


@pytest.mark.parametrize("settings", [Settings(ncu_source_kernels=0), Settings(ncu_source_beside=False)])
def test_no_process_without_kernels_to_collect_or_when_the_setting_is_off(run, settings):
    ctx, _ = _ctx(run, settings)
    assert ncu_source_beside.start(ctx) == ({"started": False}, None)


def test_with_the_setting_off_the_stage_runs_the_pass_after_the_metric_pass(run, tmp_path):
    exe = source_ncu(tmp_path)
    ctx, logs = _ctx(run, Settings(ncu=exe, ncu_source_kernels=1, ncu_source_beside=False))
    _start(ctx)
    info = ncu_source_beside.run(ctx)
    assert info["ok"] == 1 and "beside" not in info and len(calls(exe)) == 1
    assert logs == ["Nsight Compute source counters of 1 kernels (the most headroom)"]


def test_bad_input_is_one_line_and_exit_2(run, tmp_path):
    missing = tmp_path / "nowhere"
    done = procs.run_worker(NcuSourceBesideSpec(run=str(missing)), run.ncu_source_beside_log, 120)
    assert done.finished.returncode == EXIT_USER and str(missing) in done.error and done.result is None
    err = run.ncu_source_beside_log.read_text().strip()
    assert err.startswith("error: ") and str(missing) in err and len(err.splitlines()) == 1


def test_the_settings_reach_the_process_whole(run, tmp_path):
    settings = Settings(ncu=str(tmp_path / "ncu"), ncu_source_kernels=2, ncu_timeout=7.0, sudo=True)
    ctx, _ = _ctx(run, settings)
    _, child = ncu_source_beside.start(ctx)
    try:
        assert child.spec.settings == settings and child.spec.run == str(run.root)
    finally:
        child.end()
