"""The attention stage runs its work in a worker (`python -m inductor_prof.worker SPEC`), not the CLI, through
procs: its output in the run's attention log, a failure one line: the worker's error, or how it ended and its
last lines, and the log. Run here on a machine without CUDA, where the child refuses the run (exit 2)."""
import shutil
import sys

import pytest

from recorded import data_path
from inductor_prof import rundir
from inductor_prof.pipeline import attention

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(torch.cuda.is_available(), reason="on a GPU the child benchmarks for minutes")


@pytest.fixture
def run(tmp_path):
    root = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), root)
    return rundir.RunDir(root)


def test_the_stage_runs_its_worker_and_says_how_it_failed(run, monkeypatch):
    from inductor_prof import procs

    started, real = [], procs.Worker
    monkeypatch.setattr(procs, "Worker", lambda spec, *a, **k: started.append(spec) or real(spec, *a, **k))
    before = run.manifest_path.read_bytes()
    with pytest.raises(RuntimeError) as e:
        attention.in_subprocess(run)
    # the stage's own work, in the worker entry (not the CLI, `-m inductor_prof attention`, which refuses alike)
    assert [(s.KIND, s.run, s.precompile) for s in started] == [("attention", str(run.root), False)]
    refused = "attention needs a CUDA GPU and none is visible; `inductor-prof report RUN` runs anywhere"
    assert str(e.value) == f"attention benchmark: {refused} (log: {run.attention_log})"   # its error event
    log = run.attention_log.read_text()
    assert log.strip() == f"error: {refused}"   # the worker's own line: no runpy warning, no traceback
    assert run.manifest_path.read_bytes() == before   # the worker never writes the manifest


def test_the_worker_refuses_a_folder_that_is_not_a_run(tmp_path, capsys):
    from inductor_prof import worker
    from inductor_prof.specs import AttentionSpec, dumps

    spec = tmp_path / "spec.json"
    spec.write_text(dumps(AttentionSpec(run=str(tmp_path))))
    assert worker.serve([sys.argv[0], str(spec)])[0] == 2
    assert capsys.readouterr().err == f"error: {tmp_path} is not an inductor-prof run folder (no manifest.json)\n"


def test_a_timeout_is_said_with_the_log(run, monkeypatch):
    monkeypatch.setattr(attention, "TIMEOUT_S", 0.5)
    with pytest.raises(RuntimeError) as e:
        attention.in_subprocess(run)
    assert str(e.value).startswith("attention benchmark: no answer after 0.5 s (ended)")
    assert str(e.value).endswith(f"(log: {run.attention_log})")
