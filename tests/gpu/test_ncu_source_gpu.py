"""The source pass on the GPU: a tiny FLUX profiled (no metric pass), then `ncu RUN --source` for its costliest
Inductor kernel and a library kernel, then `inspect`'s view of each, and from the counters files written beside
the reports alone (the reports removed). Needs ncu (the ncu settings from the environment: INDUCTOR_PROF_SUDO=1
where the counters need root)."""
import json

import pytest

from inductor_prof.analysis import load_run_tables
from inductor_prof.analysis.inspect import inspect_kernel
from inductor_prof.pipeline import ProfileOptions, ncu_source, profile
from inductor_prof.rundir import RunDir
from inductor_prof.settings import resolve
from inductor_prof.targets import FluxOptions

pytest.importorskip("diffusers")


def test_source_pass_then_inspect(tmp_path):
    from inductor_prof.drivers.ncu.locate import find_ncu
    from inductor_prof.errors import UserError

    settings = resolve()[0]
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
    # beside each report, its counters file: the reader's dict of it, so inspect reads the same without the reports
    from inductor_prof.drivers.ncu.source import read_reports

    for stem in info["stems"]:
        report, sidecar = run.ncu_source_report(stem), run.ncu_source_counters(stem)
        assert json.loads(sidecar.read_text()) == {"report_bytes": report.stat().st_size,
                                                   "counters": read_reports([report])[str(report)]}, stem
    before = inspect_kernel(tables, triton)
    for stem in info["stems"]:
        run.ncu_source_report(stem).unlink()
    after = inspect_kernel(load_run_tables(run.root), triton)
    assert (after["source_counters"], after["warnings"]) == (before["source_counters"], before["warnings"])
