"""Issue 53's rest: the causes a memory-bound kernel's "do" names where ncu finds DRAM is not what binds it
(analysis/causes.py, advice.with_counters), the headroom to the unit that binds it beside the roofline's
(analysis/reachable.py), no headroom without an action, and the in-model vs alone items (analysis/in_model.py).
Constructed rows with hand-derived figures; then the shipped runs (examples/runs, recorded on H100 and H200)."""
import json

import pandas as pd
import pytest

from inductor_prof.analysis import advice, causes, in_model, reachable
from inductor_prof.analysis.binding import DRAM, L1, L2, LATENCY, NONE, SM, TENSOR, add_binding
from inductor_prof.analysis.load import load_run_tables
from recorded import REPO

NAN = float("nan")
RUNS = REPO / "examples" / "runs"
# FLUX's fused RMSNorm + RoPE (the example): its source pass's counters, recorded on the H100
ROPE = "triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_" \
       "unbind_unsqueeze_view_2"


def _counters(run: str, stem: str) -> dict:
    return json.loads((RUNS / run / "ncu" / "source" / f"{stem}.counters.json").read_text())["counters"]


# --- causes ------------------------------------------------------------------------------------------------

def _facts(**kw):
    base = {"by": "line", "uncoalesced": [], "excess_pct_of_l2": 0.0, "stalls": {}, "occupancy_pct": 90.0,
            "theoretical_pct": 100.0, "limited_by": ["warps a block"], "registers": 32.0, "busiest_lines": [],
            "waves": 20.0}
    return {**base, **kw}


def test_the_rope_kernels_facts_from_its_counters():
    f = causes.source_facts(_counters("flux-h100", ROPE))
    # inspect's `*` lines: 81, 99, 114, 127, each 28.3 MB of L2 sectors asked, half of them excess (50%); the
    # kernel's L2 traffic over all its lines is 481.3 MB: 4 x 28.3 x 0.5 / 481.3 = 11.8%
    assert [label for label, _ in f["uncoalesced"]] == ["81", "99", "114", "127"]
    assert all(p == pytest.approx(50.0, abs=0.5) for _, p in f["uncoalesced"])
    assert f["excess_pct_of_l2"] == pytest.approx(11.8, abs=0.1)
    # inspect's "warps: long_scoreboard 42.9%"; occupancy 59.5% achieved of 62.5%, registers allow 20 blocks
    # (the least of the limits: shared memory 42, warps 32): 20 blocks x 2 warps = 40 of 64 warp slots = 62.5%
    assert f["stalls"]["long_scoreboard"] == pytest.approx(42.9, abs=0.05)
    assert (f["theoretical_pct"], f["limited_by"], f["registers"]) == (62.5, ["registers"], 48.0)


def test_the_rope_kernels_causes_latency_first_then_the_lines():
    said = causes.causes(causes.source_facts(_counters("flux-h100", ROPE)))
    # long-scoreboard (43% of the samples) outweighs the excess sectors (12% of its L2 bytes): said first
    assert said == [
        "hide load latency (long-scoreboard 43% of the warps' time, occupancy 59% of 62% (registers 48/thread)): "
        "fewer registers a thread or more loads in flight a warp (a larger XBLOCK)",
        "coalesce lines 81, 99, 114, 127 (up to 50% excess L2 sectors, 12% of its L2 bytes): contiguous index "
        "innermost"]


def test_each_cause_has_its_threshold():
    # excess sectors: a line at 1% is `*`, the kernel's excess must reach 5% of its L2 bytes to be an action
    lines = [("31", 94.0)]
    assert causes.causes(_facts(uncoalesced=lines, excess_pct_of_l2=4.9)) == []
    assert causes.causes(_facts(uncoalesced=lines, excess_pct_of_l2=5.0))[0].startswith("coalesce lines 31 ")
    # long-scoreboard: 30% of the samples
    assert causes.causes(_facts(stalls={"long_scoreboard": 29.9})) == []
    got = causes.causes(_facts(stalls={"long_scoreboard": 30.0}))
    # at 100% theoretical occupancy the occupancy is not named
    assert got == ["hide load latency (long-scoreboard 30% of the warps' time): more loads in flight a warp "
                   "(a larger XBLOCK)"]
    # below 75% theoretical, limited by shared memory: named, with its act
    low = causes.causes(_facts(stalls={"long_scoreboard": 50.0}, occupancy_pct=40.0, theoretical_pct=50.0,
                               limited_by=["shared memory"]))
    assert low == ["hide load latency (long-scoreboard 50% of the warps' time, occupancy 40% of 50% (shared memory)): "
                   "less shared memory a block or more loads in flight a warp (a larger XBLOCK)"]


def test_a_memory_level_mismatch_is_a_memory_bound_kernel_whose_dram_is_not_busy():
    mm = advice.memory_level_mismatch
    assert mm("memory", L1, 31.0) and mm("memory", LATENCY, NAN) and mm("memory", NONE, 10.0)
    # L2 busy with DRAM idle: the bytes are L2's; with DRAM at 60% or more, both are busy and "fewer bytes" holds
    assert mm("memory", L2, 59.9) and not mm("memory", L2, 60.0) and not mm("memory", L2, NAN)
    assert not mm("memory", DRAM, 31.0) and not mm("memory", SM, 31.0)     # DRAM's, or the SM's (disagrees)
    assert not mm("compute", L1, 31.0)
    # no unit busy: a mismatch only where the roofline also finds DRAM below 60% (llama-h100's RMSNorm: 96% of
    # DRAM in the model, its ncu replay 46% memory SOL: DRAM-bound in the model, "fewer bytes" holds)
    assert mm("memory", NONE, 47.0, 59.9) and not mm("memory", NONE, 47.0, 96.0)
    assert mm("memory", LATENCY, 10.0, 11.0) and not mm("memory", LATENCY, 10.0, 60.0)


def _table(**kw):
    """One memory-bound Inductor kernel as per_shape leaves it, ncu's columns as merge_ncu names them: memory SOL
    76% with DRAM at 1e9 B / 1 ms = 1000 GB/s of 2000 (50%) and L2 at 2e9 / 1 ms of 8000 (25%): L1/shared."""
    row = {"name": "k", "display": "k", "category": "Inductor reduction", "bound": "memory", "do": advice.DO["memory"],
           "headroom_by": "roofline",
           "headroom_vs": "30% of DRAM (measured)", "headroom_ms_per_step": 3.0, "sol_ms_per_step": 1.0,
           "step_ms": 4.0, "ncu_duration_ns": 1e6, "ncu_dram_bytes": 1e9, "ncu_l2_bytes": 2e9,
           "sol_compute_pct": 67.0, "sol_memory_pct": 76.0, "tensor_pipe_pct": 0.0, "occupancy_pct": 60.0}
    return pd.DataFrame([{**row, **kw}])


PEAKS = {"dram_gbps": 2000.0, "l2_gbps": 8000.0}


def test_an_l1_bound_kernel_is_told_its_causes_not_fewer_bytes():
    facts = _facts(uncoalesced=[("81", 50.0)], excess_pct_of_l2=12.0)
    d = advice.with_counters(add_binding(_table(), PEAKS), {"k": facts})
    assert d.at[0, "binding_unit"] == L1
    assert d.at[0, "do"] == ("coalesce lines 81 (up to 50% excess L2 sectors, 12% of its L2 bytes): contiguous "
                             "index innermost")
    assert d.at[0, "headroom_vs"].startswith("30% of DRAM (measured) on the roofline (memory-bound by its bytes and "
                                             "flops); ncu finds L1/shared busier: memory SOL 76%")
    # without source counters: the level's own advice
    bare = advice.with_counters(add_binding(_table(), PEAKS))
    assert bare.at[0, "do"] == "fewer L1/shared accesses (memory SOL 76%: wider loads, bank conflicts)"
    # no unit busy and the occupancy low: latency
    lat = advice.with_counters(add_binding(_table(sol_compute_pct=20.0, sol_memory_pct=30.0, occupancy_pct=14.0),
                                           PEAKS))
    assert lat.at[0, "binding_unit"] == LATENCY
    assert lat.at[0, "do"].startswith("more warps in flight (occupancy 14%")
    assert "ncu finds no unit busy: SM SOL 20% vs memory 30%, occupancy 14%" in lat.at[0, "headroom_vs"]


def test_the_flux_rope_kernel_in_the_report():
    flux = load_run_tables(RUNS / "flux-h100")
    k = flux.kernels.set_index("name").loc[ROPE]
    assert k["binding_unit"] == L1
    assert k["do"].startswith("hide load latency (long-scoreboard 43% of the warps' time")
    assert "coalesce lines 81, 99, 114, 127" in k["do"]


# --- the headroom to the binding unit ----------------------------------------------------------------------

def test_the_busy_share_of_each_unit():
    b = reachable.busy_of_unit
    # (unit, SM SOL, memory SOL, tensor pipes, DRAM % and L2 % of measured peaks) -> the one of its unit
    assert b(SM, 84.0, 41.0, 0.6, 42.0, 61.0) == 84.0
    assert b(TENSOR, 88.0, 67.0, 89.0, 20.0, 130.0) == 89.0
    assert b(DRAM, 30.0, 90.0, 0.0, 92.0, 50.0) == 92.0
    assert b(L2, 30.0, 75.0, 0.0, 20.0, 81.0) == 81.0
    assert b(L1, 67.0, 76.0, 0.0, 31.0, 45.0) == 76.0
    assert b(LATENCY, 59.0, 50.0, 0.0, 39.0, 106.0) == 59.0 and b(NONE, 12.0, 13.0, 0.0, 10.0, 15.0) == 13.0
    assert b("", NAN, NAN, NAN, NAN, NAN) != b("", NAN, NAN, NAN, NAN, NAN)     # NaN: not known


def test_the_reachable_headroom_by_hand():
    r = reachable.reachable_headroom
    # 4.554 ms/step at 76% of L1/shared: 4.554 x 0.24 = 1.093 ms/step, under the roofline's 3.18
    assert r(4.554, 3.18, 76.0) == pytest.approx(1.09296)
    # a unit less busy than the roofline implies: the roofline's is the lower limit, kept
    assert r(1.0, 0.1, 20.0) == 0.1
    # L2 counted above its measured peak: nothing left to reach; unknown: the roofline's
    assert r(1.0, 0.5, 105.0) == 0.0 and r(1.0, 0.5, NAN) == 0.5


def test_add_reachable_rebases_only_the_roofline_judged():
    d = reachable.add_reachable(advice.with_counters(add_binding(_table(), PEAKS)))
    # 4.0 ms/step at memory SOL 76%: 4.0 x 0.24 = 0.96 (roofline 3.0)
    assert d.at[0, "reachable_headroom_ms_per_step"] == pytest.approx(0.96)
    assert d.at[0, "headroom_ms_per_step"] == 3.0       # the roofline's, kept
    assert d.at[0, "headroom_vs"].endswith("; headroom to L1/shared fully busy (76% now), 3.00 ms/step on the "
                                           "roofline")
    # measured (a replay, a benchmark) or the launch floor: not re-based
    for by in ("measured", "launch floor"):
        m = reachable.add_reachable(add_binding(_table(headroom_by=by), PEAKS))
        assert m.at[0, "reachable_headroom_ms_per_step"] == 3.0
    # no ncu columns at all: the roofline's
    plain = reachable.add_reachable(_table().drop(columns=["sol_compute_pct", "sol_memory_pct"]))
    assert plain.at[0, "reachable_headroom_ms_per_step"] == 3.0


def test_the_speed_of_light_from_reachable_limits():
    two = pd.concat([_table(), _table(name="j", display="j", headroom_by="measured")], ignore_index=True)
    d = reachable.add_reachable(advice.with_counters(add_binding(two, PEAKS)))
    # roofline: 1.0 + 1.0 = 2.0 ms/step; k keeps 3.0 - 0.96 = 2.04 of its roofline headroom: 4.04 (j measured: as is)
    assert reachable.reachable_sol_step_ms(d, 2.0) == pytest.approx(4.04)
    # and the item ranks by the reachable headroom, the roofline's beside
    item = [i for i in advice.rank(d, None, []) if i["what"] == "k"][0]
    assert (item["headroom_ms_per_step"], item["roofline_headroom_ms_per_step"]) == (pytest.approx(0.96), 3.0)


def test_flux_speed_of_light_reachable():
    h = load_run_tables(RUNS / "flux-h100").summary["headroom"]
    # the rope kernel: 4.554 ms/step at memory SOL 75.7% keeps 3.18 - 1.11 of its roofline headroom, the SM-bound
    # layer norm (1.94 at 80%) 1.28 - 0.38, ...: the reachable speed of light is above the roofline's 118.7 (the bf16
    # roof the FF-down GEMM shape's 828.5 TFLOP/s: the compute-bound kernels' floor 0.15 ms lower than at 757.0)
    assert h["sol_step_ms"] == pytest.approx(118.68, abs=0.01)
    assert h["reachable_sol_step_ms"] > h["sol_step_ms"] + 3.0
    rope = [i for i in h["next"] if i["what"].startswith("triton_red_fused__fused_rms_norm__scale")][0]
    assert rope["roofline_headroom_ms_per_step"] == pytest.approx(3.18, abs=0.005)
    assert rope["headroom_ms_per_step"] < 1.2


# --- no headroom without an action ---------------------------------------------------------------------------

def test_no_item_of_the_shipped_runs_has_headroom_and_nothing_to_do():
    for run in ("flux-h100", "llama-h100", "fp8-mlp-h200", "moe-h200", "unet-h200"):
        for item in load_run_tables(RUNS / run).summary["headroom"]["next"]:
            assert item["do"] and not item["do"].startswith("nothing"), (run, item)


# --- in the model vs alone -----------------------------------------------------------------------------------

def test_the_in_model_gap_by_hand():
    # FLUX's cuDNN attention: 449.07 us a call in the timed steps, 402.02 alone, 57 calls/step:
    # 47.05 us x 57 = 2.682 ms/step
    assert in_model.gap_ms(449.0687, 402.016, 57.0) == pytest.approx(2.682, abs=0.001)
    # within 5% of the time alone: noise
    assert in_model.gap_ms(104.9, 100.0, 10.0) == 0.0 and in_model.gap_ms(105.0, 100.0, 10.0) == pytest.approx(0.05)
    assert in_model.gap_ms(90.0, 100.0, 10.0) == 0.0 and in_model.gap_ms(NAN, 100.0, 10.0) == 0.0


def test_the_shipped_runs_in_model_items():
    flux = load_run_tables(RUNS / "flux-h100").summary["headroom"]
    att = flux["in_model"][0]
    assert att["what"].startswith("cudnn_generated_fort_native_sdpa") and att["what"].endswith("in the model vs alone")
    assert att["headroom_ms_per_step"] == pytest.approx(2.682, abs=0.001)
    assert att["why"] == ("449 us a call in the timed steps vs 402 us alone (attention stage, sdpa_cudnn at "
                          "(1,24,4608,128)); 57 calls/step")
    assert att in flux["next"]
    # the MoE's grouped GEMM, replayed by ncu: (1047.68 - 994.18) x 4 + (541.32 - 495.20) x 4 = 398.5 us/step
    moe = load_run_tables(RUNS / "moe-h200").summary["headroom"]["in_model"]
    assert [i["headroom_ms_per_step"] for i in moe] == [pytest.approx(0.3985, abs=0.0005)]
    # the decoder's attention was faster in the model (98.0 vs 102.7 us): no item
    assert load_run_tables(RUNS / "llama-h100").summary["headroom"]["in_model"] == []


# --- the metric pass's stall counters (asked for since issue 53) ---------------------------------------------

# the rope kernel's values of the metrics now in drivers/ncu/metrics.py, read from its source-pass report (its
# WarpStateStats section collects the same metrics): cycles between issues, stalled cycles per issue by reason
ROPE_COUNTERS = {"warp_cycles_per_issue": 13.748281064877494, "stall_long_scoreboard": 5.840555224177264,
                 "stall_math_pipe_throttle": 0.3043865027561539, "stall_mio_throttle": 1.2259575847233461,
                 "stall_barrier": 0.9211133323892974, "occupancy_theoretical_pct": 62.5, "limit_registers": 20.0,
                 "limit_shared_mem": 42.0, "limit_warps": 32.0, "limit_blocks": 32.0,
                 "occupancy_pct": 59.49948183251597, "registers": 48.0}


def test_the_stall_metrics_are_ones_ncu_has():
    ncu_report = pytest.importorskip("ncu_report")
    from inductor_prof.drivers.ncu.metrics import METRICS, STALL_METRICS

    report = RUNS / "flux-h100" / "ncu" / "source" / f"{ROPE}.ncu-rep"
    action = ncu_report.load_report(str(report)).range_by_idx(0).action_by_idx(0)
    names = set(action.metric_names())
    assert {METRICS[s] for s in STALL_METRICS} <= names
    for short, value in ROPE_COUNTERS.items():
        assert action.metric_by_name(METRICS[short]).as_double() == pytest.approx(value), short


def test_counter_facts_give_the_source_passs_causes_without_lines():
    f = causes.counter_facts(ROPE_COUNTERS)
    # 5.8406 of 13.7483 cycles between issues stalled on long-scoreboard: 42.48% (its samples said 42.9%)
    assert f["stalls"]["long_scoreboard"] == pytest.approx(42.48, abs=0.01)
    assert f["stalls"]["barrier"] == pytest.approx(100 * 0.92111 / 13.74828, abs=0.01)
    assert (f["theoretical_pct"], f["limited_by"], f["uncoalesced"]) == (62.5, ["registers"], [])
    assert causes.causes(f) == [
        "hide load latency (long-scoreboard 42% of the warps' time, occupancy 59% of 62% (registers 48/thread)): "
        "fewer registers a thread or more loads in flight a warp (a larger XBLOCK)"]
    # a run recorded before: no stall counters, no facts
    assert causes.counter_facts({"occupancy_pct": 60.0}) is None


def test_with_counters_uses_the_metric_pass_where_the_source_pass_did_not_run():
    d = advice.with_counters(add_binding(_table(**ROPE_COUNTERS), PEAKS))
    assert d.at[0, "do"].startswith("hide load latency (long-scoreboard 42% of the warps' time")


def test_an_instruction_bound_kernels_busiest_lines_and_their_ops():
    # FLUX's layer norm: Inductor's welford helper, inlined: its division (triton_helpers.py:233, w2_over_w =
    # weight_2 / new_weight) and the update after it (236) hold 32.3 + 11.7 = 44.0% of the instructions (over 40%)
    stem = "triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.14acf58c2c9a"
    f = causes.source_facts(_counters("flux-h100", stem))
    assert [(label, round(p, 1), op) for label, p, op in f["busiest_lines"]] == [
        ("triton_helpers.py:233", 32.3, "division"), ("triton_helpers.py:236", 11.7, "")]
    assert causes.instruction_cause(f, 80.0) == (
        "fewer or cheaper ops at lines triton_helpers.py:233 (division), triton_helpers.py:236 (44% of the "
        "instructions; SM 80% busy)")
    assert causes.instruction_cause(_facts(), 80.0) is None     # no lines known: the unit's own advice


def test_a_grid_of_less_than_half_a_wave_is_a_launch_cause():
    assert causes.causes(_facts(waves=0.5)) == []
    assert causes.causes(_facts(waves=0.25)) == [
        "more blocks a launch (0.25 waves: the grid leaves 75% of the SMs' block slots empty): smaller tiles"]


def test_a_kernel_no_unit_binds_names_what_its_headroom_is_measured_against():
    # the decoder's RoPE kernel on the H200 (session 27): SM SOL 45%, memory 24%, no unit at 60%: its headroom is
    # to the busier of the two fully busy, and says so (it read "headroom to none: below 60% everywhere ...")
    assert reachable.busy_unit_label(NONE) == reachable.busy_unit_label(LATENCY) == "the busier of SM and memory"
    assert reachable.busy_unit_label("L1/shared") == "L1/shared"


def test_stall_shares_from_a_recorded_metric_pass():
    # examples/runs/llama-h200 (H200, session 27) is the first shipped run whose ncu.csv holds the stall counters;
    # its RoPE kernel's row: 9.6177 long-scoreboard cycles of 17.8806 between issues = 53.8% of the warps' time,
    # occupancy limited by warps (8 blocks, the least of 10/32/8/32)
    rows = pd.read_csv(REPO / "examples" / "runs" / "llama-h200" / "ncu" / "ncu.csv").to_dict("records")
    row = next(r for r in rows if r["warp_cycles_per_issue"] == pytest.approx(17.8806, abs=1e-3))
    facts = causes.counter_facts(row)
    assert facts["stalls"]["long_scoreboard"] == pytest.approx(100 * 9.6177 / 17.8806, abs=0.01)
    assert facts["limited_by"] == [causes.LIMITS["warps"]]


def test_a_library_call_priced_above_what_the_gpu_moves_loses_its_bytes():
    # llama-h200's gather was recorded at 1,134,559,232 B in 10,976 ns: 103,367 GB/s, above 3 x the H200's
    # 4,814 GB/s DRAM spec (14,442): its bytes are left out, the kernel said unpriced with the reason, one warning
    t = load_run_tables(REPO / "examples" / "runs" / "llama-h200")
    [w] = [w for w in t.warnings if "aten::gather" in w]
    assert "103,367 GB/s" in w and "library_ops.csv" in w
    row = t.kernels[t.kernels["name"].str.contains("vectorized_gather")].iloc[0]
    assert row["bytes"] == 0 and "over-count" in row["unpriced"]
    # a call at 2.9x the spec keeps its bytes (the cap's direction)
    from inductor_prof.analysis import above_spec
    ops = pd.DataFrame({"op": ["aten::copy_"], "bytes": [2.9 * 4814 * 1000], "dur_ns": [1000.0], "flops": [0]})
    kept, lines = above_spec.library_ops(ops, {"dram_gbps": 4814.0}, "x.csv")
    assert lines == [] and kept["bytes"].iloc[0] == 2.9 * 4814 * 1000
