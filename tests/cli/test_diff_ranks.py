"""`diff A B` of two multi-rank runs: rank 0 of each compared as any two runs, and the step spread of each (the
runs: tests/ranked_runs.py, copies of a real single-GPU run arranged as ranks, rank 1's step set by hand)."""
import json

import pytest

from cli_main import run_main
import ranked_runs


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("diff_ranks")
    return ranked_runs.make(root / "a", rank1_step_ms=9.150), ranked_runs.make(root / "b", rank1_step_ms=9.600)


def test_json_compares_rank_zero_and_the_spread(runs, capsys):
    a, b = runs
    code, out, err = run_main(["diff", str(a), str(b), "--json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["a"].endswith("rank0") and doc["b"].endswith("rank0") and doc["ranks"]["rank"] == 0
    spread = doc["ranks"]["spread"]
    # rank 0 of both: 8.712747499970419 ms. A: rank 1 at 9.150: (9.150 - 8.7127475) / 8.7127475 = +5.0185%;
    # B: rank 1 at 9.600: 0.8872525 / 8.7127475 = +10.1834%; moved +5.1649 points
    assert spread["a"]["spread_pct"] == pytest.approx(5.0185, abs=1e-4)
    assert spread["b"]["spread_pct"] == pytest.approx(10.1834, abs=1e-4)
    assert spread["delta_points"] == pytest.approx(5.1649, abs=1e-4)
    assert spread["b"]["slowest_rank"] == 1


def test_terminal_says_the_rank_and_the_spread(runs, capsys):
    a, b = runs
    code, out, _ = run_main(["diff", str(a), str(b), "--width", "200"], capsys)
    assert code == 0
    assert out.splitlines()[0] == ("ranks: rank 0 of each compared; step spread (max/min of the ranks' plain steps) "
                                   "A 1.050x (rank 1 slowest), B 1.102x (rank 1 slowest): +5.2 points")


def test_rank_one_of_each(runs, capsys):
    a, b = runs
    code, out, _ = run_main(["diff", str(a), str(b), "--json", "--rank", "1"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["a"].endswith("rank1") and doc["ranks"]["rank"] == 1


def test_rank_of_two_ordinary_runs_is_refused(capsys):
    code, _, err = run_main(["diff", str(ranked_runs.LLAMA), str(ranked_runs.LLAMA), "--rank", "1"], capsys)
    assert (code, err) == (2, "error: --rank 1: neither run is of several ranks (profile --nproc)\n")


@pytest.fixture(scope="module")
def matched(tmp_path_factory):
    """A: STEPS, rank 1 at 9.150 ms; B: a third all_reduce at the end (rank 0 [850,950], rank 1 [900,950]),
    rank 1 at 9.600 ms."""
    root = tmp_path_factory.mktemp("diff_rank_gate")
    third = {0: [ranked_runs.kernel(ranked_runs.AR, 850, 950, **ranked_runs.PG_ARGS)],
             1: [ranked_runs.kernel(ranked_runs.AR, 900, 950, **ranked_runs.PG_ARGS)]}
    b = {r: ranked_runs.STEPS[r] + third[r] for r in (0, 1)}
    return (ranked_runs.make_matched(root / "a", rank1_step_ms=9.150),
            ranked_runs.make_matched(root / "b", rank1_step_ms=9.600, steps=b))


def test_exposed_communication_of_the_compared_rank(matched, capsys):
    a, b = matched
    code, out, _ = run_main(["diff", str(a), str(b), "--json"], capsys)
    assert code == 0
    e = json.loads(out)["ranks"]["exposed_comm"]
    # rank 0: A transfer 0.25 + wait 0.35 = 0.6 ms; B adds the third all_reduce, arrival 900: wait [850,900] and
    # transfer [900,950]: 0.7 ms, +16.667%
    assert (e["a"], e["b"], e["delta_ms"]) == pytest.approx((0.6, 0.7, 0.1))
    assert e["change_pct"] == pytest.approx(16.6667, abs=1e-4)


@pytest.mark.parametrize("flags, code, line", [
    (["--fail-above-comm", "15"], 1, "rank 0 exposed communication: +16.7% (0.600 -> 0.700 ms; gate 15%)"),
    (["--fail-above-comm", "17"], 0, None),
    # spread +5.1649 points (test_json_compares_rank_zero_and_the_spread)
    (["--fail-above-spread", "5"], 1, "step spread: +5.2 points (A 5.0%, B 10.2%; gate 5 points)"),
    (["--fail-above-spread", "5.2"], 0, None),
])
def test_the_gate_fails_on_spread_or_exposed_communication(matched, capsys, flags, code, line):
    a, b = matched
    got, out, _ = run_main(["diff", str(a), str(b), "--json", *flags], capsys)
    gate = json.loads(out)["gate"]
    assert got == code and gate["verdict"] == ("failed" if code else "passed")
    assert gate["regressions"] == ([line] if line else [])


def test_markdown_has_the_ranks_section_and_the_gate(matched, capsys):
    a, b = matched
    code, out, _ = run_main(["diff", str(a), str(b), "--markdown", "-", "--fail-above-comm", "15"], capsys)
    assert code == 1
    assert "### Ranks" in out and "| rank 0 exposed communication, ms (NCCL with no compute beside it, waiting " \
        "included) | 0.600 | 0.700 | +0.100 | +16.7 |" in out
    assert "`--fail-above-comm 15`: the compared rank's exposed communication fails when it grew by more than 15%" \
        in out


def test_rank_gates_need_runs_of_several_ranks(capsys):
    code, _, err = run_main(["diff", str(ranked_runs.LLAMA), str(ranked_runs.LLAMA), "--fail-above-spread", "1"],
                            capsys)
    assert (code, err) == (2, "error: --fail-above-spread: neither run is of several ranks (profile --nproc)\n")
