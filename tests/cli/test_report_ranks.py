"""`report RUN` of a multi-rank run (analysis/ranks.py, report/ranks.py). The rank folders are copies of a real
single-GPU run (examples/runs/llama-h100) arranged as ranks, not a real multi-GPU recording: rank 1's step time
is set to 9.150 ms in its manifest and its torch.profiler trace replaced by three hand-written kernels (one of
them NCCL), so that every number below is worked by hand."""
import json
import shutil

import pytest

from cli_main import run_main
import ranked_runs

LLAMA = ranked_runs.LLAMA


@pytest.fixture(scope="module")
def ranked(tmp_path_factory):
    return ranked_runs.make(tmp_path_factory.mktemp("ranks") / "run")


def test_json_ranks_worked_by_hand(ranked, capsys):
    code, out, err = run_main(["report", str(ranked), "--json", "--top", "1"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    ranks = doc["ranks"]
    assert (ranks["nproc"], ranks["shown_rank"], ranks["status"]) == (2, 0, "ok")
    r0, r1 = ranks["ranks"]
    # rank 0: the recorded run's own plain step, 8.712747499970419 ms; its llama trace has no NCCL kernel
    assert r0["plain_step_ms"] == pytest.approx(8.712747499970419) and r0["comm_ms"] == 0
    assert r0["hidden_pct"] is None and r0["compute_ms"] > 0
    # rank 1: compute [0,600] = 0.6 ms; NCCL [500,900] = 0.4 ms; compute beside it over [500,600]: 0.1 ms hidden
    # (25%), 0.3 ms exposed
    assert r1["compute_ms"] == pytest.approx(0.6) and r1["comm_ms"] == pytest.approx(0.4)
    assert r1["hidden_ms"] == pytest.approx(0.1) and r1["exposed_ms"] == pytest.approx(0.3)
    assert r1["hidden_pct"] == pytest.approx(25.0)
    # spread: 9.150 / 8.712747499970419 = 1.05019: rank 1 slowest
    s = ranks["spread"]
    assert (s["slowest_rank"], s["fastest_rank"]) == (1, 0)
    assert s["ratio"] == pytest.approx(1.050185, abs=1e-6) and s["spread_pct"] == pytest.approx(5.0185, abs=1e-4)
    assert ranks["collectives"] == []   # rank 0's
    assert doc["run"].endswith("rank0") and doc["kernels_shown"] == 1


def test_json_collectives_of_rank_one(ranked, capsys):
    code, out, _ = run_main(["report", str(ranked), "--json", "--top", "1", "--rank", "1"], capsys)
    assert code == 0
    (row,) = json.loads(out)["ranks"]["collectives"]
    # 2 MiB = 2,097,152 B in 400 us: algbw 5.24288 GB/s; all_reduce among 2: x 2(2-1)/2, busbw the same;
    # against the rank's measured link, 10.48576 GB/s: 50%
    assert (row["collective"], row["dtype"], row["bytes"], row["group"], row["calls"]) == \
        ("all_reduce", "BFloat16", 2097152, 2, 1)
    assert row["algbw_gbps"] == pytest.approx(5.24288) and row["busbw_gbps"] == pytest.approx(5.24288)
    assert row["pct_of_link"] == pytest.approx(50.0) and row["step_ms"] == pytest.approx(0.4)


def test_terminal_ranks_spread_and_rank_zeros_kernels(ranked, capsys):
    code, out, _ = run_main(["report", str(ranked), "--top", "3", "--width", "200"], capsys)
    assert code == 0
    assert ("step spread: 1.050x (max/min of the plain step, +5.0%): rank 1 slowest at 9.150 ms, rank 0 fastest "
            "at 8.713 ms") in out
    assert "Rank 0's kernels (--rank K for another):" in out
    assert f"Kernels of {ranked / 'rank0'}" in out
    line1 = next(ln for ln in out.splitlines() if ln.startswith("│") and ln.split("│")[1].strip() == "1")
    cells = [c.strip() for c in line1.split("│")[1:-1]]
    # compute [0,600]; its NCCL kernel not matched (rank 0's trace has none): unsplit [600,900] 0.3 ms, transfer
    # and wait 0, idle 0; the NCCL kernel's whole 0.4 ms, 25% of it beside compute
    assert cells == ["1", "ok", "9.150", "8.934", "0.600", "0.000", "0.000", "0.300", "0.000", "0.400", "25.0"]


def test_terminal_collectives_table_of_rank_one(ranked, capsys):
    code, out, _ = run_main(["report", str(ranked), "--top", "3", "--width", "200", "--rank", "1"], capsys)
    assert code == 0
    row = next(ln for ln in out.splitlines() if ln.startswith("│ all_reduce"))
    cells = [c.strip() for c in row.split("│")[1:-1]]
    # not matched: no wait known, busbw over the kernel's time, said
    assert cells == ["all_reduce", "BFloat16", "2.10 MB", "2", "1", "0.400", "-", "400.0", "5.2", "5.2", "50.0",
                     "kernel (waiting included)"]


def test_a_damaged_and_a_missing_rank_are_one_warning_each(ranked, tmp_path, capsys):
    root = tmp_path / "run"
    shutil.copytree(ranked, root)
    (root / "rank1" / "manifest.json").write_text("{ not json")
    (root / "ranks.json").write_text(json.dumps({"nproc": 3, "status": "failed", "failed_rank": 2,
                                                 "why": "rank 2: RuntimeError: boom",
                                                 "ranks": [{"rank": 2, "exit": 1, "status": "failed",
                                                            "why": "RuntimeError: boom"}]}))
    code, out, err = run_main(["report", str(root), "--top", "1", "--width", "200"], capsys)
    assert code == 0
    warnings = [ln for ln in err.splitlines() if ln.startswith("warning")]
    assert any("the profile failed: rank 2: RuntimeError: boom" in w for w in warnings)
    assert any(f"{root / 'rank1' / 'manifest.json'} is damaged" in w and "rank 1 is left out" in w for w in warnings)
    assert any(f"{root / 'rank2'} is missing (the rank failed: RuntimeError: boom); rank 2 is left out" in w
               for w in warnings)
    assert "step spread: fewer than two ranks with a step time" in out
    assert "Rank 0's kernels" in out


def test_a_rank_record_without_its_status_adds_nothing_to_the_warning(ranked, tmp_path, capsys):
    # a ranks.json written by hand (or by an older tool): records with an exit but no status
    root = tmp_path / "run"
    shutil.copytree(ranked, root)
    (root / "rank1" / "manifest.json").write_text("{ not json")
    (root / "ranks.json").write_text(json.dumps({"nproc": 2, "ranks": [{"rank": 0, "exit": 0}, {"rank": 1, "exit": 0}]}))
    code, out, err = run_main(["report", str(root), "--top", "1", "--width", "200"], capsys)
    assert code == 0
    (warning,) = [ln for ln in err.splitlines() if ln.startswith("warning")]
    assert warning.endswith("rank 1 is left out") and "None" not in warning


def test_rank_zero_damaged_shows_the_first_readable_rank(ranked, tmp_path, capsys):
    root = tmp_path / "run"
    shutil.copytree(ranked, root)
    shutil.rmtree(root / "rank0")
    code, out, err = run_main(["report", str(root), "--json", "--top", "1"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["ranks"]["shown_rank"] == 1 and doc["run"].endswith("rank1")
    assert "rank 0 cannot be read; the kernel tables are rank 1's" in doc["warnings"]


def test_rank_errors_are_one_line(ranked, capsys):
    code, _, err = run_main(["report", str(ranked), "--rank", "5"], capsys)
    assert (code, err) == (2, f"error: --rank 5: {ranked} has no readable rank 5 (readable: 0, 1)\n")
    code, _, err = run_main(["report", str(LLAMA), "--rank", "1"], capsys)
    assert code == 2 and err == (f"error: --rank 1: {LLAMA} is a run of one process, not of several ranks "
                                 "(profile --nproc)\n")


def test_one_rank_folder_reports_as_any_run(ranked, capsys):
    code, out, _ = run_main(["report", str(ranked / "rank1"), "--json", "--top", "1"], capsys)
    assert code == 0 and "ranks" not in json.loads(out)


def test_a_rank_that_stopped_before_its_steps_is_said_and_another_shown(ranked, tmp_path, capsys):
    root = tmp_path / "run"
    shutil.copytree(ranked, root)
    m = json.loads((root / "rank0" / "manifest.json").read_text())
    (root / "rank0" / "manifest.json").write_text(json.dumps({**m, "stopped_at": "compile"}))
    (root / "rank0" / "proton" / "steps.hatchet").unlink()
    code, out, err = run_main(["report", str(root), "--json", "--top", "1"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["ranks"]["shown_rank"] == 1
    assert (f"{root / 'rank0'} has no Proton steps (its profile failed at stage compile); rank 0's kernels cannot "
            "be shown") in doc["warnings"]
