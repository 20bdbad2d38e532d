"""The gate on runs of several ranks (analysis/rank_gate.py), on changes written by hand."""
import pytest

from inductor_prof.analysis.rank_gate import rank_failures
from inductor_prof.analysis.ranks import spread_change, step_spread


def _change(comm_a, comm_b, steps_b=(10.0, 11.0)):
    # spread A: 10.5 / 10 = +5%; B: 11 / 10 = +10%: +5 points
    spread = spread_change(step_spread({0: 10.0, 1: 10.5}), step_spread(dict(enumerate(steps_b))))
    both = comm_a is not None and comm_b is not None
    return {"rank": 0, "spread": spread,
            "exposed_comm": {"a": comm_a, "b": comm_b, "delta_ms": comm_b - comm_a if both else None,
                             "change_pct": 100 * (comm_b - comm_a) / comm_a if both and comm_a else None}}


def test_no_threshold_no_failure():
    assert rank_failures(_change(1.0, 9.0), None, None) == [] and rank_failures(None, 1, 1) == []


def test_spread_in_points():
    assert [f.line for f in rank_failures(_change(1.0, 1.0), 4.9, None)] == \
        ["step spread: +5.0 points (A 5.0%, B 10.0%; gate 4.9 points)"]
    assert rank_failures(_change(1.0, 1.0), 5.0, None) == []


def test_exposed_communication_in_percent_and_from_none():
    # 2.0 -> 2.5 ms: +25%
    assert [f.line for f in rank_failures(_change(2.0, 2.5), None, 24)] == \
        ["rank 0 exposed communication: +25.0% (2.000 -> 2.500 ms; gate 24%)"]
    assert rank_failures(_change(2.0, 2.5), None, 25) == []
    assert [f.line for f in rank_failures(_change(0.0, 0.1), None, 1000)] == \
        ["rank 0 exposed communication: from none (0.000 -> 0.100 ms; gate 1000%)"]


def test_a_gate_with_nothing_to_judge_fails():
    fails = rank_failures(_change(None, 1.0, steps_b=(10.0,)), 5, 5)
    assert [(f.reason, f.what) for f in fails] == [("nothing to judge", "step spread"),
                                                   ("nothing to judge", "rank 0 exposed communication")]
