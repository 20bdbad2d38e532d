"""Waiting apart from moving across ranks (analysis/waits.py, step_split.py, straggler.py, and the collectives'
busbw over transfer time), on two ranks' steps written by hand (tests/ranked_runs.STEPS), every number worked
by hand. The steps (us, one clock; all_reduce of 1 Mi bf16 = 2,097,152 B among ranks 0 and 1, group "0"):
  rank 0: A [0,100]  all_reduce#1 [100,400]           B [400,500]  all_reduce#2 [500,800]
  rank 1: A [0,100]  (GPU idle)   all_reduce#1 [300,400]  B [400,650]  all_reduce#2 [650,800]
Rank 1 arrives last at both: its first launch late (idle 200 us), its B 150 us slower."""
import pytest

from inductor_prof.analysis import collectives as c
from inductor_prof.analysis.step_split import proton_wait_ms, split, transfer_per_call
from inductor_prof.analysis.straggler import straggler
from inductor_prof.analysis.waits import match
from ranked_runs import AR, PG_ARGS as ARGS, STEPS, kernel as _k, rank_step as _rank


def _matched(steps=STEPS, bases=None):
    return match({r: c.comm_calls(e) for r, e in steps.items()}, bases)


def test_wait_is_last_arrival_minus_own_start_and_transfer_the_rest():
    m = _matched()
    assert m.instances == 2 and m.warning is None
    r0, r1 = m.calls[0], m.calls[1]
    # instance 1: arrival max(100, 300) = 300: rank 0 waits 200, moves 400 - 300 = 100; rank 1 waits 0, moves 100
    # instance 2: arrival max(500, 650) = 650: rank 0 waits 150, moves 150; rank 1 waits 0, moves 150
    assert list(r0["wait_us"]) == [200, 150] and list(r0["transfer_us"]) == [100, 150]
    assert list(r1["wait_us"]) == [0, 0] and list(r1["transfer_us"]) == [100, 150]
    assert list(r0["last_rank"]) == [1, 1]


def test_busbw_over_transfer_not_over_the_waiting_kernel():
    m = _matched()
    row = c.collective_table(m.calls[0]).iloc[0]
    # rank 0: 2 calls x 2,097,152 B over its transfer 100 + 150 = 250 us: 16.777 GB/s (all_reduce among 2: busbw =
    # algbw); over its kernel time, 300 + 300 = 600 us, it would read 6.990 GB/s
    assert row["timed_on"] == "transfer"
    assert row["algbw_gbps"] == pytest.approx(16.777216) and row["busbw_gbps"] == pytest.approx(16.777216)
    assert row["step_ms"] == pytest.approx(0.6) and row["wait_ms"] == pytest.approx(0.35)
    raw = c.collective_table(c.comm_calls(STEPS[0])).iloc[0]
    assert raw["timed_on"] == "kernel (waiting included)" and raw["busbw_gbps"] == pytest.approx(6.990507, abs=1e-6)


def test_each_ranks_step_adds_up():
    m = _matched()
    s0 = split(c.kernel_intervals(STEPS[0]), m.calls[0])
    # rank 0, span [0,800]: compute A + B = 200; transfer [300,400] + [650,800] = 250; wait [100,300] + [500,650]
    # = 350; idle 0
    assert s0 == {"compute_ms": 0.2, "transfer_ms": 0.25, "unsplit_ms": 0.0, "wait_ms": 0.35, "idle_ms": 0.0,
                  "span_ms": 0.8}
    s1 = split(c.kernel_intervals(STEPS[1]), m.calls[1])
    # rank 1: compute 100 + 250 = 350; transfer 100 + 150 = 250; wait 0; idle [100,300] = 200
    assert s1 == {"compute_ms": 0.35, "transfer_ms": 0.25, "unsplit_ms": 0.0, "wait_ms": 0.0, "idle_ms": 0.2,
                  "span_ms": 0.8}
    for s in (s0, s1):
        assert sum(v for k, v in s.items() if k != "span_ms") == pytest.approx(s["span_ms"])


def test_compute_beside_a_collective_hides_its_wait_first():
    # rank 0's first all_reduce with a kernel C on another stream over [150,350]: of the wait [100,300], [150,300]
    # is under compute; of the transfer [300,400], [300,350]: compute 200 + 200 - 0 = 400 (A, B, C [150,350]),
    # transfer 50 + 150 = 200, wait 50 + 150 = 200, idle 0: 800
    steps = {0: STEPS[0] + [_k("C", 150, 350)], 1: STEPS[1]}
    m = _matched(steps)
    s0 = split(c.kernel_intervals(steps[0]), m.calls[0])
    assert (s0["compute_ms"], s0["transfer_ms"], s0["wait_ms"], s0["idle_ms"]) == \
        pytest.approx((0.4, 0.2, 0.2, 0.0))


def test_the_straggler_is_named_with_what_it_did_before():
    m = _matched()
    s = straggler(m.calls, {r: c.kernel_intervals(e) for r, e in STEPS.items()})
    # rank 1 last at both; rank 0 waits 200 + 150 = 350 us for it, all of it exposed (nothing else on rank 0's GPU).
    # Kernels paired: A with A, B with B. #1: both ended A at 100 (level there); rank 1 launched #1 at 300, rank 0
    # at 100: 200 us of later launch (idle). All_reduce #1 ends at 400 on both and rank 0's B, idle since 100, starts
    # at 400 (held by it): level again, B starts at 400 on both; #2: rank 1's B 250 us against rank 0's 100, both
    # launch #2 as B ends: 150 us of slower kernel. Fell behind twice, 200 + 150 = 350 us: idle 200, compute 150
    # (B), the host part the larger
    assert (s["rank"], s["waiter"], s["last_at"], s["matched"]) == (1, 0, 2, 2)
    assert s["caused_wait_ms"] == pytest.approx(0.35) and s["waiter_wait_ms"] == pytest.approx(0.35)
    assert s["exposed_wait_ms"] == pytest.approx(0.35)
    assert (s["fell_behind"], s["at"]["seq"], s["from_step_start"]) == (2, 1, False)
    assert s["late_ms"] == pytest.approx(0.35) and s["worst_late_ms"] == pytest.approx(0.2)
    assert s["start_ms"] == pytest.approx(0.0)
    assert s["extra_idle_ms"] == pytest.approx(0.2) and s["extra_compute_ms"] == pytest.approx(0.15)
    assert (s["kernel"], s["cause"]) == ("B", "host") and s["kernel_extra_ms"] == pytest.approx(0.15)


def test_a_slower_kernel_is_the_cause_when_it_outweighs_the_idle():
    # rank 1 launches on time (#1 at 100) but its B ends at 750: #2 arrival 750; rank 0 waits 250 there. B starts
    # at 400 on both (level): rank 1's B 350 us against 100, both launch #2 as B ends: extra compute 250 us, idle 0
    steps = {0: _rank(500, 100, 500), 1: _rank(750, 100, 750)}
    m = _matched(steps)
    s = straggler(m.calls, {r: c.kernel_intervals(e) for r, e in steps.items()})
    assert (s["rank"], s["cause"], s["kernel"], s["fell_behind"]) == (1, "kernels", "B", 1)
    assert s["extra_compute_ms"] == pytest.approx(0.25) and s["extra_idle_ms"] == pytest.approx(0.0)
    assert s["late_ms"] == pytest.approx(0.25) and s["at"]["seq"] == 2


def test_balanced_ranks_have_no_straggler():
    steps = {0: _rank(500, 100, 500), 1: _rank(500, 100, 500)}
    m = _matched(steps)
    assert m.instances == 2 and straggler(m.calls, {r: c.kernel_intervals(e) for r, e in steps.items()}) is None


def test_proton_nccl_time_beyond_its_transfer_is_waiting():
    transfer = transfer_per_call(_matched().calls[0])
    # rank 0's all_reduce calls moved data 100 and 150 us (the rest of their 300 us each was waiting): 125 a call
    assert transfer == {AR: pytest.approx(125.0)}
    import pandas as pd
    # Proton's row named with the kernel's argument list (as its demangler writes it): the same kernel, 2 calls a
    # step in 1.2 ms: 1.2 - 2 x 0.125 = 0.95 ms waiting; A is no collective
    proton = pd.DataFrame({"name": [AR + "(ncclDevKernelArgsStorage<4096ul>)", "A"], "step_ms": [1.2, 0.5],
                           "calls_per_step": [2, 4]})
    assert proton_wait_ms(proton, transfer) == pytest.approx(0.95)
    # a step where it waited less than the traced one: never below 0
    assert proton_wait_ms(proton.assign(step_ms=[0.2, 0.5]), transfer) == 0.0
    assert proton_wait_ms(proton, {}) == 0.0


def test_a_collective_missing_on_one_rank_is_one_warning_and_times_stay_as_measured():
    steps = {0: STEPS[0], 1: STEPS[1][:2]}   # rank 1 lacks its second all_reduce
    m = _matched(steps)
    assert m.instances == 0
    assert m.warning == ("collectives not matched across ranks (group 0: rank 0 has 2 calls, rank 1 has 1 call): "
                         "their NCCL times are as measured (waiting included) and their busbw is over the kernels' "
                         "time")
    assert m.calls[0]["wait_us"].isna().all()
    s0 = split(c.kernel_intervals(steps[0]), m.calls[0])
    # the all_reduces unsplit: [100,400] + [500,800] = 600, compute 200
    assert (s0["unsplit_ms"], s0["transfer_ms"], s0["wait_ms"]) == pytest.approx((0.6, 0.0, 0.0))
    row = c.collective_table(m.calls[0]).iloc[0]
    assert row["timed_on"] == "kernel (waiting included)" and row["wait_ms"] is None


def test_clocks_of_different_hosts_are_not_matched():
    m = _matched(bases={0: 1_700_000_000_000_000_000, 1: 1_700_000_000_500_000_000})
    assert m.instances == 0 and m.warning.startswith("the ranks' traces come from different clocks")
    assert m.calls[1]["wait_us"].isna().all()
    assert _matched(bases={0: 5, 1: 5}).instances == 2


def test_a_rank_ending_before_the_last_starts_is_not_one_collective():
    # rank 1's first all_reduce moved to [1000,1100]: rank 0's ended at 400, before it started
    steps = {0: STEPS[0], 1: [_k("A", 0, 100), _k(AR, 1000, 1100, **ARGS), _k(AR, 1200, 1300, **ARGS)]}
    m = _matched(steps)
    assert m.instances == 0 and "ends on one rank 600.0 us before the last rank starts it" in m.warning


def test_groups_are_matched_apart_and_only_among_their_ranks():
    # a second group "1" of rank 0 alone (its ranks [0]): matched on its own, no wait; group 0 as before
    own = dict(ARGS, **{"Process Group Name": "1", "Process Group Ranks": "[0]", "Group size": 1})
    steps = {0: STEPS[0] + [_k(AR, 900, 950, **own)], 1: STEPS[1]}
    m = _matched(steps)
    assert m.warning is None and m.instances == 3
    assert list(m.calls[0]["wait_us"]) == [200, 150, 0]


def test_real_rank_alone_is_unsplit_and_adds_up():
    # tests/data/nccl_trace: rank 0 of 2 alone (rank 1's trace was not kept): nothing to match it against, so its
    # 21 NCCL kernels stay as measured: their exposed time (overlap.comm_compute: 46.876 ms of NCCL, 7.317 under
    # compute) is all "unsplit", none of it called transfer or wait, and the parts add up to its 660.551 ms span
    import gzip
    import json

    from inductor_prof.analysis.overlap import comm_compute
    from recorded import data_path

    with gzip.open(data_path("nccl_trace/rank0.json.gz"), "rt") as f:
        events = json.load(f)["traceEvents"]
    m = match({0: c.comm_calls(events)})
    assert (m.instances, m.warning) == (0, None)
    iv = c.kernel_intervals(events)
    s, old = split(iv, m.calls[0]), comm_compute(iv)
    assert s["unsplit_ms"] == pytest.approx(old["exposed_ms"]) == pytest.approx(39.5594658)
    assert (s["transfer_ms"], s["wait_ms"]) == (0, 0) and s["compute_ms"] == pytest.approx(old["compute_ms"])
    assert sum(v for k, v in s.items() if k != "span_ms") == pytest.approx(s["span_ms"]) == pytest.approx(660.551006)
    assert set(c.collective_table(m.calls[0])["timed_on"]) == {"kernel (waiting included)"}
