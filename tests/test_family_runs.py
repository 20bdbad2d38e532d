"""The shipped runs of other model families (examples/runs/*-h200: recorded on an H200 on 2026-11-28 with
examples/models' fp8_mlp, moe and convnet, see examples/runs/README.md): every kernel priced, the GEMMs' work
counted by hand from the models' shapes, no attention stage to miss, and each report within 80 columns."""
import pytest

from inductor_prof.analysis.load import load_run_tables
from inductor_prof.cost import gemm_flops
from recorded import REPO

RUNS = REPO / "examples" / "runs"
FAMILIES = ("fp8-mlp-h200", "moe-h200", "unet-h200")


@pytest.fixture(scope="module", params=FAMILIES)
def run(request):
    return load_run_tables(RUNS / request.param)


def test_every_family_is_priced_within_2_percent(run):
    assert run.summary["unpriced"]["pct_of_gpu_time"] <= 2.0, run.summary["unpriced"]["kernels"][:3]
    # the attention stage had nothing to time: skipped, and no warning for its missing table
    assert (run.manifest["stages"]["attention"].get("skipped") or "").startswith("no attention calls")
    assert run.warnings == []


def _gemm_flops_per_step(run, key):
    g = run.kernels[run.kernels["category"] == "GEMM"]
    return g.loc[g["flops_key"] == key, "flops"].sum() / run.summary["steps"]


def test_fp8_mlp_work_is_its_12_gemms_in_8_bit():
    run = load_run_tables(RUNS / "fp8-mlp-h200")
    # 4 blocks x (gate, up: 8192 x 4096 -> 14336; down: 8192 x 14336 -> 4096): 12 GEMMs of 2 x 8192 x 4096 x 14336
    assert _gemm_flops_per_step(run, "flops8") == 12 * gemm_flops(8192, 14336, 4096)
    assert _gemm_flops_per_step(run, "flops16") == 0
    # judged against the 8-bit roof the run measured or reached, not bf16's
    assert set(run.kernels.loc[run.kernels["category"] == "GEMM", "ceiling"]) <= {"8-bit tensor (measured)",
                                                                                 "8-bit tensor (reached)"}


def test_moe_work_counts_each_routed_token_once():
    run = load_run_tables(RUNS / "moe-h200")
    # 4 layers x (router 8192 x 2048 -> 8; the 16384 routed rows (8192 tokens x top-2) x 2048 -> 11264, then
    # x 5632 -> 2048): each row through one expert, not through all 8
    per_layer = gemm_flops(8192, 8, 2048) + gemm_flops(16384, 11264, 2048) + gemm_flops(16384, 2048, 5632)
    assert _gemm_flops_per_step(run, "flops16") == 4 * per_layer


def test_unet_convolutions_are_gemm_work():
    run = load_run_tables(RUNS / "unet-h200")
    convs = run.library_ops[run.library_ops["op"].str.contains("convolution")]
    assert len(convs) and (convs[convs["dur_ns"] == convs.groupby(["op", "dims"])["dur_ns"].transform("max")]
                           ["flops"] > 0).all()
    # conv_in alone (8 x 4 x 64 x 64 -> 128 channels, 3x3, padding 1): 2 x (8 x 128 x 64 x 64) x 4 x 9 a call
    conv_in = convs[convs["dims"].str.startswith("[[8, 4, 64, 64]")]
    assert set(conv_in.loc[conv_in["flops"] > 0, "flops"]) == {2 * (8 * 128 * 64 * 64) * 4 * 9}
