"""The ncu stage's outcome: a call that left no kernel with a report is a failed stage (was "ok" with ok 0,
failed 3, not tried 26), its counts kept beside the failure; one report, now or from an earlier call, is ok."""
import json

import pytest

from inductor_prof import rundir
from inductor_prof.errors import StepFailed
from inductor_prof.pipeline import ncu as ncu_stage
from inductor_prof.settings import Settings


def _run(tmp_path):
    run = rundir.RunDir(tmp_path)
    rundir.write_json(run.manifest_path, {"tool": "inductor-prof", "stages": {}})
    return run


def _counts(ok, failed, not_tried, skipped=0):
    return {"kernels": ok + failed + not_tried + skipped, "skipped": skipped, "tried": ok + failed, "ok": ok,
            "failed": failed, "not_tried": not_tried, "stopped": "3 failures in a row" if not_tried else ""}


def _stage(run):
    return json.loads(run.manifest_path.read_text())["stages"]["ncu"]


def test_no_kernel_profiled_is_a_failed_stage_with_its_counts(tmp_path, monkeypatch):
    run = _run(tmp_path)
    monkeypatch.setattr(ncu_stage, "find_ncu", lambda explicit: "ncu")
    monkeypatch.setattr(ncu_stage, "run_ncu", lambda *a, **k: _counts(0, 3, 26))
    with pytest.raises(StepFailed, match="no kernel: 3 failed, 26 not tried"):
        ncu_stage.on_existing_run(run, Settings(), log=lambda m: None)
    entry = _stage(run)
    assert entry["status"] == "failed"
    assert (entry["ok"], entry["failed"], entry["not_tried"]) == (0, 3, 26)   # the counts stay beside it


@pytest.mark.parametrize("counts", [_counts(1, 2, 0),             # one report in this call
                                    _counts(0, 2, 0, skipped=4),  # reports from an earlier call
                                    _counts(0, 0, 0)])            # nothing to profile: nothing failed
def test_a_report_or_nothing_to_profile_is_ok(tmp_path, monkeypatch, counts):
    run = _run(tmp_path)
    monkeypatch.setattr(ncu_stage, "find_ncu", lambda explicit: "ncu")
    monkeypatch.setattr(ncu_stage, "run_ncu", lambda *a, **k: counts)
    ncu_stage.on_existing_run(run, Settings(), log=lambda m: None)
    assert _stage(run)["status"] == "ok"


def test_report_warns_of_an_ncu_call_that_profiled_nothing(tmp_path, monkeypatch):
    import shutil

    from typer.testing import CliRunner

    from recorded import data_path
    from inductor_prof.cli import app

    run = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), run)
    monkeypatch.setattr(ncu_stage, "find_ncu", lambda explicit: "ncu")
    monkeypatch.setattr(ncu_stage, "run_ncu", lambda *a, **k: _counts(0, 3, 26))
    with pytest.raises(StepFailed):
        ncu_stage.on_existing_run(rundir.RunDir(run), Settings(), log=lambda m: None)
    r = CliRunner().invoke(app, ["report", str(run), "--top", "3"])
    assert r.exit_code == 0
    assert ("warning: stage ncu failed: NothingProfiled: ncu profiled no kernel: 3 failed, 26 not tried (stopped: "
            "3 failures in a row)") in r.stderr
