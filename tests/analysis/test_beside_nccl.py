"""A GEMM that ran beside an NCCL kernel (analysis/beside_nccl.py, advice._gemm_judgement) on the shipped two-H200
DDP run (examples/runs/llama-train-ddp-h200x2). Its backward's [4096,8192]x[8192,2048] call (cuBLAS
nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT, 8 a step) took 315 us a call on rank 1, beside its gradient
all_reduces (spinning there while rank 0, last to arrive, was still computing), 169.7 us on rank 0 alone
(1357.407 us / 8 in its trace), and 201.1 us replayed alone by the ceilings stage: the gap to the replay is the
overlap's price, not a slower kernel. Shares derived by hand from each rank's torch_trace.json.gz: each call's
kernel interval [ts, ts + dur] intersected with the union of the NCCL kernels' intervals."""
import gzip
import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from inductor_prof.analysis.beside_nccl import beside_ns, share_by_call
from inductor_prof.analysis.load import load_run_tables
from inductor_prof.cli import app
from recorded import REPO

RUN = REPO / "examples" / "runs" / "llama-train-ddp-h200x2"
GEMM = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"
A = "[[4096, 8192], [8192, 2048], [4096, 2048]]"   # 8 a step, replayed: 201.1488 us
B = "[[4096, 2048], [2048, 8192], [4096, 8192]]"   # 4 a step, replayed: 203.3920 us


def shares(rank):
    events = json.loads(gzip.open(RUN / f"rank{rank}" / "torch_trace.json.gz").read())["traceEvents"]
    ops = pd.read_csv(RUN / f"rank{rank}" / "library_ops.csv")
    s = share_by_call(beside_ns(events, ops))
    return s[s["kernel"] == GEMM].set_index("dims")


def test_each_calls_share_beside_nccl_from_the_trace():
    one, zero = shares(1), shares(0)
    # rank 1, A: 8 calls of 314.8-315.6 us, 2521.602 us in all; NCCL beside them for 2519.299 us (all of each but
    # 2.3 us of the one starting between two all_reduces): 99.909%
    assert one.loc[A, "beside_nccl_share"] == pytest.approx(2519.2988 / 2521.602, abs=1e-6)
    assert one.loc[A, "beside_kind"] == "all_reduce"
    # B: the first call ran alone (173.0 us), the other three beside an all_reduce (227.6-230.8 us):
    # 686.944 of 859.936 us, 79.88%
    assert one.loc[B, "beside_nccl_share"] == pytest.approx(686.9443 / 859.936, abs=1e-6)
    # rank 0 arrived last at every collective: its A and B calls ran with no NCCL kernel beside them
    assert zero.loc[A, "beside_nccl_share"] == 0 and zero.loc[B, "beside_nccl_share"] == 0
    assert pd.isna(zero.loc[A, "beside_kind"])


def test_a_trace_that_is_not_the_tables_claims_nothing():
    events = json.loads(gzip.open(RUN / "rank1" / "torch_trace.json.gz").read())["traceEvents"]
    ops = pd.read_csv(RUN / "rank1" / "library_ops.csv")
    assert beside_ns(events, ops.iloc[1:])["beside_nccl_ns"].isna().all()   # one row short: no claim
    moved = ops.assign(dur_ns=ops["dur_ns"] + 5.0)                             # durations not the trace's
    assert beside_ns(events, moved)["beside_nccl_ns"].isna().all()


def test_the_gemm_beside_nccl_says_so_and_keeps_only_the_unexplained_headroom():
    k = load_run_tables(RUN / "rank1").kernels.set_index("name").loc[GEMM]
    # measured calls' gap to the replay, each times the share of it not beside NCCL (us a step):
    #   A: (2521.602 - 8 x 201.1488) x (1 - 0.999087) = 912.41 x 0.000913 = 0.833
    #   B: (859.936 - 4 x 203.3920) x (1 - 0.798832) = 46.368 x 0.201168 = 9.328
    # its other calls ([4096,2048]x[2048,2048], [4096,512]x[512,2048]: no replay) ran beside NCCL all their time:
    # none of their roofline headroom counts. Before: 1.342 ms/step, the item "#2" of rank 1's list
    a = (2521.602 - 8 * 201.14880800247192) * (1 - 2519.2988281 / 2521.602)
    b = (859.936 - 4 * 203.39200496673584) * (1 - 686.9443359375 / 859.936)
    assert k["headroom_ms_per_step"] == pytest.approx((a + b) / 1e3, abs=1e-5)
    # the overlap's part: A 912.41 x 0.999087 + B 46.368 x 0.798832 = 911.58 + 37.04 = 948.6 us a step
    assert k["headroom_vs"] == ("ran beside NCCL all_reduce for 100% of its time: the collective's SMs slow it; the "
                                "replay ran alone: [4096,8192]x[8192,2048] 201 vs 315 us (0.95 ms/step of the gap "
                                "is that overlap, left out of the headroom, as is its other calls' time beside it)")


def test_rank_zero_alone_is_judged_as_before_and_rank_one_drops_it_from_the_top():
    # rank 0's calls ran alone and faster than the replay (169.7 vs 201.1 us): at best, no overlap said
    k0 = load_run_tables(RUN / "rank0").kernels.set_index("name").loc[GEMM]
    assert "beside NCCL" not in k0["headroom_vs"]
    r = CliRunner().invoke(app, ["report", str(RUN), "--json", "--rank", "1"])
    top = [i["what"] for i in json.loads(r.stdout)["summary"]["headroom"]["next"][:5]]
    assert GEMM not in top


def test_a_kernel_judged_on_its_roofline_says_it_ran_beside_nccl_and_keeps_its_headroom():
    # rank 1's cuDNN attention backward: 4 calls, 303.4 + 305.3 + 308.7 + 300.2 = 1217.665 us in its trace, NCCL
    # beside it 303.4 + 305.3 + 308.7 + 281.8 = 1199.233 us: 98.49% (rank 0's, alone: 1.023 ms/step, rank 1's 1.183)
    # no replay alone to split its gap by: said, its roofline headroom kept
    name = "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0"
    k1 = load_run_tables(RUN / "rank1").kernels.set_index("name").loc[name]
    assert k1["headroom_vs"].endswith("; beside NCCL all_reduce for 98% of its time (part of this gap may be that "
                                      "overlap)")
    assert 1199.2334 / 1217.665 == pytest.approx(0.9849, abs=1e-4)
    # compute-bound at 35% of the reached tensor rate: its speed of light is 35% of its 1.183 ms a step, the rest
    # headroom, as without the overlap said
    assert k1["headroom_ms_per_step"] == pytest.approx(k1["step_ms"] * (1 - k1["pct_of_peak"] / 100), rel=1e-9)
    assert round(k1["headroom_ms_per_step"], 3) == 0.768
    k0 = load_run_tables(RUN / "rank0").kernels.set_index("name").loc[name]
    assert "beside NCCL" not in k0["headroom_vs"]


def test_a_gemm_as_fast_as_its_replay_keeps_its_other_calls_headroom_only_for_their_time_alone():
    # rank 0's NNT GEMM: its replayed calls are as fast as they get (169.7 vs 193 us), so its headroom is the roofline
    # headroom of its calls with no replay, for their time alone. library_ops.csv's durations (ns): 2,696,127 in
    # all; [4096,2048]x[2048,2048] 519,680 (19.275%), 42.7712% of it beside NCCL all_reduce in the trace;
    # [4096,512]x[512,2048] 126,016 (4.674%), alone. Their share 0.23949, alone 0.19275 x 0.572288 + 0.04674 =
    # 0.15705. Counted in full (the branch before) the headroom was 0.0645415 ms/step: now x 0.15705 / 0.23949
    k = load_run_tables(RUN / "rank0").kernels.set_index("name").loc[GEMM]
    others, beside = 519680 / 2696127, 0.427712
    unreplayed, alone = others + 126016 / 2696127, others * (1 - beside) + 126016 / 2696127
    assert k["headroom_vs"].startswith("as fast as this shape gets here")
    assert k["headroom_ms_per_step"] == pytest.approx(0.0645415 * alone / unreplayed, rel=1e-4)
