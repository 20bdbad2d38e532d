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
