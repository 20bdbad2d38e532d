"""A training step's communication phase on one rank of several (analysis/comm_phase.py): the NCCL kernels' time
said as waiting and moving, what was exposed, the messages' bytes and the busbw, on a real two-rank run
(examples/runs/llama-fsdp-h200x2: FSDP2 on two H200s, 8 all_gathers of 121,643,008 bytes a step). That run is an
inference step, but a collective's phase is `communication` by its kernel's name whatever launched it
(phases.phase_of_launch), so phase_summary gives it the same row a training step's collectives get; the
numbers below were read off its files by hand (the Proton rows of both ranks and the torch.profiler steps)."""
import pandas as pd
import pytest

from inductor_prof.analysis.comm_phase import communication_item, communication_line, communication_phase
from inductor_prof.analysis.load import load_run_tables
from inductor_prof.analysis.phases import COMMUNICATION, phase_summary
from inductor_prof.analysis.ranks import load_ranks
from inductor_prof.analysis.step_split import proton_wait_ms
from recorded import REPO

FSDP = REPO / "examples" / "runs" / "llama-fsdp-h200x2"
NCCL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"


def rows(*launches):
    """Hatchet kernel rows: (name, path, calls, time_ns)."""
    df = pd.DataFrame(launches, columns=["name", "path", "calls", "time_ns"])
    return df.assign(bytes=0.0, flops8=0.0, flops16=0.0, flops32=0.0, flops64=0.0)


@pytest.fixture(scope="module")
def fsdp():
    view = load_ranks(FSDP)
    out = {}
    for i in (0, 1):
        tables = load_run_tables(view.ranked.rank(i).root)
        row = phase_summary(tables.launches, None, None, tables.summary["steps"], None)[COMMUNICATION]
        rank = next(r for r in view.rows if r["rank"] == i)
        out[i] = communication_phase(row, rank, view.collectives[i],
                                     proton_wait_ms(tables.kernels, view.transfer_us[i]))
    return out


def test_rank_that_waited_under_proton_is_said_waiting_not_moving(fsdp):
    # rank 0, Proton: 40 AllGather launches over 5 steps summing 125.577 ms = 25.1155 ms a step (its rows: 25.7,
    # 3.3, 2.9 ... ms each); in its torch.profiler step each all_gather moved data for 244.50475 us after the last
    # rank arrived, so 8 a step moved 1.9560 ms and the other 23.1595 ms was waiting for rank 1
    c = fsdp[0]
    assert c["ms_per_step"] == pytest.approx(25.1155, abs=1e-4)
    assert c["moving_ms_per_step"] == pytest.approx(8 * 0.24450475, rel=1e-6)
    assert c["wait_ms_per_step"] == pytest.approx(25.1155 - 8 * 0.24450475, abs=1e-4)
    # in the traced step rank 0 arrived last: nothing waited, nothing hid its 1.9560 ms of all_gathers
    assert c["exposed_ms_per_step"] == pytest.approx(1.9560, abs=1e-4) and c["exposed_wait_ms_per_step"] == 0
    assert c["hidden_pct"] == 0
    # messages: 8 x 121,643,008 B = 0.97314 GB a step; busbw over the transfer: an all_gather of S bytes among 2
    # ranks moves S (n-1)/n each, so busbw = S/2 / 244.50475 us = 248.75 GB/s
    assert c["message_gb_per_step"] == pytest.approx(8 * 121_643_008 / 1e9)
    assert c["gb_per_step"] == 0   # the phase's own column: the NCCL kernels' bytes (Proton counts none), not S
    top = c["top_collective"]
    assert top["collective"] == "all_gather" and top["timed_on"] == "transfer" and top["calls"] == 8
    assert top["busbw_gbps"] == pytest.approx(121_643_008 / 2 / 244.50475e-6 / 1e9, rel=1e-6)


def test_rank_that_waited_in_the_traced_step_has_its_wait_exposed_apart_from_the_transfer(fsdp):
    # rank 1, Proton: 40 launches of 248-253 us, 2.00257 ms a step; moving 8 x 238.758 us = 1.91007 ms, so
    # waiting 0.0925 ms. In the traced step it waited 31.378 ms for rank 0 with no compute beside it: waiting, not
    # the link's cost; the link added only its 1.9101 ms of transfer
    c = fsdp[1]
    assert c["ms_per_step"] == pytest.approx(2.00257, abs=1e-5)
    assert c["wait_ms_per_step"] == pytest.approx(2.00257 - 8 * 0.2387584, abs=1e-5)
    assert c["exposed_ms_per_step"] == pytest.approx(1.9101, abs=1e-4)
    assert c["exposed_wait_ms_per_step"] == pytest.approx(31.378, abs=1e-3)
    assert c["hidden_pct"] == pytest.approx(22.03, abs=0.01)


def test_wait_never_exceeds_the_kernels_time_and_the_line_says_each_part(fsdp):
    row = {"ms_per_step": 1.0, "launched_in": {"backward": 1.0}}
    c = communication_phase(row, {"transfer_ms": 0.5, "unsplit_ms": 0.0, "wait_ms": None, "hidden_pct": 50.0},
                            None, 3.0)
    assert (c["wait_ms_per_step"], c["moving_ms_per_step"], c["exposed_ms_per_step"]) == (1.0, 0.0, 0.5)
    assert communication_line(c) == ("waiting 1.00, moving 0.00 ms; 50% hidden under compute; exposed 0.50 ms "
                                      "moving; launched in backward 1.00 ms")
    assert communication_line({"ms_per_step": 1.0}) == ""   # one rank: no split
    line = communication_line(fsdp[0])
    assert "waiting 23.16, moving 1.96 ms" in line and "all_gather 121.6 MB: busbw 249 GB/s over transfer" in line


def test_calls_not_matched_leave_waiting_not_split_and_out_of_the_exposed_moving():
    # 0.5 ms of the traced step moving after every rank arrived, 0.25 ms in calls not matched across ranks (waiting
    # or moving: unknown): Proton's 1.0 ms is not split (its 3.0 ms of "waiting" came from partial transfer
    # times), exposed moving is the 0.5 alone and the 0.25 is said apart; the item sells only the 0.5
    row = {"ms_per_step": 1.0, "launched_in": {"backward": 1.0}}
    c = communication_phase(row, {"transfer_ms": 0.5, "unsplit_ms": 0.25, "wait_ms": 0.0, "hidden_pct": 50.0},
                            None, 3.0)
    assert c["wait_ms_per_step"] is None and c["moving_ms_per_step"] is None
    assert (c["exposed_ms_per_step"], c["exposed_unsplit_ms_per_step"]) == (0.5, 0.25)
    assert communication_line(c) == ("waiting and moving not split (NCCL calls not matched across ranks); 50% "
                                      "hidden under compute; exposed 0.50 ms moving + 0.00 ms waiting + 0.25 ms not "
                                      "split; launched in backward 1.00 ms")
    item = communication_item(c, None)
    assert item["headroom_ms_per_step"] == 0.5 and item["ms_per_step"] == 1.0   # not split: the kernels' whole time
    assert "calls not matched across ranks (0.25 ms exposed, waiting or moving unknown) are not counted" in item["why"]
    # nothing matched: no exposed moving, no item
    c = communication_phase(row, {"transfer_ms": 0.0, "unsplit_ms": 0.75, "wait_ms": 0.0}, None, 0.0)
    assert c["exposed_ms_per_step"] == 0.0 and communication_item(c, None) is None


def test_collectives_say_the_phase_that_launched_them():
    # DDP's gradient all-reduce launches from autograd's hooks, inside the backward scope: 0.5 us a step from
    # backward (1 us over 2 steps), 0.25 us from the optimizer scope (0.5 us, one step)
    steps = rows(("nvjet_gemm", "step_0/backward", 4, 800.0), ("nvjet_gemm", "step_1/backward", 4, 800.0),
                 (NCCL, "step_0/backward", 1, 600.0), (NCCL, "step_1/backward", 1, 400.0),
                 (NCCL, "step_0/optimizer", 1, 500.0))
    s = phase_summary(steps, None, None, 2, None)
    assert s[COMMUNICATION]["launched_in"] == {"backward": pytest.approx(0.0005), "optimizer": pytest.approx(0.00025)}
    assert s[COMMUNICATION]["ms_per_step"] == pytest.approx(0.00075)


def test_report_of_a_rank_splits_its_communication_phase_and_renders_the_line():
    # the report's path (cli report -> ranks.rank_advice -> format.summary_rows): a summary with phases gets its
    # communication row split for the rank shown; rank 0's figures as in the first test
    from inductor_prof.analysis.ranks import rank_advice
    from inductor_prof.report.format import phase_rows

    view = load_ranks(FSDP)
    tables = load_run_tables(view.ranked.rank(0).root)
    tables.summary["phases"] = phase_summary(tables.launches, None, None, tables.summary["steps"], None)
    tables.summary["training"] = []   # training_advice's items: the exposed communication joins them
    rank_advice(tables, view, 0)
    assert [i["phase"] for i in tables.summary["training"]] == ["communication"]
    c = tables.summary["phases"][COMMUNICATION]
    assert c["wait_ms_per_step"] == pytest.approx(25.1155 - 8 * 0.24450475, abs=1e-4)
    lines = dict(phase_rows(tables.summary["phases"]))
    assert lines["    of it"].startswith("waiting 23.16, moving 1.96 ms; 0% hidden under compute; exposed 1.96 ms "
                                       "moving + 0.00 ms waiting; messages 0.97 GB; all_gather 121.6 MB: busbw 249 "
                                       "GB/s over transfer")


def test_exposed_communication_is_a_training_item_with_the_waiting_left_out(fsdp):
    # rank 0: 1.956 ms a step of all_gather moving with nothing beside it: the item's headroom (what overlap could
    # hide); its 23.16 ms of waiting is said as not counted
    item = communication_item(fsdp[0], "DistributedDataParallel")
    assert item["phase"] == "communication" and item["headroom_ms_per_step"] == pytest.approx(1.9560, abs=1e-4)
    assert item["ms_per_step"] == pytest.approx(8 * 0.24450475, rel=1e-6)
    assert "bucket_cap_mb" in item["do"] and "waiting for other ranks (23.16 ms under Proton) is not counted" in item["why"]
    assert "bucket_cap_mb" not in communication_item(fsdp[0], "fully_shard (FSDP2)")["do"]
    assert communication_item({**fsdp[0], "exposed_ms_per_step": 0.0}, None) is None   # all hidden: no item
