"""The attention stage runs its own module (`python -m inductor_prof.pipeline.attention RUN`), not the CLI, in
a child through procs: its output in the run's attention log, a failure one line naming how the child ended,
its last lines and the log. Run here on a machine without CUDA, where the child refuses the run (exit 2)."""
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


def test_the_stage_runs_its_module_and_says_how_it_failed(run, monkeypatch):
    from inductor_prof import procs

    started, real = [], procs.run_logged
    monkeypatch.setattr(procs, "run_logged", lambda cmd, *a, **k: started.append(cmd) or real(cmd, *a, **k))
    before = run.manifest_path.read_bytes()
    with pytest.raises(RuntimeError) as e:
        attention.in_subprocess(run)
    # the stage's own module, not the CLI (`-m inductor_prof attention`, which prints the same refusal)
    assert started == [[sys.executable, "-m", "inductor_prof.pipeline.attention", str(run.root)]]
    refused = ("error: attention needs a CUDA GPU and none is visible; `inductor-prof report RUN` runs anywhere")
    assert str(e.value) == f"attention benchmark exit 2: {refused} (log: {run.attention_log})"
    log = run.attention_log.read_text()
    assert log.strip() == refused     # the module's own line: not the CLI's, no runpy warning, no traceback
    assert run.manifest_path.read_bytes() == before   # refused before the stage's record is touched


def test_the_module_entry_refuses_a_folder_that_is_not_a_run(tmp_path, capsys):
    assert attention.main([sys.argv[0], str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path} is not an inductor-prof run folder (no manifest.json)\n"


def test_a_timeout_is_said_with_the_log(run, monkeypatch):
    monkeypatch.setattr(attention, "TIMEOUT_S", 0.5)
    with pytest.raises(RuntimeError) as e:
        attention.in_subprocess(run)
    assert str(e.value).startswith("attention benchmark: no result after 0.5 s, ended: ")
    assert str(e.value).endswith(f"(log: {run.attention_log})")
