"""The rank the others wait for, and why it came late (analysis/straggler.py): a hand-written step where the waiter
computes beside its waiting collective (DDP's gradient all_reduce on its own stream), and the recorded DDP run's
straggler derived by hand from its two torch.profiler traces."""
import gzip
import json

import pytest

from inductor_prof.analysis import collectives as c
from inductor_prof.analysis.ranks import load_ranks
from inductor_prof.analysis.straggler import straggler
from inductor_prof.analysis.waits import match
from ranked_runs import AR, PG_ARGS, kernel
from recorded import REPO

RUN = REPO / "examples" / "runs" / "llama-train-ddp-h200x2"

# us, one clock; compute on stream 7, NCCL on stream 17 (args of the all_reduce as ranked_runs writes them):
#   rank 0: A [50,150]  B [150,250]  C [250,300]          all_reduce#1 [150,250]  all_reduce#2 [300,400]
#   rank 1: A [0,100]   B [100,240]  C [240,290]          all_reduce#1 [100,250]  all_reduce#2 [290,400]
# Rank 0's step starts 50 us late (its host); rank 1's B runs beside its waiting all_reduce#1 and takes 140 us
# against rank 0's 100.
BESIDE = {
    0: [kernel("A", 50, 150), kernel("B", 150, 250), kernel("C", 250, 300),
        kernel(AR, 150, 250, **PG_ARGS), kernel(AR, 300, 400, **PG_ARGS)],
    1: [kernel("A", 0, 100), kernel("B", 100, 240), kernel("C", 240, 290),
        kernel(AR, 100, 250, **PG_ARGS), kernel(AR, 290, 400, **PG_ARGS)],
}


def test_compute_beside_an_earlier_collective_is_not_left_out():
    m = match({r: c.comm_calls(e) for r, e in BESIDE.items()})
    s = straggler(m.calls, {r: c.kernel_intervals(e) for r, e in BESIDE.items()})
    # rank 0 last at both: rank 1 waits 150 - 100 = 50 us at #1 and 300 - 290 = 10 at #2. The ranks are never level
    # (every kernel of rank 0 starts and ends 10-50 us after rank 1's; no collective holds rank 1's compute): one
    # lateness, told at #1, where it is largest: its step started 50 us later, A took 100 us on both, both launched
    # #1 as A ended. So 50 us in all, all of it the later start: host. (Windows from the end of #1 to each rank's own
    # start of #2 held rank 0's C, 50 us, against 40 of rank 1's, and left out rank 1's B beside #1: "+10 us of
    # slower C", a kernel that is not slower on rank 0.)
    assert (s["rank"], s["waiter"], s["last_at"], s["fell_behind"]) == (0, 1, 2, 1)
    assert s["caused_wait_ms"] == pytest.approx(0.06)
    assert s["late_ms"] == pytest.approx(0.05) and s["at"]["seq"] == 1 and s["from_step_start"]
    assert s["start_ms"] == pytest.approx(0.05)
    assert s["extra_idle_ms"] == pytest.approx(0.0) and s["extra_compute_ms"] == pytest.approx(0.0)
    assert (s["kernel"], s["cause"]) == (None, "host")


def _trace(rank):
    with gzip.open(RUN / f"rank{rank}" / "torch_trace.json.gz", "rt") as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("cat") == "kernel"]
    nccl = sorted((e for e in events if "nccl" in e["name"].lower()), key=lambda e: e["ts"])
    return [e for e in events if "nccl" not in e["name"].lower()], nccl


def _compute_us(compute, after, before):
    """Sum of the compute kernels' durations that ran within [after, before]: each rank's own kernel time, with no
    pairing (the route apart from straggler.py's)."""
    return sum(e["dur"] for e in compute if e["ts"] >= after and e["ts"] + e["dur"] <= before)


def test_the_ddp_runs_straggler_came_late_by_its_launches_not_its_gemms():
    s = load_ranks(RUN).straggler
    (c0, n0), (c1, n1) = _trace(0), _trace(1)
    # the traces (one host clock, us): rank 0's first kernel at 5015130371876.088, rank 1's at 5015130371316.193:
    # rank 0's step began 559.895 us later. DDP's buffer broadcast: rank 0 at 5015130372129.528 (113.792 us),
    # rank 1 at 5015130371587.073 (765.696): rank 1 waited 542.455 us for rank 0, and its next kernel (the
    # embedding's gather) started 5 us after its broadcast ended, its GPU idle since its first kernel: held by it,
    # the ranks level there (ends 5015130372243.320 and 5015130372352.769: rank 0 109.449 us ahead). The 2nd
    # collective (all_reduce of 33.56 MB): rank 0 at 5015130402071.350, rank 1 at 5015130396897.315: 5174.034 us
    # late, the most of the 14; rank 1's kernels beside it and the 12 collectives after it never hold rank 1 again
    # until the optimizer. So twice behind: 542.455 + 5174.034 = 5716.489 us
    assert n0[0]["ts"] - n1[0]["ts"] == pytest.approx(542.455, abs=1e-3)
    assert n0[1]["ts"] - n1[1]["ts"] == pytest.approx(5174.034, abs=1e-3)
    assert (s["rank"], s["waiter"], s["last_at"], s["matched"], s["fell_behind"]) == (0, 1, 14, 14, 2)
    assert s["worst_late_ms"] == pytest.approx(5.174034, abs=1e-6) and s["at"] == \
        {"seq": 2, "collective": "all_reduce", "bytes": 33558528.0}
    assert s["late_ms"] == pytest.approx(5.716489, abs=1e-6)
    # behind at the two starts: 559.895 (the step) - 109.449 (ahead at the broadcast's end) = 450.445 us
    b0, b1 = n0[0]["ts"] + n0[0]["dur"], n1[0]["ts"] + n1[0]["dur"]
    assert s["start_ms"] * 1e3 == pytest.approx(559.895 - 109.449, abs=1e-3)
    # kernel time, each rank's own sum: before the broadcast 1.248 vs 1.184 us (one CatArrayBatchedCopy each);
    # from the broadcast's end to the 2nd collective 121 kernels each (the forward and the backward's first
    # layer), 19091.907 vs 19038.180 us: +53.791 us in all. Rank 0's kernels were not slower; the 5.2 ms is the rest:
    # 5716.489 - 450.445 - 53.791 = 5212.253 us of longer gaps between its kernels (rank 0's host launched the
    # forward later: its gaps of 100-400 us between the forward's GEMMs against rank 1's 1-160)
    extra = (_compute_us(c0, 0, n0[0]["ts"]) - _compute_us(c1, 0, n1[0]["ts"])) + \
        (_compute_us(c0, b0, n0[1]["ts"]) - _compute_us(c1, b1, n1[1]["ts"]))
    assert extra == pytest.approx(1.248 - 1.184 + 19091.907 - 19038.180, abs=1e-3)
    assert s["extra_compute_ms"] * 1e3 == pytest.approx(extra, abs=0.01)   # µs: the trace's floats, 121 kernels
    assert s["extra_idle_ms"] == pytest.approx(s["late_ms"] - s["start_ms"] - s["extra_compute_ms"])
    assert s["extra_idle_ms"] * 1e3 == pytest.approx(5212.253, abs=0.02)
    assert s["cause"] == "host"
    # the GEMM named before (nvjet_..._NNT, +2.299 ms) runs rank 0's [4096,8192]x[8192,2048] in 169.7 us and rank
    # 1's beside its waiting all_reduce in 315: slower on the waiter, never a cause of rank 0's lateness; the kernel
    # adding most is 0.024 ms and the cause is host, so the line names no kernel
    assert s["kernel_extra_ms"] < 0.03
    # rank 1's exposed waiting (the ranks table's wait ms): all of it at rank 0's collectives
    row1 = next(r for r in load_ranks(RUN).rows if r["rank"] == 1)
    assert s["exposed_wait_ms"] == pytest.approx(row1["wait_ms"]) and round(s["exposed_wait_ms"], 3) == 3.025


def _report(*args):
    from typer.testing import CliRunner

    from inductor_prof.cli import app

    r = CliRunner().invoke(app, ["report", str(RUN), "--json", *args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_rank_one_is_told_it_waits_for_rank_zero_and_why():
    doc = _report("--rank", "1")
    row = next(r for r in doc["ranks"]["ranks"] if r["rank"] == 1)
    # rank 1's traced step: NCCL kernels 16.595 ms, 12.388 of it waiting for rank 0 (the straggler's caused wait):
    # 4.207 ms moving data, of which 2.608 exposed (the ranks table's transfer ms): 1.600 ms moving beside compute
    moving = row["comm_ms"] - doc["ranks"]["straggler"]["caused_wait_ms"]
    beside = moving - row["transfer_ms"]
    assert round(moving, 3) == 4.207 and round(beside, 3) == 1.600
    h = doc["summary"]["headroom"]
    assert h["comm"]["hidden_transfer_ms"] == pytest.approx(beside, abs=1e-9)
    # the plain step (36.248) less Proton's GPU busy (36.314, waiting out) is 0 here only because that per-kernel
    # sum counts those 1.600 ms twice: 0 + 1.600 is what the plain step has off rank 1's own work, and bounds the
    # traced step's 3.025 ms of exposed waiting (the traced step runs 43.9 ms under torch.profiler)
    items = {i["what"]: i for i in h["next"]}
    wait = items["waiting for rank 0 at collectives"]
    assert wait["headroom_ms_per_step"] == pytest.approx(beside, abs=1e-9)
    assert "3.025 ms in the torch.profiler step, bounded by the plain step's 1.600 ms" in wait["why"]
    # the straggler's cut (the test above): 5.716 ms behind in all, 0.450 + 5.212 = 5.663 of it launching late
    assert wait["do"] == ("make rank 0 arrive sooner (it fell behind 5.716 ms in all: 5.663 ms launching late (host "
                          "work), 0.054 ms in slower kernels; see the straggler line); nothing to change on this rank")
    assert "launch overhead and idle" not in items


def test_rank_zero_the_straggler_its_launch_gap_counted_once():
    doc = _report()
    row = next(r for r in doc["ranks"]["ranks"] if r["rank"] == 0)
    h = doc["summary"]["headroom"]
    # rank 0 waited for nobody: its NCCL kernels' 4.086 ms all moved data, 1.967 exposed, 2.119 beside compute;
    # its launch gap 36.582 - 33.918 = 2.664 ms plus those 2.119 counted twice in GPU busy: 4.783 ms off its work
    beside = row["comm_ms"] - row["transfer_ms"]
    assert round(beside, 3) == 2.119
    gap = next(i for i in h["next"] if i["what"] == "launch overhead and idle")
    assert gap["headroom_ms_per_step"] == pytest.approx(h["launch_gap_ms_per_step"] + beside, abs=1e-9)
    assert round(gap["headroom_ms_per_step"], 3) == 4.783 and h["next"][0] is gap
    assert gap["do"].endswith("its late launches make rank 1 wait (3.025 ms with nothing else on its GPU, traced "
                              "step; the straggler line)")


# us: the ranks level again at a kernel's start with no collective holding the waiter (its C starts 20 us after
# all_reduce#1 ends, more than HELD_US: its own launch, not the collective, set it):
#   rank 0: A [0,100]  B [100,250]  C [300,350]   all_reduce#1 [100,280]  all_reduce#2 [350,450]
#   rank 1: A [0,100]  B [200,300]  C [300,420]   all_reduce#1 [200,280]  all_reduce#2 [420,450]
LEVEL_AT_C = {
    0: [kernel("A", 0, 100), kernel("B", 100, 250), kernel("C", 300, 350),
        kernel(AR, 100, 280, **PG_ARGS), kernel(AR, 350, 450, **PG_ARGS)],
    1: [kernel("A", 0, 100), kernel("B", 200, 300), kernel("C", 300, 420),
        kernel(AR, 200, 280, **PG_ARGS), kernel(AR, 420, 450, **PG_ARGS)],
}


def test_level_at_a_kernels_start_ends_one_lateness():
    m = match({r: c.comm_calls(e) for r, e in LEVEL_AT_C.items()})
    s = straggler(m.calls, {r: c.kernel_intervals(e) for r, e in LEVEL_AT_C.items()})
    # rank 1 last at both. #1: level after A (both end at 100); rank 1 launches #1 at 200, rank 0 at 100: 100 us
    # late, all launch (idle). C starts at 300 on both: level again, so #2 is a new lateness: rank 1's C 120 us
    # against 50, both launch #2 as C ends: 70 us of slower C. Twice behind, 100 + 70 = 170 us = rank 0's waits
    # (100 at #1, 70 at #2); host 100 >= kernels 70
    assert (s["rank"], s["fell_behind"]) == (1, 2)
    assert s["late_ms"] == pytest.approx(0.17) and s["caused_wait_ms"] == pytest.approx(0.17)
    assert s["worst_late_ms"] == pytest.approx(0.1) and s["at"]["seq"] == 1
    assert s["extra_idle_ms"] == pytest.approx(0.1) and s["extra_compute_ms"] == pytest.approx(0.07)
    assert (s["kernel"], s["cause"]) == ("C", "host") and s["kernel_extra_ms"] == pytest.approx(0.07)
