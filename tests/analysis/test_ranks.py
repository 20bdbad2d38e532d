"""The pure parts of a multi-rank run's summary (analysis/ranks.py): the step spread and its change, by hand."""
import pytest

from inductor_prof.analysis.ranks import spread_change, step_spread


def test_step_spread_names_the_slowest_rank():
    # 10.0, 10.5, 12.0 ms: max/min 1.2, the slowest 20% longer than the fastest
    s = step_spread({0: 10.0, 1: 10.5, 2: 12.0})
    assert s == {"slowest_rank": 2, "fastest_rank": 0, "max_ms": 12.0, "min_ms": 10.0, "ratio": 1.2,
                 "spread_pct": pytest.approx(20.0), "ranks": 3}


def test_step_spread_ties_go_to_the_lower_rank_and_unknowns_are_left_out():
    s = step_spread({0: 5.0, 1: 5.0, 2: None, 3: float("nan")})
    assert (s["slowest_rank"], s["fastest_rank"], s["ratio"], s["ranks"]) == (0, 0, 1.0, 2)
    assert step_spread({0: 5.0, 1: None}) is None


def test_spread_line_of_equal_ranks_names_no_slowest():
    from inductor_prof.report.ranks import spread_line

    assert spread_line(step_spread({0: 5.0, 1: 5.0})) == "step spread: none, every rank's plain step at 5.000 ms"
    # 10.5 / 10 = 1.050x, +5.0%
    assert spread_line(step_spread({0: 10.0, 1: 10.5})) == (
        "step spread: 1.050x (max/min of the plain step, +5.0%): rank 1 slowest at 10.500 ms, rank 0 fastest at "
        "10.000 ms")


def test_spread_change_in_points():
    a, b = step_spread({0: 10.0, 1: 10.5}), step_spread({0: 10.0, 1: 11.0})   # +5% then +10%
    assert spread_change(a, b)["delta_points"] == pytest.approx(5.0)
    assert spread_change(a, None) == {"a": a, "b": None, "delta_points": None}
    assert spread_change(None, None) is None
