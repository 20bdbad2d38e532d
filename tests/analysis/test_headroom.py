"""Ceilings that bound, speed of light and headroom, on small constructed tables with hand-derived figures.

Peaks (made up, round): measured bf16 tensor 1000 TFLOP/s, spec 1500; DRAM 2000 GB/s measured (spec 3000); L2
8000 GB/s measured. The table is judged as `report` judges it (analysis/load.py): the compute roofs raised to what
a compute-bound kernel of the width reached (roofline.reached_rates -> peaks.with_reached), the kernels' headroom
said by advice.per_shape. Two timed steps.
"""
import pandas as pd
import pytest

from inductor_prof.analysis import add_derived
from inductor_prof.analysis.advice import per_shape
from inductor_prof.analysis.headroom import attention_saving, headroom
from inductor_prof.analysis.roofline import reached_rates
from inductor_prof.peaks import with_reached

PEAKS = {"tflops": {"flops8": None, "flops16": 1000.0, "flops32": 50.0, "flops64": None}, "dram_gbps": 2000.0,
         "l2_gbps": 8000.0, "spec": {"flops16": 1500.0, "flops32": 60.0, "dram_gbps": 3000.0},
         "source": {"flops16": "measured", "flops32": "spec", "dram_gbps": "measured"}}


def _k(name, total_ns, nbytes, flops16=0.0, category="GEMM"):
    return {"name": name, "display": name, "category": category, "total_ns": float(total_ns), "calls": 2,
            "bytes": float(nbytes), "flops8": 0.0, "flops16": flops16, "flops32": 0.0, "flops64": 0.0,
            "flops": flops16, "origin": "library" if category == "GEMM" else "inductor"}


@pytest.fixture(scope="module")
def df():
    rows = [
        # 4 ms, 2e12 flop, 2 GB: 500 TFLOP/s at intensity 1000 flop/B (compute-bound: spec ridge 1500e12 / 3000e9
        # = 500 flop/B)
        _k("gemm", 4_000_000, 2e9, flops16=2e12),
        # 1 ms, 1.25e12 flop, 1 GB: 1250 TFLOP/s at 1250 flop/B beats the measured 1000: the bf16 roof of this
        # run is raised to 1250 ("reached", by fast_gemm); the spec 1500 is not used
        _k("fast_gemm", 1_000_000, 1e9, flops16=1.25e12),
        # 2 ms, 2 GB: 1000 GB/s = 50% of DRAM
        _k("pointwise", 2_000_000, 2e9, category="Inductor pointwise"),
        # 1 ms, 4 GB: 4000 GB/s > DRAM 2000: its inputs were in L2 -> 50% of L2 8000
        _k("from_l2", 1_000_000, 4e9, category="Inductor pointwise"),
        # 3 ms, nothing known: no speed of light
        _k("opaque", 3_000_000, 0.0, category="other"),
    ]
    raw = pd.DataFrame(rows)
    peaks = with_reached(PEAKS, reached_rates(raw, None, PEAKS))
    assert peaks["tflops"]["flops16"] == pytest.approx(1250.0) and peaks["source"]["flops16"] == "reached"
    # bf16 ridge now 1250e12 / 2000e9 = 625 flop/B: gemm (1000) and fast_gemm (1250) stay compute-bound
    return per_shape(add_derived(raw, peaks, n_steps=2), None).set_index("name", drop=False)


def test_ceiling_that_bounds_each_kernel(df):
    assert df.at["gemm", "ceiling"] == "bf16/fp16 tensor (reached)" and df.at["gemm", "ceiling_why"] == ""
    assert df.at["gemm", "pct_of_peak"] == pytest.approx(40.0)              # 500 / 1250
    # the kernel that set the roof is at it, not above it (the old switch judged it against the spec: 83%)
    assert df.at["fast_gemm", "ceiling"] == "bf16/fp16 tensor (reached)"
    assert df.at["fast_gemm", "ceiling_why"] == ""
    assert df.at["fast_gemm", "pct_of_peak"] == pytest.approx(100.0)        # 1250 / 1250
    assert df.at["pointwise", "ceiling"] == "DRAM (measured)"
    assert df.at["pointwise", "pct_of_peak"] == pytest.approx(50.0)          # 1000 / 2000
    assert df.at["from_l2", "ceiling"] == "L2 (measured)"
    assert df.at["from_l2", "ceiling_why"] == "moved its bytes faster than DRAM: inputs still in L2"
    assert df.at["from_l2", "pct_of_peak"] == pytest.approx(50.0)            # 4000 / 8000
    assert df.at["opaque", "ceiling"] == "" and pd.isna(df.at["opaque", "pct_of_peak"])


def test_no_kernel_above_its_ceiling(df):
    assert (df["pct_of_peak"].dropna() <= 100 + 1e-9).all()
    # against the measured 1000 alone (no with_reached) fast_gemm would read 125%
    assert add_derived(pd.DataFrame([_k("fast_gemm", 1_000_000, 1e9, flops16=1.25e12)]), PEAKS, 2).at[
        0, "pct_of_peak"] == pytest.approx(125.0)


def test_without_an_l2_ceiling_the_reason_is_still_said():
    peaks = {**PEAKS, "l2_gbps": None}
    d = add_derived(pd.DataFrame([_k("from_l2", 1_000_000, 4e9, category="Inductor pointwise")]), peaks, 2)
    assert d.at[0, "ceiling"] == "DRAM (measured)" and d.at[0, "pct_of_peak"] == pytest.approx(200.0)
    assert d.at[0, "ceiling_why"] == "faster than the DRAM ceiling: inputs partly in L2 (no L2 ceiling measured)"


def test_speed_of_light_and_headroom_per_step(df):
    # gemm: max(2e12 / 1250e12, 2e9 / 2000e9) = max(1.6 ms, 1 ms) = 1.6 ms over 2 steps -> 0.8 ms/step; it takes
    # 4 ms / 2 = 2 ms/step: headroom 1.2 ms/step
    assert df.at["gemm", "sol_ms_per_step"] == pytest.approx(0.8)
    assert df.at["gemm", "headroom_ms_per_step"] == pytest.approx(1.2)
    # fast_gemm: 1.25e12 / 1250e12 = 1 ms -> 0.5 ms/step; takes 0.5 ms/step: headroom 0 (it is the roof)
    assert df.at["fast_gemm", "sol_ms_per_step"] == pytest.approx(0.5)
    assert df.at["fast_gemm", "headroom_ms_per_step"] == pytest.approx(0.0)
    # pointwise: 2e9 / 2000e9 = 1 ms -> 0.5 ms/step; takes 1 ms/step: headroom 0.5
    assert df.at["pointwise", "headroom_ms_per_step"] == pytest.approx(0.5)
    # from_l2: 4e9 / 8000e9 = 0.5 ms -> 0.25 ms/step; takes 0.5 ms/step: headroom 0.25
    assert df.at["from_l2", "headroom_ms_per_step"] == pytest.approx(0.25)
    assert pd.isna(df.at["opaque", "sol_ms_per_step"]) and pd.isna(df.at["opaque", "headroom_ms_per_step"])
    # no replay or attention benchmark measured these calls: each is said against its roof
    # ... and a compute-bound one against the measured ceiling and the spec too (test_three_roofs_...)
    assert df.at["gemm", "headroom_vs"] == "40% of bf16/fp16 tensor (reached); 50% of measured, 33% of spec"
    assert df.at["pointwise", "headroom_vs"] == "50% of DRAM (measured)"
    assert df.at["pointwise", "do"] == "fewer bytes (fuse, layout)" and df.at["opaque", "headroom_vs"] == ""


def test_three_roofs_of_a_compute_bound_kernel(df):
    # gemm: 500 TFLOP/s; the run's roof 1250 (reached by fast_gemm) -> 40%, the measured ceiling 1000 -> 50%,
    # the spec 1500 -> 33.3%
    assert df.at["gemm", "pct_of_reached_roof"] == pytest.approx(40.0)
    assert df.at["gemm", "pct_of_measured_ceiling"] == pytest.approx(50.0)
    assert df.at["gemm", "pct_of_spec"] == pytest.approx(100 / 3)
    # fast_gemm set the roof: 100% of it, 1250 / 1000 = 125% of the measured ceiling, 1250 / 1500 = 83.3% of spec
    assert df.at["fast_gemm", "pct_of_reached_roof"] == pytest.approx(100.0)
    assert df.at["fast_gemm", "pct_of_measured_ceiling"] == pytest.approx(125.0)
    assert df.at["fast_gemm", "pct_of_spec"] == pytest.approx(250 / 3)
    # memory-bound kernels have no compute roofs to be judged against: NaN, and their % of peak as it was
    for name in ("pointwise", "from_l2", "opaque"):
        assert df.loc[name, ["pct_of_reached_roof", "pct_of_measured_ceiling", "pct_of_spec"]].isna().all()


def test_a_roof_not_measured_is_not_a_share():
    # only the spec known (no ceilings stage): % of spec, no % of a measured ceiling
    d = add_derived(pd.DataFrame([_k("gemm", 4_000_000, 2e9, flops16=2e12)]),
                    {**PEAKS, "tflops": {**PEAKS["tflops"], "flops16": 1500.0}, "measured_tflops": {}}, 2)
    assert pd.isna(d.at[0, "pct_of_measured_ceiling"])
    assert d.at[0, "pct_of_spec"] == pytest.approx(100 / 3) == pytest.approx(d.at[0, "pct_of_reached_roof"])


def test_step_headroom_by_category_and_the_launch_gap(df):
    h = headroom(df.reset_index(drop=True), step_ms_plain=6.0)
    # GPU busy per step: (4 + 1 + 2 + 1 + 3) ms / 2 = 5.5 ms; the plain step 6.0: 0.5 ms launch overhead/idle
    assert h["gpu_busy_ms_per_step"] == pytest.approx(5.5) and h["step_ms_plain"] == 6.0
    assert h["launch_gap_ms_per_step"] == pytest.approx(0.5)
    # speed of light: 0.8 + 0.5 + 0.5 + 0.25, plus the opaque kernel at its own 1.5 ms/step = 3.55
    assert h["sol_step_ms"] == pytest.approx(3.55)
    assert h["kernels_without_sol"] == 1
    assert h["by_category"]["GEMM"] == pytest.approx(1.2)                   # 1.2 + 0
    assert h["by_category"]["Inductor pointwise"] == pytest.approx(0.75)    # 0.5 + 0.25
    # ranked by headroom: gemm 1.2, pointwise 0.5, launch gap 0.5, from_l2 0.25; fast_gemm (0) is no item
    got = [(r["what"], round(r["headroom_ms_per_step"], 6)) for r in h["next"]]
    assert got == [("gemm", 1.2), ("pointwise", 0.5), ("launch overhead and idle", 0.5), ("from_l2", 0.25)]
    gemm = next(r for r in h["next"] if r["what"] == "gemm")
    # no ncu here: its headroom is the roofline's, said twice
    assert gemm == {"what": "gemm", "category": "GEMM", "headroom_ms_per_step": pytest.approx(1.2),
                    "roofline_headroom_ms_per_step": pytest.approx(1.2),
                    "why": "40% of bf16/fp16 tensor (reached); 50% of measured, 33% of spec",
                    "do": "a faster kernel, or less work"}
    gap = next(r for r in h["next"] if r["what"] == "launch overhead and idle")
    assert (gap["category"], gap["why"], gap["do"]) == \
        ("host", "plain step (no profiler) minus GPU-busy time", "CUDA graphs, fewer launches")


ATTENTION = pd.DataFrame([
    # the model ran cuDNN at 0.40 ms a call, 10 calls a step; an own kernel at 0.30 ms passed its check
    {"backend": "sdpa_cudnn", "model_backend": "sdpa_cudnn", "shape": "(1,2,3,4)", "ms": 0.40, "ok": True,
     "calls_per_step": 10},
    {"backend": "sdpa", "model_backend": "sdpa_cudnn", "shape": "(1,2,3,4)", "ms": 0.20, "ok": True,
     "calls_per_step": 10},
    {"backend": "gluon_fa3", "model_backend": "sdpa_cudnn", "shape": "(1,2,3,4)", "ms": 0.30, "ok": True,
     "calls_per_step": 10},
    {"backend": "broken", "model_backend": "sdpa_cudnn", "shape": "(1,2,3,4)", "ms": 0.10, "ok": False,
     "calls_per_step": 10},
])


def test_attention_headroom_against_the_best_backend_that_passed():
    # "sdpa" is the model's own kernel again and "broken" failed its check: the best is gluon_fa3,
    # (0.40 - 0.30) ms x 10 calls = 1.0 ms a step
    (a,) = attention_saving(ATTENTION)
    assert a["best_backend"] == "gluon_fa3" and a["model_backend"] == "sdpa_cudnn"
    assert a["saving_ms_per_step"] == pytest.approx(1.0)
    assert attention_saving(None) == [] and attention_saving(ATTENTION.iloc[:0]) == []


# ---- mutation audit (issue 30): the attention savings in full, and the summary of an empty table ---------------

def test_attention_savings_per_shape_in_full():
    two = pd.concat([
        ATTENTION,
        # a second shape, 3 calls a step: the model's flash at 0.25 ms, triton at 0.10 ms: 3 x 0.15 = 0.45 ms
        pd.DataFrame([{"backend": "sdpa_flash", "model_backend": "sdpa_flash", "shape": "(2,2,3,4)", "ms": 0.25,
                       "ok": True, "calls_per_step": 3},
                      {"backend": "triton_fa2", "model_backend": "sdpa_flash", "shape": "(2,2,3,4)", "ms": 0.10,
                       "ok": True, "calls_per_step": 3}]),
        # a shape whose model backend failed its check: nothing to measure against, skipped (the next still said)
        pd.DataFrame([{"backend": "sdpa_cudnn", "model_backend": "sdpa_cudnn", "shape": "(0,2,3,4)", "ms": 0.5,
                       "ok": False, "calls_per_step": 1},
                      {"backend": "gluon_fa3", "model_backend": "sdpa_cudnn", "shape": "(0,2,3,4)", "ms": 0.1,
                       "ok": True, "calls_per_step": 1}]),
    ])
    got = attention_saving(two, {"(2,2,3,4)": ["flash_fwd"]})
    assert got == [
        {"shape": "(1,2,3,4)", "model_backend": "sdpa_cudnn", "best_backend": "gluon_fa3", "model_ms": 0.40,
         "best_ms": 0.30, "calls_per_step": 10.0, "saving_ms_per_step": pytest.approx(1.0), "kernels": []},
        {"shape": "(2,2,3,4)", "model_backend": "sdpa_flash", "best_backend": "triton_fa2", "model_ms": 0.25,
         "best_ms": 0.10, "calls_per_step": 3.0, "saving_ms_per_step": pytest.approx(0.45), "kernels": ["flash_fwd"]}]


def test_a_shape_where_the_model_backend_alone_passed_saves_nothing():
    # only the model's own backend passed (one row): the best is itself, 0 saved; a call count of 0 saves 0 too
    alone = ATTENTION.iloc[:1]
    (a,) = attention_saving(alone)
    assert (a["best_backend"], a["saving_ms_per_step"]) == ("sdpa_cudnn", 0.0)
    (z,) = attention_saving(ATTENTION.assign(calls_per_step=0))
    assert (z["calls_per_step"], z["saving_ms_per_step"]) == (0.0, 0.0)


def test_headroom_of_no_kernels_and_of_no_plain_step(df):
    h = headroom(pd.DataFrame(), None)
    assert h == {"gpu_busy_ms_per_step": 0.0, "sol_step_ms": 0.0, "reachable_sol_step_ms": 0.0, "step_ms_plain": None,
                 "launch_gap_ms_per_step": None, "kernels_without_sol": 0, "by_category": {}, "attention": [],
                 "in_model": [], "next": []}
    # no plain step recorded: no gap, and no gap item; the categories are those the table has, the attention
    # savings passed through
    saving = [{"shape": "s", "saving_ms_per_step": 0.0, "kernels": []}]
    h = headroom(df.reset_index(drop=True), None, saving)
    assert h["launch_gap_ms_per_step"] is None and all(r["category"] != "host" for r in h["next"])
    assert sorted(h["by_category"]) == ["GEMM", "Inductor pointwise", "other"]
    assert h["attention"] == saving


def _comm(wait_ms, straggler_rank=1):
    from inductor_prof.analysis.ranks import step_spread

    return {"rank": 0, "proton_wait_ms": 1.0, "wait_ms": wait_ms, "transfer_ms": 0.2,
            "straggler": {"rank": straggler_rank, "cause": "host"}, "spread": step_spread({0: 6.0, 1: 6.3})}


def test_a_rank_of_several_gpu_busy_without_waiting_and_its_items(df):
    # say 1.0 ms/step of Proton's kernel time was NCCL waiting: GPU busy 5.5 - 1.0 = 4.5, plain 6.0: 1.5 off the
    # GPU; of it 0.9 waiting (the trace's exposed wait), 0.6 host; exposed transfer 0.2; imbalance 6.3 - 6.0 = 0.3
    h = headroom(df.reset_index(drop=True), step_ms_plain=6.0, comm=_comm(0.9))
    assert h["gpu_busy_ms_per_step"] == pytest.approx(4.5) and h["launch_gap_ms_per_step"] == pytest.approx(1.5)
    # the speed of light leaves the waiting out too (3.55 without ranks, the test above): 3.55 - 1.0 = 2.55, never
    # above GPU busy (an H200 TP run read 17.0 ms of light speed in 5.3 ms of GPU busy)
    assert h["sol_step_ms"] == pytest.approx(2.55)
    got = [(r["what"], round(r["headroom_ms_per_step"], 6)) for r in h["next"]]
    assert got == [("gemm", 1.2), ("waiting for rank 1 at collectives", 0.9), ("launch overhead and idle", 0.6),
                   ("pointwise", 0.5), ("imbalance: rank 1's step vs rank 0's", 0.3), ("from_l2", 0.25),
                   ("communication with no compute beside it", 0.2)]
    wait = h["next"][1]
    assert (wait["category"], wait["do"]) == ("ranks", "make rank 1 arrive sooner (its launches come late: host work); "
                                              "nothing to change on this rank")
    assert h["next"][2]["why"] == "plain step (no profiler) minus GPU-busy time and the waiting at collectives"


def test_waiting_is_never_more_than_the_time_off_the_gpu(df):
    # the trace's wait 2.0 ms, but only 1.5 of the plain step is off the GPU: 1.5 waiting, no host item left
    h = headroom(df.reset_index(drop=True), step_ms_plain=6.0, comm=_comm(2.0, straggler_rank=0))
    items = {r["what"]: r["headroom_ms_per_step"] for r in h["next"]}
    assert items["waiting for the other ranks at collectives"] == pytest.approx(1.5)
    assert "launch overhead and idle" not in items


def test_waiting_is_bounded_by_the_plain_step_with_compute_beside_transfer_counted_once(df):
    # GPU busy 4.5 (5.5 of kernels less 1.0 waiting), plain 4.7: gap 0.2. Say 0.5 ms of the traced step had NCCL
    # moving data beside compute: Proton's per-kernel sum counts those 0.5 ms twice, so 0.2 + 0.5 = 0.7 ms of the
    # plain step is off this rank's own work. The trace's exposed wait 2.0 (under torch.profiler) is bounded to 0.7,
    # and nothing is left for the launch gap: 0.7 counted once
    comm = {**_comm(2.0), "hidden_transfer_ms": 0.5,
            "straggler": {"rank": 1, "cause": "host", "waiter": 0, "late_ms": 3.0, "start_ms": 0.5,
                          "extra_idle_ms": 2.4, "extra_compute_ms": 0.1, "exposed_wait_ms": 2.0}}
    h = headroom(df.reset_index(drop=True), step_ms_plain=4.7, comm=comm)
    assert h["launch_gap_ms_per_step"] == pytest.approx(0.2)
    items = {r["what"]: r for r in h["next"]}
    wait = items["waiting for rank 1 at collectives"]
    assert wait["headroom_ms_per_step"] == pytest.approx(0.7) and "launch overhead and idle" not in items
    assert wait["why"] == ("NCCL kernels waiting for the last rank to arrive, nothing else on this GPU (2.000 ms in "
                           "the torch.profiler step, bounded by the plain step's 0.700 ms off this rank's own work); "
                           "not this rank's kernel time")
    # the straggler's cut, as straggler.straggler gives it: 0.5 + 2.4 = 2.9 ms of its 3.0 launching late
    assert wait["do"] == ("make rank 1 arrive sooner (it fell behind 3.000 ms in all: 2.900 ms launching late "
                          "(host work), 0.100 ms in slower kernels; see the straggler line); nothing to change on this "
                          "rank")


def test_the_stragglers_own_gap_counts_compute_beside_transfer_once_and_says_who_waits(df):
    # rank 0 is the straggler (host): it waits 0; gap 6.0 - 4.5 = 1.5, plus 0.5 beside transfer = 2.0 off its work
    comm = {**_comm(0.0), "hidden_transfer_ms": 0.5,
            "straggler": {"rank": 0, "cause": "host", "waiter": 1, "exposed_wait_ms": 1.25}}
    h = headroom(df.reset_index(drop=True), step_ms_plain=6.0, comm=comm)
    gap = next(r for r in h["next"] if r["what"] == "launch overhead and idle")
    assert gap["headroom_ms_per_step"] == pytest.approx(2.0)
    assert gap["why"] == "plain step (no profiler) minus GPU-busy time (compute beside NCCL moving data counted once)"
    assert gap["do"] == ("CUDA graphs, fewer launches; its late launches make rank 1 wait (1.250 ms with nothing else "
                         "on its GPU, traced step; the straggler line)")


def test_launch_gap_is_noise_only_within_one_percent_of_the_plain_step():
    from inductor_prof.analysis.headroom import launch_gap

    # plain 100 ms: GPU busy up to 101 ms (1%) is the noise between the two steps, beyond it is not
    gap, note = launch_gap(100.0, 100.99, True, True)
    assert gap == 0.0 and note.startswith("GPU busy 100.990 ms/step (waiting at collectives taken out) exceeds the "
                                          "plain step 100.000 ms by 0.990: they are timed in different steps")
    assert note.endswith("this is their noise; no launch gap is left")
    gap, note = launch_gap(100.0, 101.01, False, True)
    assert gap == 0.0 and "more than the 1% of noise" in note and "holds NCCL waiting" in note
    assert "taken out)" not in note.split(":")[0]   # none was taken out: not said
    gap, note = launch_gap(100.0, 101.01, False, False)
    assert "kernels ran longer under Proton" in note and "NCCL" not in note
    assert launch_gap(100.0, 98.0, False) == (2.0, None)
