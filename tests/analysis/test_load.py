"""analysis/load.py, the run's tables read for the report, on small constructed run folders (pinned where a
mutation audit found them unpinned)."""
import json
import shutil
import pandas as pd
import pytest
from recorded import data_path
from inductor_prof.analysis import load
from inductor_prof.errors import UserError


# ==== runfiles/, analysis/load.py ==================================================================================

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
def test_load_steps_missing_or_zero_are_the_profiles(small_run, steps):
    manifest = json.loads((small_run / "manifest.json").read_text())
    held = load.load_run_tables(small_run).summary["steps"]
    if steps is None:
        del manifest["profile"]["steps"]
    else:
        manifest["profile"]["steps"] = steps
    (small_run / "manifest.json").write_text(json.dumps(manifest))
    t = load.load_run_tables(small_run)
    # the step scopes of the profile count the steps (issue 52); 0 is said, a manifest without steps is not
    assert held > 1 and (t.kernels["calls_per_step"] * held == t.kernels["calls"]).all()
    assert [w for w in t.warnings if "timed steps but" in w] == ([] if steps is None else [
        f"{small_run / 'manifest.json'} records 1 timed steps but {small_run / 'proton' / 'steps.hatchet'} holds "
        f"{held}: one of them is not what the run wrote; per-step numbers are over the {held} steps profiled"])
    assert t.manifest == manifest


# ---- mutation audit (issue 30): every table load_run_tables hands on, on the recorded runs ----------------------

CUDNN = "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_cga1x1x1_kernel0_0"
GEMM_192 = "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"


def test_the_tables_of_the_recorded_flux_run():
    path = data_path("..", "..", "examples", "runs", "flux-h100")
    t = load.load_run_tables(path)
    manifest = json.loads((path / "manifest.json").read_text())
    assert (t.run.root, t.manifest, t.warnings, t.by_size) == (path, manifest, [], None)
    # the timed steps' rows and library_ops.csv as read (646 calls below its header), each kernel of the table
    assert set(t.launches["name"]) == set(t.kernels["name"]) and len(t.library_ops) == 646
    # compute roofs raised to what a kernel reached (the 256x128 GEMM's FF-down shape), judged alike in the
    # attention table
    peaks = t.summary["peaks"]
    assert (peaks["source"]["flops16"], peaks["reached"]["flops16"]["by"]) == (
        "reached", GEMM + " at [4096,12288]x[12288,3072]")
    ran = t.attention[t.attention["ok"].astype(bool)]
    assert len(ran) == 11 and (ran["ceiling"] == "bf16/fp16 tensor (reached)").all()
    k = t.kernels.set_index("name")
    # ncu's row merged (the costliest call's replay), each library kernel's calls by shape nested
    assert k.loc[GEMM_192, "ncu_duration_ns"] == 528608.0
    assert [c["shape"] for c in k.loc[GEMM_192, "calls_by_shape"]][0] == "[4608,15360]x[15360,3072]"
    assert k.loc["triton_poi_fused_cat_gelu_permute_view_3", "calls_by_shape"] == []
    # its costliest call: the ceilings stage's cuBLAS replay (605 us) slower than the model's own 544 us, so the
    # GEMM is as fast as that shape gets; the call's module with the regional block as *
    top = k.loc[GEMM_192, "calls_by_shape"][0]
    assert top["replay_us"] > top["best_us"] and top["module"] == "*.proj_out"
    assert k.loc[GEMM_192, "headroom_vs"].startswith("as fast as this shape gets here: [4608,15360]x[15360,3072]")
    # an Inductor kernel: its kind from kernels.json, its bytes from the annotated step
    gelu = k.loc["triton_poi_fused_cat_gelu_permute_view_3"]
    assert gelu["kind"] == "pointwise" and bool(gelu["annotated"]) and gelu["bytes"] > 0
    # the headroom: the plain step of the manifest, the attention benchmark's saving on the model's cuDNN kernel,
    # and that kernel judged against it
    h = t.summary["headroom"]
    assert h["step_ms_plain"] == manifest["profile"]["plain_step_ms"]
    (saving,) = h["attention"]
    assert (saving["best_backend"], saving["kernels"]) == ("gluon_fa3", [CUDNN])
    assert k.loc[CUDNN, "headroom_vs"].startswith("gluon_fa3 0.382 vs sdpa_cudnn 0.402 ms a call")
    assert k.loc[CUDNN, "headroom_ms_per_step"] == pytest.approx(saving["saving_ms_per_step"])


def test_the_tables_of_a_recorded_run_of_two_sizes():
    t = load.load_run_tables(data_path("..", "..", "examples", "runs", "flux-small-sizes-h100"))
    assert sorted(t.by_size["size"].unique()) == ["1024x1024", "512x512"] and "size" in t.launches
    assert [s["size"] for s in t.summary["sizes"]] == ["1024x1024", "512x512"]
    assert t.summary["ncu_at_size"] == "1024x1024"
    # per size, Inductor kernels with their annotated bytes and library kernels with their calls' flops
    by = t.by_size.set_index(["name", "size"])
    for size in ("1024x1024", "512x512"):
        assert bool(by.loc[("triton_poi_fused_cat_gelu_permute_view_3", size), "annotated"])
        assert by.loc[(GEMM_192, size), "flops"] > 0


def test_an_older_run_and_an_empty_kernels_json_are_warned(small_run):
    (small_run / "kernels" / "kernels.json").write_text("[]")
    t = load.load_run_tables(small_run)
    # kernels.json lists none of flux_small's 18 Inductor kernels: one line; the run was recorded before NVML and
    # GEMM replays: one line
    assert t.warnings[0].startswith(f"{small_run / 'kernels' / 'kernels.json'} lists no kernels, yet the steps ran "
                                    "18 Inductor kernels; ")
    assert t.warnings[1].startswith(f"{small_run / 'manifest.json'} was recorded before inductor-prof measured "
                                    "the SM clock and power, replays of its GEMM calls")


def test_a_run_without_library_ops_still_loads(small_run):
    (small_run / "library_ops.csv").unlink()
    t = load.load_run_tables(small_run)
    assert t.library_ops is None and any("library_ops.csv" in w for w in t.warnings)
    assert (t.kernels.loc[t.kernels["origin"] == "library", "flops"] == 0).all()


def test_steps_of_no_kernel_launch_are_an_error(small_run):
    path = small_run / "proton" / "steps.hatchet"
    data = json.loads(path.read_text())
    for step in data[0]["children"]:
        step["children"] = []
    path.write_text(json.dumps(data))
    with pytest.raises(UserError) as e:
        load.load_run_tables(small_run)
    assert str(e.value) == (f"{path} holds no kernel launches (Proton recorded none); the report needs them")
