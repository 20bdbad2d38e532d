"""analysis/diff_sizes.py: the per-size rows of `diff` on small constructed runs, every expected value derived
by hand in a comment (pinned where a mutation audit found them unpinned)."""
from types import SimpleNamespace
import pandas as pd
import pytest
from inductor_prof.analysis.diff_inputs import RunSide
from inductor_prof.analysis.diff_sizes import COLUMNS, size_rows, size_steps


BIG, SMALL = "1024x1024", "512x512"


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
