"""The decoder's DDP training step on two H200s (examples/runs/llama-train-ddp-h200x2, recorded 2026-11-28 by
scripts/gpu_check_trainranks.sh): the report's phase split and rank 1's communication, each figure derived by hand
from the run's own files in the comments (Proton: rank<i>/proton/steps.launches.json, 3 steps; torch.profiler:
rank<i>/torch_trace.json.gz, one step, the ranks' NCCL kernels matched in start order, both traces on one host
clock: baseTimeNanoseconds 1790857026000000000 on each)."""
import json
import shutil

import pytest

from inductor_prof.cli import app
from recorded import REPO
from typer.testing import CliRunner

RUN = REPO / "examples" / "runs" / "llama-train-ddp-h200x2"


@pytest.fixture(scope="module")
def rank1():
    r = CliRunner().invoke(app, ["report", str(RUN), "--json", "--rank", "1"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_phases_per_step_are_proton_rows_by_scope(rank1):
    # rank 1's Proton rows over 3 steps, each row's phase its scope below step_<i> (an NCCL kernel's phase is
    # communication whatever scope launched it): forward 29,766,891 ns, backward 61,061,852, optimizer 5,491,709,
    # NCCL 40,389,518 (all_reduce 10,646,300 + 11,846,682 + 13,156,538 in the backward scopes, broadcast 4,450,750
    # + 98,560 + 190,688 in the forward ones: DDP's buffer broadcast at each forward)
    phases = rank1["summary"]["phases"]
    assert phases["forward"]["ms_per_step"] == pytest.approx(29_766_891 / 3e6)
    assert phases["backward"]["ms_per_step"] == pytest.approx(61_061_852 / 3e6)
    assert phases["optimizer"]["ms_per_step"] == pytest.approx(5_491_709 / 3e6)
    c = phases["communication"]
    assert c["ms_per_step"] == pytest.approx(40_389_518 / 3e6)   # 13.463 ms
    assert c["launched_in"]["forward"] == pytest.approx((4_450_750 + 98_560 + 190_688) / 3e6)
    assert c["launched_in"]["backward"] == pytest.approx((10_646_300 + 11_846_682 + 13_156_538) / 3e6)


def test_rank_one_communication_split_into_waiting_and_moving(rank1):
    # rank 0 arrived last at all 14 collectives of the traced step, so each of rank 1's calls moved data from rank
    # 0's start to its own end: the 13 all_reduces 160.558, 197.262, 151.053, 223.084, 166.604, 228.493, 250.094,
    # 138.989, 165.037, 249.549, 138.669, 131.885, 1782.862 us (mean 306.4722), the broadcast 223.241 us.
    # Proton's 13 all_reduces and 1 broadcast a step at those transfer times moved 13 x 306.4722 + 223.241 us =
    # 4.20738 ms; the rest of its 13.46317 ms, 9.25579, was waiting for rank 0
    c = rank1["summary"]["phases"]["communication"]
    moving = (13 * 306.47220552884613 + 223.2412109375) / 1e3
    assert c["moving_ms_per_step"] == pytest.approx(moving, abs=1e-5)
    assert c["wait_ms_per_step"] == pytest.approx(40_389_518 / 3e6 - moving, abs=1e-5)
    assert round(c["wait_ms_per_step"], 3) == 9.256 and round(c["moving_ms_per_step"], 3) == 4.207
    # the messages a step: In msg nelems of the 14 calls, bf16 (2 B) for the all_reduces, fp32 for the broadcast:
    # 2 x (16,779,264 + 8 x 16,777,216 + 3 x 27,267,072 + 273,158,144) + 4 x 64 = 1,011,912,960 B
    assert c["message_gb_per_step"] == pytest.approx(1_011_912_960 / 1e9)
    assert c["gb_per_step"] == 0   # the phase column: the NCCL kernels' own bytes, none counted by Proton


def test_rank_zero_moved_everything_it_ran():
    # rank 0 started each collective last: no wait, its Proton NCCL time (12,030,298 ns over 3 steps) all moving
    r = CliRunner().invoke(app, ["report", str(RUN), "--json"])
    assert r.exit_code == 0, r.output
    c = json.loads(r.stdout)["summary"]["phases"]["communication"]
    assert c["wait_ms_per_step"] == 0 and c["moving_ms_per_step"] == pytest.approx(12_030_298 / 3e6)


def test_rank_one_launch_gap_is_zero_with_the_reason_not_negative(rank1):
    # rank 1: Proton's kernels 136,709,970 ns over 3 steps = 45.56999 ms a step (forward + backward + optimizer +
    # NCCL, the rows of the first test), less the 9.25579 ms its NCCL kernels waited: GPU busy 36.31420 ms; the
    # plain step (manifest profile.plain_step_ms) 36.24767: busy exceeds it by 0.06653 ms, timing noise between
    # the steps, so the gap is 0 and the note says why
    h = rank1["summary"]["headroom"]
    busy = (29_766_891 + 61_061_852 + 5_491_709 + 40_389_518) / 3e6 - rank1["summary"]["phases"]["communication"][
        "wait_ms_per_step"]
    assert h["gpu_busy_ms_per_step"] == pytest.approx(busy, abs=1e-6)
    assert h["gpu_busy_ms_per_step"] - 36.24766699999782 == pytest.approx(0.06653, abs=1e-5)
    assert h["launch_gap_ms_per_step"] == 0.0
    assert h["launch_gap_note"].startswith("GPU busy 36.314 ms/step (waiting at collectives taken out) exceeds the "
                                           "plain step 36.248 ms by 0.067")
    assert not [i for i in h["next"] if i["category"] == "host"]


def test_rank_zero_launch_gap_is_the_plain_step_less_gpu_busy():
    # rank 0: Proton's kernels a step (its own rows) less its 0 ms of waiting = 33.918 ms busy; plain 36.58158 ms:
    # 2.664 ms off the GPU, its first item
    r = CliRunner().invoke(app, ["report", str(RUN), "--json"])
    h = json.loads(r.stdout)["summary"]["headroom"]
    assert h["launch_gap_ms_per_step"] == pytest.approx(36.581577999996284 - h["gpu_busy_ms_per_step"])
    assert round(h["launch_gap_ms_per_step"], 3) == 2.664 and "launch_gap_note" not in h


@pytest.fixture(scope="module")
def unmatched(tmp_path_factory):
    """Rank 1 of a copy of the run whose rank 0 lost its torch.profiler trace: no call can be matched across
    ranks."""
    copy = tmp_path_factory.mktemp("ddp") / "run"
    shutil.copytree(RUN, copy)
    (copy / "rank0" / "torch_trace.json.gz").unlink()
    r = CliRunner().invoke(app, ["report", str(copy), "--json", "--rank", "1"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_calls_not_matched_leave_the_nccl_time_not_split_and_nothing_sold_as_moving(unmatched, rank1):
    # rank 1's traced step: the instants with NCCL and nothing else on its GPU are the same with rank 0's trace or
    # without; matched they were 2.60775 ms transfer + 3.02467 ms wait (the intact run's rank row), unmatched all
    # 5.63241 ms are unsplit: waiting or moving unknown. So no exposed moving (0), the 5.63 said apart, the
    # waiting and moving not split, and no training item sells them as moving data
    intact = next(r for r in rank1["ranks"]["ranks"] if r["rank"] == 1)
    c = unmatched["summary"]["phases"]["communication"]
    assert c["wait_ms_per_step"] is None and c["moving_ms_per_step"] is None
    assert c["exposed_ms_per_step"] == 0
    assert c["exposed_unsplit_ms_per_step"] == pytest.approx(intact["transfer_ms"] + intact["wait_ms"], abs=1e-9)
    assert round(c["exposed_unsplit_ms_per_step"], 2) == 5.63
    assert not [i for i in unmatched["summary"]["training"] if i["phase"] == "communication"]
    assert not [i for i in unmatched["summary"]["headroom"]["next"] if "communication" in i["what"]]


def test_calls_not_matched_leave_the_waiting_in_gpu_busy_and_say_so_not_noise(unmatched):
    # no transfer time per call: none of Proton's NCCL time is taken out, GPU busy is all 136,709,970 ns / 3 =
    # 45.56999 ms, 9.32232 past the plain 36.24767 (25.7% of it, beyond the 1% of noise): the waiting left in
    h = unmatched["summary"]["headroom"]
    assert h["gpu_busy_ms_per_step"] == pytest.approx(136_709_970 / 3e6, abs=1e-6)
    assert h["launch_gap_ms_per_step"] == 0.0
    note = h["launch_gap_note"]
    assert note.startswith("GPU busy 45.570 ms/step exceeds the plain step 36.248 ms by 9.322, more than the 1% of "
                           "noise between the steps: GPU busy holds NCCL waiting")
    assert "noise; no launch gap" not in note
