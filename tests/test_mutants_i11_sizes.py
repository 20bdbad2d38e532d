"""Small constructed tables that pin analysis/sizes.py, analysis/diff_sizes.py and targets/inputs.py (issue 11's
mutation audit: mutants that survived the fast suite). Every expected value is derived by hand in a comment."""
from types import SimpleNamespace

import pandas as pd
import pytest

from inductor_prof.analysis.diff_inputs import RunSide
from inductor_prof.analysis.diff_sizes import COLUMNS, size_rows, size_steps
from inductor_prof.analysis.sizes import kernels_by_size, size_summary, with_size
from inductor_prof.drivers.proton.hatchet import COLUMNS as HATCHET_COLUMNS
from inductor_prof.errors import UserError
from inductor_prof.targets.inputs import InputSets, named_sets
from inductor_prof.runfiles import n_steps

BIG, SMALL = "1024x1024", "512x512"
PEAKS = {"dram_gbps": 3000.0, "l2_gbps": 9000.0, "tflops": {"flops16": 800.0, "flops32": 60.0},
         "spec": {"flops16": 990.0, "flops32": 67.0}, "source": {}}

# ---- sizes.py ---------------------------------------------------------------------------------------------


def test_kernels_by_size_without_annotated_or_library_rows():
    # one kernel, 2 steps at each size: 3 µs a launch at BIG, 1 µs at SMALL; no annotated hatchet, no
    # library ops (None: no size column to filter on)
    steps = with_size(_rows([("triton_poi_a", f"{size}/step_{i}", 1, ns)
                             for size, ns in ((BIG, 3000), (SMALL, 1000)) for i in range(2)]), [BIG, SMALL])
    df = kernels_by_size(steps, None, {}, None, {}, 2, PEAKS, [BIG, SMALL])
    # one row per size, numbered 0, 1 (not each size's own 0): 2 launches each, 6 µs and 2 µs
    assert df.index.tolist() == [0, 1]
    assert df[["size", "name", "calls", "total_ns"]].values.tolist() == [
        [BIG, "triton_poi_a", 2, 6000], [SMALL, "triton_poi_a", 2, 2000]]


def test_kernels_by_size_of_no_size():
    assert kernels_by_size(_rows([]).assign(size=None), None, {}, None, {}, 1, PEAKS, []).columns.tolist() == ["size"]


BY_SIZE = {"size": [BIG, BIG], "total_ns": [6000.0, 16000.0], "flops": [4e6, 2e9]}


@pytest.mark.parametrize("profile", [{}, {"steps": 0}, {"steps": 1}], ids=["no steps", "steps 0", "steps 1"])
def test_size_summary_one_step(profile):
    # steps missing or 0 count as 1 step: 22 µs -> 0.022 ms; 2.004e9 flops -> 0.002004 TFLOP a step;
    # 2.004e9 / 22e-6 s / 1e12 = 91.09 TFLOP/s
    manifest = {"profile": {**profile, "sizes": {BIG: {"plain_step_ms": 5.0}, SMALL: {}}}}
    big, small = size_summary(pd.DataFrame(BY_SIZE), manifest, [BIG, SMALL], n_steps(manifest))
    assert big["gpu_kernel_ms_per_step"] == pytest.approx(22000 / 1e6, rel=1e-12)
    assert big["tflops_per_step"] == pytest.approx(2.004e9 / 1e12, rel=1e-12)
    assert big["overall_tflops"] == pytest.approx(2.004e9 / 22e-6 / 1e12, rel=1e-12)
    assert (big["plain_step_ms"], big["proton_step_ms"], big["kernels"]) == (5.0, None, 2)
    # SMALL has no kernel rows: zeros, not a division by zero
    assert small == {"size": SMALL, "plain_step_ms": None, "proton_step_ms": None, "gpu_kernel_ms_per_step": 0.0,
                     "tflops_per_step": 0.0, "overall_tflops": 0.0, "kernels": 0}


# ---- diff_sizes.py ----------------------------------------------------------------------------------------


def test_size_steps_absent_or_empty():
    assert size_steps({}, "plain_steps", BIG) is None                       # no stages at all
    assert size_steps({"stages": {"plain_steps": {"step_ms_by_size": {BIG: []}}}}, "plain_steps", BIG) is None
    assert size_steps({"stages": {"plain_steps": {"step_ms_by_size": {BIG: [1, 2]}}}}, "plain_steps", BIG) == [1.0, 2.0]


def _launches(rows):
    return pd.DataFrame([dict(zip(("name", "path", "time_ns", "size"), r)) for r in rows])


def _side(label, stages, launches=None):
    sizes = {s for st in stages.values() for s in st["step_ms_by_size"]}
    return RunSide(label=label, run=None, manifest={"profile": {"sizes": {s: {} for s in sorted(sizes)}},
                                                    "stages": stages},
                   tables=SimpleNamespace(launches=launches) if launches is not None else None,
                   fingerprints=None, step_kernel_ns=None, attention=None)


def test_gpu_time_per_size():
    plain = {"plain_steps": {"step_ms_by_size": {BIG: [10.0, 10.0], SMALL: [4.0, 4.0]}}}
    # A at BIG: step_0 3 + 8 µs = 11 µs, step_1 3 + 9 = 12 µs -> 0.011, 0.012 ms; the SMALL row and the warmup
    # row are not BIG's timed steps
    a = _side("A", plain, _launches([
        ("k", f"{BIG}/step_0/x", 3000, BIG), ("g", f"{BIG}/step_0", 8000, BIG),
        ("k", f"{BIG}/step_1/x", 3000, BIG), ("g", f"{BIG}/step_1", 9000, BIG),
        ("k", f"{BIG}/warmup", 5000, BIG), ("k", f"{SMALL}/step_0", 1000, SMALL)]))
    # B at BIG: 22 µs in each of 2 steps
    b = _side("B", plain, _launches([("k", f"{BIG}/step_{i}", 22000, BIG) for i in range(2)]))
    rows, only = size_rows(a, b)
    assert rows.columns.tolist() == COLUMNS and only == []
    # plain step of each size, then BIG's GPU row (SMALL: only A has rows at SMALL -> no GPU row)
    assert rows[["size", "what"]].values.tolist() == [[BIG, "step (plain)"], [BIG, "GPU kernel time"],
                                                      [SMALL, "step (plain)"]]
    gpu = rows.iloc[1]
    # mean 0.0115 -> 0.022 ms: +91.30 %; spread of A's two steps: IQR 0.5 * 0.001 over median 0.0115 = 4.35 %,
    # B's 0: noise 4.35 % -> slower
    assert gpu["a"] == pytest.approx(0.0115, rel=1e-12) and gpu["b"] == pytest.approx(0.022, rel=1e-12)
    assert gpu["delta"] == pytest.approx(0.0105, rel=1e-9)
    assert gpu["change_pct"] == pytest.approx(100 * 0.0105 / 0.0115, rel=1e-9)
    assert gpu["noise_pct"] == pytest.approx(100 * 0.0005 / 0.0115, rel=1e-9)
    assert gpu["verdict"] == "slower"


def test_stage_of_one_run_only_and_sizes_of_one_run_only():
    # A timed BIG under Proton too, B did not: only the plain steps compared; no launches: no GPU row
    a = _side("A", {"plain_steps": {"step_ms_by_size": {BIG: [2.0], SMALL: [1.0]}},
                    "proton_steps": {"step_ms_by_size": {BIG: [3.0]}}})
    b = _side("B", {"plain_steps": {"step_ms_by_size": {BIG: [2.0], SMALL: [1.0], "768x1344": [1.5]}}})
    rows, only = size_rows(a, b)
    assert rows[["size", "what"]].values.tolist() == [[BIG, "step (plain)"], [SMALL, "step (plain)"]]
    assert only == ["size 768x1344 only in run B"]


def test_no_common_size_keeps_the_columns():
    a = _side("A", {"plain_steps": {"step_ms_by_size": {BIG: [2.0], "x": [1.0]}}})
    b = _side("B", {"plain_steps": {"step_ms_by_size": {SMALL: [1.0], "y": [1.0]}}})
    rows, only = size_rows(a, b)
    assert rows.empty and rows.columns.tolist() == COLUMNS
    assert only == [f"size {BIG} only in run A", "size x only in run A", f"size {SMALL} only in run B",
                    "size y only in run B"]


# ---- targets/inputs.py ------------------------------------------------------------------------------------


def test_bad_size_name_message_word_for_word():
    with pytest.raises(UserError) as e:
        named_sets(InputSets({"step_0": ()}), "pkg.mod:make")
    assert str(e.value) == ("pkg.mod:make: input size name 'step_0' must be 1 to 64 letters, digits or _.+=- "
                            "starting with a letter or digit, and not step_... (it names a Proton scope)")
