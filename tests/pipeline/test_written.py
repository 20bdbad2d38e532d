"""The files a stage leaves that the profile's own writers did not write (its own process's, Proton's, ncu's) are
recorded by the profile once the stage ends, failed or not (pipeline/written.py); a stage's own process stamps the
CSV it writes with the run's id, read from the run folder's manifest.json."""
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from inductor_prof import pipeline, rundir
from inductor_prof.pipeline import stages
from recorded import REPO

# the attention stage's own process: rundir's writer, no Manifest of its own
CHILD = "import sys, pandas as pd; from pathlib import Path; from inductor_prof import rundir; " \
        "rundir.write_csv(rundir.RunDir(Path(sys.argv[1])).attention_csv, pd.DataFrame({'backend': ['sdpa'], 'ms': [1.5]}))"


def _proton_steps(ctx):
    ctx.run.proton_dir.mkdir(parents=True, exist_ok=True)
    ctx.run.steps_hatchet.write_text('[{"frame": {"name": "ROOT"}}, {}]')   # as Proton writes: not through rundir
    return {}


def _attention(ctx):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    subprocess.run([sys.executable, "-c", CHILD, str(ctx.run.root)], check=True, env=env, timeout=120)
    return {}


def _ncu_fails(ctx):
    ctx.run.ncu_dir.mkdir(parents=True, exist_ok=True)
    ctx.run.ncu_report("batch0").write_bytes(b"NVIDIA report bytes")   # ncu wrote a report, then the stage broke
    raise RuntimeError("ncu broke")


@pytest.fixture
def profiled(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "require_cuda", lambda what: None)
    monkeypatch.setattr(pipeline, "check_target", lambda target, flux: None)
    monkeypatch.setattr(pipeline, "collect", lambda: {})
    monkeypatch.setattr(stages, "STAGES", (stages.Stage("proton_steps", _proton_steps, required=True),
                                           stages.Stage("ncu", _ncu_fails), stages.Stage("attention", _attention)))
    result = pipeline.profile(pipeline.ProfileOptions(out=str(tmp_path / "run")), log=lambda line: None)
    assert result.failed == {"ncu": "RuntimeError: ncu broke"}
    return result.run


def test_each_stage_s_files_are_recorded_when_it_ends(profiled):
    manifest = json.loads(profiled.manifest_path.read_text())
    for path in (profiled.steps_hatchet, profiled.ncu_report("batch0"), profiled.attention_csv):
        rel = path.relative_to(profiled.root).as_posix()
        assert manifest[rundir.FILES][rel] == rundir.file_record(path), rel


def test_a_stage_s_own_process_stamps_the_run_id(profiled):
    own = json.loads(profiled.manifest_path.read_text())[rundir.RUN_ID]
    assert pd.read_csv(profiled.attention_csv).to_dict("records") == [{"backend": "sdpa", "ms": 1.5, "run_id": own}]
