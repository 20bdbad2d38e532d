"""analysis/load.py, the run's tables read for the report, on small constructed run folders (pinned where a
mutation audit found them unpinned)."""
import json
import shutil
import pandas as pd
import pytest
from recorded import data_path
from inductor_prof.analysis import load


# ==== runfiles.py, analysis/load.py ==================================================================================

def test_run_peaks_of_carries_the_gpu_name():
    assert load.run_peaks_of({}, {"env": {"gpu": {"name": "NVIDIA H100 80GB HBM3"}}})["gpu"] == \
        "NVIDIA H100 80GB HBM3"
    for manifest in ({}, {"env": None}, {"env": {"gpu": None}}, {"env": {"gpu": {}}}):
        assert load.run_peaks_of({}, manifest)["gpu"] == ""
    # measured ceilings are passed on: 700 TFLOP/s bf16 measured replaces the (absent) spec
    p = load.run_peaks_of({}, {"ceilings": {"flops16_tflops": 700}})
    assert p["tflops"]["flops16"] == 700.0 and p["source"]["flops16"] == "measured"


GEMM = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"     # a library kernel of the recorded run


@pytest.fixture
def small_run(tmp_path):
    path = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), path)
    return path


def test_load_reads_an_op_named_na_as_text(small_run):
    # library_ops.csv: the GEMM's op renamed "NA" (pandas' default would read it as a missing value)
    ops = pd.read_csv(small_run / "library_ops.csv", keep_default_na=False)
    ops.loc[ops["kernel"] == GEMM, "op"] = "NA"
    ops.to_csv(small_run / "library_ops.csv", index=False)
    t = load.load_run_tables(small_run)
    assert t.kernels.set_index("name").loc[GEMM, "aten_ops"] == "NA"


@pytest.mark.parametrize("steps", [0, None])
def test_load_steps_missing_or_zero_is_one(small_run, steps):
    manifest = json.loads((small_run / "manifest.json").read_text())
    if steps is None:
        del manifest["profile"]["steps"]
    else:
        manifest["profile"]["steps"] = steps
    (small_run / "manifest.json").write_text(json.dumps(manifest))
    t = load.load_run_tables(small_run)
    # one timed step: calls per step == calls for every kernel; the manifest is handed on as read
    assert (t.kernels["calls_per_step"] == t.kernels["calls"]).all()
    assert t.manifest == manifest
