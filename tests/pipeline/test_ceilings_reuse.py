"""The ceilings stage reuses the ceilings an earlier run of the same GPU, driver, versions and GEMM shapes measured
(issue 51 item 1), and the report says so. The ceilings are the recorded full FLUX run's
(examples/runs/flux-h100's manifest), given back by a stand-in for the measurement, which needs a GPU."""
import json
import shutil

import pytest
from typer.testing import CliRunner

from inductor_prof import rundir
from inductor_prof.cli import app
from inductor_prof.pipeline import ProfileOptions, ceilings
from inductor_prof.pipeline.stages import Context
from inductor_prof.settings import Settings
from recorded import REPO

FLUX = REPO / "examples" / "runs" / "flux-h100"
RECORDED = json.loads((FLUX / "manifest.json").read_text())["ceilings"]


@pytest.fixture
def measured(monkeypatch):
    """How often the ceilings were measured (link: one process, none)."""
    calls = []
    monkeypatch.setattr(ceilings, "measure", lambda ops, templates=None: calls.append(1) or json.loads(
        json.dumps(RECORDED)))
    monkeypatch.setattr(ceilings.link, "measure", lambda: None)
    return calls


def _stage(tmp_path, name, run_id, lines=None, **settings):
    """The stage on a copy of the recorded run as run `run_id`; its manifest afterwards."""
    root = tmp_path / name
    shutil.copytree(FLUX, root, ignore=shutil.ignore_patterns("ncu", "experiments"))
    data = json.loads((root / "manifest.json").read_text())
    data.pop("ceilings")
    run = rundir.RunDir(root)
    manifest = rundir.Manifest.of(run, {**data, "run_id": run_id})
    opts = ProfileOptions(settings=Settings(measure_store=str(tmp_path / "store"), **settings))
    info = ceilings.run(Context(run, opts, manifest, (lines if lines is not None else []).append))
    return info, json.loads(run.manifest_path.read_text())


def test_a_second_run_reuses_the_ceilings_and_says_from_which_run(tmp_path, measured):
    _, first = _stage(tmp_path, "first", "run-a")
    lines = []
    info, second = _stage(tmp_path, "second", "run-b", lines)
    assert len(measured) == 1
    assert second["ceilings"] == {**first["ceilings"], "reused_from": "run-a"} and info["reused_from"] == "run-a"
    assert "ceilings: reused from run run-a (same GPU, driver, versions and GEMM shapes; --fresh measures them " \
           "again)" in lines
    r = CliRunner().invoke(app, ["report", str(tmp_path / "second"), "--json"])
    assert json.loads(r.stdout)["summary"]["peaks"]["measured_in"] == "run-a"
    r = CliRunner().invoke(app, ["report", str(tmp_path / "second"), "--width", "200"])
    assert "reused from run run-a (same GPU, driver, versions and GEMM shapes; `profile --fresh` measures them " \
           "again)" in " ".join(r.stdout.split())
    r = CliRunner().invoke(app, ["report", str(tmp_path / "first"), "--json"])
    assert "measured_in" not in json.loads(r.stdout)["summary"]["peaks"]


def test_fresh_or_another_gemm_shape_or_driver_measures_them(tmp_path, measured, monkeypatch):
    _stage(tmp_path, "first", "run-a")
    _stage(tmp_path, "fresh", "run-b", fresh=True)
    assert len(measured) == 2
    real = ceilings.model_gemms
    monkeypatch.setattr(ceilings, "model_gemms", lambda ops, n=ceilings.MODEL_GEMMS: real(ops, n - 1))
    _stage(tmp_path, "shapes", "run-c")
    assert len(measured) == 3
    monkeypatch.setattr(ceilings, "model_gemms", real)
    _stage(tmp_path, "again", "run-d")
    assert len(measured) == 3                              # the fresh run's, stored again
    monkeypatch.setattr(ceilings, "gpu_facts", lambda env: {"gpu": "NVIDIA H100 80GB HBM3", "driver": "590.1"})
    _stage(tmp_path, "driver", "run-e")
    assert len(measured) == 4
