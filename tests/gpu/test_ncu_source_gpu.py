"""The source pass on the GPU: a tiny FLUX profiled (no metric pass), then `ncu RUN --source` for its costliest
Inductor kernel and a library kernel (one ncu process, one batch report), then `inspect`'s view of each, and
from the per-kernel counters files alone (the report removed). Needs ncu (the ncu settings from the
environment: INDUCTOR_PROF_SUDO=1 where the counters need root)."""
import dataclasses
import importlib.util
import json

import pytest

from inductor_prof.analysis import load_run_tables
from inductor_prof.analysis.inspect import inspect_kernel
from inductor_prof.pipeline import ProfileOptions, ncu_source, profile
from inductor_prof.rundir import RunDir
from inductor_prof.settings import resolve
from inductor_prof.targets import FluxOptions

# looked for, not imported: importing diffusers costs about 2 CPU-seconds at every collection, CPU runs included,
# where these tests are skipped (gpu/conftest.py)
if importlib.util.find_spec("diffusers") is None:
    pytest.skip("could not import 'diffusers'", allow_module_level=True)


def test_source_pass_then_inspect(tmp_path):
    from inductor_prof.drivers.ncu.locate import find_ncu
    from inductor_prof.errors import UserError

    settings = dataclasses.replace(resolve()[0], ncu_batch=64)   # both kernels in one process, whatever is set
    try:
        find_ncu(settings.ncu)
    except UserError as e:
        pytest.skip(str(e))
    opts = ProfileOptions(target="flux", out=str(tmp_path / "run"), steps=2, warmup=1, ceilings=False,
                          attention=False, flux=FluxOptions(height=256, width=256, text_len=64, double_blocks=1,
                                                            single_blocks=1))
    assert profile(opts, log=lambda m: None).failed == {}
    run = RunDir(tmp_path / "run")
    df = load_run_tables(run.root).kernels
    have = ncu_source.replays(run, settings, profiled_only=False)
    triton = df[(df["origin"] == "inductor") & df["name"].isin(have)]["name"].iloc[0]
    library = df[(df["origin"] == "library") & df["name"].isin(have)]["name"].iloc[0]
    info = ncu_source.on_existing_run(run, settings, [triton, library], log=print)
    assert info["failed"] == 0 and info["ok"] == len(info["stems"]) >= 2, json.loads(
        run.ncu_source_status_json.read_text())
    tables = load_run_tables(run.root)
    view = inspect_kernel(tables, triton)
    (sc,) = view["source_counters"][:1]
    assert sc["by"] == "line" and sc["samples"] > 0 and sc["launch"]["grid_x"] >= 1
    assert sum(r["samples"] for r in sc["rows"]) == sc["samples"]
    assert any(r["kernel_file"] and r["code"] for r in sc["rows"])          # the kernel's own lines, with text
    lib = inspect_kernel(tables, library)["source_counters"][0]
    assert lib["by"] == "region" and lib["samples"] > 0
    # one ncu process for both (ncu_batch): one batch report, each kernel its result there
    status = json.loads(run.ncu_source_status_json.read_text())
    entries = [status[stem] for stem in info["stems"]]
    (shared,) = {e["report"] for e in entries}
    assert shared.startswith("batch-") and sorted(e["index"] for e in entries) == list(range(len(entries)))
    # per kernel, its counters file: the reader's dict of its result in the shared report, keyed to that report
    from inductor_prof.drivers.ncu.source import kernel_at, read_all

    report = run.ncu_source_dir / shared
    read = read_all([report])[str(report)]
    for stem, e in zip(info["stems"], entries):
        assert json.loads(run.ncu_source_counters(stem).read_text()) == {
            "report": shared, "index": e["index"], "report_bytes": report.stat().st_size,
            "counters": kernel_at(read, e["index"])}, stem
    # so inspect reads the same without the report (no warning either)
    before = [inspect_kernel(tables, name) for name in (triton, library)]
    report.unlink()
    after = [inspect_kernel(load_run_tables(run.root), name) for name in (triton, library)]
    assert [(v["source_counters"], v["warnings"]) for v in after] == \
        [(v["source_counters"], v["warnings"]) for v in before]
