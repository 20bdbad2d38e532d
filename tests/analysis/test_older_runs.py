"""A run recorded before inductor-prof measured what the advice now uses (analysis/older_runs.py): one warning
naming each missing measurement and what the report does without it."""
import json

import pytest

from recorded import AGE_MARK, REPO, data_path
from inductor_prof.analysis import older_runs
from inductor_prof.analysis.load import load_run_tables

NEW = {"profile": {"plain_step_ms": 133.0, "gpu_telemetry": {"samples": 40}},
       "ceilings": {"gemms": [{"shape": "8192x8192x8192 bf16"}, {"op": "aten::addmm", "dims": "[]", "ms": 0.1}]}}


def test_a_run_with_every_measurement_lacks_nothing():
    assert older_runs.lacking(NEW, has_gemm_calls=True) == []
    assert older_runs.warning("m.json", []) is None


@pytest.mark.parametrize("drop, has_gemms, expected", [
    (lambda m: m["profile"].pop("plain_step_ms"), True, [older_runs.PLAIN_STEP]),
    (lambda m: m["profile"].pop("gpu_telemetry"), True, [older_runs.TELEMETRY]),
    # square GEMMs only: the ceilings stage ran before it replayed the model's calls
    (lambda m: m["ceilings"]["gemms"].pop(), True, [older_runs.GEMM_REPLAYS]),
    # ... which a model without GEMM calls does not miss, nor a run whose ceilings stage did not run
    (lambda m: m["ceilings"]["gemms"].pop(), False, []),
    (lambda m: m.pop("ceilings"), True, []),
])
def test_each_missing_measurement_is_named(drop, has_gemms, expected):
    m = json.loads(json.dumps(NEW))
    drop(m)
    assert older_runs.lacking(m, has_gemms) == expected


def test_the_warning_names_what_is_missing_then_what_follows():
    line = older_runs.warning("run/manifest.json", [older_runs.PLAIN_STEP, older_runs.GEMM_REPLAYS])
    assert line == ("run/manifest.json was recorded before inductor-prof measured the plain step, replays of its "
                    "GEMM calls: no launch gap is given (under Proton it would count the profiler's own cost); each "
                    "GEMM is judged against the roofline, not its shape's best time (profile again to have them)")


def test_flux_small_warns_of_its_clock_power_and_gemm_replays_and_renders():
    # recorded before NVML sampling and per-call GEMM replays: its manifest has plain_step_ms, no gpu_telemetry,
    # and ceilings.gemms of the square shapes only (no "op"), while library_ops.csv holds addmm calls
    t = load_run_tables(data_path("flux_small"))
    [age] = [w for w in t.warnings if AGE_MARK in w]
    assert age.startswith(f"{data_path('flux_small') / 'manifest.json'} was recorded before inductor-prof measured "
                          "the SM clock and power, replays of its GEMM calls:")
    assert len(t.kernels) and t.summary["headroom"]


# every shipped run folder, each rank's of a run of several (rank0/, rank1/)
SHIPPED = sorted(str(m.parent.relative_to(REPO / "examples" / "runs"))
                 for m in (REPO / "examples" / "runs").glob("**/manifest.json"))


@pytest.mark.parametrize("run", SHIPPED)
def test_the_shipped_examples_are_recorded_with_every_measurement(run):
    assert not [w for w in load_run_tables(REPO / "examples" / "runs" / run).warnings if AGE_MARK in w]
