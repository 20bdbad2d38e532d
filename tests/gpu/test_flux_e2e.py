"""A tiny FLUX profiled end to end on the GPU, then reported."""
import importlib.util
import json

import pandas as pd
import pytest

from inductor_prof.analysis import load_run_tables
from inductor_prof.drivers import proton
from inductor_prof.pipeline import ProfileOptions, profile
from inductor_prof.rundir import RunDir
from inductor_prof.targets import FluxOptions

# looked for, not imported: importing diffusers costs about 2 CPU-seconds at every collection, CPU runs included,
# where these tests are skipped (gpu/conftest.py)
if importlib.util.find_spec("diffusers") is None:
    pytest.skip("could not import 'diffusers'", allow_module_level=True)


def test_tiny_flux_profile_and_report(tmp_path):
    opts = ProfileOptions(target="flux", out=str(tmp_path / "run"), steps=2, warmup=1, ceilings=False,
                          flux=FluxOptions(height=256, width=256, text_len=64, double_blocks=1, single_blocks=1))
    result = profile(opts, log=lambda m: None)
    assert result.failed == {}
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert all(s["status"] == "ok" for s in manifest["stages"].values())
    tables = load_run_tables(tmp_path / "run")
    df = tables.kernels
    inductor = df[df["origin"] == "inductor"]
    assert len(inductor) >= 5
    assert inductor["annotated"].all()
    assert (inductor["bytes"] > 0).all()
    # each GEMM op's work is on its main kernel; a split-K reduction it also launched carries none
    gemm = df[(df["category"] == "GEMM") & ~df["name"].str.contains("splitKreduce")]
    assert len(gemm) and (gemm["flops16"] > 0).all(), gemm[["name", "flops16"]]
    kernels = json.loads((tmp_path / "run" / "kernels" / "kernels.json").read_text())
    assert all(k["launch_config"].get("num_warps") for k in kernels)
    # each Proton stage stored its hatchet's kernel rows as a launches table, one the report will use
    run = RunDir(tmp_path / "run")
    for hatchet, table in ((run.steps_hatchet, run.steps_launches), (run.annotated_hatchet, run.annotated_launches)):
        stored = json.loads(table.read_text())
        assert stored["source_bytes"] == hatchet.stat().st_size
        rows, device = proton.launches.from_table(stored)
        pd.testing.assert_frame_equal(rows, proton.parse(hatchet), check_exact=True)
        assert device == proton.device_info(hatchet)
