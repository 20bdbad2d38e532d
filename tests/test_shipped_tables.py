"""The shipped runs' tables cache of the tests (shipped_tables.py, conftest's shipped_runs_read_once): a shipped run
read once hands each caller its own copy, and a test that patched anything reads the folder itself."""
from inductor_prof import analysis
from inductor_prof.analysis import load
from recorded import REPO

RUN = REPO / "examples" / "runs" / "llama-h100"


def test_each_caller_gets_its_own_copy_of_a_shipped_run():
    first = analysis.load_run_tables(RUN)
    first.kernels.loc[:, "total_ns"] = -1
    first.warnings.append("changed by the test")
    again = analysis.load_run_tables(RUN)
    assert (again.kernels["total_ns"] > 0).all() and again.warnings == []


def test_a_test_that_patched_the_load_reads_the_folder_itself(monkeypatch):
    analysis.load_run_tables(RUN)   # in the cache
    real = load.summarize

    def marked(*args, **kwargs):
        summary = real(*args, **kwargs)
        summary["marked"] = True
        return summary
    monkeypatch.setattr(load, "summarize", marked)
    assert analysis.load_run_tables(RUN).summary.get("marked") is True


def test_a_copy_of_a_run_elsewhere_is_read_each_time(tmp_path):
    import shutil

    run = shutil.copytree(RUN, tmp_path / "run", ignore=shutil.ignore_patterns("*.ncu-rep", "torch_trace*"))
    assert analysis.load_run_tables(run).warnings == []
    (run / "attention.csv").unlink()
    assert [w for w in analysis.load_run_tables(run).warnings if "attention.csv" in w]
