from recorded import data_path
from inductor_prof.drivers import proton
from inductor_prof.drivers.torch_profiler import op_cost, parse_trace


def test_steps_hatchet_kernels_and_scopes():
    df = proton.parse(data_path("flux_small", "proton", "steps.hatchet"))
    assert set(df["path"].str.split("/").str[0]) == {"step_0", "step_1", "step_2"}
    assert any(p.endswith("double_1") for p in df["path"])
    gelu = df[df["name"] == "triton_poi_fused_gelu_view_12"]
    assert gelu["calls"].sum() == 6                 # 2 double blocks x 3 steps
    assert (df["time_ns"] > 0).all()
    assert df["flops32"].sum() == 0                  # timed steps carry no launch metadata


def test_annotated_hatchet_carries_flops_and_bytes():
    df = proton.parse(data_path("flux_small", "proton", "annotated_step.hatchet"))
    gelu = df[df["name"] == "triton_poi_fused_gelu_view_12"]
    # 4096 x 12288 bf16 read and written in place; 9 fp32 ops per element
    assert gelu["bytes"].sum() == 2 * 4096 * 12288 * 2 * 2
    assert gelu["flops32"].sum() == 9 * 4096 * 12288 * 2
    assert proton.device_info(data_path("flux_small", "proton", "annotated_step.hatchet"))["CUDA"]["0"]["arch"] == "90"


def test_torch_trace_maps_library_kernels_to_ops(tmp_path):
    import gzip
    import shutil

    trace = tmp_path / "t.json"
    with gzip.open(data_path("flux_small", "torch_trace.json.gz")) as src, open(trace, "wb") as dst:
        shutil.copyfileobj(src, dst)
    ops, attention = parse_trace(trace)
    assert not ops["kernel"].str.startswith("triton_").any()
    addmm = ops[ops["op"] == "aten::addmm"]
    costed = addmm[addmm["flops"] > 0]
    assert len(costed) > 0 and (costed["flops_key"] == "flops16").all()
    # an addmm that launched two kernels (a split-K GEMM and its reduction) did its work once: the second
    # kernel of the pair carries no cost
    secondary = addmm[addmm["flops"] == 0]
    assert len(secondary) > 0 and (secondary["bytes"] == 0).all() and (secondary["flops_key"] == "").all()
    assert len(attention) == 6 and attention[0]["Sq"] == 4608 and attention[0]["D"] == 128


def test_op_cost_addmm_and_sdpa():
    c = op_cost("aten::addmm", [[3072], [4096, 64], [64, 3072], [], []], ["c10::BFloat16"] * 3)
    assert c["flops"] == 2 * 4096 * 3072 * 64 and c["flops_key"] == "flops16"
    assert c["bytes"] == (3072 + 4096 * 64 + 64 * 3072 + 4096 * 3072) * 2
    s = op_cost("aten::_cudnn_attention_forward", [[1, 24, 4608, 128]] * 3, ["c10::BFloat16"] * 3)
    assert s["flops"] == 4 * 24 * 4608 * 4608 * 128
