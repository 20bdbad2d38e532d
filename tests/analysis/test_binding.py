"""The unit that binds a kernel (analysis/binding.py) from the counters ncu recorded, the advice that follows it
where it contradicts the roofline (advice.with_counters), and the kernel table's column. Constructed counters
with hand-derived figures; then the shipped runs the issue names (fp8-mlp-h200, flux-h100)."""
import math

import pandas as pd
import pytest
from rich.console import Console

from inductor_prof.analysis import advice
from inductor_prof.analysis.binding import (BUSY_PCT, DISAGREE_POINTS, DRAM, L1, L2, LATENCY, LOW_OCCUPANCY_PCT,
                                            NONE, SM, TENSOR, add_binding, binding, busy_pct, disagrees)
from inductor_prof.analysis.load import load_run_tables
from inductor_prof.report.terminal import kernel_table
from recorded import REPO

NAN = float("nan")


def test_the_thresholds_are_the_ones_documented():
    # ncu's SOL rule (60%), a quarter of the warp slots, 20 points apart: a changed one must be a decision
    assert (BUSY_PCT, LOW_OCCUPANCY_PCT, DISAGREE_POINTS) == (60.0, 25.0, 20.0)


def test_bytes_over_the_ncu_duration_against_a_measured_peak():
    # 1e9 bytes in 1e6 ns (1 ms) = 1000 GB/s: half of a 2000 GB/s peak
    assert busy_pct(1e9, 1e6, 2000.0) == pytest.approx(50.0)
    # the fp8 run's silu reduction: 579,427,840 B in 296,064 ns = 1957.1 GB/s, of the H200's measured 4635.2
    assert busy_pct(579427840.0, 296064.0, 4635.230318552974) == pytest.approx(42.22, abs=0.01)
    for unknown in ((NAN, 1e6, 2000.0), (1e9, NAN, 2000.0), (1e9, 1e6, None), (1e9, 0.0, 2000.0)):
        assert math.isnan(busy_pct(*unknown))


def test_sm_sol_well_above_memory_binds_on_instructions():
    # the fp8 run's silu reduction: SM 83.8%, memory 40.7%, tensor pipes 0.6%
    assert binding(83.84, 40.67, 0.61, 96.1, 42.2, 30.0) == (SM, "SM SOL 84% vs memory 41%")


def test_busy_tensor_pipes_bind_a_compute_side_kernel():
    assert binding(88.0, 67.0, 89.0, 12.0) == (TENSOR, "tensor pipes 89%, SM SOL 88% vs memory 67%")
    # tensor pipes just under 60%: the SM's instructions
    assert binding(88.0, 67.0, 59.9, 12.0)[0] == SM
    assert binding(88.0, 67.0, 60.0, 12.0)[0] == TENSOR       # 60% exactly: busy


def test_memory_side_names_the_level_that_is_busy():
    # memory SOL above SM's: DRAM at 92% of its measured peak, L2 at 50%
    assert binding(30.0, 90.0, 0.0, 80.0, 92.0, 50.0) == (DRAM, "DRAM 92% of its measured peak; SM SOL 30% vs "
                                                                "memory 90%")
    # L2 the busier of the two (inputs still in L2)
    assert binding(30.0, 75.0, 0.0, 80.0, 20.0, 81.0)[0] == L2
    # neither DRAM nor L2 reaches 60% of its peak, yet memory SOL is 76%: L1/shared (no peak measured for it)
    assert binding(67.0, 76.0, 0.0, 80.0, 31.0, 45.0) == (
        L1, "memory SOL 76% with DRAM 31%, L2 45% of measured peaks; SM 67%")
    # no measured peaks at all: L1/shared too, said without them
    assert binding(30.0, 76.0, 0.0, 80.0, NAN, None) == (L1, "memory SOL 76%; SM 30%")


def test_below_60_everywhere_is_latency_where_occupancy_is_low():
    assert binding(59.9, 50.0, 0.0, 14.0) == (LATENCY, "SM SOL 60% vs memory 50%, occupancy 14%")
    assert binding(59.9, 50.0, 0.0, 25.0)[0] == LATENCY      # at the threshold: low
    assert binding(59.9, 50.0, 0.0, 25.1) == (NONE, "SM SOL 60% vs memory 50%")
    assert binding(40.0, 35.0, 0.0, NAN)[0] == NONE          # occupancy not known: not said to be low
    # 60% exactly is busy (ncu: "below 60%" is the latency case)
    assert binding(60.0, 10.0, 0.0, 10.0)[0] == SM
    assert binding(10.0, 60.0, 0.0, 10.0, 60.0, 10.0)[0] == DRAM


def test_without_sol_figures_nothing_is_said():
    assert binding(NAN, 40.0) == ("", "") and binding(None, None) == ("", "")


def test_the_roofline_is_contradicted_only_by_a_wide_gap_on_the_other_side():
    assert disagrees("memory", SM, 83.84, 40.67)                  # 43 points
    assert disagrees("memory", SM, 80.0, 60.0)                    # 20 points: at the threshold
    assert not disagrees("memory", SM, 79.9, 60.0)                # closer: both busy
    assert not disagrees("memory", DRAM, 30.0, 90.0)              # agrees
    assert disagrees("compute", DRAM, 30.0, 90.0)
    assert disagrees("compute", L1, 70.0, 90.0)                   # 20 points: at the threshold
    assert not disagrees("compute", L2, 70.1, 90.0)               # closer: both busy
    assert not disagrees("compute", TENSOR, 88.0, 67.0)           # agrees
    assert not disagrees("memory", NONE, 50.0, 10.0) and not disagrees("memory", SM, NAN, 10.0)


def _table(**ncu):
    """One memory-bound Inductor kernel as per_shape leaves it, with ncu's columns as merge_ncu names them."""
    row = {"name": "k", "display": "k", "bound": "memory", "do": advice.DO["memory"],
           "headroom_vs": "40% of DRAM (measured)", "headroom_ms_per_step": 0.77, "sol_ms_per_step": 0.5,
           "ncu_duration_ns": 1e6, "ncu_dram_bytes": 1e9, "ncu_l2_bytes": 2e9, "sol_compute_pct": 84.0,
           "sol_memory_pct": 41.0, "tensor_pipe_pct": 0.6, "occupancy_pct": 96.0}
    return pd.DataFrame([{**row, **ncu}])


PEAKS = {"dram_gbps": 2000.0, "l2_gbps": 8000.0}


def test_add_binding_per_kernel():
    d = add_binding(_table(), PEAKS)
    # 1e9 B / 1 ms = 1000 GB/s of 2000 -> 50%; 2e9 B / 1 ms = 2000 GB/s of 8000 -> 25%
    assert d.at[0, "ncu_dram_pct"] == pytest.approx(50.0) and d.at[0, "ncu_l2_pct"] == pytest.approx(25.0)
    assert (d.at[0, "binding_unit"], d.at[0, "binding_evidence"]) == (SM, "SM SOL 84% vs memory 41%")
    assert bool(d.at[0, "binding_disagrees"])
    # a kernel ncu did not profile: nothing said, nothing disagrees
    d = add_binding(_table(sol_compute_pct=NAN, sol_memory_pct=NAN), PEAKS)
    assert d.at[0, "binding_unit"] == "" and not d.at[0, "binding_disagrees"]
    # a run without ncu: the table as it was
    plain = _table().drop(columns=["sol_compute_pct", "sol_memory_pct"])
    assert add_binding(plain, PEAKS).columns.tolist() == plain.columns.tolist()


def test_where_ncu_disagrees_the_advice_names_the_binding_unit_and_keeps_the_headroom():
    d = advice.with_counters(add_binding(_table(), PEAKS))
    assert d.at[0, "do"] == "fewer instructions a byte (SM 84% busy: the math per element, conversions)"
    assert d.at[0, "headroom_vs"] == ("40% of DRAM (measured) on the roofline (memory-bound by its bytes and flops); "
                                      "ncu finds SM instructions busier: SM SOL 84% vs memory 41%")
    assert d.at[0, "headroom_ms_per_step"] == 0.77


def test_where_ncu_agrees_or_the_item_was_measured_the_advice_stays():
    # memory SOL 90% with DRAM busy (1.8e9 B / 1 ms = 1800 GB/s of 2000: 90%): the roofline's "fewer bytes" holds
    agree = advice.with_counters(add_binding(_table(sol_compute_pct=30.0, sol_memory_pct=90.0, ncu_dram_bytes=1.8e9),
                                             PEAKS))
    assert (agree.at[0, "do"], agree.at[0, "headroom_vs"]) == (advice.DO["memory"], "40% of DRAM (measured)")
    # a kernel at the launch floor (or judged by a replay): measured, not inferred from the roofline
    floor = advice.with_counters(add_binding(_table(do=advice.DO["floor"]), PEAKS))
    assert floor.at[0, "do"] == advice.DO["floor"]
    assert advice.with_counters(_table()).at[0, "do"] == advice.DO["memory"]   # no binding columns: as it was


def test_a_compute_bound_kernel_that_memory_binds():
    d = advice.with_counters(add_binding(_table(bound="compute", do=advice.DO["compute"], headroom_vs="50% of x",
                                                sol_compute_pct=30.0, sol_memory_pct=90.0,
                                                ncu_dram_bytes=1.8e9), PEAKS))
    # 1.8e9 B / 1 ms = 1800 GB/s of 2000: DRAM 90%
    assert d.at[0, "binding_unit"] == DRAM
    assert d.at[0, "do"] == "fewer bytes (DRAM busy, memory SOL 90%: fuse, layout)"
    assert d.at[0, "headroom_vs"].startswith("50% of x on the roofline (compute-bound by its bytes and flops); "
                                             "ncu finds DRAM busier: DRAM 90%")


def test_the_kernel_table_shows_the_unit_where_there_is_room():
    d = add_binding(_table(), PEAKS).assign(kind="triton", aten_ops="", calls=2, total_ns=1e6, avg_us=500.0,
                                            pct_of_gpu_time=50.0, flops=0.0, tflops=NAN, bytes=1e9, gbps=1000.0,
                                            pct_of_peak=40.0)
    wide = kernel_table(d, "t", width=200)
    # the unit in a word ("SM instructions": SM), the whole name in --json
    assert [str(c) for c in {str(c.header): c._cells for c in wide.columns}["ncu binds"]] == ["SM"]
    # a minor column: at 80 a real kernel name leaves no room for it, and the caption says it was left out
    d["display"] = "triton_red_fused__scaled_mm__to_copy_abs_amax_clamp_div_mul_silu_3"
    narrow = kernel_table(d, "t", width=80)
    assert "ncu binds" not in [str(c.header) for c in narrow.columns] and "ncu binds" in str(narrow.caption)
    console = Console(width=80, record=True)
    console.print(narrow)
    assert all(len(line) <= 80 for line in console.export_text().splitlines())


@pytest.fixture(scope="module")
def fp8():
    return load_run_tables(REPO / "examples" / "runs" / "fp8-mlp-h200")


def test_the_fp8_runs_silu_reduction_is_said_to_be_instruction_bound(fp8):
    top = fp8.summary["headroom"]["next"][0]
    assert top["what"] == "triton_red_fused__scaled_mm__to_copy_abs_amax_clamp_div_mul_silu_3"
    # its source pass names the lines and ops: exp and division, 12.2 + 11.5 + 11.5 + 11.5 = 46.7% of its
    # instructions (inspect's inst% column); the SiLU (sigmoid: an exp and a division) computed at two places
    assert top["do"] == ("fewer or cheaper ops at lines 44 (exp), 47 (division), 66 (exp), 69 (division) (47% of the "
                         "instructions; SM 84% busy)")
    assert top["why"].startswith("40% of DRAM (measured) on the roofline")
    # the roofline's headroom beside it, as before: 0.769 ms/step; its own is to the SM fully busy: 1.27585 ms/step
    # at SM SOL 83.84% -> 1.27585 x 0.16160 = 0.2062 ms/step (reachable.py)
    assert top["roofline_headroom_ms_per_step"] == pytest.approx(0.769, abs=0.001)
    assert top["headroom_ms_per_step"] == pytest.approx(0.2062, abs=0.0005)


def test_the_fp8_runs_gemm_against_three_roofs(fp8):
    g = fp8.kernels.set_index("name").loc["nvjet_sm90_qqtst_144x128_128x6_1x2_h_bz_coopA_algo2_TNN"]
    # the 8-bit roof is its own gate/up shape's rate: 2 x 8192 x 4096 x 14336 = 962,072,674,304 flop a call in
    # 675.4165 us = 1424.41 TFLOP/s (a shape runs faster than the kernel's 1394.1 average over both of its shapes):
    # 1394.1 / 1424.41 = 97.87%; the ceilings stage measured 1173.1: 118.8%; the H200 spec 2141.1: 65.1%
    assert g["pct_of_reached_roof"] == pytest.approx(97.873, abs=0.01)
    assert g["pct_of_measured_ceiling"] == pytest.approx(118.84, abs=0.01)
    assert g["pct_of_spec"] == pytest.approx(65.11, abs=0.01)
    assert g["binding_unit"] == TENSOR
