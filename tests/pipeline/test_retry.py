"""A profile that failed before its first timed step (a factory error, a model without _repeated_blocks) kept
its folder, and the corrected retry was refused ("already exists; pass --force"). Now the retry replaces a
folder whose profile stopped at a required stage; a folder with results still needs --force."""
import json

import pytest

from inductor_prof import pipeline, rundir
from inductor_prof.errors import UserError
from inductor_prof.pipeline import stages


def _stage(name, required, fails=False):
    def run(ctx):
        if fails:
            raise RuntimeError(f"{name} broke")
        return {"done": name}
    return stages.Stage(name, run, required=required)


@pytest.fixture
def no_gpu_checks(monkeypatch):
    monkeypatch.setattr(pipeline, "require_cuda", lambda what: None)
    monkeypatch.setattr(pipeline, "check_target", lambda target, flux: None)
    monkeypatch.setattr(pipeline, "collect", lambda: {})


def _profile(tmp_path, monkeypatch, stage_list, force=False):
    monkeypatch.setattr(stages, "STAGES", stage_list)
    lines = []
    opts = pipeline.ProfileOptions(out=str(tmp_path / "run"), force=force)
    return pipeline.profile(opts, log=lines.append), lines


def test_a_retry_replaces_a_run_that_failed_at_a_required_stage(tmp_path, monkeypatch, no_gpu_checks):
    with pytest.raises(RuntimeError, match="build broke"):
        _profile(tmp_path, monkeypatch, (_stage("build", True, fails=True), _stage("steps", True)))
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["stopped_at"] == "build" and manifest["stages"]["build"]["status"] == "failed"
    result, lines = _profile(tmp_path, monkeypatch, (_stage("build", True), _stage("steps", True)))
    assert lines == [f"replacing {tmp_path / 'run'}: its profile failed at stage build, before any timed step"]
    manifest = json.loads(result.run.manifest_path.read_text())
    assert "stopped_at" not in manifest and manifest["stages"]["steps"]["status"] == "ok"


def test_a_run_with_results_still_needs_force(tmp_path, monkeypatch, no_gpu_checks):
    # an optional stage failed after the required ones: the folder has results, it is not replaced unasked
    result, _ = _profile(tmp_path, monkeypatch, (_stage("steps", True), _stage("ncu", False, fails=True)))
    assert result.failed == {"ncu": "RuntimeError: ncu broke"}
    assert rundir.stopped_early(result.run.root) is None
    with pytest.raises(UserError, match="already exists; pass --force"):
        _profile(tmp_path, monkeypatch, (_stage("steps", True),))
